"""The bluff report's game theory on a grid and its typed result (split from bluff.py, which plays and renders).

The grid is the bluffer's win share over (bluff rate x challenge rate);
``fictitious_play`` finds the mixed equilibrium of the zero-sum game it
defines, ``pure_path`` the best-response path, ``crossing`` the break-even
rates, ``rate_bounds`` a bootstrap range of an equilibrium rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.bluff_decision import DecisionResult
from unocli.report.analyses.bluff_situations import SituationResult
from unocli.report.experiment import Experiment

FP_ITERATIONS = 3000


# ---------------------------------------------------------------- game theory on a grid


def fictitious_play(w: np.ndarray, iterations: int = FP_ITERATIONS) -> tuple[np.ndarray, np.ndarray]:
    """Mixtures over rows (maximiser) and columns (minimiser) after alternating best responses to the
    other side's history; ``w`` is ``[..., rows, cols]`` (leading axes are independent games)."""
    lead = w.shape[:-2]
    rows, cols = w.shape[-2:]
    cr = np.zeros((*lead, rows))
    cc = np.zeros((*lead, cols))
    cr[..., 0] = 1
    cc[..., 0] = 1
    flat_r, flat_c = cr.reshape(-1, rows), cc.reshape(-1, cols)
    ww = w.reshape(-1, rows, cols)
    at = np.arange(ww.shape[0])
    for _ in range(iterations):
        i = np.argmax(np.einsum("grc,gc->gr", ww, flat_c), axis=1)
        flat_r[at, i] += 1
        j = np.argmin(np.einsum("gr,grc->gc", flat_r, ww), axis=1)
        flat_c[at, j] += 1
    return cr / cr.sum(axis=-1, keepdims=True), cc / cc.sum(axis=-1, keepdims=True)


def pure_path(w: np.ndarray) -> list[tuple[int, int]]:
    """Alternating pure best responses from (0, 0) until a grid point repeats."""
    i, j = 0, 0
    seen = [(i, j)]
    while True:
        i = int(np.argmax(w[:, j]))
        j = int(np.argmin(w[i, :]))
        if (i, j) in seen:
            return [*seen, (i, j)]
        seen.append((i, j))


def crossing(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Where each row of ``ys`` first falls from above 0 to 0 or below (interpolated between grid points).

    ``-inf``: at or below 0 already at ``xs[0]`` (bluffing never pays); ``inf``: never falls (always pays).
    """
    ys = np.atleast_2d(ys)
    out = np.full(ys.shape[0], np.inf)
    for r, y in enumerate(ys):
        if y[0] <= 0:
            out[r] = -np.inf
            continue
        below = np.flatnonzero(y <= 0)
        if below.size:
            k = below[0]
            out[r] = xs[k - 1] + (xs[k] - xs[k - 1]) * y[k - 1] / (y[k - 1] - y[k])
    return out


def rate_bounds(samples: np.ndarray) -> tuple[float, float]:
    """Percentile interval of bootstrap break-even rates, which may be -inf or inf."""
    s = np.sort(np.asarray(samples, float))
    return float(s[int(0.025 * (len(s) - 1))]), float(s[int(np.ceil(0.975 * (len(s) - 1)))])


# ---------------------------------------------------------------- the typed result


@dataclass(frozen=True)
class Equilibrium:
    """Fictitious play on the grid of win shares, with 95% bootstrap intervals.

    ``nearest`` is the grid point (row, column) nearest the mixed equilibrium;
    ``bluffer_gain`` and ``opponent_gain`` what either side gains by deviating
    there (win share; an opponent's per opponent); ``path`` the plain
    alternating best responses between grid points from (0, 0).
    """

    bluff_rate: float
    bluff_low: float
    bluff_high: float
    challenge_rate: float
    challenge_low: float
    challenge_high: float
    value: float
    value_low: float
    value_high: float
    nearest: tuple[int, int]
    bluffer_gain: tuple[float, float, float]
    opponent_gain: tuple[float, float, float]
    path: list[tuple[int, int]]


@dataclass(frozen=True)
class BluffResult:
    """The bluff x challenge grid at one table size, and the corners at the other sizes.

    Arrays are ``[bluff rate, challenge rate]``: ``gain`` is the bluffer's win
    share minus its honest twin's (b = 0, same c), ``gain_ci`` the paired
    difference with its interval ``[..., (diff, low, high)]``, ``value_ci``
    each opponent's win-share change against never challenging (c = 0, same
    b), ``p_holm`` the Holm-adjusted p-values of the gains (1 for b = 0).
    ``grid`` holds all of it per cell (the bluff-gain CSV). ``break_even`` is
    the challenge rate where the gain pooled over b > 0 crosses 0 (``-inf``:
    never pays; ``inf``: pays on the whole grid) with bootstrap bounds;
    ``break_even_by_rate`` per bluff rate. ``per_bluff``: per challenge rate,
    the share of bluffs caught
    (pooled over b > 0), with bootstrap intervals. ``others``: the gain of
    bluffing at the top rate against c = 0 and the top c at every table size
    (empty when ``also_players`` adds none). ``per_seat``: the effects of
    challenging and of bluffing on every seat's win share (seat 0 the bluffer,
    seat 1 the next player, then the others), with simultaneous intervals and
    equivalence verdicts. ``situations``: the situation table, the one-player
    deviations and the best-response search (:mod:`~unocli.report.analyses.bluff_situations`). ``decisions``:
    the decision table (:mod:`~unocli.report.analyses.bluff_decision`), when ``decision_games`` is set.
    """

    exp: Experiment
    players: int
    bvals: np.ndarray
    cvals: np.ndarray
    deals: int
    gain: np.ndarray
    gain_ci: np.ndarray
    value_ci: np.ndarray
    p_holm: np.ndarray
    grid: pd.DataFrame
    break_even: float
    break_even_low: float
    break_even_high: float
    break_even_by_rate: pd.DataFrame
    per_bluff: pd.DataFrame
    equilibrium: Equilibrium
    others: pd.DataFrame
    games: int
    per_seat: pd.DataFrame = field(default_factory=pd.DataFrame)
    situations: SituationResult | None = None
    decisions: DecisionResult | None = None

    @property
    def replicates(self) -> int:
        return int(self.exp.options["replicates"])


def rate_text(x: float, top: float) -> str:
    """A break-even challenge rate in words where it is not a number."""
    if x == -np.inf:
        return "never pays"
    if x == np.inf:
        return f"pays beyond {top:g}"
    return fmt.fixed(x, 2)


def rate_ci_text(lo: float, hi: float, top: float, replicates: int) -> str:
    """The bootstrap interval of a break-even rate; a bound past the grid on both sides is said in words."""
    if lo == hi and not math.isfinite(lo):
        return f"({rate_text(lo, top)} in at least 97.5% of {replicates} bootstrap replicates)"
    return f"[{rate_text(lo, top)}, {rate_text(hi, top)}]"
