"""The check's head line says how its family of figures is adjusted (issue 30 item 3): Holm-adjusted p-values and
simultaneous (Bonferroni) intervals for the fixed check, Bonferroni bounds for the sequential one, over the number
of figures it checked; an exact check has no family."""

from __future__ import annotations

from unocli.balance.check import CheckReport, CheckRow, Verdict
from unocli.balance.outputs import describe


def _report(mode: str, rows: int) -> CheckReport:
    row = CheckRow("a", "turns", 40.0, 40.1, 0.1, -0.2, 0.4, 0.5, Verdict.PASS, games=100)
    return CheckReport(mode, 7, 100, 0.001, 0.05, [row] * rows, beta=0.05, played=100, arms=1)


def test_the_fixed_check_names_holm_and_its_family():
    line = describe(_report("statistical", 42))
    assert "over the 42 figures checked (p-values Holm-adjusted, intervals simultaneous: Bonferroni)" in line


def test_the_sequential_check_names_bonferroni_and_its_family():
    assert "over the 3 figures checked (bounds and intervals Bonferroni)" in describe(_report("sequential", 3))


def test_an_exact_check_names_no_adjustment():
    line = describe(_report("exact", 5))
    assert "Holm" not in line and "Bonferroni" not in line
