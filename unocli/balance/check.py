"""``unocli check``: does the code still produce the balance a baseline recorded?

Two modes:

* **statistical** (default): every arm is rerun on a fresh seed and each metric
  (and each seat's win share) gets a two-sample test against the baseline
  (a z test with the larger spread for means, the score test for shares; a
  metric whose samples are too small for it is inconclusive, never failed).
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
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from unocli.balance.baseline import Progress, of_arms, run_arm
from unocli.balance.power import detectable
from unocli.files import write_atomic
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.simulate import SimulationResult
from unocli.study.stats import Difference, holm, norm_quantile


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
    detectable: float = math.nan  # smallest change this check fails with probability POWER (power.py)
    games: int = 0  # games of the fresh sample behind the row (a sequential check stops arms early)
    detail: str = ""  # what a row without numbers compared: an exact check's fingerprints, "baseline -> now"


@dataclass
class CheckReport:
    """A check's verdicts. ``games`` is the most games per arm; ``played`` the fresh games played in all
    (a sequential check stops early); ``unchecked`` names metrics the fresh run has and the baseline lacks."""

    mode: str
    seed: int
    games: int
    alpha: float
    tolerance: float
    rows: list[CheckRow]
    beta: float = math.nan
    played: int = 0
    arms: int = 0
    unchecked: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """0 all pass, 1 any fail, 3 only inconclusive results stand in the way."""
        verdicts = {r.verdict for r in self.rows}
        if Verdict.FAIL in verdicts:
            return 1
        if Verdict.INCONCLUSIVE in verdicts:
            return 3
        return 0


# Below these sizes a normal approximation cannot be trusted at the Bonferroni-corrected levels the check
# uses (|z| of about 4): the metric is inconclusive, never failed.
MIN_GAMES = 500  # games on each side for a metric's mean
MIN_EVENTS = 30  # games x mean^2 / variance on each side: rare counts need many games
MIN_EXPECTED = 10  # expected wins and losses on each side for a win share


@dataclass(frozen=True)
class MetricTest:
    """One metric (or one seat's win share) of one arm, rerun against its baseline.

    ``test`` is a two-sample z test of ``now - baseline`` (independent
    samples); ``decidable`` is False when the samples are too small for it, and
    the metric is then inconclusive whatever its p-value.
    """

    arm: str
    metric: str
    baseline: float
    baseline_sd: float
    now: float
    test: Difference
    decidable: bool
    sd: float = math.nan  # the spread the test used
    n_base: int = 0
    n_now: int = 0

    @property
    def band(self) -> float:
        """The tolerance band's half-width is ``tolerance`` times this (see the module docstring)."""
        return max(abs(self.baseline), self.baseline_sd)


def _z_difference(diff: float, se: float, n: int) -> Difference:
    """``diff`` with standard error ``se`` and a normal two-sided p-value (p = 1 for 0 +- 0, 0 for d +- 0)."""
    if se > 0:
        p = math.erfc(abs(diff) / se / math.sqrt(2))
    else:
        p = 1.0 if diff == 0 else 0.0
    half = 1.959963984540054 * se
    return Difference(diff, se, n, diff - half, diff + half, p, math.inf, math.nan)


def mean_test(now: float, sd_now: float, n_now: int, base: float, sd_base: float, n_base: int) -> tuple[Difference, bool]:
    """The difference of two means, tested with the larger of the two spreads on both sides.

    Under "no change" both samples share one variance, best known from the
    larger sample; the larger spread is used so that a fresh sample that saw no
    rare event (sd 0) does not make a rare count look significant. Decidable
    when both samples have MIN_GAMES games and MIN_EVENTS "events"
    (n mean^2 / variance; for a Poisson count, the expected number of events).
    """
    var = max(sd_now, sd_base) ** 2
    se = math.sqrt(var * (1 / n_now + 1 / n_base))
    pooled = (now * n_now + base * n_base) / (n_now + n_base)
    small = min(n_now, n_base)
    decidable = small >= MIN_GAMES and (var == 0 or small * pooled * pooled / var >= MIN_EVENTS)
    return _z_difference(now - base, se, n_now + n_base), decidable


def share_test(wins_now: int, n_now: int, wins_base: int, n_base: int) -> tuple[Difference, bool]:
    """The difference of two shares: the score (pooled) test, decidable with MIN_EXPECTED wins and losses each side."""
    p_now, p_base = wins_now / n_now, wins_base / n_base
    pooled = (wins_now + wins_base) / (n_now + n_base)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_now + 1 / n_base))
    expected = min(n_now, n_base) * min(pooled, 1 - pooled)
    return _z_difference(p_now - p_base, se, n_now + n_base), expected >= MIN_EXPECTED


def unchecked(arm: str, rec: dict[str, Any], result: SimulationResult) -> list[str]:
    """Metrics the fresh run measures that the baseline does not hold (an older or edited baseline): reported,
    since they cannot be checked."""
    return [f"{arm}: {name}" for name in result.metric_names if name not in rec["metrics"]]


def arm_tests(arm: str, rec: dict[str, Any], result: SimulationResult) -> list[MetricTest]:
    """A test for every metric and every seat's win share of one arm."""
    out = []
    n0, n1 = int(rec["n"]), int(result.acc.finished)
    summary = result.summary().set_index("metric")
    for name, base in rec["metrics"].items():
        now = summary.loc[name]
        mean, sd = float(now["mean"]), float(now["sd"])
        if n1 == 0 or not math.isfinite(mean):  # no finished game: nothing to compare yet
            mean, sd = math.nan, math.nan
            test, decidable = _z_difference(math.nan, math.nan, n0), False
        else:
            sd = sd if math.isfinite(sd) else 0.0
            test, decidable = mean_test(mean, sd, n1, base["mean"], base["sd"], n0)
        spread = max(sd, base["sd"]) if math.isfinite(sd) else base["sd"]
        out.append(MetricTest(arm, name, base["mean"], base["sd"], mean, test, decidable, spread, n0, n1))
    games0 = n0  # rounds played, all rotations included
    games1 = result.acc.games
    for seat, w0 in enumerate(rec["wins"]):
        p0 = w0 / games0
        test, decidable = share_test(int(result.acc.wins[seat]), games1, int(w0), games0)
        pooled = (int(result.acc.wins[seat]) + int(w0)) / (games1 + games0)
        out.append(
            MetricTest(
                arm,
                f"win_share_seat{seat}",
                p0,
                math.sqrt(p0 * (1 - p0)),
                test.diff + p0,
                test,
                decidable,
                math.sqrt(pooled * (1 - pooled)),
                games0,
                games1,
            )
        )
    return out


def row_detectable(t: MetricTest, alpha: float, tests: int) -> float:
    """The smallest change this test fails with probability POWER at its sizes (power.py)."""
    return detectable(t.sd, t.n_base, t.n_now, alpha=alpha, tests=tests)


def _verdict(t: MetricTest, p_adjusted: float, z: float, alpha: float, tolerance: float) -> CheckRow:
    """Fail when decidable and the adjusted p-value is below ``alpha``; pass when the interval ``diff +- z se`` lies
    in the band; otherwise (or when the samples are too small to decide) inconclusive."""
    d = t.test
    band = tolerance * t.band
    lo, hi = d.diff - z * d.se, d.diff + z * d.se
    if not t.decidable or not math.isfinite(d.diff):
        verdict = Verdict.INCONCLUSIVE
    elif p_adjusted < alpha:
        verdict = Verdict.FAIL
    elif -band <= lo and hi <= band:
        verdict = Verdict.PASS
    else:
        verdict = Verdict.INCONCLUSIVE
    return CheckRow(t.arm, t.metric, t.baseline, t.now, d.diff, lo, hi, float(p_adjusted), verdict, games=t.n_now)


def check_statistical(
    doc: dict[str, Any],
    arms: list[Arm],
    *,
    seed: int | None = None,
    games: int | None = None,
    alpha: float = 0.001,
    tolerance: float = 0.05,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> CheckReport:
    """Rerun every arm on a fresh seed and test each metric against the baseline."""
    seed = secrets.randbits(64) if seed is None else seed
    games = games or int(doc["games"])
    tests: list[MetricTest] = []
    missing: list[str] = []
    played = 0
    for i, (arm, rec) in enumerate(zip(arms, doc["arms"], strict=True)):
        result = run_arm(arm, games, seed, backend, of_arms(progress, i, len(arms)))
        tests += arm_tests(arm.name, rec, result)
        missing += unchecked(arm.name, rec, result)
        played += games
    adjusted = holm([t.test.p if t.decidable and math.isfinite(t.test.p) else 1.0 for t in tests])
    z = norm_quantile(1 - alpha / (2 * len(tests)))  # simultaneous (Bonferroni) interval
    rows = [
        replace(_verdict(t, p, z, alpha, tolerance), detectable=row_detectable(t, alpha, len(tests)))
        for t, p in zip(tests, adjusted, strict=True)
    ]
    return CheckReport("statistical", seed, games, alpha, tolerance, rows, played=played, arms=len(arms), unchecked=missing)


def check_exact(
    doc: dict[str, Any], arms: list[Arm], *, backend: Backend | None = None, progress: Progress | None = None
) -> CheckReport:
    """Rerun on the baseline's seed; the fingerprint of per-game results must match bit for bit."""
    seed, games = int(doc["seed"]), int(doc["games"])
    rows = []
    missing: list[str] = []
    for i, (arm, rec) in enumerate(zip(arms, doc["arms"], strict=True)):
        result = run_arm(arm, games, seed, backend, of_arms(progress, i, len(arms)))
        now = f"{result.acc.fingerprint:016x}"
        same = now == rec["fingerprint"]
        missing += unchecked(arm.name, rec, result)
        summary = result.summary().set_index("metric")
        verdict, nan = Verdict.PASS if same else Verdict.FAIL, math.nan
        for name, base in rec["metrics"].items():  # the same games again: a difference, and no interval to it
            value = float(summary.loc[name, "mean"])
            rows.append(CheckRow(arm.name, name, base["mean"], value, value - base["mean"], nan, nan, nan, verdict, games=games))
        detail = f"{rec['fingerprint']} -> {now}"
        rows.append(CheckRow(arm.name, "fingerprint", nan, nan, nan, nan, nan, nan, verdict, games=games, detail=detail))
    return CheckReport("exact", seed, games, 0.0, 0.0, rows, played=games * len(arms), arms=len(arms), unchecked=missing)


def write_junit(checks: list[tuple[str, CheckReport]], path: str | Path, name: str = "unocli check") -> None:
    """JUnit XML: one test case per baseline file, arm and metric (inconclusive ones are reported as skipped); a
    case's class names the file (its stem) and the arm, so the cases of several files stay apart."""
    rows = [(Path(file).stem, r) for file, report in checks for r in report.rows]
    fails = sum(r.verdict is Verdict.FAIL for _, r in rows)
    skips = sum(r.verdict is Verdict.INCONCLUSIVE for _, r in rows)
    suite = ET.Element("testsuite", name=name, tests=str(len(rows)), failures=str(fails), skipped=str(skips))
    for stem, r in rows:
        case = ET.SubElement(suite, "testcase", classname=f"unocli.check.{stem}.{r.arm}", name=r.metric)
        numbers = [("baseline", r.baseline, ".6g"), ("now", r.now, ".6g"), ("difference", r.diff, "+.6g")]
        said = [f"{what} {x:{form}}" for what, x, form in numbers if math.isfinite(x)]
        said += [f"interval [{r.ci_low:+.6g}, {r.ci_high:+.6g}]"] if math.isfinite(r.ci_low) else []
        said += [f"adjusted p {r.p:.3g}"] if math.isfinite(r.p) else []
        text = ", ".join([r.detail] * bool(r.detail) + said)
        if r.verdict is Verdict.FAIL:
            ET.SubElement(case, "failure", message=f"{r.metric} changed").text = text
        elif r.verdict is Verdict.INCONCLUSIVE:
            ET.SubElement(case, "skipped", message="inconclusive: more games needed").text = text
    # Written atomically: a failure leaves no half-written file for CI to read.
    write_atomic(path, lambda tmp: ET.ElementTree(suite).write(tmp, encoding="utf-8", xml_declaration=True))
