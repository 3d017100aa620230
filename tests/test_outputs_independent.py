"""``simulate``'s text, JSON and ``--out`` files checked against the same run computed another way (issue 16 item 4).

The expectation is built from the reference engine (``play_round``, game by
game: the readable oracle, not the kernel the CLI runs) and from scipy.stats
for the intervals, so a summary that miscounts, mislabels a seat, drops a
game or computes an interval wrongly disagrees with it. The games are the
same (seed and index), so counts must agree exactly; means and intervals to
1e-9 relative (only summation order differs).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy import stats as sps

from unocli.cli.main import cli
from unocli.game.counters import COUNTERS, Outcome
from unocli.game.policies import preset
from unocli.game.rules import Rules
from unocli.reference.engine import play_round

GAMES, SEED, PLAYERS = 200, 11, 4
REL = 1e-9


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    """One row per game from the reference engine: the §9 counters, outcome, winner, roles, cards left."""
    policies = (preset("random"),) * PLAYERS
    rows = []
    for index in range(GAMES):
        s = play_round(Rules(players=PLAYERS), policies, SEED, index).stats
        row = s.counters()
        row.update(outcome=str(s.outcome), winner=s.winner, first_player=s.first_player, dealer=s.dealer)
        row.update({f"cards_left_{seat}": left for seat, left in enumerate(s.cards_left)})
        rows.append(row)
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[dict, str, Path]:
    folder = tmp_path_factory.mktemp("outputs")
    base = ["simulate", "--games", str(GAMES), "--seed", str(SEED), "--players", str(PLAYERS), "--quiet"]
    as_json = CliRunner().invoke(cli, [*base, "--json", "--out", str(folder / "rows.csv")])
    assert as_json.exit_code == 0, as_json.output
    text = CliRunner().invoke(cli, [*base, "--out", str(folder / "rows.parquet")])
    assert text.exit_code == 0, text.output
    return json.loads(as_json.output), text.output, folder


def _finished(ref: pd.DataFrame) -> pd.DataFrame:
    return ref[ref["outcome"].isin(["won", "blocked"])]


def test_json_metrics_are_the_reference_means_with_scipy_t_intervals(run, reference) -> None:
    doc = run[0]
    assert doc["games"] == GAMES and doc["seed"] == SEED and doc["match"] is False
    finished = _finished(reference)
    assert doc["finished"] == len(finished)
    for name in COUNTERS:
        values = finished[name].to_numpy(dtype=np.float64)
        got = doc["metrics"][name]
        assert got["mean"] == pytest.approx(values.mean(), rel=REL), name
        assert got["sd"] == pytest.approx(values.std(ddof=1), rel=REL, abs=1e-12), name
        if values.std() > 0:
            ci = sps.ttest_1samp(values, 0.0).confidence_interval(0.95)
            assert got["ci95"] == pytest.approx([ci.low, ci.high], rel=REL), name
        else:  # no spread: scipy's interval is NaN; unocli's collapses to the mean
            assert got["ci95"] == pytest.approx([values[0], values[0]]), name
        assert got["ci95"][0] <= got["mean"] <= got["ci95"][1], name


def test_json_outcomes_wins_and_roles_are_the_reference_counts(run, reference) -> None:
    doc = run[0]
    outcomes = reference["outcome"].value_counts()
    assert doc["outcomes"] == {str(o): int(outcomes.get(str(o), 0)) for o in Outcome}
    won = reference[reference["outcome"] == "won"]
    wins = won["winner"].value_counts()
    n = doc["finished"]

    def _check_share(got: dict, k: int) -> None:
        ci = sps.binomtest(k, n).proportion_ci(0.95, method="wilson")
        assert got["wins"] == k
        assert got["share"] == pytest.approx(k / n, rel=REL)
        assert got["ci95"] == pytest.approx([ci.low, ci.high], rel=REL)
        assert got["ci95"][0] <= got["share"] <= got["ci95"][1]

    assert [w["seat"] for w in doc["win_share"]] == list(range(PLAYERS))
    for entry in doc["win_share"]:
        _check_share(entry, int(wins.get(entry["seat"], 0)))
    _check_share(doc["first_player"], int((won["winner"] == won["first_player"]).sum()))
    _check_share(doc["dealer"], int((won["winner"] == won["dealer"]).sum()))
    # Place p after the dealer: the seat p seats after the dealer in seating order (place PLAYERS is the dealer).
    places = ((won["winner"] - won["dealer"]) % PLAYERS).replace(0, PLAYERS)
    assert [e["place"] for e in doc["win_share_by_place_after_dealer"]] == list(range(1, PLAYERS + 1))
    for entry in doc["win_share_by_place_after_dealer"]:
        _check_share(entry, int((places == entry["place"]).sum()))


@pytest.mark.parametrize("name", ["rows.csv", "rows.parquet"])
def test_out_rows_are_the_reference_games(run, reference, name) -> None:
    path = run[2] / name
    table = pd.read_csv(path) if name.endswith(".csv") else pd.read_parquet(path)
    assert len(table) == GAMES
    assert table["game"].tolist() == list(range(GAMES))
    for column in reference.columns:
        got = table[column].astype(str) if column == "outcome" else table[column].astype(np.int64)
        want = reference[column] if column == "outcome" else reference[column].astype(np.int64)
        mismatch = np.flatnonzero(got.to_numpy() != want.to_numpy())
        assert mismatch.size == 0, f"{column}: games {mismatch[:5].tolist()} differ from the reference engine"


def _text_row(text: str, label: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.split()[:1] == [label])
    return re.findall(r"-?[\d.]+", line[len(line) - len(line.lstrip()) + len(label) :])


def test_text_shows_the_reference_figures(run, reference) -> None:
    text = run[1]
    finished = _finished(reference)
    assert f"Per round (n = {len(finished)})" in text
    turns = finished["turns"].to_numpy(dtype=np.float64)
    ci = sps.ttest_1samp(turns, 0.0).confidence_interval(0.95)
    mean, low, high, sd = map(float, _text_row(text, "turns"))
    # The text rounds to the digits shown (3 significant figures for these sizes): within 0.05.
    assert (mean, low, high, sd) == pytest.approx((turns.mean(), ci.low, ci.high, turns.std(ddof=1)), abs=0.05)
    wins = reference.loc[reference["outcome"] == "won", "winner"].value_counts()
    for seat in range(PLAYERS):
        line = next(line for line in text.splitlines() if re.match(rf"\s+{seat} random\s", line))
        k = int(wins.get(seat, 0))
        assert int(line.split()[2]) == k
        assert float(line.split()[3].rstrip("%")) == pytest.approx(100 * k / len(finished), abs=0.05)
    counts = reference["outcome"].value_counts()
    assert "Outcomes: " + ", ".join(f"{o} {int(counts.get(str(o), 0))}" for o in Outcome) in text
