"""Shards: the unit of work every backend runs (docs/design.md §1, §4).

``run_shard(spec, (start, count))`` plays games ``start .. start+count-1`` and
returns their aggregates. It is a plain top-level function of picklable
arguments, so a Dask worker can run it as well as this process.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.kernel import play_folded
from unocli.kernel.encode import WINNER
from unocli.run.accumulate import Accumulator


@dataclass(frozen=True)
class RunSpec:
    """What to play: everything but the game indices."""

    rules: Rules
    policies: tuple[Policy, ...]
    seed: int
    match: bool = False
    rotate_seats: bool = False
    keep_games: bool = False
    threads: int | None = None


@dataclass
class ShardResult:
    """Aggregates of one shard; ``rows`` only when the spec keeps games."""

    start: int
    count: int
    acc: Accumulator
    wins: np.ndarray | None = None  # rotate_seats: per game, rotations won by each policy slot
    rows: np.ndarray | None = None  # keep_games: per-game rows (rotation-major when rotated)


def split(start: int, games: int, size: int) -> Iterator[tuple[int, int]]:
    """Consecutive (start, count) shards covering ``games`` games, made one at a time.

    Lazy, so a run of 10**13 games starts at once and holds one shard, not a
    list of 10**8 of them.
    """
    return ((s, min(size, start + games - s)) for s in range(start, start + games, size))


def rotated(policies: tuple[Policy, ...], k: int) -> tuple[Policy, ...]:
    """Seat assignment of rotation ``k``: the policy of seat s sits at (s + k) mod n."""
    n = len(policies)
    return tuple(policies[(s - k) % n] for s in range(n))


def run_shard(spec: RunSpec, shard: tuple[int, int]) -> ShardResult:
    """Play one shard of games and aggregate it."""
    start, count = shard
    n = spec.rules.players
    acc = Accumulator(players=n)
    wins = np.zeros((count, n), dtype=np.int64) if spec.rotate_seats else None
    kept = []
    for k in range(n if spec.rotate_seats else 1):
        # The kernel folds the games into the accumulator itself; rows are made
        # only when something here needs them per game.
        words, rows = play_folded(
            spec.rules,
            rotated(spec.policies, k),
            seed=spec.seed,
            start=start,
            count=count,
            match=spec.match,
            threads=spec.threads,
            tag=k,
            keep=spec.rotate_seats or spec.keep_games,
        )
        acc = acc.merge(Accumulator.from_kernel(n, words))
        if rows is None:
            continue
        if wins is not None:
            winner = rows[:, WINNER]
            won = winner >= 0
            wins[np.flatnonzero(won), (winner[won] - k) % n] += 1
        if spec.keep_games:
            kept.append(np.column_stack([rows, np.full(count, k)]) if spec.rotate_seats else rows)
    return ShardResult(start=start, count=count, acc=acc, wins=wins, rows=np.concatenate(kept) if spec.keep_games else None)
