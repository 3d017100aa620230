"""Reports say when no field searches: their findings are then measured under scripted play only (issue 30)."""

from __future__ import annotations

from pathlib import Path

import pytest

from unocli.game.policies import is_searching
from unocli.report.analyses.fields import strength_text
from unocli.report.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("spec", "searching"),
    [
        ("search", True),
        ("search:budget=512", True),
        ("peek:budget=16", True),
        ("basic:search=on,budget=64", True),
        ("basic", False),
        ("strong:bluff=0.3", False),
        ("tuned-{rules}-{players}", False),  # a template is not a preset spec
        ("tuned-official-4", False),  # a policies-file name: the tuned players never search
        ("search the hand", False),  # prose
    ],
)
def test_is_searching(spec: str, searching: bool) -> None:
    assert is_searching(spec) is searching


def test_the_sentence_comes_only_where_no_field_searches() -> None:
    scripted = load_experiment(ROOT / "sims" / "house-rules.toml")
    searched = load_experiment(ROOT / "sims" / "house-rules-search.toml")
    assert strength_text(searched) == ""
    text = strength_text(scripted)
    assert text.startswith(" No field here searches: `search` at budget 512")
    assert "measured under scripted play only" in text and "sims/house-rules-search.toml" in text
    for name in ("game-length", "bluff", "stacking", "seat-advantage"):  # every shipped debate played by scripted fields
        assert strength_text(load_experiment(ROOT / "sims" / f"{name}.toml")) == text
