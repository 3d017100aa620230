"""``unocli check``: does the code still produce the balance a baseline recorded?

Two modes:

* **statistical** (default): every arm is rerun on a fresh seed and each metric
  (and each seat's win share) gets a two-sample test against the baseline.
  The family-wise false-alarm rate over all metrics and arms is held at
  ``alpha`` (Holm's step-down method). A metric *fails* when its difference is
  significant; it *passes* when the simultaneous (Bonferroni) interval of the
  difference lies inside the tolerance band; otherwise the run cannot tell a
  difference of that size from none and the metric is *inconclusive*.
* **exact** (``--exact``): the baseline's own seed; every arm's fingerprint of
  per-game results must match bit for bit.

The tolerance is relative: ``tolerance * max(|baseline mean|, baseline sd)``,
so rare counts (a mean near zero) are judged on their spread instead.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from unocli.balance.baseline import run_arm
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.simulate import SimulationResult
from unocli.study.stats import Difference, holm, norm_quantile, welch


class Verdict(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    INCONCLUSIVE = "inconclusive"


@dataclass
class CheckRow:
    arm: str
    metric: str
    baseline: float
    now: float
    diff: float
    ci_low: float
    ci_high: float
    p: float
    verdict: Verdict


@dataclass
class CheckReport:
    mode: str
    seed: int
    games: int
    alpha: float
    tolerance: float
    rows: list[CheckRow]

    @property
    def exit_code(self) -> int:
        """0 all pass, 1 any fail, 3 only inconclusive results stand in the way."""
        verdicts = {r.verdict for r in self.rows}
        if Verdict.FAIL in verdicts:
            return 1
        if Verdict.INCONCLUSIVE in verdicts:
            return 3
        return 0


@dataclass(frozen=True)
class MetricTest:
    """One metric (or one seat's win share) of one arm, rerun against its baseline.

    ``test`` is Welch's two-sample test of ``now - baseline`` (the rerun's
    games against the baseline's, independent samples).
    """

    arm: str
    metric: str
    baseline: float
    baseline_sd: float
    now: float
    test: Difference


def _tests(arm: str, rec: dict[str, Any], result: SimulationResult) -> list[MetricTest]:
    """A test for every metric and every seat's win share of one arm."""
    out = []
    n0, n1 = rec["n"], result.games
    summary = result.summary().set_index("metric")
    for name, base in rec["metrics"].items():
        now = summary.loc[name]
        test = welch(float(now["mean"]), float(now["sd"]), n1, base["mean"], base["sd"], n0)
        out.append(MetricTest(arm, name, base["mean"], base["sd"], float(now["mean"]), test))
    games0 = n0  # rounds played, all rotations included
    games1 = result.acc.games
    for seat, w0 in enumerate(rec["wins"]):
        p0 = w0 / games0
        p1 = result.acc.wins[seat] / games1
        s0, s1 = math.sqrt(p0 * (1 - p0)), math.sqrt(p1 * (1 - p1))
        out.append(MetricTest(arm, f"win_share_seat{seat}", p0, s0, p1, welch(p1, s1, games1, p0, s0, games0)))
    return out


def _verdict(t: MetricTest, p_adjusted: float, z: float, alpha: float, tolerance: float) -> CheckRow:
    """Fail when the adjusted p-value is below ``alpha``; pass when the interval ``diff +- z se`` lies in the band."""
    d = t.test
    band = tolerance * max(abs(t.baseline), t.baseline_sd)
    lo, hi = d.diff - z * d.se, d.diff + z * d.se
    if p_adjusted < alpha:
        verdict = Verdict.FAIL
    elif -band <= lo and hi <= band:
        verdict = Verdict.PASS
    else:
        verdict = Verdict.INCONCLUSIVE
    return CheckRow(t.arm, t.metric, t.baseline, t.now, d.diff, lo, hi, float(p_adjusted), verdict)


def check_statistical(
    doc: dict[str, Any],
    arms: list[Arm],
    *,
    seed: int | None = None,
    games: int | None = None,
    alpha: float = 0.001,
    tolerance: float = 0.05,
    backend: Backend | None = None,
) -> CheckReport:
    """Rerun every arm on a fresh seed and test each metric against the baseline."""
    seed = secrets.randbits(64) if seed is None else seed
    games = games or int(doc["games"])
    tests: list[MetricTest] = []
    for arm, rec in zip(arms, doc["arms"], strict=True):
        tests += _tests(arm.name, rec, run_arm(arm, games, seed, backend))
    adjusted = holm([t.test.p for t in tests])
    z = norm_quantile(1 - alpha / (2 * len(tests)))  # simultaneous (Bonferroni) interval
    rows = [_verdict(t, p, z, alpha, tolerance) for t, p in zip(tests, adjusted, strict=True)]
    return CheckReport("statistical", seed, games, alpha, tolerance, rows)


def check_exact(doc: dict[str, Any], arms: list[Arm], *, backend: Backend | None = None) -> CheckReport:
    """Rerun on the baseline's seed; the fingerprint of per-game results must match bit for bit."""
    seed, games = int(doc["seed"]), int(doc["games"])
    rows = []
    for arm, rec in zip(arms, doc["arms"], strict=True):
        result = run_arm(arm, games, seed, backend)
        now = f"{result.acc.fingerprint:016x}"
        same = now == rec["fingerprint"]
        summary = result.summary().set_index("metric")
        for name, base in rec["metrics"].items():
            value = float(summary.loc[name, "mean"])
            d = value - base["mean"]
            rows.append(CheckRow(arm.name, name, base["mean"], value, d, d, d, math.nan, Verdict.PASS if same else Verdict.FAIL))
        rows.append(
            CheckRow(
                arm.name,
                f"fingerprint {rec['fingerprint']} -> {now}",
                0.0,
                0.0,
                0.0,
                0.0,
                0.0,
                math.nan,
                Verdict.PASS if same else Verdict.FAIL,
            )
        )
    return CheckReport("exact", seed, games, 0.0, 0.0, rows)


def write_junit(report: CheckReport, path: str | Path, name: str = "unocli check") -> None:
    """JUnit XML: one test case per arm and metric (inconclusive ones are reported as skipped)."""
    fails = sum(r.verdict is Verdict.FAIL for r in report.rows)
    skips = sum(r.verdict is Verdict.INCONCLUSIVE for r in report.rows)
    suite = ET.Element("testsuite", name=name, tests=str(len(report.rows)), failures=str(fails), skipped=str(skips))
    for r in report.rows:
        case = ET.SubElement(suite, "testcase", classname=f"unocli.check.{r.arm}", name=r.metric)
        text = (
            f"baseline {r.baseline:.6g}, now {r.now:.6g}, difference {r.diff:+.6g}, "
            f"interval [{r.ci_low:+.6g}, {r.ci_high:+.6g}], adjusted p {r.p:.3g}"
        )
        if r.verdict is Verdict.FAIL:
            ET.SubElement(case, "failure", message=f"{r.metric} changed").text = text
        elif r.verdict is Verdict.INCONCLUSIVE:
            ET.SubElement(case, "skipped", message="inconclusive: more games needed").text = text
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)
