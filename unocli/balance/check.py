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

from unocli.balance.baseline import Arm, run_arm
from unocli.run.backends import Backend
from unocli.study.stats import holm, norm_quantile, t_sf


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


def _welch(m1: float, s1: float, n1: int, m2: float, s2: float, n2: int) -> tuple[float, float, float]:
    """Difference m2 - m1, its standard error and the two-sided p-value (Welch)."""
    diff = m2 - m1
    v1, v2 = s1 * s1 / n1, s2 * s2 / n2
    se = math.sqrt(v1 + v2)
    if se == 0.0:
        return diff, 0.0, 1.0 if diff == 0.0 else 0.0
    denom = (v1 * v1 / (n1 - 1) if n1 > 1 else 0.0) + (v2 * v2 / (n2 - 1) if n2 > 1 else 0.0)
    df = (v1 + v2) ** 2 / denom if denom > 0 else max(n1 + n2 - 2, 1)
    return diff, se, 2 * t_sf(abs(diff) / se, df)


def _tests(rec: dict[str, Any], result) -> list[tuple[str, float, float, float, float, float]]:
    """(metric, baseline, now, diff, se, p) for every metric and seat win share of one arm."""
    out = []
    n0, n1 = rec["n"], result.games
    summary = result.summary().set_index("metric")
    for name, base in rec["metrics"].items():
        now = summary.loc[name]
        diff, se, p = _welch(base["mean"], base["sd"], n0, float(now["mean"]), float(now["sd"]), n1)
        out.append((name, base["mean"], float(now["mean"]), diff, se, p, base["sd"]))
    games_per_share0 = n0  # rounds played, all rotations included
    games_per_share1 = result.acc.games
    for seat, w0 in enumerate(rec["wins"]):
        p0 = w0 / games_per_share0
        p1 = result.acc.wins[seat] / games_per_share1
        s0, s1 = math.sqrt(p0 * (1 - p0)), math.sqrt(p1 * (1 - p1))
        diff, se, p = _welch(p0, s0, games_per_share0, p1, s1, games_per_share1)
        out.append((f"win_share_seat{seat}", p0, p1, diff, se, p, s0))
    return out


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
    raw = []
    for arm, rec in zip(arms, doc["arms"], strict=True):
        result = run_arm(arm, games, seed, backend)
        raw += [(arm.name, *t) for t in _tests(rec, result)]
    m = len(raw)
    adjusted = holm([t[6] for t in raw])
    z = norm_quantile(1 - alpha / (2 * m))  # simultaneous (Bonferroni) interval
    rows = []
    for (arm, metric, base, now, diff, se, _p, base_sd), p_adj in zip(raw, adjusted, strict=True):
        band = tolerance * max(abs(base), base_sd)
        lo, hi = diff - z * se, diff + z * se
        if p_adj < alpha:
            verdict = Verdict.FAIL
        elif -band <= lo and hi <= band:
            verdict = Verdict.PASS
        else:
            verdict = Verdict.INCONCLUSIVE
        rows.append(CheckRow(arm, metric, base, now, diff, lo, hi, float(p_adj), verdict))
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
