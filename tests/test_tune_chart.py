"""The tune chart names its quantity as docs/statistics.md does (issue 30 item 4): the bottom axis is the tune's
gain over the field in pp, which is n/(n-1) times the edge, and the top axis shows the edge (share minus 1/n, pp);
never "points". The top axis' transform is checked against the identity worked out by hand: at 3 seats with a
winner in every round, a share s gives gain s - (1 - s)/2 and edge s - 1/3, so a gain of 3 pp is an edge of 2 pp."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest
from click.testing import CliRunner

from unocli.cli.main import cli


@pytest.fixture
def figure(tmp_path, monkeypatch):
    kept = []
    monkeypatch.setattr(plt, "close", lambda fig=None: kept.append(fig))  # keep the figure the chart would close
    space = tmp_path / "space.toml"
    space.write_text('base = "basic"\ncandidates = 2\n[knobs]\ncolour = ["most_held", "next_lacks"]\n')
    args = ["tune", str(space), "--players", "3", "--first", "100", "--max-deals", "200", "--fresh", "200"]
    result = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "p.toml"), "--chart", str(tmp_path / "c.png")])
    assert result.exit_code == 0, result.output
    return kept[-1]


def test_the_axes_name_the_gain_and_the_edge_in_pp(figure):
    ax = figure.axes[0]
    bottom = ax.get_xlabel()
    assert "gain over the field" in bottom and "pp" in bottom and "n/(n-1) times the edge" in bottom
    (top,) = ax.child_axes  # the secondary axis
    assert top.get_xlabel().startswith("edge: win share minus the fair share 1/3 (pp")
    assert "points" not in bottom + top.get_xlabel()


def test_the_edge_axis_is_the_gain_times_n_minus_1_over_n(figure):
    ax = figure.axes[0]
    (top,) = ax.child_axes  # the secondary axis
    # the gain axis' limits, read on the edge axis: scaled by (n - 1)/n = 2/3
    lo, hi = ax.get_xlim()
    assert top.get_xlim() == pytest.approx((lo * 2 / 3, hi * 2 / 3))
    # a gain of 3 pp reads as an edge of 2 pp (the docstring's hand count)
    assert top.get_xaxis().get_transform() is not None and top.get_xlim()[1] / hi == pytest.approx(2 / 3)
