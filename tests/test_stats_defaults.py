"""Every interval of unocli.study.stats is a 95% interval unless asked otherwise.

The figures a user reads (simulate, compare, check, the report) call these
functions without a level, so the default *is* the level every "95%" in the
output promises. Each default is checked against scipy.stats at 0.95, written
out here, not against the function's own default. Same formulas, so agreement
is asked to 1e-9 relative.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from unocli.study.stats import indicator_mean, paired_diff, paired_t, t_interval, welch, wilson

REL = 1e-9
RNG = np.random.default_rng(16)
X = RNG.normal(3.0, 2.0, 25)
Y = X + RNG.normal(0.4, 1.0, 25)


def test_t_interval_default_is_95_percent() -> None:
    est = t_interval(X.size, float(X.sum()), float((X * X).sum()))
    low, high = sps.ttest_1samp(X, 0.0).confidence_interval(0.95)
    assert est.level == 0.95
    assert (est.low, est.high) == pytest.approx((low, high), rel=REL)


def test_wilson_and_indicator_default_is_95_percent() -> None:
    ref = sps.binomtest(37, 120).proportion_ci(0.95, method="wilson")
    share = wilson(37, 120)
    est = indicator_mean(120, 37)
    assert share.level == est.level == 0.95
    assert (share.low, share.high) == pytest.approx((ref.low, ref.high), rel=REL)
    assert (est.low, est.high) == pytest.approx((ref.low, ref.high), rel=REL)


def test_paired_default_is_95_percent() -> None:
    ci = sps.ttest_rel(X, Y).confidence_interval(0.95)
    d = X - Y
    for got in (paired_diff(X, Y), paired_t(d.size, float(d.sum()), float((d * d).sum()))):
        assert got.level == 0.95
        assert (got.low, got.high) == pytest.approx((ci.low, ci.high), rel=REL)


def test_welch_default_is_95_percent() -> None:
    ci = sps.ttest_ind(X, Y, equal_var=False).confidence_interval(0.95)
    got = welch(X.mean(), X.std(ddof=1), X.size, Y.mean(), Y.std(ddof=1), Y.size)
    assert got.level == 0.95
    assert (got.low, got.high) == pytest.approx((ci.low, ci.high), rel=REL)
