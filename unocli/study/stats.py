"""Intervals and tests: every figure a user sees carries n and an interval."""

from __future__ import annotations

import math

import numpy as np
from scipy import special  # scipy.stats takes seconds to import; special has the same distributions

Z95 = 1.959963984540054


def t_quantile(q: float, df: float) -> float:
    """Quantile of Student's t."""
    return float(special.stdtrit(df, q))


def t_sf(x: float, df: float) -> float:
    """Upper tail P(T > x) of Student's t."""
    return float(special.stdtr(df, -x))


def norm_quantile(q: float) -> float:
    return float(special.ndtri(q))


def mean_ci(n: int, total: float, total_sq: float, level: float = 0.95) -> tuple[float, float, float, float]:
    """Mean, sample sd and a t interval for the mean, from exact sums.

    Returns ``(mean, sd, lo, hi)``; the interval is NaN-free: with n < 2 or a
    zero variance it collapses to the mean.
    """
    if n <= 0:
        return (math.nan, math.nan, math.nan, math.nan)
    mean = total / n
    if n < 2:
        return (mean, 0.0, mean, mean)
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    sd = math.sqrt(var)
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return (mean, sd, mean - half, mean + half)


def wilson(successes: int, n: int, level: float = 0.95) -> tuple[float, float, float]:
    """Share and Wilson score interval: ``(p, lo, hi)``."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    z = norm_quantile(0.5 + level / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def paired_diff(x: np.ndarray, y: np.ndarray, level: float = 0.95) -> tuple[float, float, float, float, float]:
    """Mean of ``x - y`` over paired samples with a t interval and two-sided p-value.

    Returns ``(diff, sd, lo, hi, p)``. Identical samples give exactly
    ``(0, 0, 0, 0, 1)``.
    """
    d = np.asarray(x, dtype=np.float64) - np.asarray(y, dtype=np.float64)
    n = d.size
    total = float(d.sum())
    mean, sd, lo, hi = mean_ci(n, total, float((d * d).sum()), level)
    if n < 2 or sd == 0.0:
        return (mean, sd, lo, hi, 1.0 if mean == 0.0 else 0.0)
    t = mean / (sd / math.sqrt(n))
    p = 2 * t_sf(abs(t), n - 1)
    return (mean, sd, lo, hi, p)


def holm(pvalues: list[float] | np.ndarray) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (family-wise error control)."""
    p = np.asarray(pvalues, dtype=np.float64)
    m = p.size
    order = np.argsort(p)
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * p[i])
        adjusted[i] = min(1.0, running)
    return adjusted
