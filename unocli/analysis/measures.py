"""Measures the reports' computations share: how games are played, typed access to comparisons, balance,
quantiles of histograms, bootstrap intervals and the verdicts of a family of differences.

Nothing here words a finding or draws a chart (that is ``unocli.report``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import stats as sps

from unocli.run.backends import Backend
from unocli.run.precision import DEFAULT_MAX_GAMES
from unocli.study.arm import Arm
from unocli.study.compare import Comparison, compare
from unocli.study.stats import Difference, Equivalence, Estimate, equivalence

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Plan:
    """How a computation plays its games: the run's name (for the log), seed, size and target, and where it runs.

    ``games`` are per arm; with ``target_error`` a comparison plays until the
    95% half-width of ``metric`` is at most that (or ``max_games`` were played).
    """

    name: str
    seed: int
    games: int
    backend: Backend
    log: Callable[[str], None]
    threads: int | None = None
    target_error: float | None = None
    max_games: int = DEFAULT_MAX_GAMES
    metric: str = "turns"

    def compare(self, arms: Sequence[Arm], *, games: int | None = None, label: str = "", **kwargs: Any) -> Comparison:
        """:func:`~unocli.study.compare.compare` of ``arms`` with the plan's seed, size, target and backend.

        ``games`` replaces the plan's size (and then no target applies unless ``target_error`` is passed).
        """
        n = games if games is not None else self.games
        self.log(f"{self.name}: {label or 'arms'}: {len(arms)} arms x {n:,} games")
        target = kwargs.pop("target_error", self.target_error if games is None else None)
        kwargs.setdefault("metric", self.metric)
        return compare(
            arms,
            games=n,
            seed=self.seed,
            target_error=target,
            max_games=self.max_games,
            threads=self.threads,
            backend=self.backend,
            **kwargs,
        )


# ---------------------------------------------------------------- typed access to a comparison
# The computations read a Comparison's means and differences only through these two functions, so a change
# of Comparison's return types is a change here alone.


def arm_mean(comp: Comparison, arm: str, quantity: str) -> Estimate:
    """The mean of ``quantity`` in ``arm`` with its 95% interval."""
    return comp.mean(arm, quantity)


def arm_diff(comp: Comparison, arm: str, ref: str, quantity: str) -> Difference:
    """The paired difference ``arm`` minus ``ref`` in ``quantity``, with its 95% interval, p-value and number of pairs."""
    return comp.diff(arm, ref, quantity)


def arm_rows(
    comp: Comparison, p: int, names: Sequence[str], base: str, replicates: int, seed: int, label: str
) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Per arm, the row a table of arms at ``p`` players starts with, and its balance change from ``base``.

    The row: ``players``, the arm's name under ``label``, ``n``, mean turns
    (finished rounds) and the win share of the player who took the first turn
    (``win_first``, which the comparison must record) with 95% intervals, and balance with a
    bootstrap 95% interval (``replicates`` block-bootstrap replicates). The
    change: balance minus ``base``'s with its bootstrap interval (empty for
    ``base`` itself), for the caller to put after its own columns.
    """
    boot = comp.boot_means(replicates, seed=seed % (2**32) + p)
    cols = seat_columns(comp, p)
    bal, bal_b = balance(comp.means()[:, cols]), balance(boot[:, :, cols])
    kb = comp.index(base)
    for name in names:
        k = comp.index(name)
        t, w = arm_mean(comp, name, "turns"), arm_mean(comp, name, "win_first")
        bl, bh = percentile_interval(bal_b[:, k])
        row = {
            "players": p,
            label: name,
            "n": comp.games,
            "turns": t.mean,
            "turns_low": t.low,
            "turns_high": t.high,
            "first_player_share": w.mean,
            "first_low": w.low,
            "first_high": w.high,
            "balance": bal[k],
            "balance_low": bl,
            "balance_high": bh,
        }
        change: dict[str, Any] = {}
        if name != base:
            dl, dh = percentile_interval(bal_b[:, k] - bal_b[:, kb])
            change = {"d_balance": bal[k] - bal[kb], "d_balance_low": dl, "d_balance_high": dh}
        yield name, row, change


def judged(diffs: Sequence[Difference], margin: float, scale: float = 1.0) -> list[dict[str, Any]]:
    """Equivalence verdicts of a family of differences read together (one table), as row fields.

    Each difference is judged against ``+-margin`` (in the units of the shown
    figure: ``scale`` times the difference, e.g. 100 for percentage points)
    on its simultaneous interval at level 1 - 0.05 / len(diffs)
    (:func:`~unocli.study.stats.equivalence`). The fields: ``sim_low``,
    ``sim_high`` (that interval, scaled), ``margin``, ``verdict``, ``p_tost``
    (Bonferroni-adjusted TOST p-value).
    """
    out = []
    for d in diffs:
        e: Equivalence = equivalence(d, margin / scale, family=len(diffs))
        out.append(
            {
                "sim_low": e.low * scale,
                "sim_high": e.high * scale,
                "sim_level": e.level,
                "margin": margin,
                "verdict": e.verdict,
                "p_tost": e.p_tost_adj,
            }
        )
    return out


def add_verdicts(df: pd.DataFrame, diffs: Sequence[Difference], prefix: str, margin: float, scale: float = 1.0) -> None:
    """Put :func:`judged` verdicts of ``diffs`` (one per row of ``df``, in order) into ``df`` as ``{prefix}_*`` columns.

    The columns: ``{prefix}_sim_low``, ``{prefix}_sim_high`` (the simultaneous
    interval, in the units of the difference), ``{prefix}_verdict`` and
    ``{prefix}_p_tost``; the level is in ``sim_level``.
    """
    for key, values in _columns(judged(diffs, margin, scale)).items():
        if key in ("sim_low", "sim_high"):
            df[f"{prefix}_{key}"] = np.asarray(values) / scale
        elif key in ("verdict", "p_tost"):
            df[f"{prefix}_{key}"] = values
        elif key == "sim_level":
            df["sim_level"] = values


def _columns(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    keys = rows[0].keys() if rows else ()
    return {k: [r[k] for r in rows] for k in keys}


def identical_arms(comps: Sequence[Comparison], names: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of arms that played bit-identical games in every comparison (same fingerprint of every row).

    Two rule sets can differ on paper and not in play (free-plus4 and
    no-challenge for players who never bluff): a report shows them as one
    effect, explained, not as two findings.
    """
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if all(c.acc(a).fingerprint == c.acc(b).fingerprint and c.acc(a).games == c.acc(b).games for c in comps):
                out.append((a, b))
    return out


def seat_columns(comp: Comparison, players: int) -> list[int]:
    """The columns of ``win_0 .. win_{players-1}`` in the comparison's quantities."""
    return [comp.quantities.index(f"win_{s}") for s in range(players)]


def total_games(comps: Sequence[Comparison]) -> int:
    """Games played by comparisons: games per arm times arms, summed."""
    return sum(c.games * len(c.arms) for c in comps)


# ---------------------------------------------------------------- distributions


def hist_value(hist: np.ndarray, rank: int) -> int:
    """The value of the ``rank``-th smallest observation (1-based) of a histogram of 0, 1, 2, ..."""
    cum = np.cumsum(hist)
    rank = min(max(rank, 1), int(cum[-1]))
    return int(np.searchsorted(cum, rank))


def hist_quantile(hist: np.ndarray, q: float) -> tuple[int, int, int]:
    """The ``q`` quantile of a histogram with a distribution-free 95% interval (binomial order statistics).

    A value in the last bin means "at least that much" (the histogram is clipped).
    """
    n = int(np.sum(hist))
    if n == 0:
        return (-1, -1, -1)
    point = hist_value(hist, math.ceil(q * n))
    lo_rank = max(1, int(sps.binom.ppf(0.025, n, q)))
    hi_rank = min(n, int(sps.binom.ppf(0.975, n, q)) + 1)
    return point, hist_value(hist, lo_rank), hist_value(hist, hi_rank)


def dkw_eps(n: int) -> float:
    """Half-width of the Dvoretzky-Kiefer-Wolfowitz 95% band for an empirical CDF of n games."""
    return math.sqrt(math.log(2 / 0.05) / (2 * max(n, 1)))


# ---------------------------------------------------------------- balance and bootstrap


def balance(shares: np.ndarray) -> np.ndarray:
    """Ludii's balance: 1 minus the largest gap between two seats' win shares (last axis = seats)."""
    shares = np.asarray(shares, float)
    return 1.0 - (shares.max(axis=-1) - shares.min(axis=-1))


def fair_balance(n: int, players: int, won_share: float = 1.0, draws: int = 2000, seed: int = 0) -> float:
    """Expected balance of a perfectly fair game measured on ``n`` games: below 1 from sampling noise alone."""
    rng = np.random.default_rng(seed)
    p = np.append(np.full(players, won_share / players), 1.0 - won_share)
    counts = rng.multinomial(n, np.clip(p, 0, 1) / np.clip(p, 0, 1).sum(), size=draws)[:, :players]
    return float(balance(counts / n).mean())


def percentile_interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates (NaNs ignored)."""
    s = np.asarray(samples, float)
    s = s[np.isfinite(s)]
    if s.size == 0:
        return (math.nan, math.nan)
    a = (1 - level) / 2
    return float(np.quantile(s, a)), float(np.quantile(s, 1 - a))
