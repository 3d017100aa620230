"""Paired comparisons: several arms played on the same deals (common random numbers).

An *arm* (:class:`~unocli.study.arm.Arm`) is a rule set with one policy per
seat. :func:`compare` plays every arm on the same games
``start .. start + n - 1`` of the same seed, so game ``i`` of every arm starts
from the same shuffled deck (docs/design.md §1), and summarises per game
*quantities* into mergeable sums:

- per arm and quantity: the sum and the sum of squares (means, t intervals);
- per compared pair of arms and quantity: the sum of squared per-game
  differences, so a paired interval needs no per-game rows (memory does not
  grow with the number of games);
- per arm: a full :class:`~unocli.run.accumulate.Accumulator` (histograms of turns,
  cards drawn and the longest stack);
- per block of games (game ``i`` belongs to block ``i mod blocks``), arm and
  quantity: the sum, for bootstrap intervals of derived figures (balance,
  ratios, break-even points). Blocks depend on game indices only, never on
  how the games were split into shards.

Quantities (:func:`quantity_names`): the metrics of ``run.accumulate.METRICS``
(the §9 counters, ``rounds``, ``rounds_blocked``, ``rounds_capped``,
``rounds_stuck``), the outcome indicators ``won``, ``blocked``, ``capped``,
``stuck``, who won by role (``win_first``, ``win_dealer``, ``win_place_K``),
and per seat ``win_S``
(1 when seat S won), ``lose_S`` (1 when another seat won), ``cards_left_S``
and ``points_S``; and, recorded only when asked for, ``one_reached`` and
``comeback``, the parts of the comeback chance (a ratio of the two,
:data:`~unocli.run.quantities.COMEBACK_PARTS`).

Lengths and counters (every quantity but the 0/1 indicators) are summarised
over *finished* games, won or blocked (:func:`over_finished`): an arm's mean
over the games it finished, a paired difference over the deals both arms
finished. A capped or stuck game has no length of play, and averaging it in
would make the figure depend on ``max_turns``; its share is the ``capped`` or
``stuck`` indicator's mean, over every game.

Two arms that play identically give per-game differences of exactly zero, so
their difference is exactly 0 with the interval [0, 0] and p = 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np
import pandas as pd

from unocli.errors import ConfigError
from unocli.run.accumulate import Accumulator
from unocli.run.backends import Backend, LocalBackend
from unocli.run.precision import DEFAULT_MAX_GAMES, TargetInfo, check_target, play_to_target

# The quantities are part of this module's API (reports, balance and the CLI read them from here).
from unocli.run.quantities import is_binary as is_binary
from unocli.run.quantities import over_finished
from unocli.run.quantities import quantity_matrix as quantity_matrix
from unocli.run.quantities import quantity_names as quantity_names
from unocli.run.quantities import recordable as recordable
from unocli.run.shards import DEFAULT_BLOCKS, PairShard, PairSpec, run_pair_shard
from unocli.study.arm import Arm
from unocli.study.simulate import check_run_args
from unocli.study.stats import Difference, Estimate, holm, indicator_mean, paired_t, t_interval

DEFAULT_SHARD = 1 << 14
MIN_SHARD = 2048  # a kernel call costs ~10-20 ms of fixed overhead: shards smaller than this waste it
SHARD_CELLS = 4_000_000  # games x arms x quantities held at once in one shard

Progress = Callable[[int, int], None]


def _exact(a: np.ndarray) -> np.ndarray:
    return a.astype(object)


@dataclass
class PairedSums:
    """Exact running sums over games of every arm, pair and block."""

    arms: int
    quantities: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    cross: tuple[tuple[int, int], ...]
    players: int
    blocks: int = DEFAULT_BLOCKS
    games: int = 0
    s1: np.ndarray = field(init=False)
    s2: np.ndarray = field(init=False)
    d1: np.ndarray = field(init=False)
    d2: np.ndarray = field(init=False)
    both: np.ndarray = field(init=False)
    fin: np.ndarray = field(init=False)
    sx: np.ndarray = field(init=False)
    block_s1: np.ndarray = field(init=False)
    block_games: np.ndarray = field(init=False)
    block_fin: np.ndarray = field(init=False)
    accs: list[Accumulator] = field(init=False)

    def __post_init__(self) -> None:
        k, q = self.arms, len(self.quantities)
        self.s1 = _exact(np.zeros((k, q), np.int64))
        self.s2 = _exact(np.zeros((k, q), np.int64))
        self.d1 = _exact(np.zeros((len(self.pairs), q), np.int64))
        self.d2 = _exact(np.zeros((len(self.pairs), q), np.int64))
        self.both = _exact(np.zeros(len(self.pairs), np.int64))
        self.fin = _exact(np.zeros(k, np.int64))
        self.sx = _exact(np.zeros((k, len(self.cross)), np.int64))
        self.block_s1 = np.zeros((self.blocks, k, q), np.int64)
        self.block_games = np.zeros(self.blocks, np.int64)
        self.block_fin = np.zeros((self.blocks, k), np.int64)
        self.accs = [Accumulator(players=self.players) for _ in range(k)]

    def add(self, part: PairShard) -> None:
        """Fold one shard into the totals."""
        self.games += part.count
        self.s1 = self.s1 + _exact(part.s1)
        self.s2 = self.s2 + _exact(part.s2)
        self.d1 = self.d1 + _exact(part.d1)
        self.d2 = self.d2 + _exact(part.d2)
        self.both = self.both + _exact(part.both)
        self.fin = self.fin + _exact(part.fin)
        self.sx = self.sx + _exact(part.sx)
        self.block_s1 += part.block_s1
        self.block_games += part.block_n
        self.block_fin += part.block_fin
        self.accs = [a.merge(b) for a, b in zip(self.accs, part.accs, strict=True)]


@dataclass
class Comparison:
    """The result of :func:`compare`: means, paired differences and bootstrap blocks."""

    arms: tuple[Arm, ...]
    baseline: int
    seed: int
    match: bool
    start: int
    sums: PairedSums
    target: TargetInfo | None = None

    @property
    def games(self) -> int:
        """Games played per arm (the number of paired deals)."""
        return self.sums.games

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.arms)

    @property
    def quantities(self) -> tuple[str, ...]:
        return self.sums.quantities

    def index(self, arm: str) -> int:
        try:
            return self.names.index(arm)
        except ValueError:
            raise ConfigError(f"unknown arm {arm!r}; the arms are: {', '.join(self.names)}") from None

    def _q(self, quantity: str) -> int:
        try:
            return self.quantities.index(quantity)
        except ValueError:
            raise ConfigError(f"quantity {quantity!r} was not recorded; recorded: {', '.join(self.quantities)}") from None

    def acc(self, arm: str) -> Accumulator:
        """The full accumulator (histograms, outcomes, wins) of one arm."""
        return self.sums.accs[self.index(arm)]

    def finished(self, arm: str) -> int:
        """Games the arm finished (won or blocked): the n of its lengths and counters."""
        return int(self.sums.fin[self.index(arm)])

    def mean(self, arm: str, quantity: str) -> Estimate:
        """A quantity's mean in one arm with its 95% interval: Student's t, or Wilson's for 0/1 quantities.

        Lengths and counters are over the games the arm finished (:func:`over_finished`).
        """
        k, j = self.index(arm), self._q(quantity)
        n = int(self.sums.fin[k]) if over_finished(quantity) else self.games
        total = int(self.sums.s1[k, j])
        if is_binary(quantity):
            return indicator_mean(n, total)
        return t_interval(n, total, int(self.sums.s2[k, j]))

    def diff(self, arm: str, ref: str, quantity: str) -> Difference:
        """Mean per-game difference ``arm - ref`` with a paired 95% t interval and two-sided p-value.

        Lengths and counters are compared over the games both arms finished.
        """
        a, b, j = self.index(arm), self.index(ref), self._q(quantity)
        if a == b:
            return paired_t(int(self.sums.fin[a]) if over_finished(quantity) else self.games, 0, 0)
        if (a, b) in self.sums.pairs:
            p_index = self.sums.pairs.index((a, b))
        elif (b, a) in self.sums.pairs:  # the squared differences do not depend on the order
            p_index = self.sums.pairs.index((b, a))
        else:
            raise ConfigError(f"arms {arm!r} and {ref!r} were not compared in this run")
        n = int(self.sums.both[p_index]) if over_finished(quantity) else self.games
        sign = 1 if (a, b) in self.sums.pairs else -1
        return paired_t(n, sign * int(self.sums.d1[p_index, j]), int(self.sums.d2[p_index, j]))

    def both_finished(self, arm: str, ref: str) -> int:
        """Deals both arms finished: the n of a paired difference in length."""
        a, b = self.index(arm), self.index(ref)
        if a == b:
            return int(self.sums.fin[a])
        pair = (a, b) if (a, b) in self.sums.pairs else (b, a)
        return int(self.sums.both[self.sums.pairs.index(pair)])

    def _counts(self) -> np.ndarray:
        """The n behind each mean ``[arms, quantities]``: finished games or all games."""
        masked = np.array([over_finished(q) for q in self.quantities])
        fin = self.sums.fin.astype(np.float64)[:, None]
        return np.where(masked[None, :], fin, float(self.games))

    def means(self) -> np.ndarray:
        """Point means ``[arms, quantities]`` (lengths and counters over finished games)."""
        return self.sums.s1.astype(np.float64) / np.maximum(self._counts(), 1)

    def boot_means(self, replicates: int = 1000, seed: int = 0) -> np.ndarray:
        """Bootstrap replicates of the means ``[replicates, arms, quantities]``, resampling blocks of games.

        Blocks hold disjoint games and every arm of a block was played on the
        same deals, so resampling blocks keeps the pairing between arms.
        """
        used = np.flatnonzero(self.sums.block_games > 0)
        sums = self.sums.block_s1[used].astype(np.float64).reshape(len(used), -1)
        masked = np.array([over_finished(q) for q in self.quantities])
        games = self.sums.block_games[used].astype(np.float64)[:, None, None]
        fin = self.sums.block_fin[used].astype(np.float64)[:, :, None]
        counts = np.where(masked[None, None, :], fin, games).reshape(len(used), -1)
        rng = np.random.default_rng(seed)
        weights = rng.multinomial(len(used), np.full(len(used), 1.0 / len(used)), size=replicates).astype(np.float64)
        out = (weights @ sums) / np.maximum(weights @ counts, 1.0)
        return out.reshape(replicates, len(self.arms), len(self.quantities))

    def table(self, metrics: Sequence[str] | None = None) -> pd.DataFrame:
        """Tidy rows (arm x metric): mean with its interval, and the paired difference from the baseline.

        ``p_holm`` adjusts the p-values of every non-baseline row of the table
        together (Holm's method), so a reader may scan the whole table.
        """
        names = list(metrics) if metrics is not None else list(self.quantities)
        base = self.names[self.baseline]
        rows = []
        for arm in self.arms:
            for name in names:
                est = self.mean(arm.name, name)
                row = {
                    "arm": arm.name,
                    "metric": name,
                    "n": est.n,
                    "mean": est.mean,
                    "sd": est.sd,
                    "ci_low": est.low,
                    "ci_high": est.high,
                    "interval": est.method,
                    "baseline": base,
                }
                if arm.name == base:
                    row |= {"diff": math.nan, "diff_low": math.nan, "diff_high": math.nan, "p": math.nan, "n_pairs": 0}
                else:
                    d = self.diff(arm.name, base, name)
                    row |= {"diff": d.diff, "diff_low": d.low, "diff_high": d.high, "p": d.p, "n_pairs": d.n}
                rows.append(row)
        df = pd.DataFrame(rows)
        mask = df["arm"] != base
        df["p_holm"] = math.nan
        if mask.any():
            df.loc[mask, "p_holm"] = holm(df.loc[mask, "p"].to_numpy())
        return df


def check_arms(arms: Sequence[Arm]) -> None:
    """Refuse an empty list, duplicate names or mixed table sizes."""
    if not arms:
        raise ConfigError("a comparison needs at least one arm")
    names = [a.name for a in arms]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ConfigError(f"arm name {dup[0]!r} is used twice")
    players = {a.players for a in arms}
    if len(players) > 1:
        raise ConfigError(f"arms of one comparison must have the same number of players, not {sorted(players)}")


def compare(
    arms: Sequence[Arm],
    *,
    games: int,
    seed: int = 0,
    baseline: str | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
    quantities: Sequence[str] | None = None,
    cross: Sequence[tuple[str, str]] = (),
    match: bool | None = None,
    start: int = 0,
    batch_size: int = DEFAULT_SHARD,
    blocks: int = DEFAULT_BLOCKS,
    target_error: float | None = None,
    metric: str = "turns",
    max_games: int = DEFAULT_MAX_GAMES,
    target_on: str = "diff",
    threads: int | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Play every arm on the same games and compare them, paired.

    Parameters
    ----------
    arms
        The arms (same number of players; none may rotate seats).
    games
        Games per arm, or the first batch when ``target_error`` is given.
    seed, start
        Games ``start ..`` of run ``seed``: the same deals in every arm.
    baseline
        The arm the others are compared with (default: the first).
    pairs
        (arm, reference) pairs to record paired differences for (default:
        every arm against the baseline).
    quantities
        Quantities to record (default: all of :func:`quantity_names`).
    cross
        Pairs of quantities whose per-game products are summed (for ratio intervals).
    match
        Play every arm as matches to ``target_score`` (True) or single rounds
        (False), whatever the arms say; None: as the arms say (they must agree).
    batch_size, blocks
        Largest shard, and the number of bootstrap blocks (game i is in block i mod blocks).
    target_error, metric, max_games
        Play batches until the 95% half-width of ``metric`` (the widest paired
        difference, or the widest arm mean when nothing is paired) is at most
        ``target_error``, or ``max_games`` games per arm were played.
    target_on
        ``"diff"``: the target applies to paired differences (when any are
        recorded); ``"mean"``: to every arm's mean.
    threads, backend, progress
        Numba threads per shard, where shards run, and ``progress(done, planned)``.
    """
    arms = _played_as(arms, match)
    check_run_args(games, seed)
    check_target(target_error, max_games)
    names = _recorded(arms[0].players, quantities, metric if target_error is not None else None)
    spec, base = _plan(arms, int(seed), names, baseline, pairs, cross, threads, blocks)
    sums = PairedSums(
        arms=len(arms), quantities=names, pairs=spec.pairs, cross=spec.cross, players=arms[0].players, blocks=blocks
    )
    result = Comparison(arms=arms, baseline=base, seed=int(seed), match=spec.match, start=start, sums=sums)
    play = _player(spec, sums, start, batch_size, backend, progress)
    result.target = play_to_target(
        play,
        lambda: _widest(result, metric, target_on),
        first=games,
        target_error=target_error,
        metric=metric,
        max_games=max_games,
    )
    return result


def _player(
    spec: PairSpec, sums: PairedSums, start: int, batch_size: int, backend: Backend | None, progress: Progress | None
) -> Callable[[int, int], None]:
    """``play(done, count)``: games ``start + done ..`` of every arm, in shards, folded into ``sums``.

    A batch is cut into shards of about ``count / blocks`` games, at least
    ``MIN_SHARD`` (a kernel call's fixed cost), and at most ``batch_size`` and
    the size whose per-game quantities of every arm fit in ``SHARD_CELLS`` values.
    """
    cap = max(MIN_SHARD, SHARD_CELLS // (len(spec.tables) * len(spec.quantities)))
    runner = backend or LocalBackend()

    def play(done: int, count: int) -> None:
        size = max(1, min(batch_size, cap, max(MIN_SHARD, math.ceil(count / spec.blocks))))
        first = start + done
        shards = [(s, min(size, first + count - s)) for s in range(first, first + count, size)]
        for part in runner.map_unordered(partial(run_pair_shard, spec), shards):
            sums.add(part)
            if progress is not None:
                progress(sums.games, done + count)

    return play


def _plan(
    arms: tuple[Arm, ...],
    seed: int,
    names: tuple[str, ...],
    baseline: str | None,
    pairs: Sequence[tuple[str, str]] | None,
    cross: Sequence[tuple[str, str]],
    threads: int | None,
    blocks: int,
) -> tuple[PairSpec, int]:
    """What every shard plays and records, and the index of the baseline arm."""
    base, pair_idx = _pairing(arms, baseline, pairs)
    spec = PairSpec(
        tables=tuple((a.rules, a.policies) for a in arms),
        seed=seed,
        match=arms[0].match,
        quantities=names,
        pairs=pair_idx,
        cross=tuple((names.index(a), names.index(b)) for a, b in cross),
        threads=threads,
        blocks=blocks,
    )
    return spec, base


def _played_as(arms: Sequence[Arm], match: bool | None) -> tuple[Arm, ...]:
    """The arms, checked, and all played as rounds or all as matches (``match`` overrides what they say)."""
    arms = tuple(arms)
    check_arms(arms)
    rotated = [a.name for a in arms if a.rotate_seats]
    if rotated:
        raise ConfigError(f"arm {rotated[0]!r} rotates seats, which a comparison does not do (simulate does)")
    if match is not None:
        return tuple(a if a.match == match else replace(a, match=match) for a in arms)
    if len({a.match for a in arms}) > 1:
        raise ConfigError("arms of one comparison must all play single rounds or all play matches")
    return arms


def _recorded(players: int, quantities: Sequence[str] | None, metric: str | None) -> tuple[str, ...]:
    """The quantities to record: those asked for (default all of :func:`quantity_names`), plus the targeted ``metric``."""
    known = recordable(players)
    names = tuple(quantities) if quantities is not None else quantity_names(players)
    for q in (*names, metric if metric is not None else names[0]):
        if q not in known:
            raise ConfigError(f"unknown metric {q!r}; the metrics are: {', '.join(known)}")
    if metric is not None and metric not in names:
        names = (*names, metric)
    return names


def _pairing(
    arms: Sequence[Arm], baseline: str | None, pairs: Sequence[tuple[str, str]] | None
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The baseline's index and the (arm, reference) index pairs to record differences for."""
    arm_names = [a.name for a in arms]
    if baseline is not None and baseline not in arm_names:
        raise ConfigError(f"baseline {baseline!r} is not an arm; the arms are: {', '.join(arm_names)}")
    base = arm_names.index(baseline) if baseline is not None else 0

    def index(name: str) -> int:
        if name not in arm_names:
            raise ConfigError(f"unknown arm {name!r}; the arms are: {', '.join(arm_names)}")
        return arm_names.index(name)

    if pairs is None:
        return base, tuple((k, base) for k in range(len(arms)) if k != base)
    return base, tuple((index(a), index(b)) for a, b in pairs)


def _widest(result: Comparison, metric: str, on: str = "diff") -> float:
    """The widest 95% half-width of ``metric``: over paired differences, else over arm means."""
    if result.sums.pairs and on == "diff":
        halves = [result.diff(result.names[a], result.names[b], metric).half_width for a, b in result.sums.pairs]
    else:
        halves = [result.mean(arm, metric).half_width for arm in result.names]
    return max(halves) if halves else math.inf
