"""Intervals and tests: every figure a user sees carries n and an interval.

This is the one place p-values and intervals are computed. Each function
returns a frozen record that names its fields:

- :class:`Estimate`: a mean with its interval (:func:`t_interval`; a 0/1
  quantity with a Wilson interval, :func:`indicator_mean`);
- :class:`Proportion`: a share of successes with a Wilson interval (:func:`wilson`);
- :class:`Difference`: a difference with its standard error, interval and
  two-sided p-value (:func:`paired_t` from sums, :func:`paired_diff` from
  samples, :func:`welch` for two independent samples).

:func:`holm` adjusts a family of p-values. :func:`equivalence` judges a
difference against an equivalence margin on its simultaneous interval and
:func:`classify` gives the verdict, one of :data:`VERDICTS`: ``larger`` (the
interval lies entirely beyond +margin or -margin: the change is larger than
the margin, the only verdict reports word as a change), ``negligible``
(excludes 0, within the margin), ``equivalent`` (includes 0, within the
margin), ``unsized`` (excludes 0, crosses a margin: a change of undecided
size) and ``undecided`` (includes 0, crosses a margin); docs/statistics.md
explains them for users. Every test here is checked against scipy.stats, a
published example or a worked example in tests/test_stats.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special  # scipy.stats takes seconds to import; special has the same distributions

Z95 = 1.959963984540054
#: The family-wise error rate every report's verdicts and adjusted tests are read at.
ALPHA = 0.05


def t_quantile(q: float, df: float) -> float:
    """Quantile of Student's t."""
    return float(special.stdtrit(df, q))


def t_sf(x: float, df: float) -> float:
    """Upper tail P(T > x) of Student's t."""
    return float(special.stdtr(df, -x))


def norm_quantile(q: float) -> float:
    """Quantile of the standard normal distribution."""
    return float(special.ndtri(q))


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class Estimate:
    """A mean with a two-sided interval.

    ``sd`` is the sample standard deviation (n - 1 in the denominator);
    ``method`` is ``"t"`` (Student's t interval) or ``"wilson"`` (a 0/1
    quantity: the Wilson score interval, widened to contain the mean).
    """

    mean: float
    sd: float
    n: int
    low: float
    high: float
    level: float = 0.95
    method: str = "t"

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@dataclass(frozen=True)
class Proportion:
    """``successes`` of ``n`` as a share with a Wilson score interval."""

    share: float
    successes: int
    n: int
    low: float
    high: float
    level: float = 0.95


@dataclass(frozen=True)
class Difference:
    """A difference of means with its standard error, a two-sided interval and p-value.

    ``n`` counts the observations behind it: pairs for a paired difference,
    both samples together for two independent ones. ``sd`` is the standard
    deviation of the per-pair differences (NaN for independent samples); ``df``
    the degrees of freedom of the t distribution the interval and p-value use.
    A difference with a standard error of 0 has p = 1 when it is 0 and p = 0
    otherwise.
    """

    diff: float
    se: float
    n: int
    low: float
    high: float
    p: float
    df: float
    sd: float = math.nan
    level: float = 0.95

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


# ---------------------------------------------------------------- intervals


def t_interval(n: int, total: float, total_sq: float, level: float = 0.95) -> Estimate:
    """Mean, sample sd and a t interval for the mean, from exact sums of the values and their squares.

    The interval is NaN-free for n >= 1: with n < 2 or a zero variance it
    collapses to the mean. With n = 0 every field is NaN.
    """
    if n <= 0:
        return Estimate(math.nan, math.nan, n, math.nan, math.nan, level)
    mean = total / n
    if n < 2:
        return Estimate(mean, 0.0, n, mean, mean, level)
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    sd = math.sqrt(var)
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return Estimate(mean, sd, n, mean - half, mean + half, level)


def wilson(successes: int, n: int, level: float = 0.95) -> Proportion:
    """Share of successes with the Wilson score interval."""
    if n <= 0:
        return Proportion(math.nan, successes, n, math.nan, math.nan, level)
    z = norm_quantile(0.5 + level / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Proportion(p, successes, n, max(0.0, centre - half), min(1.0, centre + half), level)


def indicator_mean(n: int, successes: int, level: float = 0.95) -> Estimate:
    """The mean of a 0/1 quantity (its sd as for any quantity) with the Wilson interval.

    The bounds are widened to contain the mean so no rounding dust puts the
    point estimate outside its own interval.
    """
    est = t_interval(n, successes, successes, level)
    share = wilson(successes, n, level)
    low, high = min(share.low, est.mean), max(share.high, est.mean)
    return Estimate(est.mean, est.sd, est.n, low, high, level, method="wilson")


# ---------------------------------------------------------------- differences


def _two_sided_p(diff: float, se: float, df: float) -> float:
    """Two-sided p-value of ``diff / se`` under Student's t (p = 1 for 0/0, 0 for x/0)."""
    if se == 0.0:
        return 1.0 if diff == 0.0 else 0.0
    return 2 * t_sf(abs(diff) / se, df)


def paired_t(n: int, total: float, total_sq: float, level: float = 0.95) -> Difference:
    """Paired t interval and two-sided p-value from the sum and the sum of squares of ``n`` per-pair differences.

    Identical samples (every difference 0) give exactly diff 0, interval [0, 0], p = 1.
    """
    est = t_interval(n, total, total_sq, level)
    if n < 2:
        p = 1.0 if est.mean == 0.0 else 0.0
        return Difference(est.mean, est.sd, n, est.low, est.high, p, math.nan, est.sd, level)
    se = est.sd / math.sqrt(n)
    return Difference(est.mean, se, n, est.low, est.high, _two_sided_p(est.mean, se, n - 1), n - 1, est.sd, level)


def paired_diff(x: np.ndarray, y: np.ndarray, level: float = 0.95) -> Difference:
    """Mean of ``x - y`` over paired samples with a t interval and two-sided p-value."""
    d = np.asarray(x, dtype=np.float64) - np.asarray(y, dtype=np.float64)
    return paired_t(int(d.size), float(d.sum()), float((d * d).sum()), level)


def welch(mean_a: float, sd_a: float, n_a: int, mean_b: float, sd_b: float, n_b: int, level: float = 0.95) -> Difference:
    """``mean_a - mean_b`` of two independent samples: Welch's t test and interval, from their summaries.

    ``sd_a`` and ``sd_b`` are the samples' standard deviations. The degrees of
    freedom are Welch-Satterthwaite's; when neither sample has a spread they
    fall back to ``n_a + n_b - 2`` (at least 1).
    """
    diff = mean_a - mean_b
    v_a, v_b = sd_a * sd_a / n_a, sd_b * sd_b / n_b
    se = math.sqrt(v_a + v_b)
    denom = (v_a * v_a / (n_a - 1) if n_a > 1 else 0.0) + (v_b * v_b / (n_b - 1) if n_b > 1 else 0.0)
    df = (v_a + v_b) ** 2 / denom if denom > 0 else max(n_a + n_b - 2, 1)
    half = t_quantile(0.5 + level / 2, df) * se
    return Difference(diff, se, n_a + n_b, diff - half, diff + half, _two_sided_p(diff, se, df), df, math.nan, level)


def holm(pvalues: list[float] | np.ndarray) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (family-wise error control), in the order given."""
    p = np.asarray(pvalues, dtype=np.float64)
    m = p.size
    order = np.argsort(p)
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * p[i])
        adjusted[i] = min(1.0, running)
    return adjusted


# ---------------------------------------------------------------- equivalence

LARGER, NEGLIGIBLE, EQUIVALENT, UNDECIDED, UNSIZED = "larger", "negligible", "equivalent", "undecided", "unsized"
#: Every verdict :func:`equivalence` gives, in the order reports list them.
VERDICTS = (LARGER, UNSIZED, NEGLIGIBLE, EQUIVALENT, UNDECIDED)
#: The verdicts that show a change (the interval excludes 0), of whatever size.
CHANGED = frozenset({LARGER, UNSIZED, NEGLIGIBLE})
#: The verdicts that show no change beyond the margin (the interval lies within it).
WITHIN_MARGIN = frozenset({NEGLIGIBLE, EQUIVALENT})


def classify(low: float, high: float, margin: float) -> str:
    """The verdict an interval ``[low, high]`` gives against ``+-margin`` (see :class:`Equivalence`).

    ``larger`` when the interval lies entirely beyond ``+margin`` or entirely
    beyond ``-margin``; ``negligible`` when it excludes 0 but lies within
    ``[-margin, +margin]``; ``equivalent`` when it lies within the margin and
    includes 0; ``unsized`` when it excludes 0 but crosses a margin (a change
    of undecided size); ``undecided`` when it includes 0 and crosses a margin.
    An end exactly on a margin counts as within it.
    """
    excludes_zero = low > 0 or high < 0
    if low > margin or high < -margin:
        return LARGER
    if -margin <= low and high <= margin:
        return NEGLIGIBLE if excludes_zero else EQUIVALENT
    return UNSIZED if excludes_zero else UNDECIDED


@dataclass(frozen=True)
class Equivalence:
    """A difference judged against an equivalence margin, with the interval the verdict reads.

    ``low``/``high`` is the simultaneous (Bonferroni) interval at level
    ``1 - alpha / family``; the verdict (:func:`classify`) reads where it
    lies against 0 and ``+-margin``:

    - ``larger``: entirely beyond ``+margin`` or entirely beyond ``-margin``
      (the change is larger than the margin; the only verdict a report words
      as "lengthens", "pays", "loses" ...);
    - ``negligible``: excludes 0 but lies within ``+-margin`` (a change
      smaller than the margin);
    - ``equivalent``: lies within ``+-margin`` and includes 0 (no change
      beyond the margin);
    - ``unsized``: excludes 0 and crosses a margin (a change of undecided size);
    - ``undecided``: includes 0 and crosses a margin.

    Reading every verdict off the one shown interval keeps the figure and
    the claim consistent; with ``family`` verdicts each holds with
    family-wise error at most ``alpha``. (The TOST at level ``alpha /
    family`` needs only the ``1 - 2 alpha / family`` interval, so this one is
    conservative for equivalence.) ``p_tost`` is the raw TOST p-value (the
    larger of the two one-sided t tests); ``p_tost_adj`` its Bonferroni
    adjustment. docs/statistics.md explains the verdicts for users.
    """

    diff: float
    se: float
    n: int
    df: float
    margin: float
    low: float
    high: float
    level: float
    family: int
    p_tost: float
    p_tost_adj: float
    verdict: str


def tost_p(diff: float, se: float, df: float, margin: float) -> float:
    """Two one-sided t tests of ``|true diff| >= margin``: the larger of their p-values.

    H0a: diff <= -margin (p = P(T > (diff + margin) / se)); H0b: diff >= +margin
    (p = P(T > (margin - diff) / se)). With se = 0 the p-value is 0 inside the
    margin and 1 outside.
    """
    if se == 0.0 or not math.isfinite(df):
        return 0.0 if abs(diff) < margin else 1.0
    return max(t_sf((diff + margin) / se, df), t_sf((margin - diff) / se, df))


def equivalence(d: Difference, margin: float, family: int = 1, alpha: float = 0.05) -> Equivalence:
    """Judge a :class:`Difference` against ``+-margin`` (the verdicts of :class:`Equivalence`).

    ``family`` is the number of verdicts read together (a table's rows): the
    interval is widened to the simultaneous level ``1 - alpha / family``.
    """
    family = max(int(family), 1)
    level = 1 - alpha / family
    if d.se == 0.0 or not math.isfinite(d.df):
        low = high = d.diff
    else:
        half = t_quantile(1 - alpha / (2 * family), d.df) * d.se
        low, high = d.diff - half, d.diff + half
    p = tost_p(d.diff, d.se, d.df, margin)
    return Equivalence(
        d.diff, d.se, d.n, d.df, margin, low, high, level, family, p, min(1.0, p * family), classify(low, high, margin)
    )


# ---------------------------------------------------------------- clustered shares


def clustered_share(clusters: int, total: float, total_sq: float, per_cluster: int, level: float = 0.95) -> Estimate:
    """A share whose observations come in correlated clusters (the seat rotations of one deal): a t interval over clusters.

    ``total`` sums, over clusters, the successes in each cluster (for example
    the rotations of a deal a policy won), ``total_sq`` their squares, and
    every cluster holds ``per_cluster`` observations. The share of cluster g
    is ``x_g = successes_g / per_cluster``; the clusters are independent, so
    the interval is Student's t on the ``x_g`` (``n`` counts clusters). A
    Wilson interval with n = clusters x per_cluster would treat the
    observations of a cluster as independent: too wide when they move against
    each other (seat shares of one deal sum to one), too narrow when together.
    """
    if per_cluster <= 0:
        return Estimate(math.nan, math.nan, clusters, math.nan, math.nan, level, method="cluster-t")
    est = t_interval(clusters, total / per_cluster, total_sq / (per_cluster * per_cluster), level)
    return Estimate(est.mean, est.sd, est.n, est.low, est.high, level, method="cluster-t")


def cluster_bound_mean(n: int, total: float, total_sq: float, per_cluster: int, level: float = 0.95) -> Estimate:
    """A mean of ``n`` observations in clusters of ``per_cluster`` whose per-cluster sums were not kept: a t interval
    that cannot be too narrow, whatever the correlation within a cluster.

    With intraclass correlation rho in [0, 1] the design effect is
    ``1 + (per_cluster - 1) rho <= per_cluster``, so ``Var(mean) <= per_cluster *
    sigma^2 / n``; and the sum of squared deviations has expectation
    ``sigma^2 (n - 1 - (per_cluster - 1) rho) >= sigma^2 (n - per_cluster)``, so
    ``SS / (n - per_cluster)`` does not underestimate ``sigma^2``. The interval is
    Student's t with ``n / per_cluster - 1`` degrees of freedom: when every
    cluster repeats one value it is exactly the t interval over the cluster
    means, and for independent observations it is wider (about
    ``sqrt(per_cluster)`` times). ``n`` counts observations.
    """
    clusters = n // per_cluster if per_cluster > 0 else 0
    if clusters < 2:
        mean = total / n if n > 0 else math.nan
        return Estimate(mean, math.nan, n, math.nan, math.nan, level, method="cluster-bound-t")
    mean = total / n
    squares = max(0.0, total_sq - total * total / n)
    se = math.sqrt(per_cluster * squares / ((n - per_cluster) * n))
    half = t_quantile(0.5 + level / 2, clusters - 1) * se
    return Estimate(mean, math.sqrt(squares / (n - 1)), n, mean - half, mean + half, level, method="cluster-bound-t")
