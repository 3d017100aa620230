"""Views of the design frame: charts whose axes show the effects (centred on 0, margin band, pp for shares)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from unocli.report import views

pytest.importorskip("matplotlib")


def _diffs(values, margin):
    d = np.asarray(values, float)
    return pd.DataFrame(
        {"diff": d, "sim_low": d - 0.3 * margin, "sim_high": d + 0.3 * margin, "margin": margin, "verdict": "negligible"}
    )


def test_a_forest_is_centred_on_zero_and_shows_the_margin_band():
    chart = views.forest(_diffs([0.2, -0.4, 0.1], 1.0), ["a", "b", "c"], xlabel="turns", caption="c", name="f", title="t")
    ax = chart.figure.axes[0]
    low, high = ax.get_xlim()
    assert low == pytest.approx(-high) and 1.0 <= high < 2.0  # the +-1 band and the small effects fill the axis
    one_sided = views.forest(_diffs([0.2, 5.0], 1.0), ["a", "b"], xlabel="turns", caption="c", name="f", title="t")
    low, high = one_sided.figure.axes[0].get_xlim()
    assert low == pytest.approx(-high) and 5.3 <= high < 7  # still centred on 0, as wide as the widest interval
    band = [p for p in ax.patches if p.get_label() == "equivalence band"]
    assert band and band[0].get_x() == pytest.approx(-1.0) and band[0].get_width() == pytest.approx(2.0)


def test_a_change_of_a_share_is_labelled_in_pp_never_percent():
    chart = views.forest(
        _diffs([0.002, -0.001], 0.005), ["a", "b"], xlabel="first player", caption="c", name="f", title="t", percent=True
    )
    ax = chart.figure.axes[0]
    chart.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert labels and all("pp" in t or t == "0" for t in labels) and not any("%" in t for t in labels)
    assert "+0.5 pp" in labels or any(t.startswith("+") for t in labels)


def test_wide_puts_each_quantity_in_its_columns_in_the_frames_order():
    frame = pd.DataFrame(
        [
            {"field": "", "players": 2, "arm": a, "quantity": q, "n": 10, "mean": m, "low": m - 1, "high": m + 1}
            for q, a, m in (("turns", "x", 5.0), ("turns", "y", 6.0), ("won", "x", 0.5), ("won", "y", 0.25))
        ]
    )
    w = views.wide(frame, {"turns": ("t", "t_lo", "t_hi"), "won": ("w",)}, arm="rules", n="turns")
    assert list(w.columns) == ["field", "players", "rules", "n", "t", "t_lo", "t_hi", "w"]
    assert list(w["rules"]) == ["x", "y"] and list(w["t_hi"]) == [6.0, 7.0] and list(w["w"]) == [0.5, 0.25]


def test_a_heatmap_annotates_each_cell_with_its_value_and_verdict():
    d = pd.DataFrame(
        {"players": [2, 2, 4, 4], "rules": ["a", "b", "a", "b"], "diff": [0.01, -0.02, 0.0, 0.03], "verdict": ["larger"] * 4}
    )
    chart = views.heatmap(d, "players", "rules", caption="c", name="h", title="t", unit="pp", scale=100)
    texts = [t.get_text() for t in chart.figure.axes[0].texts]
    assert "+1.0\nlarger" in texts and "-2.0\nlarger" in texts and len(texts) == 4
