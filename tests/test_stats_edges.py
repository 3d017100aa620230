"""Edge cases and non-default levels of unocli.study.stats, with values written out by hand.

Mutation testing (mutation/run.sh) found these paths unchecked: an empty
sample, a single pair, and a level other than 95% passed through
indicator_mean and the paired difference. The expected values follow from
the definitions in each docstring: an empty sample has NaN everywhere and
keeps its n, successes and level; one pair has its difference as the mean,
an interval collapsed to it, no degrees of freedom, and p = 1 if it is 0 and
0 otherwise (a standard error of 0).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from unocli.study.stats import indicator_mean, paired_diff, paired_t, t_interval, welch, wilson

REL = 1e-9


@pytest.mark.parametrize("level", (0.9, 0.95))
def test_wilson_of_no_games_is_nan_and_keeps_its_counts(level: float) -> None:
    got = wilson(0, 0, level)
    assert math.isnan(got.share) and math.isnan(got.low) and math.isnan(got.high)
    assert (got.successes, got.n, got.level) == (0, 0, level)


@pytest.mark.parametrize("level", (0.8, 0.9, 0.99))
def test_indicator_mean_at_another_level_is_wilson_at_that_level(level: float) -> None:
    ref = sps.binomtest(37, 120).proportion_ci(level, method="wilson")
    got = indicator_mean(120, 37, level)
    assert got.level == level and got.method == "wilson" and got.n == 120
    assert got.mean == pytest.approx(37 / 120, rel=REL)
    assert (got.low, got.high) == pytest.approx((ref.low, ref.high), rel=REL)


@pytest.mark.parametrize(("total", "p"), [(0.5, 0.0), (0.0, 1.0), (-2.0, 0.0)])
@pytest.mark.parametrize("level", (0.9, 0.95))
def test_one_pair(total: float, p: float, level: float) -> None:
    got = paired_t(1, total, total * total, level)
    assert (got.diff, got.low, got.high, got.p, got.n, got.level) == (total, total, total, p, 1, level)
    assert got.se == 0.0 and got.sd == 0.0 and math.isnan(got.df)
    assert paired_diff([total + 1.0], [1.0], level) == got


@pytest.mark.parametrize("level", (0.8, 0.9, 0.99))
def test_paired_difference_keeps_its_level(level: float) -> None:
    x, y = [1.0, 4.0, 2.0, 8.0, 5.0], [0.0, 3.5, 2.5, 6.0, 3.0]
    ci = sps.ttest_rel(x, y).confidence_interval(level)
    got = paired_diff(x, y, level)
    assert got.level == level
    assert (got.low, got.high) == pytest.approx((ci.low, ci.high), rel=REL)


def test_welch_with_a_sample_of_one() -> None:
    """A sample of one adds its variance to the standard error but no term to Welch-Satterthwaite's df.

    Here ``v_a = 1 / 1``, ``v_b = 4 / 10``: se = sqrt(1.4), df = 1.4^2 / (0.4^2 / 9) = 110.25.
    """
    got = welch(5.0, 1.0, 1, 3.0, 2.0, 10)
    se, df = math.sqrt(1.4), 1.4**2 / (0.4**2 / 9)
    half = sps.t.ppf(0.975, df) * se
    assert (got.diff, got.se, got.df) == pytest.approx((2.0, se, df), rel=REL)
    assert (got.low, got.high) == pytest.approx((2.0 - half, 2.0 + half), rel=REL)
    assert got.p == pytest.approx(2 * sps.t.sf(2.0 / se, df), rel=1e-7)
    mirrored = welch(3.0, 2.0, 10, 5.0, 1.0, 1)
    assert (mirrored.diff, mirrored.se, mirrored.df) == pytest.approx((-2.0, se, df), rel=REL)


def test_welch_against_a_single_value_is_the_one_sample_t_test() -> None:
    """sd 0 and n 1 on one side: Welch is scipy's one-sample t test of the other sample against that value."""
    b = np.array([2.0, 3.5, 4.0, 1.0, 3.0, 5.5, 2.5])
    ref = sps.ttest_1samp(b, 5.0)
    ci = ref.confidence_interval(0.95)
    got = welch(b.mean(), b.std(ddof=1), b.size, 5.0, 0.0, 1)
    assert got.df == pytest.approx(b.size - 1, rel=REL)
    assert (got.low, got.high, got.p) == pytest.approx((ci.low - 5.0, ci.high - 5.0, ref.pvalue), rel=1e-7)


def test_welch_without_any_spread_falls_back_to_n_minus_2_at_least_1() -> None:
    one_each = welch(1.0, 0.0, 1, 1.0, 0.0, 1)
    assert (one_each.diff, one_each.se, one_each.low, one_each.high, one_each.p, one_each.df) == (0.0, 0.0, 0.0, 0.0, 1.0, 1)
    assert welch(2.0, 0.0, 4, 1.0, 0.0, 3).df == 5


@pytest.mark.parametrize("k", (0, 1))
def test_wilson_of_one_game(k: int) -> None:
    ref = sps.binomtest(k, 1).proportion_ci(0.95, method="wilson")
    got = wilson(k, 1)
    assert (got.share, got.successes, got.n) == (k, k, 1)
    assert (got.low, got.high) == pytest.approx((ref.low, ref.high), rel=REL, abs=1e-15)


@pytest.mark.parametrize("level", (0.8, 0.9, 0.99))
def test_welch_keeps_its_level(level: float) -> None:
    assert welch(5.0, 1.0, 8, 3.0, 2.0, 10, level).level == level


def test_wilson_bounds_stay_within_0_and_1() -> None:
    """At 0 or n successes the formula's bound lands on 0 or 1 up to rounding (over 1 at n = 16, under 0 at n = 21)."""
    for n in range(1, 100):
        assert wilson(n, n).high <= 1.0 and wilson(0, n).low >= 0.0, n
    assert wilson(16, 16).high == 1.0 and wilson(0, 21).low == 0.0


@pytest.mark.parametrize("level", (0.9, 0.95))
def test_t_interval_of_zero_and_one_value_keeps_n_and_level(level: float) -> None:
    empty = t_interval(0, 0.0, 0.0, level)
    assert (empty.n, empty.level) == (0, level)
    assert all(math.isnan(v) for v in (empty.mean, empty.sd, empty.low, empty.high))
    one = t_interval(1, 3.5, 12.25, level)
    assert (one.mean, one.sd, one.n, one.low, one.high, one.level) == (3.5, 0.0, 1, 3.5, 3.5, level)
