"""Shards: the unit of work every backend runs (docs/design.md §1, §4).

``run_shard(spec, (start, count))`` plays games ``start .. start+count-1`` of
one table and returns their aggregates; ``run_pair_shard(spec, (start, count))``
plays them at every arm of a paired comparison and returns their sums
(:mod:`unocli.study.compare`). Both are plain top-level functions of picklable
arguments, so a Dask worker can run them as well as this process.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.kernel import play_folded, play_rows
from unocli.kernel.encode import WINNER
from unocli.run.accumulate import Accumulator, finished
from unocli.run.quantities import over_finished, quantity_matrix

# Bootstrap blocks. More blocks give a finer resampling distribution for non-smooth figures (the max-gap
# balance covered about 92% with 32); a 95% interval of a mean covers 94.3% with 256 (tests/test_stats.py,
# the slow coverage test), and a block still holds > 100 games at 30,000 games.
DEFAULT_BLOCKS = 256


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


# ---------------------------------------------------------------- the pair shard (study.compare)


@dataclass(frozen=True)
class PairSpec:
    """Everything a shard needs (picklable, for any backend)."""

    tables: tuple[tuple[Rules, tuple[Policy, ...]], ...]
    seed: int
    match: bool
    quantities: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    cross: tuple[tuple[int, int], ...]
    threads: int | None = None
    blocks: int = DEFAULT_BLOCKS


@dataclass
class PairShard:
    """The sums of one shard of games (int64 numpy arrays; converted to exact ints on merge)."""

    start: int
    count: int
    s1: np.ndarray  # [arms, quantities]
    s2: np.ndarray  # [arms, quantities]
    d1: np.ndarray  # [pairs, quantities]
    d2: np.ndarray  # [pairs, quantities]
    both: np.ndarray  # [pairs]: games both arms finished
    fin: np.ndarray  # [arms]: games each arm finished
    sx: np.ndarray  # [arms, cross]
    accs: list[Accumulator]
    block_s1: np.ndarray  # [blocks, arms, quantities]
    block_n: np.ndarray  # [blocks]
    block_fin: np.ndarray  # [blocks, arms]


def run_pair_shard(spec: PairSpec, shard: tuple[int, int]) -> PairShard:
    """Play games ``start .. start + count - 1`` under every arm and sum their quantities.

    Quantities summarised over finished games (:func:`over_finished`) are zeroed
    in games an arm did not finish, and a paired difference of one is taken
    over the games both arms finished (``both``).
    """
    start, count = shard
    accs = []
    q = np.empty((len(spec.tables), count, len(spec.quantities)), dtype=np.int64)  # [arms, games, quantities]
    fin = np.empty((len(spec.tables), count), dtype=bool)
    for k, (rules, policies) in enumerate(spec.tables):
        rows = play_rows(rules, policies, seed=spec.seed, start=start, count=count, match=spec.match, threads=spec.threads)
        acc = Accumulator(players=rules.players)
        acc.add_rows(rows, first_index=start)
        accs.append(acc)
        quantity_matrix(rows, spec.quantities, rules.players, out=q[k])
        fin[k] = finished(rows)
    masked = np.array([over_finished(name) for name in spec.quantities], dtype=bool)
    q[:, :, masked] *= fin[:, :, None]
    s1 = q.sum(axis=1)
    s2 = (q * q).sum(axis=1)
    d1 = np.zeros((len(spec.pairs), len(spec.quantities)), dtype=np.int64)
    d2 = np.zeros_like(d1)
    both = np.zeros(len(spec.pairs), dtype=np.int64)
    for p, (a, b) in enumerate(spec.pairs):
        common = fin[a] & fin[b]
        d = q[a] - q[b]
        d[:, masked] *= common[:, None]
        d1[p], d2[p], both[p] = d.sum(axis=0), (d * d).sum(axis=0), common.sum()
    sx = np.zeros((len(spec.tables), len(spec.cross)), dtype=np.int64)
    for c, (i, j) in enumerate(spec.cross):
        sx[:, c] = (q[:, :, i] * q[:, :, j]).sum(axis=1)
    block = np.arange(start, start + count, dtype=np.int64) % spec.blocks
    order = np.argsort(block, kind="stable")
    block_n = np.bincount(block, minlength=spec.blocks).astype(np.int64)
    block_s1 = np.zeros((spec.blocks, len(spec.tables), len(spec.quantities)), dtype=np.int64)
    present = np.flatnonzero(block_n)
    starts = np.concatenate([[0], np.cumsum(block_n)[:-1]])[present]
    block_s1[present] = np.add.reduceat(q[:, order], starts, axis=1).transpose(1, 0, 2)
    block_fin = np.stack([np.bincount(block, weights=f, minlength=spec.blocks) for f in fin], axis=1).astype(np.int64)
    return PairShard(
        start=start,
        count=count,
        s1=s1,
        s2=s2,
        d1=d1,
        d2=d2,
        both=both,
        fin=fin.sum(axis=1).astype(np.int64),
        sx=sx,
        accs=accs,
        block_s1=block_s1,
        block_n=block_n,
        block_fin=block_fin,
    )
