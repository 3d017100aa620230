"""The smallest change a check can detect: the minimum detectable effect of its two-sample z tests.

A check of ``m`` tests fails a metric when its two-sided p-value, Holm-adjusted,
is below ``alpha``; Holm rejects at least whatever Bonferroni (``alpha / m``
each) rejects, so a change of

    (z(1 - alpha / (2 m)) + z(power)) * sd * sqrt(1 / n_baseline + 1 / n_check)

is failed with probability at least ``power`` (normal approximation; the far
tail of the other side is ignored, which only adds power). This is the figure
``baseline`` stores and ``check`` shows.
"""

from __future__ import annotations

import math

from unocli.study.stats import norm_quantile

ALPHA = 0.001  # check's default family-wise alpha
POWER = 0.8


def detectable(sd: float, n_base: int, n_check: int, *, alpha: float = ALPHA, tests: int = 1, power: float = POWER) -> float:
    """Smallest difference of means (or shares, with ``sd = sqrt(p (1 - p))``) failed with probability ``power``."""
    if n_base < 1 or n_check < 1 or not math.isfinite(sd):
        return math.nan
    z = norm_quantile(1 - alpha / (2 * tests)) + norm_quantile(power)
    return z * sd * math.sqrt(1 / n_base + 1 / n_check)
