#!/usr/bin/env python3
"""Speed-of-light yardstick: unocli's kernel against a small C engine of the same game.

Builds ``benchmarks/uno.c`` with the system C compiler, then measures, side by
side and interleaved, rounds per second of

* the C engine on 1 thread and on 2 threads,
* unocli on 1 and 2 threads (``unocli.simulate``, timer around the
  simulation only, the kernel loaded by a small run first),
* and, unless ``--no-cli``, the whole ``unocli simulate ... --json`` process
  on 1 and 2 threads (start-up included),

and prints medians over the repeats: rounds/s per thread, the ratio
unocli/C, both two-thread scalings and their ratio. It also prints the
statistics of both engines side by side with a z-score per difference, so
the reader can see that they play the same game (official rules, random
policy, single rounds).

A maintainer's yardstick, not part of the package or its tests. Standard
library only; unocli is run through the Python of the project's venv.

    .venv/bin/python benchmarks/yardstick.py            # 1,000,000 rounds x 5 repeats
    .venv/bin/python benchmarks/yardstick.py --quick    # a rough look in under a minute
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUILD = HERE / "build"
SOURCE = HERE / "uno.c"
CFLAGS = ["-O3", "-march=native", "-std=c11", "-pthread"]

# Metrics both engines count with the same meaning (docs/rules.md §9).
METRICS = (
    "turns",
    "cards_played",
    "passes",
    "cards_drawn",
    "reshuffles",
    "plus4_played",
    "challenges",
    "winner_points",
)

# Run inside unocli's Python: load the kernel with a small run, then time one
# simulation alone. Prints one JSON object.
UNOCLI_RUN = r"""
import json, sys, time
from unocli import simulate
from unocli.game.rules import preset
games, seed, players, threads = (int(a) for a in sys.argv[1:5])
rules = preset("official").replace(players=players)
t0 = time.perf_counter()
simulate(rules, games=200, seed=seed + 1_000_000, threads=threads)
warm = time.perf_counter() - t0
t0, c0 = time.perf_counter(), time.process_time()
res = simulate(rules, games=games, seed=seed, threads=threads)
elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"elapsed_seconds": elapsed, "cpu_seconds": cpu, "warm_seconds": warm, "summary": res.to_json()}))
"""


# ---------------------------------------------------------------- running things


def build(cc: str, out_dir: Path) -> Path:
    """Compile uno.c; returns the executable's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    exe = out_dir / "uno"
    cmd = [cc, *CFLAGS, "-o", str(exe), str(SOURCE), "-lm"]
    print("build:", " ".join(cmd))
    subprocess.run(cmd, check=True)
    return exe


def compiler_version(cc: str) -> str:
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, check=True).stdout
        return out.splitlines()[0]
    except (OSError, subprocess.CalledProcessError):
        return "?"


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def timed(cmd: list[str]) -> tuple[dict, float, float]:
    """Run ``cmd``, parse its JSON stdout; returns (JSON, wall and CPU seconds of the whole process)."""
    c0, t0 = children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, children_cpu() - c0
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    return json.loads(proc.stdout), wall, cpu


def run_c(exe: Path, games: int, seed: int, players: int, threads: int, eager: bool) -> dict:
    cmd = [str(exe), str(games), str(seed), str(players), str(threads)] + (["--eager"] if eager else [])
    out, wall, _ = timed(cmd)
    return {"rate": out["rounds_per_second"], "cpu_rate": out["rounds_per_cpu_second"], "wall": wall, "stats": c_stats(out)}


def run_unocli_api(python: str, games: int, seed: int, players: int, threads: int) -> dict:
    out, wall, _ = timed([python, "-c", UNOCLI_RUN, str(games), str(seed), str(players), str(threads)])
    return {
        "rate": games / out["elapsed_seconds"],
        "cpu_rate": games / out["cpu_seconds"],
        "wall": wall,
        "stats": unocli_stats(out["summary"]),
    }


def run_unocli_cli(python: str, games: int, seed: int, players: int, threads: int) -> dict:
    cmd = [
        python,
        "-m",
        "unocli",
        "simulate",
        "--players",
        str(players),
        "--policy",
        "random",
        "--games",
        str(games),
        "--seed",
        str(seed),
        "--threads",
        str(threads),
        "--json",
        "--quiet",
    ]
    out, wall, cpu = timed(cmd)
    return {"rate": games / wall, "cpu_rate": games / cpu, "wall": wall, "stats": unocli_stats(out)}


# ---------------------------------------------------------------- statistics


def c_stats(out: dict) -> dict:
    """Per metric: n, sum and sum of squares; per seat wins; blocked and capped."""
    n = out["rounds"]
    return {
        "n": n,
        "metrics": {m: (out["metrics"][m]["sum"], out["metrics"][m]["sumsq"]) for m in METRICS},
        "wins": list(out["wins"]),
        "blocked": out["outcomes"]["blocked"],
        "capped": out["outcomes"]["capped"],
    }


def unocli_stats(summary: dict) -> dict:
    """The same from unocli's JSON summary (mean and sd give back the sums)."""
    n = summary["games"]
    metrics = {}
    for m in METRICS:
        mean, sd = summary["metrics"][m]["mean"], summary["metrics"][m]["sd"] or 0.0
        metrics[m] = (n * mean, (n - 1) * sd * sd + n * mean * mean)
    return {
        "n": n,
        "metrics": metrics,
        "wins": [w["wins"] for w in summary["win_share"]],
        "blocked": summary["outcomes"]["blocked"],
        "capped": summary["outcomes"]["capped"],
    }


def pool(parts: list[dict]) -> dict:
    out = {"n": 0, "metrics": {m: (0.0, 0.0) for m in METRICS}, "wins": None, "blocked": 0, "capped": 0}
    for p in parts:
        out["n"] += p["n"]
        for m in METRICS:
            s, q = out["metrics"][m]
            out["metrics"][m] = (s + p["metrics"][m][0], q + p["metrics"][m][1])
        out["wins"] = p["wins"] if out["wins"] is None else [a + b for a, b in zip(out["wins"], p["wins"], strict=True)]
        out["blocked"] += p["blocked"]
        out["capped"] += p["capped"]
    return out


def mean_se(total: float, sumsq: float, n: int) -> tuple[float, float]:
    mean = total / n
    var = max(0.0, (sumsq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def share_se(k: int, n: int) -> tuple[float, float]:
    p = k / n
    return p, math.sqrt(p * (1 - p) / n)


def z_score(a: tuple[float, float], b: tuple[float, float]) -> float:
    se = math.hypot(a[1], b[1])
    if se == 0:
        return 0.0 if a[0] == b[0] else math.inf
    return (a[0] - b[0]) / se


def same_stats(a: dict, b: dict, rel: float = 1e-9) -> bool:
    """Do two runs of the same games agree (numbers independent of the thread count)?"""
    if a["n"] != b["n"] or a["wins"] != b["wins"] or a["blocked"] != b["blocked"] or a["capped"] != b["capped"]:
        return False
    return all(math.isclose(a["metrics"][m][0], b["metrics"][m][0], rel_tol=rel, abs_tol=1e-6) for m in METRICS)


# ---------------------------------------------------------------- report


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}"


def spread(xs: list[float]) -> str:
    return f"[{min(xs):,.0f} .. {max(xs):,.0f}]"


def paired(rates: dict[str, list[float]], num: str, den: str) -> float:
    """Median over the repeats of rates[num] / rates[den] (each pair measured side by side)."""
    return statistics.median(a / b for a, b in zip(rates[num], rates[den], strict=True))


def print_speed(res: dict[str, list[dict]], games: int, with_cli: bool) -> None:
    reps = len(res["c1"])
    rows = [
        ("C uno.c, 1 thread", "c1", 1),
        ("C uno.c, 2 threads", "c2", 2),
        ("unocli simulate(), 1 thread", "u1", 1),
        ("unocli simulate(), 2 threads", "u2", 2),
    ]
    if with_cli:
        rows += [("unocli CLI whole process, 1 thread", "cli1", 1), ("unocli CLI whole process, 2 threads", "cli2", 2)]

    print(f"\nSpeed: {games:,} rounds per run, median of {reps} interleaved repeats [slowest .. fastest]")
    for what, field in (("wall clock", "rate"), ("CPU time", "cpu_rate")):
        rates = {k: [r[field] for r in v] for k, v in res.items()}
        med = {k: statistics.median(v) for k, v in rates.items()}
        unit = "rounds/s" if field == "rate" else "rounds/CPU-s"
        print(f"\n  by {what}:")
        print(f"  {'':38}{unit:>13}  {'per thread':>11}  spread")
        for label, key, t in rows:
            per = med[key] / t if field == "rate" else med[key]
            print(f"  {label:38}{fmt_rate(med[key]):>13}  {fmt_rate(per):>11}  {spread(rates[key])}")
        r1, r2 = paired(rates, "u1", "c1"), paired(rates, "u2", "c2")
        sc_c, sc_u = paired(rates, "c2", "c1"), paired(rates, "u2", "u1")
        print(f"  ratio unocli / C, 1 thread:              {r1:.3f}  (C is {1 / r1:.2f}x faster)")
        print(f"  ratio unocli / C, 2 threads:             {r2:.3f}  (C is {1 / r2:.2f}x faster)")
        if field == "rate":
            print(f"  two-thread scaling, C:                   {sc_c:.2f}x")
            print(f"  two-thread scaling, unocli:              {sc_u:.2f}x")
            print(f"  ratio of scalings unocli / C:            {sc_u / sc_c:.3f}")
        else:
            print(
                f"  2-thread rounds per CPU-s over 1-thread: C {sc_c:.3f}, unocli {sc_u:.3f}"
                " (1.0: the second thread costs no extra work)"
            )
    if with_cli:
        w1 = statistics.median(r["wall"] for r in res["cli1"])
        w2 = statistics.median(r["wall"] for r in res["cli2"])
        s1 = statistics.median(games / r["rate"] for r in res["u1"])
        s2 = statistics.median(games / r["rate"] for r in res["u2"])
        c1 = statistics.median(r["wall"] for r in res["c1"])
        print(
            f"\n  whole-process seconds, unocli CLI:       {w1:.2f} (1 thread), {w2:.2f} (2 threads);"
            f" simulate() alone {s1:.2f}, {s2:.2f}"
        )
        print(f"  whole-process seconds, C:                {c1:.2f} (1 thread)")


def print_stats(c: dict, u: dict, players: int) -> None:
    print(f"\nStatistics: C {c['n']:,} rounds, unocli {u['n']:,} rounds (1-thread runs of every repeat, pooled)")
    print(f"  {'':22}{'C uno.c':>22}  {'unocli':>22}  {'z':>6}")
    zs = []

    def line(label: str, a: tuple[float, float], b: tuple[float, float], digits: int) -> None:
        z = z_score(a, b)
        zs.append(z)
        flag = "  <-- |z| > 3" if abs(z) > 3 else ""
        print(
            f"  {label:22}{a[0]:>12.{digits}f} ± {a[1]:<7.{digits}f}  {b[0]:>12.{digits}f} ± {b[1]:<7.{digits}f}  {z:>6.2f}{flag}"
        )

    for m in METRICS:
        line(f"mean {m}", mean_se(*c["metrics"][m], c["n"]), mean_se(*u["metrics"][m], u["n"]), 4)
    for s in range(players):
        line(f"win share seat {s}", share_se(c["wins"][s], c["n"]), share_se(u["wins"][s], u["n"]), 5)
    line("share blocked", share_se(c["blocked"], c["n"]), share_se(u["blocked"], u["n"]), 6)
    line("share capped", share_se(c["capped"], c["n"]), share_se(u["capped"], u["n"]), 6)
    finite = [z for z in zs if math.isfinite(z)]
    worst = max(abs(z) for z in zs)
    chi2 = sum(z * z for z in finite)
    print(
        f"  (± is one standard error; z = difference / its standard error. {len(zs)} comparisons:"
        f" largest |z| {worst:.2f}, sum of z^2 {chi2:.1f};"
    )
    print("   the metrics are correlated, but under agreement |z| > 3 should be rare and sum z^2 near the count.)")


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="rounds per run (default 1,000,000)")
    ap.add_argument("--repeats", type=int, default=5, help="interleaved repeats (default 5)")
    ap.add_argument("--players", type=int, default=4, help="players, 2-10 (default 4)")
    ap.add_argument("--seed", type=int, default=0, help="repeat r uses seed SEED + r (default 0)")
    ap.add_argument("--quick", action="store_true", help="100,000 rounds x 3 repeats, no CLI runs")
    ap.add_argument("--no-cli", action="store_true", help="skip the whole-process `unocli simulate` runs")
    ap.add_argument(
        "--eager",
        action="store_true",
        help="C shuffles the whole deck and every reshuffled pile up front (as unocli does) "
        "instead of drawing a uniform card on demand",
    )
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"), help="C compiler (default $CC or cc)")
    ap.add_argument(
        "--python",
        default=str(ROOT / ".venv" / "bin" / "python"),
        help="Python with unocli installed (default: the project's .venv)",
    )
    ap.add_argument("--build-dir", default=str(BUILD), help="where the C engine is built (git-ignored)")
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.repeats, args.no_cli = 100_000, 3, True
    if not 2 <= args.players <= 10:
        ap.error("--players must be 2-10")
    if args.games < 2 or args.repeats < 1:
        ap.error("--games must be at least 2 and --repeats at least 1")
    if not Path(args.python).exists():
        found = shutil.which("python3")
        ap.error(f"no Python at {args.python} (make the venv, or pass --python; python3 on PATH: {found})")

    exe = build(args.cc, Path(args.build_dir))
    load = os.getloadavg()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.python_version()} here;"
        f" compiler: {compiler_version(args.cc)}"
    )
    print(
        f"rules: official, {args.players} players, single rounds, random policy;"
        f" C draw pile: {'eager' if args.eager else 'lazy'} shuffle"
    )

    # Load (or compile, the first time: about a minute) unocli's kernel.
    t0 = time.perf_counter()
    run_unocli_api(args.python, 1000, 0, args.players, 1)
    print(f"unocli warm-up: {time.perf_counter() - t0:.1f} s")

    keys = ["c1", "c2", "u1", "u2"] + ([] if args.no_cli else ["cli1", "cli2"])
    res: dict[str, list[dict]] = {k: [] for k in keys}
    for r in range(args.repeats):
        seed = args.seed + r
        # Rotate the order each repeat, so a burst of load hits all alike.
        order = keys[r % len(keys) :] + keys[: r % len(keys)]
        for key in order:
            threads = int(key[-1])
            if key.startswith("c") and not key.startswith("cli"):
                out = run_c(exe, args.games, seed, args.players, threads, args.eager)
            elif key.startswith("u"):
                out = run_unocli_api(args.python, args.games, seed, args.players, threads)
            else:
                out = run_unocli_cli(args.python, args.games, seed, args.players, threads)
            res[key].append(out)
        line = "  ".join(f"{k} {fmt_rate(res[k][-1]['rate'])}" for k in keys)
        print(f"repeat {r + 1}/{args.repeats} (seed {seed}), rounds/s: {line}", flush=True)

    end = os.getloadavg()
    print(
        f"load average (1, 5, 15 min) at the start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f},"
        f" at the end {end[0]:.2f} {end[1]:.2f} {end[2]:.2f} ({os.cpu_count()} CPUs)"
    )
    print_speed(res, args.games, not args.no_cli)

    # Both engines' numbers do not depend on the thread count: check it.
    for name, k1, k2 in (("C", "c1", "c2"), ("unocli", "u1", "u2")):
        same = all(same_stats(a["stats"], b["stats"]) for a, b in zip(res[k1], res[k2], strict=True))
        print(f"  {name}: 1- and 2-thread runs of the same seed give the same statistics: {'yes' if same else 'NO'}")
    if not args.no_cli:
        same = all(same_stats(a["stats"], b["stats"], rel=1e-6) for a, b in zip(res["u1"], res["cli1"], strict=True))
        print(f"  unocli: simulate() and the CLI give the same statistics: {'yes' if same else 'NO'}")

    print_stats(pool([x["stats"] for x in res["c1"]]), pool([x["stats"] for x in res["u1"]]), args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
