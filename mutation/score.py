"""The score of a mutation group: killed / all the group's mutants, per file and in all.

Run in a group's scratch folder (mutation/run.sh and mutation/recheck.sh call it there) with the group's
mutant name globs as arguments (none: every mutant of the mutated files). A mutant counts as killed when
mutmut's run killed it (a failing test, a timeout or a crash: the mutant made the tests run away) or when the last
``mutation/recheck.sh`` killed it (``recheck-killed.txt``); a mutant not run counts as not killed, so a run
stopped early shows a lower score, not a better one over fewer mutants.
"""

from __future__ import annotations

import collections
import fnmatch
import glob
import json
import os
import sys

from mutmut.stats import status_by_exit_code

globs = sys.argv[1:]
rechecked = set(open("recheck-killed.txt").read().split()) if os.path.exists("recheck-killed.txt") else set()
sums: collections.Counter[str] = collections.Counter()
for meta in sorted(glob.glob("mutants/unocli/**/*.py.meta", recursive=True)):
    codes = json.load(open(meta))["exit_code_by_key"]
    mine = {k: v for k, v in codes.items() if not globs or any(fnmatch.fnmatchcase(k, g) for g in globs)}
    if not mine:
        continue
    c: collections.Counter[str] = collections.Counter()
    for name, code in mine.items():
        status = "not run" if code is None else status_by_exit_code[code]
        # a crash of the test process is a detection too: mutmut calls exit -9 (SIGKILL) a "segfault", and the
        # one seen so far is a mutant whose endless loop grew a list until the kernel's OOM killer stopped it
        if status in ("killed", "timeout", "caught by type check", "segfault"):
            c["killed by run"] += 1
        elif name in rechecked:
            c["killed by recheck"] += 1
        else:
            c[status] += 1
    killed = c["killed by run"] + c["killed by recheck"]
    rest = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if not k.startswith("killed"))
    print(
        f"{meta[8:-5]}: {killed}/{len(mine)} killed ({100 * killed / len(mine):.1f}%: run {c['killed by run']}, "
        f"recheck {c['killed by recheck']}); {rest or 'none left'}"
    )
    sums += c
    sums["all"] += len(mine)
if sums["all"]:
    killed = sums["killed by run"] + sums["killed by recheck"]
    print(
        f"group: {killed}/{sums['all']} killed ({100 * killed / sums['all']:.1f}%); "
        f"{sums['not run']} not run, {sums['survived'] + sums['no tests']} alive"
    )
