"""What ``check`` writes for people and CI systems: the text table, a Markdown job summary, GitHub annotations, JSON.

Every output reads the same :class:`CheckRow` figures; the JSON schema
(:data:`JSON_FORMAT`, version :data:`JSON_VERSION`) is documented in docs/ci.md
and only grows by new keys within a version.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from unocli.balance.check import CheckReport, CheckRow, Verdict
from unocli.files import write_text_atomic
from unocli.report import fmt
from unocli.study.compare import is_binary
from unocli.version import __version__

JSON_FORMAT = "unocli-check"
JSON_VERSION = 1
COLUMNS = ("baseline", "now", "difference", "interval", "detectable")


def row_cells(r: CheckRow) -> dict[str, str]:
    """A check row's figures: shares as percentages and their differences in percentage points (pp), differences signed, the
    difference and its interval with the decimals the interval warrants (an exact rerun's difference, which has
    no interval, to four significant figures); the detectable change with the difference's decimals."""
    if r.detail:  # an exact check's fingerprint: the two sides are the detail's, and it has no numbers
        before, _, after = r.detail.partition(" -> ")
        return {"baseline": before, "now": after, "difference": "same" if before == after else "differs"} | dict.fromkeys(
            ("interval", "detectable"), "-"
        )
    share = is_binary(r.metric)
    kind: fmt.Kind = "pp" if share else "signed"
    scale = 100 if share else 1
    k = fmt.decimals_for(scale * r.ci_low, scale * r.ci_high, default=fmt.sig_decimals(scale * r.diff))
    detect = "-" if not math.isfinite(r.detectable) else fmt.fixed(scale * r.detectable, k) + (" pp" if share else "")
    return {
        "baseline": fmt.share(r.baseline, 2) if share else fmt.sig(r.baseline),
        "now": fmt.share(r.now, 2) if share else fmt.sig(r.now),
        "difference": fmt.value(r.diff, k, kind),
        "interval": fmt.bounds(r.ci_low, r.ci_high, k, kind) if math.isfinite(r.ci_low) else "-",  # exact: none
        "detectable": detect,
    }


def counts(rows: list[CheckRow]) -> dict[str, int]:
    return {str(v): sum(r.verdict is v for r in rows) for v in Verdict}


def head_line(name: str, report: CheckReport) -> str:
    """The check's first line: the baseline file, then :func:`describe`."""
    return f"{name}: {describe(report)}"


def describe(report: CheckReport) -> str:
    """What was run, on how many games, at which error rates, and how the family of metrics is adjusted.

    The metrics of a check are read together, so the line names the adjustment: the fixed check's p-values are
    Holm-adjusted over every metric and its intervals simultaneous (Bonferroni); the sequential check's bounds
    and intervals are Bonferroni over the metrics.
    """
    head = f"{report.mode} check, {fmt.count(report.games)} games per arm, seed {report.seed}"
    family = f"{len(report.rows)} figures checked"
    if report.mode == "statistical":
        head += (
            f", family-wise alpha {report.alpha:g} over the {family} (p-values Holm-adjusted, intervals simultaneous: "
            f"Bonferroni), tolerance {report.tolerance:g}"
        )
    elif report.mode == "sequential":
        head += (
            f", family-wise alpha {report.alpha:g} over the {family} (bounds and intervals Bonferroni), "
            f"beta {report.beta:g} per metric at the tolerance, tolerance {report.tolerance:g}"
        )
    return head


def played_line(report: CheckReport) -> str:
    """How many games were played, against the fixed check's number (a sequential check stops early), and per arm."""
    most = report.games * report.arms
    per_arm: dict[str, int] = {}
    for r in report.rows:
        per_arm[r.arm] = max(per_arm.get(r.arm, 0), r.games)
    arms = ", ".join(f"{fmt.count(g)}" for g in per_arm.values())
    return f"played {fmt.count(report.played)} of at most {fmt.count(most)} games ({report.arms} arms: {arms})"


def format_report(name: str, report: CheckReport) -> str:
    """The check's verdicts as a table for a terminal, with the counts of each verdict."""
    import pandas as pd

    cells = [row_cells(r) for r in report.rows]
    table = pd.DataFrame(
        {
            "arm": [r.arm for r in report.rows],
            "metric": [r.metric for r in report.rows],
            **{column: [c[column] for c in cells] for column in COLUMNS if report.mode != "exact" or column != "detectable"},
            "verdict": [str(r.verdict) for r in report.rows],
        }
    )
    lines = [head_line(name, report), table.to_string(index=False)]
    if report.mode == "sequential":
        lines.append(played_line(report))
    if report.unchecked:
        lines.append("not in the baseline, so not checked: " + "; ".join(report.unchecked))
    tally = counts(report.rows)
    lines.append(", ".join(f"{tally[str(v)]} {v}" for v in Verdict))
    return "\n".join(lines)


# ---------------------------------------------------------------- Markdown job summary


def _md(text: str) -> str:
    """Text safe in a Markdown table cell: ASCII punctuation backslash-escaped (CommonMark), line breaks as spaces."""
    out = []
    for c in text.replace("\r\n", " ").replace("\r", " ").replace("\n", " "):
        out.append("\\" + c if c in _PUNCT else c)
    return "".join(out)


_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def summary_markdown(checks: list[tuple[str, CheckReport]]) -> str:
    """A job summary: per baseline file the verdict counts, then the failing and inconclusive metrics."""
    lines = ["## unocli check", ""]
    for name, report in checks:
        tally = counts(report.rows)
        lines += [f"### {_md(name)}", "", describe(report), ""]
        lines += [
            "| verdict | metrics |",
            "|---|---:|",
            *(f"| {v} | {tally[str(v)]} |" for v in Verdict),
            "",
        ]
        if report.mode == "sequential":
            lines += [played_line(report), ""]
        if report.unchecked:
            lines += ["Not in the baseline, so not checked: " + "; ".join(_md(u) for u in report.unchecked), ""]
        bad = [r for r in report.rows if r.verdict is not Verdict.PASS]
        if bad:
            lines += [
                "| arm | metric | verdict | baseline | now | difference | interval | detectable |",
                "|---|---|---|---:|---:|---:|---|---:|",
            ]
            for r in bad:
                c = row_cells(r)
                cells = [_md(r.arm), r.metric, str(r.verdict), *(c[k] for k in COLUMNS)]  # only the name is free text
                lines.append("| " + " | ".join(cells) + " |")
            lines.append("")
    return "\n".join(lines) + "\n"


def append_summary(text: str, path: str | Path) -> None:
    """Append to ``path`` (GitHub's $GITHUB_STEP_SUMMARY is shared by a job's steps: what is there stays)."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


# ---------------------------------------------------------------- GitHub workflow commands


def _escape_data(text: str) -> str:
    """A workflow command's message: %, CR and LF percent-encoded, as GitHub's runner decodes them."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A workflow command's property (file=, title=): also ':' and ','."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotations(checks: list[tuple[str, CheckReport]]) -> list[str]:
    """One ``::error`` per failing metric and one ``::warning`` per inconclusive one, on the baseline file."""
    out = []
    for name, report in checks:
        for r in report.rows:
            if r.verdict is Verdict.PASS:
                continue
            c = row_cells(r)
            level = "error" if r.verdict is Verdict.FAIL else "warning"
            title = f"unocli check: {r.arm} {r.metric} {r.verdict}"
            message = (
                f"{r.arm} {r.metric}: baseline {c['baseline']}, now {c['now']}, difference {c['difference']} "
                f"(interval {c['interval']}, detectable {c['detectable']}); {r.verdict}"
            )
            out.append(f"::{level} file={_escape_property(name)},title={_escape_property(title)}::{_escape_data(message)}")
    return out


# ---------------------------------------------------------------- JSON


def _num(x: float) -> float | None:
    """A finite number, or None (JSON has no NaN)."""
    return float(x) if math.isfinite(x) else None


def report_json(checks: list[tuple[str, CheckReport]], exit_code: int) -> dict[str, Any]:
    """Every metric's verdict and numbers (the schema in docs/ci.md)."""
    rows = [r for _, report in checks for r in report.rows]
    return {
        "format": JSON_FORMAT,
        "format_version": JSON_VERSION,
        "unocli_version": __version__,
        "exit_code": exit_code,
        "counts": counts(rows),
        "checks": [
            {
                "baseline_file": name,
                "mode": report.mode,
                "seed": report.seed,
                "games_per_arm": report.games,
                "games_played": report.played,
                "arms": report.arms,
                "alpha": _num(report.alpha) if report.mode != "exact" else None,
                "beta": _num(report.beta),
                "tolerance": _num(report.tolerance) if report.mode != "exact" else None,
                "counts": counts(report.rows),
                "unchecked": list(report.unchecked),
                "metrics": [
                    {
                        "arm": r.arm,
                        "metric": r.metric,
                        "verdict": str(r.verdict),
                        "baseline": _num(r.baseline),
                        "now": _num(r.now),
                        "difference": _num(r.diff),
                        "interval": [_num(r.ci_low), _num(r.ci_high)],
                        "p_adjusted": _num(r.p),
                        "detectable": _num(r.detectable),
                        "games": r.games,
                        **({"detail": r.detail} if r.detail else {}),
                    }
                    for r in report.rows
                ],
            }
            for name, report in checks
        ],
    }


def write_json(doc: dict[str, Any], path: str | Path) -> None:
    """Written atomically: CI never reads a half-written file."""
    write_text_atomic(path, json.dumps(doc, indent=2, allow_nan=False) + "\n")
