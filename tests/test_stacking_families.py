"""The stacking report reads its families on adjusted intervals (issue 30 item 3): each column of changes is judged
as one family on simultaneous intervals (analysis/stacking.py judge_column, against scipy's t quantile and the verdict
rule of docs/statistics.md written out), the strategy summary counts verdicts of those intervals, and a finding says
the fields differ only from an interaction between them. The tiny run is test_report_stacking's (300 deals, 4
players, off and any, fields random, basic and adapted). Fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from test_report_stacking import ctx, experiment, tiny  # noqa: F401  (the fixtures)

from unocli.analysis.stacking import judge_column
from unocli.report.analyses import stacking


def _rule(label: str, low: float, high: float, m: float) -> bool:
    within, holds_zero = -m <= low and high <= m, low <= 0 <= high
    beyond = low > m or high < -m
    return {
        "larger": beyond,
        "negligible": within and not holds_zero,
        "equivalent": within and holds_zero,
        "unsized": not holds_zero and not within and not beyond,
        "undecided": holds_zero and not within,
    }[label]


def test_judge_column_against_scipy_and_the_written_rule():
    frame = pd.DataFrame(
        {
            "n": [100, 100, 100, 100],
            "d_x": [np.nan, 3.0, 0.05, 0.6],
            "d_x_se": [np.nan, 0.5, 0.1, 0.3],
            "d_x_df": [np.nan, 99.0, 99.0, 99.0],
            "d_x_p": [np.nan, 1e-6, 0.6, 0.05],
            "d_x_low": [np.nan, 2.0, -0.15, 0.0],
            "d_x_high": [np.nan, 4.0, 0.25, 1.2],
        }
    )
    judge_column(frame, "d_x", 1.0)
    q = sps.t.ppf(1 - 0.05 / 6, 99)  # three rows judged together: two-sided 1 - 0.05/3
    assert frame.loc[1:, "d_x_sim_low"].tolist() == pytest.approx([3.0 - q * 0.5, 0.05 - q * 0.1, 0.6 - q * 0.3])
    assert frame.loc[1:, "d_x_sim_high"].tolist() == pytest.approx([3.0 + q * 0.5, 0.05 + q * 0.1, 0.6 + q * 0.3])
    assert frame.loc[1:, "d_x_verdict"].tolist() == ["larger", "equivalent", "undecided"]
    assert frame["d_x_sim_level"].iloc[1] == pytest.approx(1 - 0.05 / 3)
    assert math.isnan(frame.loc[0, "d_x_sim_low"]) and pd.isna(frame.loc[0, "d_x_verdict"])  # the baseline's row


def test_every_family_of_the_report_is_judged_on_its_simultaneous_intervals(tiny):  # noqa: F811
    m = tiny.exp.margins
    f = tiny.fields[tiny.fields["stacking"] == "any"]
    for column, margin in (("d_turns", m["turns"]), ("d_cards_drawn", 0.0), ("d_comeback", m["win_share_pp"] / 100)):
        assert (f[f"{column}_sim_low"] <= f[f"{column}_low"] + 1e-12).all(), column  # wider than the 95% interval
        assert f[f"{column}_sim_level"].tolist() == pytest.approx([1 - 0.05 / len(f)] * len(f))
        for _, r in f.iterrows():
            assert _rule(r[f"{column}_verdict"], r[f"{column}_sim_low"], r[f"{column}_sim_high"], margin), column
    s = tiny.strategy[tiny.strategy["stacking"] == "any"]
    for _, r in s.iterrows():
        assert _rule(r["interaction_verdict"], r["interaction_sim_low"], r["interaction_sim_high"], m["win_share_pp"] / 100)
    # the interactions between fields: one per pair of fields at 4 players, for turns and cards drawn
    assert {(a.field_a, a.field_b) for a in tiny.between["turns"][(4, "any")]} == {
        ("random", "basic"),
        ("random", "adapted"),
        ("basic", "adapted"),
    }


def test_words_of_change_only_beyond_the_margin(tiny):  # noqa: F811
    text = stacking.answer(tiny)
    assert "It changes round length" not in text and "against the +/-1-turn margin:" in text
    assert len(text.split()) < 80  # an answer a reader can quote; the figures are in the findings
    findings = " ".join(stacking.field_findings(tiny))
    s = tiny.strategy[tiny.strategy["stacking"] == "any"]
    if not (s["interaction_verdict"] == "larger").all():
        assert "does better" not in text + findings and "does worse" not in text + findings
    assert "Does stacking change the best strategy?" in findings
    f = tiny.fields[tiny.fields["stacking"] == "any"]
    if not (f["d_turns_verdict"] == "larger").any():
        assert "lengthens" not in findings and "shortens" not in findings
    assert "interval includes 0 (no equivalence test)" not in findings
    section = stacking.render(tiny)
    table = next(b for b in section.blocks if getattr(b, "name", "") == "stacking-strategy" and hasattr(b, "shown"))
    assert {"p (raw)", "p (Holm-adjusted)", "verdict", "simultaneous interval"} <= set(table.shown.columns)
