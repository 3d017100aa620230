"""The repository's references stay inside it.

Every "§n" or "§n.m" in the code, tests, README, experiment files and reports
must name a section or numbered point of docs/rules.md ("docs/design.md §n"
one of docs/design.md), and nothing may cite a document the repository does
not hold: users of unocli never see any other rule text.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from unocli.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
DESIGN = ROOT / "docs" / "design.md"


def _sources() -> list[Path]:
    out = []
    for folder, pattern in [("unocli", "*.py"), ("tests", "*.py"), ("sims", "*.toml"), ("reports", "*.md"), ("benchmarks", "*")]:
        out += [p for p in (ROOT / folder).rglob(pattern) if p.is_file() and p.suffix in (".py", ".md", ".toml", ".c", ".sh")]
    return [*out, ROOT / "README.md"]


def _anchors(path: Path) -> set[str]:
    """The section numbers a document defines: '## §3.' headings and '**§11.7' points."""
    text = path.read_text(encoding="utf-8")
    return set(re.findall(r"^#+ §(\d+)\.", text, re.M)) | set(re.findall(r"\*\*§(\d+\.\d+)", text))


def test_every_section_mark_names_a_clause_of_the_rules_document() -> None:
    rules, design = _anchors(RULES), _anchors(DESIGN)
    assert {str(i) for i in range(1, 14)} <= rules and "11.14" in rules
    bad = []
    for path in _sources():
        for lineno, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in re.finditer(r"(design\.md\s+)?§(\d+(?:\.\d+)?)", line):
                known = design if m.group(1) else rules
                if m.group(2) not in known:
                    bad.append(f"{path.relative_to(ROOT)}:{lineno}: §{m.group(2)}")
    assert not bad, "section marks that name no clause:\n" + "\n".join(bad)


def test_nothing_cites_a_document_outside_the_repository() -> None:
    outside = re.compile(r"\.\./shared|\bshared/|(?<![\w/])(RULES|DESIGN)\.md")
    bad = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in _sources()
        for i, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if outside.search(line)
    ]
    assert not bad, "references to documents the repository does not hold:\n" + "\n".join(bad)


def test_readme_links_the_rules_document() -> None:
    assert "(docs/rules.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_rules_text_prints_the_rules_document() -> None:
    result = CliRunner().invoke(cli, ["rules", "text"])
    assert result.exit_code == 0
    assert result.output == RULES.read_text(encoding="utf-8")
