"""unocli.balance.check's verdicts, exit code and JUnit file, with expectations written from the docs.

The module docstring defines the verdicts: *fail* when the Holm-adjusted
p-value is below alpha; *pass* when the interval ``diff +- z se`` lies inside
the band ``tolerance * max(|baseline|, baseline sd)``; *inconclusive*
otherwise. ``exit_code``: 0 all pass, 1 any fail, 3 only inconclusive.
``write_junit``: one test case per arm and metric, a failure element for a
fail, a skipped one for an inconclusive. These are built here from small
hand-made records (no simulation), so each rule is checked at its boundary.
"""

from __future__ import annotations

import math
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner
from scipy import stats as sps

from unocli.balance import check as check_module
from unocli.balance.baseline import load_baseline, run_arm
from unocli.balance.check import (
    CheckReport,
    CheckRow,
    MetricTest,
    Verdict,
    _verdict,
    check_exact,
    check_statistical,
    write_junit,
)
from unocli.cli.main import cli
from unocli.run.backends import LocalBackend
from unocli.study.stats import Difference


def _test(diff: float, se: float, baseline: float = 10.0, sd: float = 2.0, decidable: bool = True) -> MetricTest:
    d = Difference(diff, se, 100, diff - se, diff + se, 0.5, 50.0)
    return MetricTest("arm", "turns", baseline, sd, baseline + diff, d, decidable)


# band = 0.05 * max(|10|, 2) = 0.5; the interval is diff +- 2 * se.
@pytest.mark.parametrize(
    ("diff", "se", "p", "expected"),
    [
        (0.0, 0.1, 0.5, Verdict.PASS),  # [-0.2, 0.2] inside the band
        (0.3, 0.1, 0.5, Verdict.PASS),  # [0.1, 0.5]: touches the band's edge, still inside
        (0.3, 0.10001, 0.5, Verdict.INCONCLUSIVE),  # just over the edge
        (-0.3, 0.1, 0.5, Verdict.PASS),  # [-0.5, -0.1]
        (-0.3, 0.10001, 0.5, Verdict.INCONCLUSIVE),
        (0.0, 1.0, 0.5, Verdict.INCONCLUSIVE),  # too wide to tell
        (0.0, 0.1, 0.0009, Verdict.FAIL),  # adjusted p below alpha = 0.001, whatever the interval
        (0.0, 0.1, 0.001, Verdict.PASS),  # p equal to alpha is not significant
    ],
)
def test_verdict_rules(diff: float, se: float, p: float, expected: Verdict) -> None:
    row = _verdict(_test(diff, se), p, 2.0, 0.001, 0.05)
    assert row.verdict is expected
    assert (row.arm, row.metric, row.baseline, row.now, row.diff, row.p) == ("arm", "turns", 10.0, 10.0 + diff, diff, p)
    assert (row.ci_low, row.ci_high) == pytest.approx((diff - 2 * se, diff + 2 * se), abs=1e-12)


def test_too_small_to_decide_is_inconclusive_never_fail_or_pass() -> None:
    """A metric whose samples are too small to test is inconclusive whatever its p-value or interval."""
    assert _verdict(_test(0.0, 0.1, decidable=False), 0.0, 2.0, 0.001, 0.05).verdict is Verdict.INCONCLUSIVE
    assert _verdict(_test(5.0, 0.1, decidable=False), 1e-12, 2.0, 0.001, 0.05).verdict is Verdict.INCONCLUSIVE


def test_band_uses_the_sd_for_a_rare_count() -> None:
    """Baseline mean 0.1, sd 4: band = 0.05 * 4 = 0.2 (not 0.05 * 0.1 = 0.005)."""
    rare = _test(0.0, 0.09, baseline=0.1, sd=4.0)
    assert _verdict(rare, 0.5, 2.0, 0.001, 0.05).verdict is Verdict.PASS  # [-0.18, 0.18]
    assert _verdict(_test(0.0, 0.11, baseline=0.1, sd=4.0), 0.5, 2.0, 0.001, 0.05).verdict is Verdict.INCONCLUSIVE
    # a negative baseline mean: its absolute value sets the band (0.05 * 10 = 0.5)
    assert _verdict(_test(0.0, 0.2, baseline=-10.0), 0.5, 2.0, 0.001, 0.05).verdict is Verdict.PASS


def _row(metric: str, verdict: Verdict, arm: str = "a") -> CheckRow:
    return CheckRow(arm, metric, 50.0, 51.5, 1.5, 0.25, 2.75, 0.0123, verdict)


@pytest.mark.parametrize(
    ("verdicts", "code"),
    [
        ((), 0),
        ((Verdict.PASS, Verdict.PASS), 0),
        ((Verdict.PASS, Verdict.INCONCLUSIVE), 3),
        ((Verdict.INCONCLUSIVE, Verdict.FAIL, Verdict.PASS), 1),
        ((Verdict.FAIL,), 1),
    ],
)
def test_exit_code(verdicts: tuple[Verdict, ...], code: int) -> None:
    report = CheckReport("statistical", 1, 100, 0.001, 0.05, [_row(f"m{i}", v) for i, v in enumerate(verdicts)])
    assert report.exit_code == code


def test_junit_file(tmp_path) -> None:
    rows = [_row("turns", Verdict.PASS), _row("passes", Verdict.FAIL), _row("skips", Verdict.INCONCLUSIVE, arm="b")]
    path = tmp_path / "check.xml"
    write_junit([("sims/baselines/balance.json", CheckReport("statistical", 1, 100, 0.001, 0.05, rows))], path)
    assert path.read_bytes().startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    suite = ET.parse(path).getroot()
    assert suite.tag == "testsuite"
    assert suite.attrib == {"name": "unocli check", "tests": "3", "failures": "1", "skipped": "1"}
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        ("unocli.check.balance.a", "turns"),
        ("unocli.check.balance.a", "passes"),
        ("unocli.check.balance.b", "skips"),
    ]
    text = "baseline 50, now 51.5, difference +1.5, interval [+0.25, +2.75], adjusted p 0.0123"
    assert list(cases[0]) == []
    (failure,) = list(cases[1])
    assert (failure.tag, failure.get("message"), failure.text) == ("failure", "passes changed", text)
    (skipped,) = list(cases[2])
    assert (skipped.tag, skipped.get("message"), skipped.text) == ("skipped", "inconclusive: more games needed", text)
    write_junit([("b.json", CheckReport("exact", 1, 100, 0.0, 0.0, rows[:1]))], path, name="mine")
    assert ET.parse(path).getroot().attrib == {"name": "mine", "tests": "1", "failures": "0", "skipped": "0"}
    # two baseline files with the same arms and metrics: every case keeps a name of its own (it had 38 of 76)
    two = [(f"{d}/x{k}.json", CheckReport("statistical", 1, 100, 0.001, 0.05, rows)) for k, d in ((1, "a"), (2, "b"))]
    write_junit(two, path)
    names = [(c.get("classname"), c.get("name")) for c in ET.parse(path).getroot().findall("testcase")]
    assert len(names) == 6 == len(set(names)) and names[0] == ("unocli.check.x1.a", "turns")


class _Recording(LocalBackend):
    """The local backend, counting the shards it is given: shows which backend a check ran on."""

    def __init__(self) -> None:
        self.shards = 0

    def map_unordered(self, fn, items):
        for item in items:
            self.shards += 1
            yield fn(item)


TINY = """
name = "tiny"
seed = 5
games = 500
players = [3]

[base]
rules = "official"
policy = "basic"

[arms.basic]
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> tuple[dict, list]:
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "tiny.toml").write_text(TINY)
    out = folder / "tiny.json"
    result = CliRunner().invoke(cli, ["baseline", str(folder / "tiny.toml"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return load_baseline(out)


def test_both_checks_run_on_the_backend_they_are_given(tiny) -> None:
    doc, arms = tiny
    exact, statistical = _Recording(), _Recording()
    report = check_exact(doc, arms, backend=exact)
    assert report.exit_code == 0
    assert (report.mode, report.seed, report.games, report.alpha, report.tolerance) == ("exact", 5, 500, 0.0, 0.0)
    metrics = [r for r in report.rows if not r.metric.startswith("fingerprint")]
    assert [r.metric for r in metrics] == list(doc["arms"][0]["metrics"])
    for row in metrics:  # the same games: each metric's value again, a difference of exactly 0
        assert (row.arm, row.now, row.diff, row.verdict) == ("basic", row.baseline, 0.0, Verdict.PASS)
    (fingerprint,) = [r for r in report.rows if r.metric.startswith("fingerprint")]
    assert fingerprint.arm == "basic" and fingerprint.verdict is Verdict.PASS
    # the fingerprint row is named alike in every run, carries no numbers (it had made-up zeros), and says both sides
    stored = doc["arms"][0]["fingerprint"]
    assert fingerprint.metric == "fingerprint" and fingerprint.detail == f"{stored} -> {stored}"
    values = (fingerprint.baseline, fingerprint.now, fingerprint.diff, fingerprint.ci_low, fingerprint.ci_high)
    assert all(math.isnan(x) for x in values)
    # every row counts the fresh games behind it (it said 0); a metric's difference has no interval in an exact rerun
    assert all(r.games == 500 for r in report.rows) and all(math.isnan(r.ci_low) for r in metrics)
    check_statistical(doc, arms, seed=9, backend=statistical)
    assert exact.shards > 0 and statistical.shards > 0


def test_exact_check_of_another_fingerprint_fails_every_row(tiny) -> None:
    doc, arms = tiny
    changed = {**doc, "arms": [{**doc["arms"][0], "fingerprint": "0" * 16}]}
    report = check_exact(changed, arms)
    assert report.exit_code == 1
    assert {r.verdict for r in report.rows} == {Verdict.FAIL}


def test_statistical_report_fields_and_simultaneous_interval(tiny, monkeypatch) -> None:
    """The report says what ran; the interval is Bonferroni's over every test: z = Phi^-1(1 - alpha / 2m)."""
    doc, arms = tiny
    seen = []
    real = check_module._verdict

    def spy(t, p, z, alpha, tolerance):
        seen.append(z)
        return real(t, p, z, alpha, tolerance)

    monkeypatch.setattr(check_module, "_verdict", spy)
    report = check_statistical(doc, arms, seed=9, games=400, alpha=0.01)
    assert (report.mode, report.seed, report.games, report.alpha, report.tolerance) == ("statistical", 9, 400, 0.01, 0.05)
    m = len(report.rows)
    assert m == len(doc["arms"][0]["metrics"]) + 3  # and a win share per seat
    assert seen == pytest.approx([sps.norm.ppf(1 - 0.01 / (2 * m))] * m, rel=1e-12)


def test_statistical_check_without_a_seed_draws_a_64_bit_one(tiny, monkeypatch) -> None:
    doc, arms = tiny
    asked = []

    def randbits(k: int) -> int:
        asked.append(k)
        return 2**64 - 7

    monkeypatch.setattr(check_module.secrets, "randbits", randbits)
    assert check_statistical(doc, arms, games=100).seed == 2**64 - 7
    assert asked == [64]
    assert check_statistical(doc, arms, seed=3, games=100).seed == 3 and asked == [64]


def test_win_share_tests_use_the_binomial_spread(tiny) -> None:
    """A seat's win share is a 0/1 mean: its baseline sd is sqrt(p (1 - p)); the two shares are compared by the
    score test, whose se is sqrt(p q (1 / n0 + 1 / n1)) with p the pooled share (both samples' wins over both n)."""
    doc, arms = tiny
    rec = doc["arms"][0]
    result = run_arm(arms[0], 400, 9)
    shares = [t for t in check_module.arm_tests("basic", rec, result) if t.metric.startswith("win_share_seat")]
    assert [t.metric for t in shares] == [f"win_share_seat{s}" for s in range(3)]
    for seat, t in enumerate(shares):
        p0, p1 = rec["wins"][seat] / rec["n"], result.acc.wins[seat] / result.acc.games
        assert t.arm == "basic" and (t.baseline, t.now) == pytest.approx((p0, p1), rel=1e-12)
        assert t.baseline_sd == pytest.approx(math.sqrt(p0 * (1 - p0)), rel=1e-12)
        pooled = (rec["wins"][seat] + result.acc.wins[seat]) / (rec["n"] + result.acc.games)
        se = math.sqrt(pooled * (1 - pooled) * (1 / rec["n"] + 1 / result.acc.games))
        assert (t.test.diff, t.test.se) == pytest.approx((p1 - p0, se), rel=1e-12)
