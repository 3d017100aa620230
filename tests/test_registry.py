"""The report registry: one line per analysis, and nothing imported before it is asked for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unocli.report.registry import ANALYSES, DEFAULT_SET, REPORTS, analysis

ANALYSES_DIR = Path(__file__).parents[1] / "unocli" / "report" / "analyses"


def test_every_registered_module_exists_and_answers():
    for name, entry in REPORTS.items():
        assert (ANALYSES_DIR / f"{entry.module}.py").is_file(), name
        module = analysis(name)
        for attr in ("compute", "render"):
            assert callable(getattr(module, attr, None)), (name, attr)
        assert ANALYSES[name] is module


def test_default_set_is_the_shipped_reports_in_order():
    # Written out by hand: the order `unocli report` has always written them in.
    assert DEFAULT_SET == ("game-length", "bluff", "stacking", "seat-advantage", "house-rules")


def test_an_unknown_name_is_not_registered():
    assert "nonsense" not in ANALYSES
    with pytest.raises(KeyError):
        analysis("nonsense")


LOADED = """
import sys
import {target}
loaded = sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("unocli.report.analyses."))
print(" ".join(loaded))
"""


@pytest.mark.parametrize(
    ("target", "allowed"),
    [
        ("unocli.report.experiment", {"common"}),
        ("unocli.report.analyses", {"common"}),
        ("unocli.report.analyses.game_length", {"common", "fields", "game_length"}),
        ("unocli.report.analyses.seat_advantage", {"common", "fields", "seat_advantage"}),
    ],
)
def test_importing_one_analysis_imports_no_other(target: str, allowed: set[str]) -> None:
    out = subprocess.run(
        [sys.executable, "-c", LOADED.format(target=target)], capture_output=True, text=True, check=True
    ).stdout.split()
    # fields.py is shared machinery, not an analysis; no registered module other than the one imported is loaded.
    others = {r.module for r in REPORTS.values()} - allowed
    assert not set(out) & others, out
    assert set(out) <= allowed, out
