#!/usr/bin/env python3
"""Issue 27's table: the kernel's cost per round and per turn on nine games.

For each configuration (rules preset, policy preset, players) it times
``unocli.simulate(rules, policy, games=N, seed=S, threads=1)`` by the CPU time
of this process, after a small run that loads (or compiles) the kernel for
that shape, ``--repeats`` times, the repeats interleaved over the
configurations so that a burst of load on a shared machine hits them alike.
It prints a Markdown table: ns per round (best of the repeats, and their
median), turns per round (the run's mean), ns per turn (best ns per round /
turns per round), and the load average before and after.

``--json PATH`` saves the measurements; ``--baseline PATH`` (such a file from
an earlier version) adds that version's figures and the ratio now / then side
by side. Run it in the project's venv; it does not build the C engine.

    .venv/bin/python benchmarks/configs.py                  # 400,000 rounds, best of 3
    .venv/bin/python benchmarks/configs.py --games 100000   # a rough look
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# (label, rules preset, policy preset, players): issue 27's rows, in its order.
CONFIGS: tuple[tuple[str, str, str, int], ...] = (
    ("official, `random` (the plain round)", "official", "random", 4),
    ("official, `basic`", "official", "basic", 4),
    ("official, `strong`", "official", "strong", 4),
    ("official, `basic`, 10 players", "official", "basic", 10),
    ("stacking, `basic`", "stacking", "basic", 4),
    ("seven-o, `basic`", "seven-o", "basic", 4),
    ("draw-until-playable, `basic`", "draw-until-playable", "basic", 4),
    ("party, `basic`", "party", "basic", 4),
    ("party, `random`", "party", "random", 4),
)


def key(rules: str, policy: str, players: int) -> str:
    """The name a configuration's measurement is saved under (``--json``, ``--baseline``)."""
    return f"{rules}/{policy}/{players}"


def summarise(cpu_seconds: list[float], games: int, turns_per_round: float) -> dict[str, float]:
    """ns per round (best and median of the repeats), turns per round, ns per turn (from the best)."""
    best = min(cpu_seconds) / games * 1e9
    return {
        "ns_per_round": best,
        "ns_per_round_median": statistics.median(cpu_seconds) / games * 1e9,
        "turns_per_round": turns_per_round,
        "ns_per_turn": best / turns_per_round,
        "repeats": len(cpu_seconds),
        "games": games,
    }


def markdown(rows: list[tuple[str, dict[str, float]]], baseline: dict[str, dict[str, float]] | None = None) -> str:
    """The table; with ``baseline`` (per row label, an earlier run's figures) also those and now / then."""
    head = "| configuration, 4 players unless said | ns per round | median | turns per round | ns per turn |"
    rule = "|---|---|---|---|---|"
    if baseline is not None:
        head += " before: ns per round | before: ns per turn | now / before |"
        rule += "---|---|---|"
    lines = [head, rule]
    for label, m in rows:
        line = (
            f"| {label} | {m['ns_per_round']:,.0f} | {m['ns_per_round_median']:,.0f} |"
            f" {m['turns_per_round']:,.1f} | {m['ns_per_turn']:,.1f} |"
        )
        if baseline is not None:
            b = baseline.get(label)
            line += (
                f" {b['ns_per_round']:,.0f} | {b['ns_per_turn']:,.1f} | {m['ns_per_round'] / b['ns_per_round']:.2f} |"
                if b
                else " - | - | - |"
            )
        lines.append(line)
    return "\n".join(lines)


def _time_one(rules: Any, policy: Any, games: int, seed: int) -> tuple[float, float]:
    """CPU seconds of one simulate() call on one thread, and its mean turns."""
    from unocli import simulate

    c0 = time.process_time()
    res = simulate(rules, policy, games=games, seed=seed, threads=1)
    cpu = time.process_time() - c0
    return cpu, float(res.to_json()["metrics"]["turns"]["mean"])


def measure(games: int, repeats: int, seed: int, only: list[str] | None) -> list[tuple[str, str, dict[str, float]]]:
    """(label, key, figures) per configuration, repeats interleaved."""
    from unocli.game.policies import preset as policy_preset
    from unocli.game.rules import preset as rules_preset

    chosen = [c for c in CONFIGS if only is None or key(*c[1:]) in only]
    shapes = [(label, key(r, p, n), rules_preset(r).replace(players=n), policy_preset(p)) for label, r, p, n in chosen]
    t0 = time.perf_counter()
    for _, _, rules, policy in shapes:  # load or compile each shape before timing
        _time_one(rules, policy, 2000, seed + 1_000_000)
    print(f"kernel loaded for {len(shapes)} configurations in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    cpu: dict[str, list[float]] = {k: [] for _, k, _, _ in shapes}
    turns: dict[str, float] = {}
    for r in range(repeats):
        for _, k, rules, policy in shapes[r % len(shapes) :] + shapes[: r % len(shapes)]:
            seconds, turns[k] = _time_one(rules, policy, games, seed + r)
            cpu[k].append(seconds)
        print(f"repeat {r + 1}/{repeats} done", file=sys.stderr, flush=True)
    return [(label, k, summarise(cpu[k], games, turns[k])) for label, k, _, _ in shapes]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400_000, help="rounds per run (default 400,000)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per configuration, best and median reported (default 3)")
    ap.add_argument("--seed", type=int, default=0, help="repeat r uses seed SEED + r (default 0)")
    ap.add_argument("--only", help="comma-separated keys RULES/POLICY/PLAYERS, e.g. party/basic/4 (default all nine)")
    ap.add_argument("--json", dest="json_out", help="also save the figures to this JSON file")
    ap.add_argument("--baseline", help="a --json file of an earlier run: its figures side by side")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        ap.error("--games and --repeats must be at least 1")
    only = [s.strip() for s in args.only.split(",")] if args.only else None
    known = {key(*c[1:]) for c in CONFIGS}
    if only and not set(only) <= known:
        ap.error(f"--only takes some of {', '.join(sorted(known))}")
    baseline = None
    if args.baseline:
        try:
            saved = json.loads(Path(args.baseline).read_text(encoding="utf-8"))
            baseline = {row["label"]: row for row in saved["rows"]}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            ap.error(f"cannot read the baseline {args.baseline}: {exc}")

    load = os.getloadavg()
    rows = measure(args.games, args.repeats, args.seed, only)
    end = os.getloadavg()
    print(markdown([(label, m) for label, _, m in rows], baseline))
    print(
        f"\n`simulate()`, one thread, CPU time, {args.games:,} rounds, best (and median) of {args.repeats};"
        f" load average (1 min) {load[0]:.2f} at the start, {end[0]:.2f} at the end ({os.cpu_count()} CPUs)."
    )
    if args.json_out:
        doc = {
            "games": args.games,
            "repeats": args.repeats,
            "load": [load[0], end[0]],
            "rows": [{"label": label, "key": k, **m} for label, k, m in rows],
        }
        Path(args.json_out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
