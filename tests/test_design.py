"""The design runner: fields x table sizes x arms played once, read into one tidy frame.

The frame repackages typed results, so its figures are checked against the same
numbers reached another way: a 0/1 quantity's paired difference against the
difference of the two arms' shares (every round counts in both), the first
player's share against the accumulator's own count, Holm's adjustment against a hand-written step-down, and
the simultaneous interval against scipy's t quantile at level 1 - 0.05 / k.
Fixed seeds: a failure is a change of the code, not bad luck.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from unocli.report.analyses.common import Context
from unocli.report.design import COLUMNS, Design, play
from unocli.report.experiment import load_experiment
from unocli.run.backends import LocalBackend

EXP = """
games = 600
seed = 3
players = [2, 3]
baseline = "official"
[base]
policy = "basic"
[arms.official]
rules = "official"
[arms.seven-o]
rules = "seven-o"
[arms.stacking]
rules = "stacking"
"""
QUANTITIES = ("turns", "won", "win_first")
MARGINS = {"turns": 1.0, "win_first": 0.005}


def select(frame: pd.DataFrame, quantity: str, *, differences: bool = False, **where: Any) -> pd.DataFrame:
    """The rows of one quantity (only the arms with a difference when ``differences``), filtered by column values."""
    out = frame[frame["quantity"] == quantity]
    if differences:
        out = out[out["arm"] != out["baseline"]]
    for key, value in where.items():
        out = out[out[key] == value]
    return out


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    path = Path(tmp_path_factory.mktemp("design")) / "d.toml"
    path.write_text(EXP, encoding="utf-8")
    exp = load_experiment(path)
    return play(Design.of(exp, QUANTITIES), Context(backend=LocalBackend(), log=lambda _: None), MARGINS)


def test_one_row_per_field_size_arm_and_quantity(played):
    f = played.frame
    assert list(f.columns) == list(COLUMNS)
    assert len(f) == 2 * 3 * 3  # sizes x arms x quantities
    assert not f.duplicated(["field", "players", "arm", "quantity"]).any()
    base = f[f["arm"] == "official"]
    assert base["difference"].isna().all() and base["verdict"].isna().all()
    assert (f["n"] > 0).all()


def test_a_shares_paired_difference_is_the_difference_of_shares(played):
    # "won" counts every round in both arms, so the mean paired difference is exactly the difference of the means.
    f = select(played.frame, "won")
    for p in (2, 3):
        at = f[f["players"] == p].set_index("arm")
        for arm in ("seven-o", "stacking"):
            assert at.loc[arm, "difference"] == pytest.approx(at.loc[arm, "mean"] - at.loc["official", "mean"], abs=1e-12)
            assert at.loc[arm, "diff_n"] == 600


def test_the_first_players_share_is_the_accumulators_count(played):
    f = select(played.frame, "win_first", players=3, arm="official")
    acc = played.cells[("", 3)].acc("official")
    assert f["mean"].iloc[0] == pytest.approx(acc.first_player_wins / 600, abs=1e-12)
    assert f["low"].iloc[0] < f["mean"].iloc[0] < f["high"].iloc[0]


def _holm(p: np.ndarray) -> np.ndarray:
    order = np.argsort(p)
    m = len(p)
    stepped = np.maximum.accumulate([(m - i) * p[k] for i, k in enumerate(order)])
    out = np.empty(m)
    out[order] = np.minimum(stepped, 1.0)
    return out


def test_holm_and_simultaneous_intervals_cover_each_quantitys_family(played):
    for q in QUANTITIES:
        d = select(played.frame, q, differences=True)
        assert len(d) == 4  # two sizes x two non-baseline arms
        assert np.allclose(d["p_adj"].to_numpy(), _holm(d["p"].to_numpy()))
    d = select(played.frame, "turns", differences=True)
    df = d["diff_n"].astype(float) - 1
    se = (d["diff_high"] - d["diff_low"]) / (2 * sps.t.ppf(0.975, df))
    half = sps.t.ppf(1 - 0.05 / (2 * 4), df) * se
    assert np.allclose(d["sim_high"] - d["difference"], half) and np.allclose(d["difference"] - d["sim_low"], half)
    assert np.allclose(d["sim_level"], 1 - 0.05 / 4) and (d["margin"] == 1.0).all()


def test_verdicts_read_the_simultaneous_interval_against_the_margin(played):
    d = pd.concat([select(played.frame, q, differences=True) for q in MARGINS])
    for r in d.itertuples():
        if r.sim_low > r.margin or r.sim_high < -r.margin:
            assert r.verdict == "larger"
        elif r.sim_low >= -r.margin and r.sim_high <= r.margin:
            assert r.verdict in ("negligible", "equivalent")
        else:
            assert r.verdict in ("unsized", "undecided")
    assert select(played.frame, "won", differences=True)["verdict"].isna().all()  # no margin, no verdict
