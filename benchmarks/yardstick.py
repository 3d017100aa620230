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
statistics of both engines side by side with a z-score per difference and
an agreement check (every |z| below ``--z-limit``, 4 by default), the proof
that they play the same game. It does so for three games, single rounds at
``--players`` (4): the official rules with the ``random`` policy, the official
rules with ``basic`` and the ``party`` rules with ``basic`` (``--configs``
picks some).

A maintainer's yardstick, not part of the package or its tests. Standard
library only; unocli is run through the Python of the project's venv.

    .venv/bin/python benchmarks/yardstick.py            # 1,000,000 rounds x 5 repeats
    .venv/bin/python benchmarks/yardstick.py --quick    # a rough look in about a minute
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

# Metrics both engines count with the same meaning (docs/rules.md §9). The C
# engine counts the first eight for the random policy and all of them for basic;
# a run's statistics hold the ones its C output has.
METRICS = (
    "turns",
    "cards_played",
    "passes",
    "cards_drawn",
    "reshuffles",
    "plus4_played",
    "challenges",
    "winner_points",
    "skips",
    "max_stack",
    "jump_ins",
    "swaps",
    "rotations",
    "max_draw",
)

# The games measured: (rules preset, policy preset). The C engine plays the party
# preset's five house rules together (benchmarks/uno.c).
CONFIGS: dict[str, tuple[str, str]] = {
    "official/random": ("official", "random"),
    "official/basic": ("official", "basic"),
    "party/basic": ("party", "basic"),
}

# Under agreement z is close to standard normal: P(|z| >= 4) = 6.3e-5 per statistic,
# so over three games of about 20 statistics each a false alarm has a chance of
# about 0.4%, while a rule difference worth finding moves some mean by far more.
Z_LIMIT = 4.0

# Run inside unocli's Python: load the kernel with a small run, then time one
# simulation alone. Prints one JSON object.
UNOCLI_RUN = r"""
import json, sys, time
from unocli import simulate
from unocli.game.rules import preset
from unocli.game.policies import preset as policy_preset
games, seed, players, threads = (int(a) for a in sys.argv[1:5])
rules = preset(sys.argv[5]).replace(players=players)
policy = policy_preset(sys.argv[6])
t0 = time.perf_counter()
simulate(rules, policy, games=200, seed=seed + 1_000_000, threads=threads)
warm = time.perf_counter() - t0
t0, c0 = time.perf_counter(), time.process_time()
res = simulate(rules, policy, games=games, seed=seed, threads=threads)
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


def c_command(exe: Path, games: int, seed: int, players: int, threads: int, config: str, eager: bool) -> list[str]:
    """The C engine's command line for one run of ``config`` ("RULES/POLICY")."""
    rules, policy = CONFIGS[config]
    cmd = [str(exe), str(games), str(seed), str(players), str(threads), "--policy", policy, "--rules", rules]
    return cmd + (["--eager"] if eager and policy == "random" else [])


def run_c(exe: Path, games: int, seed: int, players: int, threads: int, config: str, eager: bool) -> dict:
    cmd = c_command(exe, games, seed, players, threads, config, eager)
    out, wall, _ = timed(cmd)
    return {"rate": out["rounds_per_second"], "cpu_rate": out["rounds_per_cpu_second"], "wall": wall, "stats": c_stats(out)}


def run_unocli_api(python: str, games: int, seed: int, players: int, threads: int, config: str, metrics: tuple[str, ...]) -> dict:
    rules, policy = CONFIGS[config]
    out, wall, _ = timed([python, "-c", UNOCLI_RUN, str(games), str(seed), str(players), str(threads), rules, policy])
    return {
        "rate": games / out["elapsed_seconds"],
        "cpu_rate": games / out["cpu_seconds"],
        "wall": wall,
        "stats": unocli_stats(out["summary"], metrics),
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
    return {"rate": games / wall, "cpu_rate": games / cpu, "wall": wall, "stats": unocli_stats(out, METRICS[:8])}


# ---------------------------------------------------------------- statistics


def c_stats(out: dict) -> dict:
    """Per metric the C engine counted: (sum, sum of squares); per seat wins; first-player wins, blocked, capped."""
    return {
        "n": out["rounds"],
        "metrics": {m: (out["metrics"][m]["sum"], out["metrics"][m]["sumsq"]) for m in METRICS if m in out["metrics"]},
        "wins": list(out["wins"]),
        "first": out["first_player_wins"],
        "blocked": out["outcomes"]["blocked"],
        "capped": out["outcomes"]["capped"],
        "stuck": 0,  # the C engine has no stuck test (docs/rules.md §11.15): such a round would end capped
    }


def unocli_stats(summary: dict, metrics: tuple[str, ...]) -> dict:
    """The same from unocli's JSON summary, for ``metrics`` (mean and sd give back the sums)."""
    n = summary["games"]
    out = {}
    for m in metrics:
        mean, sd = summary["metrics"][m]["mean"], summary["metrics"][m]["sd"] or 0.0
        out[m] = (n * mean, (n - 1) * sd * sd + n * mean * mean)
    return {
        "n": n,
        "metrics": out,
        "wins": [w["wins"] for w in summary["win_share"]],
        "first": summary["first_player"]["wins"],
        "blocked": summary["outcomes"]["blocked"],
        "capped": summary["outcomes"]["capped"],
        "stuck": summary["outcomes"].get("stuck", 0),
    }


COUNTS = ("first", "blocked", "capped", "stuck")


def pool(parts: list[dict]) -> dict:
    """Several runs' statistics as one (sums added)."""
    names = tuple(parts[0]["metrics"])
    out: dict = {"n": 0, "metrics": dict.fromkeys(names, (0.0, 0.0)), "wins": None, **dict.fromkeys(COUNTS, 0)}
    for p in parts:
        out["n"] += p["n"]
        for m in names:
            s, q = out["metrics"][m]
            out["metrics"][m] = (s + p["metrics"][m][0], q + p["metrics"][m][1])
        out["wins"] = p["wins"] if out["wins"] is None else [a + b for a, b in zip(out["wins"], p["wins"], strict=True)]
        for k in COUNTS:
            out[k] += p[k]
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
    if a["n"] != b["n"] or a["wins"] != b["wins"] or any(a[k] != b[k] for k in COUNTS):
        return False
    return a["metrics"].keys() == b["metrics"].keys() and all(
        math.isclose(a["metrics"][m][0], b["metrics"][m][0], rel_tol=rel, abs_tol=1e-6) for m in a["metrics"]
    )


def comparisons(c: dict, u: dict) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """The statistics both engines report, as (label, C (estimate, se), unocli (estimate, se)).

    Means of the metrics the C engine counted, each seat's win share, the share
    won by the first player, and the blocked and capped shares (unocli's stuck
    rounds counted as capped, which is how the C engine would end them).
    """
    rows = [(f"mean {m}", mean_se(*c["metrics"][m], c["n"]), mean_se(*u["metrics"][m], u["n"])) for m in c["metrics"]]
    rows += [
        (f"win share seat {s}", share_se(c["wins"][s], c["n"]), share_se(u["wins"][s], u["n"])) for s in range(len(c["wins"]))
    ]
    rows.append(("first player's win share", share_se(c["first"], c["n"]), share_se(u["first"], u["n"])))
    rows.append(("share blocked", share_se(c["blocked"], c["n"]), share_se(u["blocked"], u["n"])))
    rows.append(("share capped or stuck", share_se(c["capped"] + c["stuck"], c["n"]), share_se(u["capped"] + u["stuck"], u["n"])))
    return rows


def agreement(rows: list[tuple[str, tuple[float, float], tuple[float, float]]], limit: float = Z_LIMIT) -> dict:
    """The agreement check over ``rows`` (see :func:`comparisons`).

    A statistic that is the same constant in both engines (0 passes under draw
    until playable, no jump-ins under the official rules: both standard errors
    0) is *identical*, not compared; one that is constant in one engine only, or
    two different constants, has an infinite z and fails. Returns the counts,
    the largest |z|, the sum of z^2 over the compared statistics, the labels
    that fail, and ``ok``.
    """
    compared, identical, failing, worst, chi2 = 0, 0, [], 0.0, 0.0
    for label, a, b in rows:
        if a[1] == 0 and b[1] == 0 and a[0] == b[0]:
            identical += 1
            continue
        z = z_score(a, b)
        compared += 1
        worst = max(worst, abs(z))
        chi2 += z * z
        if not abs(z) < limit:
            failing.append(label)
    return {
        "compared": compared,
        "identical": identical,
        "worst": worst,
        "chi2": chi2,
        "failing": failing,
        "ok": not failing,
        "limit": limit,
    }


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


def print_stats(c: dict, u: dict, limit: float) -> dict:
    """Both engines' statistics side by side; returns the agreement check (:func:`agreement`)."""
    print(f"\nStatistics: C {c['n']:,} rounds, unocli {u['n']:,} rounds (1-thread runs of every repeat, pooled)")
    print(f"  {'':26}{'C uno.c':>22}  {'unocli':>22}  {'z':>6}")
    rows = comparisons(c, u)
    for label, a, b in rows:
        z = z_score(a, b)
        digits = 4 if label.startswith("mean") else 6
        flag = f"  <-- |z| >= {limit:g}" if not abs(z) < limit else ""
        print(
            f"  {label:26}{a[0]:>12.{digits}f} ± {a[1]:<8.{digits}f} {b[0]:>12.{digits}f} ± {b[1]:<8.{digits}f} {z:>6.2f}{flag}"
        )
    if u["stuck"]:
        print(f"  (unocli: {u['stuck']:,} stuck rounds, docs/rules.md §11.15, counted with the capped ones)")
    check = agreement(rows, limit)
    print(
        f"  (± is one standard error; z = difference / its standard error.) Agreement: {check['compared']} statistics"
        f" compared, {check['identical']} identical constants; largest |z| {check['worst']:.2f}, sum of z^2"
        f" {check['chi2']:.1f}; every |z| < {limit:g}: {'yes' if check['ok'] else 'NO, ' + ', '.join(check['failing'])}"
    )
    return check


# ---------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="rounds per run (default 1,000,000)")
    ap.add_argument("--repeats", type=int, default=5, help="interleaved repeats (default 5)")
    ap.add_argument("--players", type=int, default=4, help="players, 2-10 (default 4)")
    ap.add_argument("--seed", type=int, default=0, help="repeat r uses seed SEED + r (default 0)")
    ap.add_argument(
        "--configs",
        default=",".join(CONFIGS),
        help=f"games to measure, comma-separated (default all: {', '.join(CONFIGS)})",
    )
    ap.add_argument("--z-limit", type=float, default=Z_LIMIT, help=f"agreement: every |z| below this (default {Z_LIMIT:g})")
    ap.add_argument("--quick", action="store_true", help="100,000 rounds x 3 repeats, no CLI runs")
    ap.add_argument("--no-cli", action="store_true", help="skip the whole-process `unocli simulate` runs (official/random only)")
    ap.add_argument(
        "--eager",
        action="store_true",
        help="for the random policy, C shuffles the whole deck and every reshuffled pile up front (as unocli does) "
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
    args.configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in args.configs if c not in CONFIGS]
    if unknown or not args.configs:
        ap.error(f"--configs takes some of {', '.join(CONFIGS)}, not {args.configs!r}")
    if not 2 <= args.players <= 10:
        ap.error("--players must be 2-10")
    if args.games < 2 or args.repeats < 1:
        ap.error("--games must be at least 2 and --repeats at least 1")
    if not args.z_limit > 0:
        ap.error("--z-limit must be positive")
    if not Path(args.python).exists():
        found = shutil.which("python3")
        ap.error(f"no Python at {args.python} (make the venv, or pass --python; python3 on PATH: {found})")
    return args


def measure(args: argparse.Namespace, exe: Path, config: str) -> dict[str, list[dict]]:
    """The interleaved repeats of one game: per key (c1, c2, u1, u2, cli1, cli2) one result per repeat."""
    with_cli = not args.no_cli and config == "official/random"
    keys = ["c1", "c2", "u1", "u2"] + (["cli1", "cli2"] if with_cli else [])
    # The C output says which metrics it counted: unocli's summaries are read for the same ones.
    probe = json.loads(
        subprocess.run(
            c_command(exe, 2, 0, args.players, 1, config, args.eager), capture_output=True, text=True, check=True
        ).stdout
    )
    metrics = tuple(m for m in METRICS if m in probe["metrics"])
    res: dict[str, list[dict]] = {k: [] for k in keys}
    for r in range(args.repeats):
        seed = args.seed + r
        # Rotate the order each repeat, so a burst of load hits all alike.
        order = keys[r % len(keys) :] + keys[: r % len(keys)]
        for key in order:
            threads = int(key[-1])
            if key.startswith("c") and not key.startswith("cli"):
                out = run_c(exe, args.games, seed, args.players, threads, config, args.eager)
            elif key.startswith("u"):
                out = run_unocli_api(args.python, args.games, seed, args.players, threads, config, metrics)
            else:
                out = run_unocli_cli(args.python, args.games, seed, args.players, threads)
            res[key].append(out)
        line = "  ".join(f"{k} {fmt_rate(res[k][-1]['rate'])}" for k in keys)
        print(f"  {config} repeat {r + 1}/{args.repeats} (seed {seed}), rounds/s: {line}", flush=True)
    return res


def report(args: argparse.Namespace, config: str, res: dict[str, list[dict]]) -> tuple[float, dict]:
    """Print one game's speed, thread checks and statistics; returns (CPU-time ratio per thread, agreement)."""
    rules, policy = CONFIGS[config]
    print(f"\n======== {config}: rules {rules}, policy {policy}, {args.players} players, single rounds")
    with_cli = "cli1" in res
    print_speed(res, args.games, with_cli)
    # Both engines' numbers do not depend on the thread count: check it.
    for name, k1, k2 in (("C", "c1", "c2"), ("unocli", "u1", "u2")):
        same = all(same_stats(a["stats"], b["stats"]) for a, b in zip(res[k1], res[k2], strict=True))
        print(f"  {name}: 1- and 2-thread runs of the same seed give the same statistics: {'yes' if same else 'NO'}")
    if with_cli:
        same = all(same_stats(a["stats"], b["stats"], rel=1e-6) for a, b in zip(res["u1"], res["cli1"], strict=True))
        print(f"  unocli: simulate() and the CLI give the same statistics: {'yes' if same else 'NO'}")
    check = print_stats(pool([x["stats"] for x in res["c1"]]), pool([x["stats"] for x in res["u1"]]), args.z_limit)
    ratio = paired({k: [r["cpu_rate"] for r in v] for k, v in res.items()}, "u1", "c1")
    return ratio, check


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    exe = build(args.cc, Path(args.build_dir))
    load = os.getloadavg()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.python_version()} here;"
        f" compiler: {compiler_version(args.cc)}"
    )
    print(
        f"games: {', '.join(args.configs)}; {args.players} players, single rounds;"
        f" C draw pile: {'eager (random policy)' if args.eager else 'lazy'} shuffle"
    )

    # Load (or compile, the first time: about a minute per policy shape) unocli's kernel.
    t0 = time.perf_counter()
    for config in args.configs:
        run_unocli_api(args.python, 1000, 0, args.players, 1, config, ("turns",))
    print(f"unocli warm-up: {time.perf_counter() - t0:.1f} s")

    results = {config: measure(args, exe, config) for config in args.configs}
    end = os.getloadavg()
    print(
        f"load average (1, 5, 15 min) at the start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f},"
        f" at the end {end[0]:.2f} {end[1]:.2f} {end[2]:.2f} ({os.cpu_count()} CPUs)"
    )
    summary = {config: report(args, config, res) for config, res in results.items()}

    print(f"\nSummary: unocli / C rounds per CPU-second on 1 thread (median of {args.repeats} paired repeats), and agreement")
    for config, (ratio, check) in summary.items():
        verdict = "agree" if check["ok"] else "DISAGREE: " + ", ".join(check["failing"])
        print(
            f"  {config:16} ratio {ratio:.3f}  (C {1 / ratio:.2f}x faster);  {check['compared']} statistics,"
            f" largest |z| {check['worst']:.2f} (limit {check['limit']:g}): {verdict}"
        )
    return 0 if all(check["ok"] for _, check in summary.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
