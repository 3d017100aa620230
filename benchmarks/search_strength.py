"""How strong `search` is, cell by cell: its gain over each opponent on fresh deals, seats rotated.

For each cell (a rules preset at a table size) and budget, one `search` seat plays
against a field of one opponent (`basic`, `smart`, `strong`, and the cell's tuned
player `tuned-RULES-PLAYERS` from sims/tuned/tuned.toml), every deal once per seat
rotation. A deal's gain is the searcher's share of its rotations won minus the
field's per-seat share (``unocli.study.tune.deal_gains``, the measure `unocli tune`
ships players by); deals are independent, so the paired 95% interval is Student's
t over deals (``tune.gain_of``). The deals are fresh: game indices from
``FRESH`` on, beyond every index a tune, its re-measurement or
benchmarks/verify_tuned.py uses. The family of rows printed together gets Holm
adjusted p-values, and each row a verdict (``stats.classify``) against a margin.

    python benchmarks/search_strength.py                                   # the 15 cells, budget 512
    nice python benchmarks/search_strength.py --cells official-4,party-2 --deals 100 --threads 1
    python benchmarks/search_strength.py --cells seven-o-6 --budgets 128,512 --opponents basic,tuned

One Markdown row per (cell, budget, opponent): gain in pp with its interval, n deals,
the Holm p, the verdict, whether the interval is above 0 (issue 26's "done when"), and
rounds per CPU-second of the search table (process CPU time, every thread: the
figure a loaded machine does not distort). Nothing here is part of the package.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from unocli.game import rules as rules_module
from unocli.game.policies import Policy, load_policies_file, parse_policy_spec, preset
from unocli.study import tune
from unocli.study.stats import classify, holm

ROOT = Path(__file__).resolve().parent.parent
TUNED = ROOT / "sims" / "tuned" / "tuned.toml"
RULES = ("official", "stacking", "seven-o", "no-action-finish", "party")
CELLS = tuple(f"{r}-{n}" for r in RULES for n in (2, 4, 6))
OPPONENTS = ("basic", "smart", "strong", "tuned")
FRESH = tune.CHECK_START + (1 << 60)  # beyond tune.FRESH_START's and verify_tuned's deals (CHECK_START on)
SEED = 26026


def parse_cell(cell: str) -> tuple[str, int]:
    """``RULES-PLAYERS`` as (preset name, players)."""
    name, _, players = cell.rpartition("-")
    if name not in rules_module.PRESETS or not players.isdigit():
        raise SystemExit(f"a cell is RULES-PLAYERS with a rules preset, not {cell!r}")
    return name, int(players)


def opponent(name: str, rules: str, players: int, tuned: dict[str, Policy]) -> tuple[str, Policy]:
    """The label and policy of an opponent; ``tuned`` is the cell's entry of sims/tuned/tuned.toml."""
    if name != "tuned":
        return name, preset(name)
    label = f"tuned-{rules}-{players}"
    if label not in tuned:
        raise SystemExit(f"{TUNED} has no {label}")
    same = [p for p in ("basic", "smart", "strong") if preset(p) == tuned[label]]
    return label + (f" (= {same[0]})" if same else ""), tuned[label]


def measure(cell: str, budget: int, versus: str, args: argparse.Namespace, tuned: dict[str, Policy], done: dict) -> dict:
    """One row; a field already measured in this cell at this budget (a tuned entry that ships a preset) is reused."""
    rules_name, players = parse_cell(cell)
    rules = rules_module.preset(rules_name).replace(players=players)
    label, field = opponent(versus, rules_name, players, tuned)
    key = (cell, budget, field)
    if key in done:
        return {**done[key], "opponent": label}
    table = tune.Table(rules, field, args.seed, threads=args.threads)
    searcher = parse_policy_spec(f"{args.searcher}:budget={budget}")
    cpu = time.process_time()
    gains = tune.deal_gains(table, searcher, FRESH, args.deals)
    cpu = time.process_time() - cpu
    d = tune.gain_of(gains)
    done[key] = {"cell": cell, "budget": budget, "opponent": label, "d": d, "rate": args.deals * players / max(cpu, 1e-9)}
    return done[key]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", default=",".join(CELLS), help="RULES-PLAYERS cells, comma-separated (default: the 15)")
    ap.add_argument("--budgets", default="512", help="rollouts per option, comma-separated (default 512)")
    ap.add_argument("--opponents", default=",".join(OPPONENTS), help="basic, smart, strong, tuned (comma-separated)")
    ap.add_argument("--searcher", default="search", help="the search player's spec before its budget (e.g. peek: a bound)")
    ap.add_argument("--deals", type=int, default=500, help="fresh deals per row, each played once per rotation")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--margin", type=float, default=1.0, help="pp: the verdict's margin of a negligible gain")
    args = ap.parse_args(argv)
    tuned = load_policies_file(TUNED)
    cells = [c for c in args.cells.split(",") if c]
    budgets = [int(b) for b in args.budgets.split(",") if b]
    versus = [o for o in args.opponents.split(",") if o]
    for o in versus:
        if o not in OPPONENTS:
            raise SystemExit(f"an opponent is one of {', '.join(OPPONENTS)}, not {o!r}")
    for cell in cells:
        parse_cell(cell)
    # compile the search table once before any timing (numba caches it on disk after the first run)
    warm = tune.Table(rules_module.preset("official").replace(players=2), preset("basic"), args.seed, threads=1)
    tune.deal_gains(warm, parse_policy_spec(f"{args.searcher}:budget=1"), FRESH - 1, 1)
    rows: list[dict] = []
    done: dict = {}
    for cell in cells:
        for budget in budgets:
            for o in versus:
                rows.append(measure(cell, budget, o, args, tuned, done))
                r = rows[-1]
                d = r["d"]
                print(
                    f"# {cell} {args.searcher}:budget={budget} vs {r['opponent']}: {100 * d.diff:+.2f} pp"
                    f" [{100 * d.low:+.2f}, {100 * d.high:+.2f}] ({d.n:,} deals, {r['rate']:,.0f} rounds per CPU-s)",
                    flush=True,
                )
    adjusted = holm([r["d"].p for r in rows])
    print(
        f"\n{args.searcher} on fresh deals (seed {args.seed}, game indices from {FRESH}), seats rotated; "
        f"gain = its win share minus the field's per seat, paired 95% t interval over deals; "
        f"Holm over the {len(rows)} rows; verdict against +-{args.margin:g} pp.\n"
    )
    print("| cell | budget | opponent | gain pp [95% CI] | n deals | Holm p | verdict | above 0 | rounds per CPU-s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r, p in zip(rows, adjusted, strict=True):
        d = r["d"]
        lo, hi = 100 * d.low, 100 * d.high
        print(
            f"| {r['cell']} | {r['budget']} | {r['opponent']} | {100 * d.diff:+.2f} [{lo:+.2f}, {hi:+.2f}] | "
            f"{d.n:,} | {p:.3g} | {classify(lo, hi, args.margin)} | {'yes' if lo > 0 else 'no'} | {r['rate']:,.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
