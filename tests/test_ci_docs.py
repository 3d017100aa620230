"""docs/ci.md and .ci/run stay true: the same check commands, options that exist, every schema field documented."""

from __future__ import annotations

import re
from pathlib import Path

from unocli.balance import schema
from unocli.cli.balance import check_cmd

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
RUN = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _check_commands(text: str) -> list[str]:
    """Every ``unocli check`` command, its shell continuations and YAML folded (``>-``) lines joined."""
    lines: list[str] = []
    fold: int | None = None  # the indentation of the key whose value is being folded
    for line in re.sub(r"\\\n\s*", " ", text).splitlines():
        indent = len(line) - len(line.lstrip())
        if fold is not None and line.strip() and indent > fold:
            lines[-1] += " " + line.strip()
            continue
        fold = indent if line.rstrip().endswith(">-") else None
        lines.append(line)
    return [m.group(0).split("#")[0].strip() for line in lines for m in re.finditer(r"unocli check [^\n|>]*", line)]


def test_every_option_in_the_workflows_and_ci_run_exists() -> None:
    known = {opt for p in check_cmd.params for opt in getattr(p, "opts", [])}
    commands = _check_commands(DOC) + _check_commands(RUN)
    assert len(commands) >= 8
    for command in commands:
        for option in re.findall(r"(?<!\S)--[a-z-]+", command):
            assert option in known, (option, command)


def test_the_workflows_and_ci_run_use_the_same_ci_options() -> None:
    github = DOC[DOC.index("## A GitHub Actions workflow") : DOC.index("## A GitLab CI job")]
    gitlab = DOC[DOC.index("## A GitLab CI job") : DOC.index("## This repository's CI")]
    sequential = [c for c in _check_commands(github) + _check_commands(RUN) if "--sequential" in c]
    assert len(sequential) == 2
    for command in sequential:
        for option in ("--summary", "--annotations github", "--json", "--seed 20261130"):
            assert option in command.replace('"$CI_CHECK_SEED"', "20261130"), (option, command)
    assert any("--json" in c and "--summary" in c for c in _check_commands(gitlab))
    assert all(any("--exact" in c for c in _check_commands(part)) for part in (github, gitlab, RUN))


def test_ci_run_keeps_its_structure() -> None:
    assert RUN.splitlines()[2] == "set -euo pipefail"  # a failing check (or test) fails CI
    assert RUN.rstrip().splitlines()[-1] == (
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
    )


def test_every_schema_field_is_documented() -> None:
    for name in (*schema.BASELINE.fields, *schema.ARM.fields, *schema.METRIC.fields):
        assert f"`{name}`" in DOC or f".{name}`" in DOC or f"`{name}." in DOC, name
