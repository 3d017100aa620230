"""``unocli bench``: throughput of the kernel on fixed configurations.

Speed targets live here and in docs/performance.md, never in timed tests.
Every figure is the median of several repeats, because the machines are
shared and noisy.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from unocli.game.policies import preset as policy_preset
from unocli.game.rules import preset as rules_preset
from unocli.kernel import max_threads, play_rows, rollouts, searched_rollouts

# Search rollouts (issue 27 item 3: at least 1,000,000 per second per thread, official, 4 players, basic)
ROLLOUT_CONFIGS: tuple[tuple[str, int, str], ...] = (("official", 4, "basic"), ("party", 4, "basic"))
# The searches whose positions the second measure plays from: rollouts per option, rounds per repeat.
SEARCH_BUDGET = 64
SEARCH_ROUNDS = 200

CONFIGS: tuple[tuple[str, int], ...] = (("official", 2), ("official", 4), ("official", 10), ("party", 4))


@dataclass
class BenchRow:
    rules: str
    players: int
    threads: int
    games: int
    repeats: int
    median_seconds: float
    rounds_per_second: float
    spread: tuple[float, float]  # slowest and fastest repeat, rounds per second


def _time_once(rules, policies, games: int, threads: int, seed: int) -> float:
    t0 = time.perf_counter()
    play_rows(rules, policies, seed=seed, count=games, threads=threads)
    return time.perf_counter() - t0


def warm_up() -> float:
    """Load (or compile) the kernel; returns the seconds it took."""
    t0 = time.perf_counter()
    rules = rules_preset("official")
    play_rows(rules, (policy_preset("random"),) * rules.players, count=2, threads=1)
    return time.perf_counter() - t0


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


Say = Callable[[str], None]


def measure(
    games: int = 200_000, repeats: int = 5, threads: tuple[int, ...] | None = None, progress: Say | None = None
) -> list[BenchRow]:
    """Rounds per second for each fixed configuration and thread count (median of ``repeats``).

    ``progress`` hears one line per configuration as it starts.
    """
    thread_counts = threads or tuple(sorted({1, max_threads()}))
    out = []
    for k, (name, players) in enumerate(CONFIGS):
        if progress is not None:
            progress(f"bench: {name}, {players} players ({k + 1}/{len(CONFIGS)}), {repeats} x {games:,} rounds per thread count")
        rules = rules_preset(name).replace(players=players)
        policies = (policy_preset("random"),) * players
        # Measure 1 and N threads side by side, alternating, so that a burst of
        # load on the shared machine hits both alike.
        times: dict[int, list[float]] = {t: [] for t in thread_counts}
        for r in range(repeats):
            for t in thread_counts:
                times[t].append(_time_once(rules, policies, games, t, seed=r))
        for t in thread_counts:
            med = statistics.median(times[t])
            spread = (games / max(times[t]), games / min(times[t]))
            out.append(BenchRow(name, players, t, games, repeats, med, games / med, spread))
    return out


@dataclass
class RolloutRow:
    rules: str
    players: int
    policy: str
    start: str  # where the rollouts start: "round" (a dealt round's first turn) or "search" (a search's positions)
    rollouts: int  # per repeat (the median, for "search": the rounds decide how many)
    repeats: int
    rollouts_per_cpu_second: float  # median over repeats, one thread
    spread: tuple[float, float]  # slowest and fastest repeat


def measure_rollouts(count: int = 100_000, repeats: int = 5, progress: Say | None = None) -> list[RolloutRow]:
    """Search rollouts per CPU-second on one thread (median of ``repeats``), from two kinds of position.

    A rollout is what a search pays per option and rollout: copy the state, re-deal the hidden
    cards, copy, play to the round's end. ``start="round"``: ``count`` rollouts from a dealt round's
    first turn (kernel.rollouts), the longest a rollout gets. ``start="search"``: the rollouts of
    searches of ``SEARCH_BUDGET`` per option at seat 0's turns through ``SEARCH_ROUNDS`` rounds
    (kernel.searched_rollouts), the positions a search meets, with the searches' own work timed
    too. CPU time, not wall time: the machines are shared.
    """
    out = []
    for name, players, spec in ROLLOUT_CONFIGS:
        if progress is not None:
            progress(f"bench: search rollouts, {name}, {players} players, {spec}, {repeats} x {count:,} and {repeats} x a search")
        rules = rules_preset(name).replace(players=players)
        policy = policy_preset(spec)
        rollouts(rules, policy, 10)  # compile or load
        searched_rollouts(rules, policy, 2, 2)
        rates: dict[str, list[float]] = {"round": [], "search": []}
        counts = []
        for r in range(repeats):  # the two alternate, so that load on a shared machine hits both alike
            t0 = time.process_time()
            rollouts(rules, policy, count, seed=r)
            rates["round"].append(count / max(time.process_time() - t0, 1e-9))
            t0 = time.process_time()
            counts.append(searched_rollouts(rules, policy, SEARCH_BUDGET, SEARCH_ROUNDS, seed=r))
            rates["search"].append(counts[-1] / max(time.process_time() - t0, 1e-9))
        for start, n in (("round", count), ("search", int(statistics.median(counts)))):
            got = rates[start]
            out.append(RolloutRow(name, players, spec, start, n, repeats, statistics.median(got), (min(got), max(got))))
    return out


def cli_start(games: int = 1000, repeats: int = 3, cold: bool = False, progress: Say | None = None) -> dict[str, float]:
    """Wall time of ``unocli simulate --games N --quiet`` warm (median of ``repeats``), and cold on request.

    The cold run compiles the kernel into an empty numba cache: about a
    minute (more on a busy machine), so it is measured only when asked.
    """
    cmd = [sys.executable, "-m", "unocli", "simulate", "--games", str(games), "--quiet"]
    out: dict[str, float] = {}
    if cold:
        if progress is not None:
            progress("bench: compiling the kernel into an empty cache (the cold start; about half a minute)")
        with tempfile.TemporaryDirectory() as cache:
            t0 = time.perf_counter()
            subprocess.run(cmd, env={**os.environ, "NUMBA_CACHE_DIR": cache}, check=True, capture_output=True)
            out["cold_seconds"] = time.perf_counter() - t0
    if progress is not None:
        progress(f"bench: 'unocli simulate --games {games}' warm, {repeats} times")
    warm = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        warm.append(time.perf_counter() - t0)
    out["warm_seconds"] = statistics.median(warm)
    return out


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "numba_threads": max_threads(),
    }


def run(
    games: int = 200_000, repeats: int = 5, include_cli: bool = True, cold: bool = False, progress: Say | None = _stderr
) -> dict[str, Any]:
    """Everything ``unocli bench`` reports; ``cold`` adds the cold-compile start; ``progress`` hears what runs (stderr)."""
    if progress is not None:
        progress("bench: loading the kernel")
    load = warm_up()
    rows = measure(games, repeats, progress=progress)
    result: dict[str, Any] = {
        "machine": machine(),
        "kernel_load_seconds": load,
        "throughput": [asdict(r) for r in rows],
        "rollouts": [asdict(r) for r in measure_rollouts(repeats=repeats, progress=progress)],
    }
    if include_cli:
        result["cli"] = cli_start(cold=cold, progress=progress)
    return result


# ---------------------------------------------------------------- the Dask backend against the local one

TINY_SHARD = 250  # games per shard when measuring the cost of a shard
OVERHEAD_GAMES = 50_000  # games of the runs that measure it


def _time_run(backend: Any, rules: Any, games: int, shard: int, threads: int | None) -> float:
    """Seconds to play and merge ``games`` random-policy games in shards of ``shard`` on ``backend``.

    The shards and their merge are those of ``simulate()`` (the study layer,
    above this one), without its summary.
    """
    from unocli.run.accumulate import Accumulator
    from unocli.run.shards import RunSpec, run_shard, split

    spec = RunSpec(rules=rules, policies=(policy_preset("random"),) * rules.players, seed=0, threads=threads)
    t0 = time.perf_counter()
    acc = Accumulator(players=rules.players)
    for part in backend.map_unordered(partial(run_shard, spec), split(0, games, shard)):
        acc = acc.merge(part.acc)
    return time.perf_counter() - t0


def _dask_row(kind: str, backend: str, games: int, shard: int, seconds: list[float], threads: int) -> dict[str, Any]:
    """One backend's timings of one run: the median of the repeats, and the slowest and fastest repeat."""
    med = statistics.median(seconds)
    return {
        "run": kind,
        "backend": backend,
        "threads": threads,
        "shards": -(-games // shard),
        "shard_games": shard,
        "games": games,
        "repeats": len(seconds),
        "median_seconds": med,
        "rounds_per_second": games / med,
        "spread": (games / max(seconds), games / min(seconds)),
    }


def measure_dask(games: int = 200_000, repeats: int = 5, scheduler: str | None = None, workers: int = 2) -> dict[str, Any]:
    """The Dask backend against the local one, on the same games (official rules, 4 players, random policy).

    Without ``scheduler``, a LocalCluster of ``workers`` single-threaded worker
    processes; the local backend gets as many threads as the cluster has
    worker threads. Throughput: ``games`` rounds in big shards (4 per worker
    thread). Overhead per shard: up to ``OVERHEAD_GAMES`` rounds played once in
    big shards and once in shards of ``TINY_SHARD`` games; the extra time,
    divided by the extra shards. Medians of ``repeats``; the backends
    alternate so that load on a shared machine hits both alike.
    """
    from unocli.run.backends import LocalBackend
    from unocli.run.dask import DaskBackend

    rules = rules_preset("official").replace(players=4)
    t0 = time.perf_counter()
    dask = DaskBackend(scheduler, n_workers=workers)
    try:
        start_seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        dask.warm_up()
        warm_seconds = time.perf_counter() - t0
        info = dask.client.scheduler_info(n_workers=-1)["workers"]
        slots = sum(w["nthreads"] for w in info.values())
        local_threads = min(slots, max_threads())
        small = min(games, OVERHEAD_GAMES)
        plan = [("local", LocalBackend(), local_threads), ("dask", dask, None)]
        runs = [
            ("throughput", games, -(-games // (4 * slots))),
            ("big", small, -(-small // (4 * slots))),
            ("tiny", small, TINY_SHARD),
        ]
        times: dict[tuple[str, str], list[float]] = {}
        busy: list[float] = []
        for _ in range(repeats):
            for kind, n, shard in runs:
                for name, backend, threads in plan:
                    dask.compute_seconds = 0.0
                    seconds = _time_run(backend, rules, n, shard, threads)
                    times.setdefault((kind, name), []).append(seconds)
                    if name == "dask" and kind == "throughput":
                        busy.append(dask.compute_seconds / (seconds * slots))
    finally:
        dask.close()
    threads_of = {"local": local_threads, "dask": slots}
    rows = [
        _dask_row(kind, name, n, shard, times[(kind, name)], threads_of[name]) for kind, n, shard in runs for name, _, _ in plan
    ]
    by = {(r["run"], r["backend"]): r for r in rows}
    extra = by[("tiny", "local")]["shards"] - by[("big", "local")]["shards"]
    overhead = {
        name: (by[("tiny", name)]["median_seconds"] - by[("big", name)]["median_seconds"]) / max(1, extra) for name, _, _ in plan
    }
    return {
        "cluster": {
            "scheduler": scheduler or "LocalCluster",
            "workers": len(info),
            "threads": slots,
            "start_seconds": start_seconds,
            "warm_up_seconds": warm_seconds,
        },
        "throughput": rows,
        "efficiency": by[("throughput", "dask")]["rounds_per_second"] / by[("throughput", "local")]["rounds_per_second"],
        "worker_busy": statistics.median(busy),
        "overhead_per_shard_seconds": overhead,
    }


def run_dask(games: int = 200_000, repeats: int = 5, scheduler: str | None = None) -> dict[str, Any]:
    """Everything ``unocli bench --backend dask`` reports."""
    load = warm_up()
    return {"machine": machine(), "kernel_load_seconds": load, "dask": measure_dask(games, repeats, scheduler)}
