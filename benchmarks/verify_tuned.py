"""Re-verify the shipped tuned players (sims/tuned/tuned.toml) on fresh deals against basic, smart and strong.

Each entry is played at its own rule preset and table size, at one seat against a
field of ``basic`` with seats rotated, on deals from game index
``unocli.study.tune.CHECK_START`` (beyond every index a search or a tune's own
re-measurement uses), beside ``basic``, ``smart`` and ``strong`` on the same
deals. An entry ships only if its paired 95% interval is above 0 against all
three; otherwise the best of the three by fresh gain ships under the entry's
name, and its header says so. Each entry also gets its gain over a field of
``smart``, which it was not tuned on.

    python benchmarks/verify_tuned.py                 # check: exit 1 if an entry does not beat all three
    python benchmarks/verify_tuned.py --write         # rewrite the file's verdicts (and replace losers)
    python benchmarks/verify_tuned.py --only tuned-party-2 --deals 20000
    python benchmarks/verify_tuned.py --adopt sims/tuned/cells/tuned-party-2.toml   # a new tune's entry

``--adopt CELL`` replaces the file's entry of the same name by CELL (the output of ``unocli tune``, which
made its own fresh-deal check), if CELL ships its search's winner; an entry that ships a preset either way
is left as it is.

The file's entries keep their "Made by" and "Search" lines; the fresh-deal lines
are replaced. unocli/data/sims is a link to sims/, so the installed package reads
the same file.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from unocli.game import rules as rules_module
from unocli.game.policies import load_policies_file, preset
from unocli.study import tune as tuning
from unocli.study import tune_file
from unocli.study.stats import paired_t

ROOT = Path(__file__).resolve().parent.parent
TUNED = ROOT / "sims" / "tuned" / "tuned.toml"
MADE_BY = re.compile(r"^# Made by: unocli tune \S+ --rules (\S+) --players (\d+) --field basic --seed (\d+)")


def blocks(text: str) -> tuple[str, list[list[str]]]:
    """The file's head (comments before the first entry) and each entry's lines."""
    head, _, rest = text.partition("\n# Made by: ")
    out = [("# Made by: " + b).rstrip("\n").splitlines() for b in ("\n# Made by: " + rest).split("\n# Made by: ")[1:]]
    return head.rstrip("\n"), out


def verify(lines: list[str], policies: dict, deals: int, threads: int | None) -> tuple[list[str], bool]:
    """The entry's lines with fresh verdicts; whether the shipped policy is the entry's own (it beat all three)."""
    m = MADE_BY.match(lines[0])
    if not m:
        raise SystemExit(f"an entry does not start with the command that made it: {lines[0]!r}")
    rules_name, players, seed = m.group(1), int(m.group(2)), int(m.group(3))
    name = next(line for line in lines if line.startswith("["))[1:-1].strip('"')
    policy = policies[name]
    rules = rules_module.preset(rules_name).replace(players=players)
    table = tuning.Table(rules, preset("basic"), seed, threads=threads)
    refs = tuning.references(table.field_policy)
    check = tuning.fresh_check(table, policy, refs, deals, start=tuning.CHECK_START)
    shipped = tuning.choose(check, policy, refs)
    other, other_policy = tuning.other_field(table.field_policy, shipped.policy)
    g = tuning.deal_gains(table.against(other_policy), shipped.policy, tuning.CHECK_START, deals)
    elsewhere = paired_t(int(g.size), float(g.sum()), float((g * g).sum()))
    kept = [line for line in lines if line.startswith(("# Made by:", "# Search:"))]
    out = [
        *kept,
        f"# Verified by: python benchmarks/verify_tuned.py --deals {deals}"
        f" (the file's entry before: {tuning.policy_spec(policy)})",
        *tune_file.verdict_lines(shipped, check, tuning.policy_spec(policy), "basic"),
        f"# On a field it was not tuned on ({other}): gain {tune_file.pp(elsewhere)} pp over {deals:,} fresh deals.",
        *tune_file.policy_table(name, shipped.policy),
    ]
    return out, shipped.winner


def adopt(path: Path, text: str, cell: Path) -> int:
    """Replace the entry named as ``cell``'s by ``cell`` when ``cell`` ships its search's winner."""
    new = cell.read_text(encoding="utf-8")
    (verdict,) = tune_file.read_verdicts(new)
    load_policies_file(cell)  # it loads on its own
    if verdict.preset is not None:
        print(f"{verdict.name}: the new search's winner did not beat basic, smart and strong; the entry stays")
        return 0
    head, entries = blocks(text)
    names = [next(line for line in b if line.startswith("["))[1:-1].strip('"') for b in entries]
    if verdict.name not in names:
        raise SystemExit(f"{path} has no entry {verdict.name!r}")
    entries[names.index(verdict.name)] = new.rstrip("\n").splitlines()
    tmp = path.with_suffix(".tmp")
    tmp.write_text(head + "\n" + "".join("\n" + "\n".join(b) + "\n" for b in entries), encoding="utf-8")
    tmp.replace(path)
    print(f"{verdict.name}: adopted the new search's winner")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000, help="fresh deals per policy and entry")
    ap.add_argument("--write", action="store_true", help="rewrite the file's verdicts (replacing losers by the best preset)")
    ap.add_argument("--only", action="append", default=[], help="verify only this entry (repeatable)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--file", type=Path, default=TUNED)
    ap.add_argument("--adopt", type=Path, default=None, help="replace the entry of this tune output's name by it")
    args = ap.parse_args()
    text = args.file.read_text(encoding="utf-8")
    if args.adopt is not None:
        return adopt(args.file, text, args.adopt)
    policies = load_policies_file(args.file)
    head, entries = blocks(text)
    new, failed = [], []
    for lines in entries:
        name = next(line for line in lines if line.startswith("["))[1:-1].strip('"')
        if args.only and name not in args.only:
            new.append(lines)
            continue
        out, own = verify(lines, policies, args.deals, args.threads)
        print("\n".join(out[2:-1]) if own else f"{name}: REPLACED\n" + "\n".join(out[2:-1]), flush=True)
        failed += [] if own else [name]
        new.append(out)
    if args.write:
        tmp = args.file.with_suffix(".tmp")
        tmp.write_text(head + "\n" + "".join("\n" + "\n".join(b) + "\n" for b in new), encoding="utf-8")
        tmp.replace(args.file)
    print(f"{len(failed)} entries did not beat basic, smart and strong: {', '.join(failed) or 'none'}")
    return 1 if failed and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
