#!/usr/bin/env python3
"""A maintainer's guard for kernel rewrites: a SHA-256 of every configuration's rows.

A change meant to make the kernel faster must not change a single counter of a
single game. This plays a fixed set of configurations with the kernel's
row-returning entry point (``unocli.kernel.play_rows``, one thread) and hashes
each configuration's int64 rows: every rules preset at 2, 4 and 7 players with
every policy preset at every seat, a few mixed tables (per-seat policies,
knob-heavy ones among them), tables with a searching seat, matches, the
general round on tables the plain round would take (``specialise=False``), and
``unocli.kernel.rollouts`` (what ``unocli bench`` times). The hashes depend on
nothing but the code: run it before a change with ``--save`` and after it with
``--check``.

    .venv/bin/python benchmarks/row_hashes.py --save /tmp/row-hashes.json
    .venv/bin/python benchmarks/row_hashes.py --check /tmp/row-hashes.json

``--check`` exits 1 when any configuration's hash differs (or is missing),
naming each one. Standard library and unocli only (numpy comes with unocli).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from unocli.game import policies as policy_module
from unocli.game import rules as rules_module
from unocli.game.policies import Policy, parse_policy_spec
from unocli.kernel import play_rows, rollouts

if TYPE_CHECKING:
    import numpy as np

GAMES = 1000  # per configuration
SEARCH_GAMES = 100  # a searching seat plays budget x options rollouts per decision
SEED = 20261202
PLAYERS = (2, 4, 7)

# mixed tables: a policy per seat, knob-heavy presets and hand-set knobs among them
MIXED: dict[str, tuple[str, ...]] = {
    "strong-smart-basic-random": ("strong", "smart", "basic", "random"),
    "bluffer-skeptic-hoarder-aggressive-strong": ("bluffer", "skeptic", "hoarder", "aggressive", "strong"),
    "knobs": (
        "basic:play=low>wild>skip,colour=next_lacks,bluff=0.3,forget_uno=0.4,catch_uno=0.5,challenge=0.7",
        "strong:keep_draws=true,match=colour,attack_at=2",
        "smart:match=number,aim_lacked=true,bluff=1.0,bluff_own_min=3,bluff_own_max=6",
    ),
}
# (rules preset, seat specs) with a searching seat
SEARCH: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("official", ("search:budget=4", "basic", "basic", "basic")),
    ("seven-o", ("basic", "smart:search=on,budget=4", "strong", "random")),
    ("stacking", ("bluffer", "search:budget=4,challenge=0.5", "hoarder")),
    ("party", ("random:search=peek,budget=4", "basic", "strong")),
)
ROLLOUT_POLICIES = ("random", "basic", "strong", "smart")
ROLLOUTS = 2000


def _digest(rows: np.ndarray) -> str:
    """SHA-256 of the rows as little-endian int64s, row by row."""
    return hashlib.sha256(rows.astype("<i8").tobytes()).hexdigest()


def configurations() -> Iterator[tuple[str, Callable[[], str]]]:
    """(name, a function returning its hash) for every configuration, in a fixed order."""
    for rname in rules_module.PRESETS:
        base = rules_module.preset(rname)
        for n in PLAYERS:
            rules = base.replace(players=n)
            for pname in policy_module.PRESETS:
                pols = (policy_module.preset(pname),) * n
                yield (
                    f"{rname}/{pname}/{n}",
                    lambda rules=rules, pols=pols: _digest(play_rows(rules, pols, seed=SEED, count=GAMES, threads=1)),
                )
            for label, specs in MIXED.items():
                pols = tuple(parse_policy_spec(specs[s % len(specs)]) for s in range(n))
                yield (
                    f"{rname}/mixed:{label}/{n}",
                    lambda rules=rules, pols=pols: _digest(play_rows(rules, pols, seed=SEED, count=GAMES, threads=1)),
                )
    # the general round (step.play) on the tables the plain round takes, which it plays then only rarely
    for n in PLAYERS:
        rules = rules_module.preset("official").replace(players=n)
        pols = (Policy(),) * n
        yield (
            f"official/random/{n}/general",
            lambda rules=rules, pols=pols: _digest(play_rows(rules, pols, seed=SEED, count=GAMES, threads=1, specialise=False)),
        )
    for rname, specs in SEARCH:
        rules = rules_module.preset(rname).replace(players=len(specs))
        pols = tuple(parse_policy_spec(s) for s in specs)
        yield (
            f"{rname}/search:{','.join(specs)}",
            lambda rules=rules, pols=pols: _digest(play_rows(rules, pols, seed=SEED, count=SEARCH_GAMES, threads=1)),
        )
    for rname, pname in (("official", "basic"), ("party", "strong")):
        rules = rules_module.preset(rname).replace(players=4, target_score=200)
        pols = (policy_module.preset(pname),) * 4
        yield (
            f"{rname}/{pname}/4/match",
            lambda rules=rules, pols=pols: _digest(play_rows(rules, pols, seed=SEED, count=GAMES // 10, threads=1, match=True)),
        )
    for rname in ("official", "seven-o"):
        rules = rules_module.preset(rname).replace(players=4)
        for pname in ROLLOUT_POLICIES:
            pol = policy_module.preset(pname)
            yield (
                f"rollouts/{rname}/{pname}/4",
                lambda rules=rules, pol=pol: str([rollouts(rules, pol, ROLLOUTS, seed=SEED, index=i) for i in range(5)]),
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path, metavar="FILE", help="write the hashes to FILE (JSON)")
    group.add_argument("--check", type=Path, metavar="FILE", help="compare with FILE; exit 1 on any difference")
    ap.add_argument("--quiet", action="store_true", help="print only differences and the summary")
    args = ap.parse_args(argv)
    expected: dict[str, str] = json.loads(args.check.read_text()) if args.check else {}
    got: dict[str, str] = {}
    bad: list[str] = []
    t0 = time.process_time()
    for name, run in configurations():
        got[name] = h = run()
        if args.check and expected.get(name) != h:
            bad.append(name)
            print(f"DIFFERS  {name}: {h[:16]} (expected {str(expected.get(name))[:16]})", flush=True)
        elif not args.quiet:
            print(f"{h[:16]}  {name}", flush=True)
    missing = sorted(set(expected) - set(got))
    for name in missing:
        bad.append(name)
        print(f"MISSING  {name} (in {args.check}, not played now)")
    print(f"{len(got)} configurations, {time.process_time() - t0:.0f} s CPU", file=sys.stderr)
    if args.save:
        args.save.write_text(json.dumps(got, indent=1) + "\n")
        print(f"saved to {args.save}", file=sys.stderr)
    if args.check:
        if bad:
            print(f"{len(bad)} configuration(s) differ from {args.check}", file=sys.stderr)
            return 1
        print(f"all {len(got)} configurations identical to {args.check}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
