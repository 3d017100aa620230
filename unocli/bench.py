"""``unocli bench``: throughput of the kernel on fixed configurations.

Speed targets live here and in the README, never in timed tests. Every figure
is the median of several repeats, because the machines are shared and noisy.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from typing import Any

from .kernel import max_threads, play_rows
from .policies import preset as policy_preset
from .rules import preset as rules_preset

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


def measure(games: int = 200_000, repeats: int = 5, threads: tuple[int, ...] | None = None) -> list[BenchRow]:
    """Rounds per second for each fixed configuration and thread count (median of ``repeats``)."""
    thread_counts = threads or tuple(sorted({1, max_threads()}))
    out = []
    for name, players in CONFIGS:
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
            out.append(
                BenchRow(name, players, t, games, repeats, med, games / med, (games / max(times[t]), games / min(times[t])))
            )
    return out


def cli_start(games: int = 1000, repeats: int = 3) -> dict[str, float]:
    """Wall time of ``unocli simulate --games N --quiet`` cold (empty numba cache) and warm."""
    cmd = [sys.executable, "-m", "unocli", "simulate", "--games", str(games), "--quiet"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        cold = time.perf_counter() - t0
        warm = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, check=True, capture_output=True)
            warm.append(time.perf_counter() - t0)
    return {"cold_seconds": cold, "warm_seconds": statistics.median(warm)}


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "numba_threads": max_threads(),
    }


def run(games: int = 200_000, repeats: int = 5, include_cli: bool = True) -> dict[str, Any]:
    """Everything ``unocli bench`` reports."""
    load = warm_up()
    rows = measure(games, repeats)
    result: dict[str, Any] = {
        "machine": machine(),
        "kernel_load_seconds": load,
        "throughput": [asdict(r) for r in rows],
    }
    if include_cli:
        result["cli"] = cli_start()
    return result
