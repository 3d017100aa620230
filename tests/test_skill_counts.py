"""The skill report's counts over cells (``analysis.skill.beyond_zero``, ``magnified``) against scipy and a hand
count, and the generic table view they are shown through (``report.forms.shown``, ``interval``)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats as sps

from unocli.analysis.skill import beyond_zero, magnified
from unocli.report import fmt
from unocli.report.forms import interval, shown


def _cells(gaps: list[float], se: float, n: int) -> pd.DataFrame:
    """Cells with 95% t intervals of half-width t(0.975, n - 1) * se around each per-round gap."""
    half = sps.t.ppf(0.975, n - 1) * se
    g = np.asarray(gaps)
    return pd.DataFrame({"round_n": n, "round_gap": g, "round_gap_low": g - half, "round_gap_high": g + half})


def test_beyond_zero_reads_intervals_simultaneous_over_the_cells():
    n, se = 50, 0.01
    # four cells read together: Bonferroni level 1 - 0.05 / 4, so a gap counts only beyond t(1 - 0.05/8, 49) * se
    sim = sps.t.ppf(1 - 0.05 / 8, n - 1) * se  # about 2.68 se
    ninety_five = sps.t.ppf(0.975, n - 1) * se  # about 2.01 se
    gaps = [sim * 1.01, (ninety_five + sim) / 2, -sim * 1.2, 0.0]  # the second clears 95% alone, not the family
    above, below, level = beyond_zero(_cells(gaps, se, n))
    assert (above, below) == (1, 1)
    assert level == 1 - 0.05 / 4


def test_beyond_zero_with_one_cell_is_the_95_interval():
    n, se = 30, 0.02
    just = sps.t.ppf(0.975, n - 1) * se
    assert beyond_zero(_cells([just * 1.001], se, n))[:2] == (1, 0)
    assert beyond_zero(_cells([just * 0.999], se, n))[:2] == (0, 0)


def test_magnified_counts_cells_whose_match_edge_is_larger_beyond_its_interval_over_the_family():
    """Five cells read together (z = 2.576, Bonferroni 0.05 / 5 two-sided, normal at 10,000 deals): a round edge is
    clear beyond z se; a match edge counts when it exceeds it, same sign, by more than z (se_round + se_match)."""
    n, se_r, se_m = 10_000, 0.002, 0.006
    z = sps.norm.ppf(1 - 0.05 / 10)
    half_r, half_m = sps.t.ppf(0.975, n - 1) * se_r, sps.t.ppf(0.975, n - 1) * se_m
    need = z * (se_r + se_m)  # 0.0206
    rounds = np.array([0.02, 0.02, -0.03, 0.003, 0.05])  # the fourth: 0.003 < z x 0.002 = 0.0052, not clear
    matches = np.array([0.02 + need * 1.05, 0.02 + need * 0.95, -0.03 - need * 1.2, 0.5, 0.04])
    frame = pd.DataFrame(
        {
            "round_n": n, "match_n": n, "round_gap": rounds, "round_gap_low": rounds - half_r, "round_gap_high": rounds + half_r,
            "match_gap": matches, "match_gap_low": matches - half_m, "match_gap_high": matches + half_m,
        }
    )  # fmt: skip
    # larger beyond the worst case: the first and the third; the second only by its point; the last is smaller
    assert magnified(frame) == (2, 4)
    assert magnified(frame.iloc[3:4]) == (0, 0)
    # read alone at 95% the second would count: the family's level is what keeps it out
    assert matches[1] - rounds[1] > 1.96 * (se_r + se_m)


def test_shown_takes_columns_by_name_or_by_row_and_blanks_a_missing_interval():
    frame = pd.DataFrame({"rule": ["a", "b"], "d": [0.012, math.nan], "lo": [0.002, math.nan], "hi": [0.022, math.nan]})
    table = shown(frame, {"rule": "rule", "change": interval(fmt.pp_ci, "d", "lo", "hi", 2), "len": lambda r: len(r["rule"])})
    assert list(table.columns) == ["rule", "change", "len"]
    assert table["rule"].tolist() == ["a", "b"] and table["len"].tolist() == [1, 1]
    assert table["change"].tolist() == [fmt.pp_ci(0.012, 0.002, 0.022, 2), ""]
    assert "+1.20" in table["change"].iloc[0]  # 0.012 of a share is 1.2 pp
