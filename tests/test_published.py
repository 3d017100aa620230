"""Published figures are data in the experiment file ([[published]]), set beside unocli's with a reconciliation."""

from __future__ import annotations

from pathlib import Path

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
