"""Published figures are data in the experiment file ([[published]]), set beside unocli's with a reconciliation."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from unocli.errors import ConfigError
from unocli.report.experiment import load_experiment
from unocli.report.registry import DEFAULT_SET
from unocli.report.views import Ours, published

HEAD = 'analysis = "compare"\n[arms.a]\nrules = "official"\n'
ONE = """
[[published]]
source = "a study"
figure = "turns per round, 4 players"
value = "55.1"
interval = "SE 0.4"
ours = "turns-4"
reconciliation = "the study counts skipped turns"
"""
SIMS = Path(__file__).parents[1] / "sims"


def _load(tmp_path: Path, text: str):
    path = tmp_path / "p.toml"
    top = text.startswith("published =")  # a top-level key goes before the tables
    path.write_text(text + HEAD if top else HEAD + text, encoding="utf-8")
    return load_experiment(path)


def test_a_published_figure_is_read_with_its_reconciliation(tmp_path):
    exp = _load(tmp_path, ONE + ONE.replace("turns-4", "other"))
    assert len(exp.published) == 2
    fig = exp.published[0]
    assert (fig.source, fig.value, fig.interval, fig.ours) == ("a study", "55.1", "SE 0.4", "turns-4")
    assert fig.reconciliation == "the study counts skipped turns" and fig.definition == ""


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (ONE.replace('reconciliation = "the study counts skipped turns"\n', ""), r"published\[0\]\.reconciliation"),
        (ONE.replace('value = "55.1"', "value = 55.1"), r"published\[0\]\.value.*text"),
        (ONE + 'colour = "red"\n', r"published\[0\]\.colour.*unknown key"),
        ('published = "none"\n', r"'published'"),
    ],
)
def test_a_bad_published_table_is_refused_naming_the_key(tmp_path, text, key):
    with pytest.raises(ConfigError, match=key):
        _load(tmp_path, text)


def test_the_view_sets_ours_beside_each_published_figure(tmp_path):
    exp = _load(tmp_path, ONE + ONE.replace("turns-4", "unmeasured"))
    block = published(exp, {"turns-4": Ours("44.8 [44.6, 45.1]", 30000, 44.6, 45.1)}, title="side by side")
    assert block is not None
    rows = block.data
    assert list(rows["published"]) == ["55.1 (SE 0.4)"] * 2
    assert list(rows["unocli"]) == ["44.8 [44.6, 45.1]", "not measured in this report"]
    assert rows["ci_low"].iloc[0] == 44.6 and rows["ci_low"].isna().iloc[1]
    assert rows["n"].iloc[0] == 30000 and rows["n"].isna().iloc[1] and list(block.shown["n"]) == ["30,000", "-"]
    assert (rows["reconciliation"] == "the study counts skipped turns").all()
    assert "ci_low" not in block.shown and "reconciliation" in block.shown
    assert published(_load(tmp_path, ""), {}, title="none") is None


def test_every_shipped_published_figure_is_reconciled():
    found = [f for name in DEFAULT_SET for f in load_experiment(SIMS / f"{name}.toml").published]
    assert len(found) >= 3  # game-length's three
    assert all(len(f.reconciliation.split()) >= 8 for f in found)


TABLE = """
[[published]]
source = "a study"
figure = "first player's edge, 5 players"
value = "+0.30 pp"
reconciliation = "the study's players differ"
[published.ours]
frame = "turns"
where = "players == 5 and rules == '{base}'"
assign = { edge = "first - 1 / players", edge_low = "low - 1 / players", edge_high = "high - 1 / players" }
text = "{pp_ci:2 edge edge_low edge_high} (n = {count n} rounds, {text rules})"
n = "n"
interval = ["edge_low", "edge_high"]
"""


def _drawn(exp, frame: pd.DataFrame):
    from unocli.report import kinds
    from unocli.report.experiment import View

    setup = kinds.Setup(lambda *a, **k: "", baseline="official")
    (block,) = kinds.declared([View("published", "published", title="side by side")], exp, {"turns": frame}, setup)
    return block.data.iloc[0]


def test_ours_as_a_table_reads_one_row_of_a_frame(tmp_path):
    """A worked example: the first player's share 0.2390 [0.2110, 0.2690] at 5 players is an edge of +3.90 pp over
    1/5, interval [+1.10, +6.90] pp; the row of the other rule set and the other table size are not read."""
    exp = _load(tmp_path, TABLE)
    assert exp.published[0].ours["frame"] == "turns"
    frame = pd.DataFrame(
        {
            "players": [5, 5, 4],
            "rules": ["official", "stacking", "official"],
            "first": [0.2390, 0.5, 0.5],
            "low": [0.2110, 0.4, 0.4],
            "high": [0.2690, 0.6, 0.6],
            "n": [12345, 1, 1],
        }
    )
    row = _drawn(exp, frame)
    assert row["unocli"] == "+3.90 pp [+1.10, +6.90] (n = 12,345 rounds, official)"
    assert row["n"] == 12345
    assert (row["ci_low"], row["ci_high"]) == (pytest.approx(0.011, abs=1e-12), pytest.approx(0.069, abs=1e-12))
    unplayed = _drawn(exp, frame[frame["players"] == 4])  # no row at 5 players: not measured, not an error
    assert unplayed["unocli"] == "not measured in this report" and pd.isna(unplayed["n"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('where = "players == 5 and', 'where = "players > 3 and'), r"published\[0\]\.ours\.where': picks 2 rows"),
        (('where = "players == 5 and', 'where = "seats == 5 and'), r"published\[0\]\.ours': .*seats"),
    ],
)
def test_ours_that_does_not_pick_one_row_is_refused_naming_the_key(tmp_path, change, message):
    exp = _load(tmp_path, TABLE.replace(*change))
    frame = pd.DataFrame({"players": [5, 4], "rules": ["official"] * 2, "first": 0.2, "low": 0.1, "high": 0.3, "n": 9})
    with pytest.raises(ConfigError, match=message):
        _drawn(exp, frame)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (('n = "n"\n', 'n = "n"\ncolour = "red"\n'), r"published\[0\]\.ours\.colour.*unknown key"),
        (('interval = ["edge_low", "edge_high"]', 'interval = "edge_low"'), r"published\[0\]\.ours\.interval.*two column"),
        (('frame = "turns"', "frame = 3"), r"published\[0\]\.ours\.frame.*text"),
        (('text = "{pp_ci', 'label = "{pp_ci'), r"published\[0\]\.ours\.label.*unknown key"),
        (('assign = { edge = "first - 1 / players"', "assign = { edge = 1"), r"published\[0\]\.ours\.assign"),
    ],
)
def test_a_bad_ours_table_is_refused_naming_the_key(tmp_path, change, key):
    with pytest.raises(ConfigError, match=key):
        _load(tmp_path, TABLE.replace(*change))


def test_ours_needs_its_text_and_where(tmp_path):
    with pytest.raises(ConfigError, match=r"published\[0\]\.ours\.text.*required"):
        _load(tmp_path, TABLE.replace('text = "{pp_ci:2 edge edge_low edge_high} (n = {count n} rounds, {text rules})"\n', ""))
