"""Every exit code of ``unocli baseline`` / ``unocli check``, each from a real run through the CLI.

CI systems read only the exit code, so each documented value is produced by
the situation it documents: 0 all pass, 1 a real change, 3 too few games to
decide, 2 an unusable baseline. Seeds are fixed, so each verdict is the same
on every run of the suite.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unocli.cli.main import cli

EXPERIMENT = """
name = "tiny"
seed = 5
games = 6000
players = [4]

[base]
rules = "official"
policy = "basic:forget_uno=0.5"

[arms.forgetful]
"""


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("exit")
    (folder / "tiny.toml").write_text(EXPERIMENT)
    out = folder / "tiny.json"
    result = CliRunner().invoke(cli, ["baseline", str(folder / "tiny.toml"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _check(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, ["check", *args], env=env)


def test_exit_0_when_unchanged(baseline: Path) -> None:
    result = _check("--seed", "101", "--tolerance", "0.5", str(baseline))
    assert result.exit_code == 0, result.output
    assert "0 fail" in result.output and "0 inconclusive" in result.output


def test_exit_0_exact_when_unchanged(baseline: Path) -> None:
    assert _check("--exact", str(baseline)).exit_code == 0


def test_exit_1_on_a_planted_change(baseline: Path) -> None:
    # The kernel plays a different Uno penalty than the baseline recorded.
    result = _check("--seed", "101", str(baseline), env={"UNOCLI_TEST_FAULT": "uno_penalty"})
    assert result.exit_code == 1, result.output
    assert " fail" in result.output


def test_exit_1_exact_on_a_planted_change(baseline: Path) -> None:
    assert _check("--exact", str(baseline), env={"UNOCLI_TEST_FAULT": "uno_penalty"}).exit_code == 1


def test_exit_3_when_too_few_games_to_decide(baseline: Path) -> None:
    # 300 games cannot put a 5% band around anything: inconclusive, not pass, not fail.
    result = _check("--seed", "101", "--games", "300", str(baseline))
    assert result.exit_code == 3, result.output


@pytest.mark.parametrize(
    "corrupt",
    [
        "not json at all",
        json.dumps({"format": "something-else"}),
        None,  # a missing file
    ],
)
def test_exit_2_on_an_unusable_baseline(tmp_path: Path, corrupt: str | None) -> None:
    path = tmp_path / "bad.json"
    if corrupt is not None:
        path.write_text(corrupt)
    result = _check(str(path))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_exit_2_on_a_baseline_naming_an_unknown_rule(baseline: Path, tmp_path: Path) -> None:
    doc = json.loads(baseline.read_text())
    doc["arms"][0]["rules"]["no_such_rule"] = True
    path = tmp_path / "unknown.json"
    path.write_text(json.dumps(doc))
    assert _check(str(path)).exit_code == 2


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (RuntimeError("a bug"), "unocli hit an internal error (RuntimeError: a bug)"),
        (OSError(28, "No space left on device", "check.json"), "the system refused an operation on 'check.json'"),
    ],
)
def test_exit_2_when_the_check_cannot_run_never_1(baseline: Path, monkeypatch, error: Exception, words: str) -> None:
    """An internal or system error is no verdict: it exited 1, which CI reads as "a metric failed"."""
    from unocli.cli import balance

    def broken(*args, **kwargs):
        raise error

    monkeypatch.setattr(balance, "check_exact", broken)
    result = _check("--exact", str(baseline))
    assert result.exit_code == 2 and words in result.output, result.output
    assert "Traceback" not in result.output
