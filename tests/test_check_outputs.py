"""``check --json/--summary/--annotations``, and a baseline written by ``unocli baseline`` read back by ``check``.

Each output is compared with figures computed another way: the JSON with the text table and with the
interval and detectable change recomputed from scipy's normal quantiles; the Markdown table's rows counted by
hand against the verdicts; the annotations decoded as GitHub's runner decodes them. The arm names are hostile
(a pipe, Markdown, HTML, a percent sign, workflow-command syntax, a line break) and must survive every format.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from click.testing import CliRunner

from unocli.balance.baseline import load_baseline
from unocli.cli.main import cli

HOSTILE = "pipe|star* `tick` <b>bold</b> %0A ::error:: 100%, a:b"
BROKEN = "line\\nbreak and \\\\ backslash"  # TOML escapes: a real line break and a backslash in the name
EXPERIMENT = f"""
name = "outputs"
seed = 5
games = 3000
players = [4]

[base]
rules = "official"
policy = "basic:forget_uno=0.5"

[arms.plain]

[arms."{HOSTILE}"]

[arms."{BROKEN}"]
rules = "party"
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A baseline written by the CLI (round trip), and a copy planted with a change in arm 'plain'."""
    folder = tmp_path_factory.mktemp("outputs")
    (folder / "exp.toml").write_text(EXPERIMENT)
    base = folder / "base.json"
    result = CliRunner().invoke(cli, ["baseline", str(folder / "exp.toml"), "-o", str(base)])
    assert result.exit_code == 0, result.output
    doc = json.loads(base.read_text())
    doc["arms"][0]["rules"]["uno_penalty"] = 6  # the rerun plays 6 where 2 was recorded: cards_drawn fails
    planted = folder / "planted.json"
    planted.write_text(json.dumps(doc))
    return folder, base, planted, result.output


def test_a_baseline_with_hostile_names_round_trips(files) -> None:
    _, base, _, output = files
    doc, arms = load_baseline(base)
    assert [a.name for a in arms] == ["plain", HOSTILE, "line\nbreak and \\ backslash"]
    assert doc["format_version"] == 2 and doc["detectable"]["metrics"] == 3 * (18 + 4)
    assert "Smallest change each metric can detect" in output
    result = CliRunner().invoke(cli, ["check", "--exact", str(base)])
    assert result.exit_code == 0, result.output


def test_baseline_stores_the_detectable_change_scipy_computes(files) -> None:
    """(z(1 - alpha / 2m) + z(power)) sd sqrt(2 / n), with scipy's quantiles; and at that change a two-sided z test
    at alpha / m has the stated power (scipy's normal tails)."""
    from scipy import stats as sps

    _, base, _, _ = files
    doc = json.loads(base.read_text())
    alpha, power, m = doc["detectable"]["alpha"], doc["detectable"]["power"], doc["detectable"]["metrics"]
    for arm in doc["arms"]:
        n = arm["n"]
        for stats in arm["metrics"].values():
            z = sps.norm.ppf(1 - alpha / (2 * m)) + sps.norm.ppf(power)
            assert stats["detectable"] == pytest.approx(z * stats["sd"] * math.sqrt(2 / n), rel=1e-9, abs=1e-12)
            if stats["sd"] > 0:
                se = stats["sd"] * math.sqrt(2 / n)
                shift = stats["detectable"] / se
                crit = sps.norm.isf(alpha / (2 * m))
                assert sps.norm.sf(crit - shift) + sps.norm.cdf(-crit - shift) == pytest.approx(power, abs=1e-6)
        for w, change in zip(arm["wins"], arm["win_detectable"], strict=True):
            p = w / n
            assert change == pytest.approx(
                (sps.norm.ppf(1 - alpha / (2 * m)) + sps.norm.ppf(power)) * math.sqrt(p * (1 - p) * 2 / n), rel=1e-9
            )


@pytest.fixture(scope="module")
def outputs(files):
    folder, _, planted, _ = files
    summary = folder / "summary.md"
    summary.write_text("# earlier step\n\nkept\n")  # a job summary other steps wrote: appended to, never replaced
    result = CliRunner().invoke(
        cli,
        [
            "check",
            "--seed",
            "8",
            "--json",
            str(folder / "check.json"),
            "--summary",
            str(summary),
            "--annotations",
            "github",
            "--junit",
            str(folder / "check.xml"),
            str(planted),
        ],
    )
    return result, json.loads((folder / "check.json").read_text()), summary.read_text()


def test_json_agrees_with_the_text_table(outputs) -> None:
    result, doc, _ = outputs
    assert result.exit_code == 1, result.output
    assert doc["format"] == "unocli-check" and doc["format_version"] == 1 and doc["exit_code"] == 1
    (check,) = doc["checks"]
    rows = [m for m in check["metrics"] if m["arm"] == "plain"]
    text = {line.split()[1]: line.split()[-1] for line in result.output.splitlines() if line.split()[:1] == ["plain"]}
    assert len(rows) == len(text) == 22
    for m in rows:
        assert text[m["metric"]] == m["verdict"]
        assert m["difference"] == pytest.approx(m["now"] - m["baseline"], rel=1e-9, abs=1e-12)
    failed = {m["metric"] for m in rows if m["verdict"] == "fail"}
    assert "cards_drawn" in failed
    totals = {v: sum(m["verdict"] == v for m in check["metrics"]) for v in ("pass", "fail", "inconclusive")}
    assert check["counts"] == doc["counts"] == totals
    last = result.output.strip().splitlines()
    tail = next(line for line in reversed(last) if re.fullmatch(r"\d+ pass, \d+ fail, \d+ inconclusive", line))
    assert tail == f"{totals['pass']} pass, {totals['fail']} fail, {totals['inconclusive']} inconclusive"


def test_json_intervals_are_the_bonferroni_intervals_scipy_computes(outputs, files) -> None:
    """Each interval is diff +- z se with z = scipy's norm.ppf(1 - alpha / 2m), se from the two samples' sizes and
    the larger sd (the baseline's figures are in the file; the fresh sd is recovered from the half-width)."""
    from scipy import stats as sps

    _, doc, _ = outputs
    (check,) = doc["checks"]
    m = len(check["metrics"])
    z = sps.norm.ppf(1 - check["alpha"] / (2 * m))
    zp = sps.norm.ppf(0.8)
    for row in check["metrics"]:
        lo, hi = row["interval"]
        assert (lo + hi) / 2 == pytest.approx(row["difference"], rel=1e-9, abs=1e-12)
        # the detectable change and the interval share one standard error: detectable = (z + zp) / z * half-width
        if hi > lo:
            assert row["detectable"] == pytest.approx((z + zp) / z * (hi - lo) / 2, rel=1e-9)


def test_summary_counts_and_rows_by_hand(outputs) -> None:
    _, doc, summary = outputs
    assert summary.startswith("# earlier step\n\nkept\n")  # what other steps wrote stays
    counts = dict(re.findall(r"^\| (pass|fail|inconclusive) \| (\d+) \|$", summary, re.M))
    assert {k: int(v) for k, v in counts.items()} == doc["counts"]
    table = [line for line in summary.splitlines() if line.startswith("| ") and line.count(" | ") >= 7]
    body = table[1:]  # the header row; the |---| rule does not start with "| "
    not_pass = [m for m in doc["checks"][0]["metrics"] if m["verdict"] != "pass"]
    assert len(body) == len(not_pass)
    # every row has exactly 8 cells: the hostile name's pipe is escaped, its line break flattened
    for line in body:
        cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        assert len(cells) == 8, line
    assert "<b>" not in summary and "\\<b\\>" in summary


def _decode(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def test_annotations_one_per_failure_and_inconclusive_escaped(outputs, files) -> None:
    result, doc, _ = outputs
    _, _, planted, _ = files
    commands = [line for line in result.output.splitlines() if line.startswith("::")]
    errors = [c for c in commands if c.startswith("::error ")]
    warnings = [c for c in commands if c.startswith("::warning ")]
    assert len(errors) == doc["counts"]["fail"] and len(warnings) == doc["counts"]["inconclusive"]
    for command in commands:
        match = re.fullmatch(r"::(error|warning) file=([^,:]*),title=([^,:]*)::(.*)", command)
        assert match, command
        assert _decode(match.group(2)) == str(planted)
        assert "\n" not in command and "\r" not in command
    hostile = [c for c in commands if _decode(c.split("::", 2)[2]).startswith(HOSTILE + " ")]
    broken = [c for c in commands if _decode(c.split("::", 2)[2]).startswith("line\nbreak and \\ backslash ")]
    assert len(hostile) + len(broken) + sum(c.split("::", 2)[2].startswith("plain ") for c in commands) == len(commands)


def test_unusable_output_paths_are_refused_before_any_game(files, tmp_path) -> None:
    _, base, _, _ = files
    for option, path in (("--json", tmp_path / "x.txt"), ("--json", tmp_path / "no" / "x.json"), ("--summary", tmp_path)):
        result = CliRunner().invoke(cli, ["check", option, str(path), str(base)])
        assert result.exit_code == 2, result.output
        assert len(result.output.strip().splitlines()) == 1


def test_a_metric_the_baseline_lacks_is_reported(files, tmp_path) -> None:
    _, base, _, _ = files
    doc = json.loads(base.read_text())
    doc["arms"] = doc["arms"][:1]
    del doc["arms"][0]["metrics"]["turns"]
    path = tmp_path / "lacks.json"
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(cli, ["check", "--exact", "--json", str(tmp_path / "o.json"), str(path)])
    assert "not in the baseline, so not checked: plain: turns" in result.output
    assert json.loads((tmp_path / "o.json").read_text())["checks"][0]["unchecked"] == ["plain: turns"]


def test_an_output_naming_a_baseline_or_another_output_is_refused(files, tmp_path) -> None:
    """--json, --summary or --junit on the baseline itself would destroy it: refused before any game, file intact."""
    _, base, _, _ = files
    before = base.read_bytes()
    for args in (
        ["--json", str(base)],
        ["--summary", str(base)],
        ["--json", str(tmp_path / "o.json"), "--summary", str(tmp_path / "o.json")],
    ):
        result = CliRunner().invoke(cli, ["check", *args, str(base)])
        assert result.exit_code == 2, result.output
        assert len(result.output.strip().splitlines()) == 1
    assert base.read_bytes() == before and not (tmp_path / "o.json").exists()
