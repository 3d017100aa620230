"""Measures the reports' computations share: how games are played, typed access to comparisons and the
quantiles of histograms (balance and its bootstrap are :mod:`unocli.analysis.seats`, a family's verdicts
:mod:`unocli.analysis.verdicts`).

Nothing here words a finding or draws a chart (that is ``unocli.report``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import stats as sps

from unocli.run.backends import Backend
from unocli.run.precision import DEFAULT_MAX_GAMES
from unocli.study.arm import Arm
from unocli.study.compare import Comparison, compare
from unocli.study.stats import Difference, Estimate

if TYPE_CHECKING:
    pass


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
