"""The one number-formatting module: shares, points, signed differences, intervals, p-values and counts."""

from __future__ import annotations

import math

import pytest

from unocli.report import fmt


def test_counts_shares_points_and_pvalues():
    assert fmt.count(12345) == "12,345"
    assert fmt.share(0.26843, 2) == "26.84%"
    assert fmt.share(0.25) == "25.0%"
    assert fmt.pp(-0.013) == "-1.30 pp"
    assert fmt.pp(0.0) == "+0.00 pp"
    assert fmt.signed(0.5, 1) == "+0.5"
    assert fmt.pvalue(0.0004) == "<0.001"
    assert fmt.pvalue(0.0123) == "0.012"
    assert fmt.pvalue(math.nan) == "" and fmt.pvalue(None) == ""


def test_intervals_share_their_decimals():
    assert fmt.interval(50.93, 50.58, 51.28, 2) == "50.93 [50.58, 51.28]"
    assert fmt.share_ci(0.2684, 0.2564, 0.2805, 2) == "26.84% [25.64%, 28.05%]"
    # a difference of shares: the point carries the unit, the bounds are signed points
    assert fmt.pp_ci(0.0123, 0.004, 0.0206, 2) == "+1.23 pp [+0.40, +2.06]"
    assert fmt.signed_ci(0.12, -0.2, 0.44, 2) == "+0.12 [-0.20, +0.44]"
    # compact report intervals: the mean's decimals for all three (not "18.3 [18, 18.5]")
    assert fmt.ci(18.3, 18.0, 18.5) == "18.3 [18.0, 18.5]"
    assert fmt.ci(1.0, 1.0, 1.0) == "1.00 [1.00, 1.00]"
    assert fmt.ci(1216.5, 1180.0, 1252.9) == "1,216 [1,180, 1,253]"


def test_decimals_follow_the_width_of_the_interval():
    # two significant figures of the half-width
    assert fmt.decimals_for(50.58, 51.28) == 2  # half-width 0.35
    assert fmt.decimals_for(45.9, 49.0) == 1  # 1.55
    assert fmt.decimals_for(-7.74, 8.96) == 1  # 8.35
    assert fmt.decimals_for(-12.0, 14.0) == 0  # 13
    assert fmt.decimals_for(0.0, 0.0) == 2  # no width: the default
    assert fmt.interval(0.0162, 0.01444, 0.01796) == "0.0162 [0.0144, 0.0180]"
    # shares: the width in percentage points decides
    assert fmt.share_ci(0.2613, 0.2457, 0.2775) == "26.1% [24.6%, 27.8%]"
    assert fmt.pp_ci(-0.005, -0.021, 0.011) == "-0.5 pp [-2.1, +1.1]"
    assert fmt.point(0.2613, 0.2457, 0.2775, kind="share") == "26.1%"
    assert fmt.bounds(0.2457, 0.2775, kind="share") == "[24.6%, 27.8%]"


@pytest.mark.parametrize("exponent", range(-9, 10))
def test_never_scientific_notation(exponent):
    x = 2.5 * 10.0**exponent
    texts = [
        fmt.sig(x),
        fmt.sig(-x),
        fmt.num(x),
        fmt.fixed(x, 3),
        fmt.signed_ci(x, x / 2, 2 * x),
        fmt.interval(x, -x, x),
        fmt.share_ci(x, 0.0, x),
        fmt.pp_ci(x, -x, x),
        fmt.ci(x, x / 2, 2 * x),
        fmt.value(x, fmt.sig_decimals(x), "signed"),
    ]
    for text in texts:
        assert "e" not in text.lower(), (x, text)
    assert fmt.sig(x) != "0"


def test_significant_figures():
    assert fmt.sig(2.5e-05) == "0.00002500"
    assert fmt.sig(42.6712) == "42.67"
    assert fmt.sig(1216.5) == "1,216"
    assert fmt.sig(0) == "0"
    assert fmt.sig_decimals(0.0001234) == 6  # capped
    assert fmt.sig_decimals(0.0) == 2


def test_values_that_do_not_exist():
    for text in (
        fmt.share(math.nan),
        fmt.pp(math.inf),
        fmt.signed(math.nan),
        fmt.num(None),
        fmt.sig(math.nan),
        fmt.fixed(math.nan),
    ):
        assert text == "n/a"
    assert fmt.interval(math.nan, 0.0, 1.0, 2) == "n/a [0.00, 1.00]"


def test_a_point_without_an_interval_says_so():
    # a cell too small for an interval (the bluff decision's under 30 deals) printed "-2.80 pp [n/a, n/a]"
    assert fmt.pp_ci(-0.028, math.nan, math.nan, 1) == "-2.8 pp (no interval)"
    assert fmt.share_ci(0.25, math.nan, math.nan, 0) == "25% (no interval)"
    assert fmt.interval(1.5, math.nan, 2.0, 1) == "1.5 [n/a, 2.0]"  # one bound: the interval is shown as it is


def test_quantile_of_a_clipped_histogram():
    assert fmt.quantile(25, 24, 26, top=400) == "25 [24, 26]"
    assert fmt.quantile(399, 398, 400, top=400) == "399 [398, >=400]"
