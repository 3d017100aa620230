"""The repository's documents: references that stay inside it, links that lead somewhere, a CLI reference that is current.

Every "§n" or "§n.m" in the code, tests, README, experiment files and reports
must name a section or numbered point of docs/rules.md ("docs/design.md §n"
one of docs/design.md), and nothing may cite a document the repository does
not hold: users of unocli never see any other rule text. Every relative link
of README.md, CHANGELOG.md and docs/*.md names a file of the repository.
docs/cli.md is every command's ``--help`` (``python -m unocli.cli.docgen
docs/cli.md``), and every command and option has help text.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from unocli.cli.docgen import commands, main, reference
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


def test_readme_is_a_short_manual_that_keeps_the_test_command() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 300, f"README.md has {len(lines)} lines: move reference material to docs/"
    # .ci/run greps for this exact line (its TEST_COMMAND)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = re.search(r'^TEST_COMMAND="(.*)"$', ci, re.M)
    assert command and command.group(1) in lines
    for page in ("docs/cli.md", "docs/design.md", "docs/performance.md", "reports/README.md", "CHANGELOG.md"):
        assert f"({page})" in "\n".join(lines), f"README.md does not link {page}"


def test_rules_text_prints_the_rules_document() -> None:
    result = CliRunner().invoke(cli, ["rules", "text"])
    assert result.exit_code == 0
    assert result.output == RULES.read_text(encoding="utf-8")


# ---------------------------------------------------------------- links and the CLI reference

LINK = re.compile(r"\]\(([^)\s]+)\)")


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line: target`` for every relative link of a Markdown file that names no file or folder."""
    bad, fenced = [], False
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fenced ^= line.lstrip().startswith("```")
        if fenced:
            continue  # code, not links
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or a place on the same page
            if not (path.parent / target.split("#")[0]).exists():
                bad.append(f"{path.relative_to(root)}:{lineno}: {target}")
    return bad


def test_every_relative_link_of_the_documents_names_a_file(tmp_path: Path) -> None:
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert len(pages) >= 6 and all(p.exists() for p in pages)
    bad = [b for p in pages for b in broken_links(p)]
    assert not bad, "links to files that do not exist:\n" + "\n".join(bad)
    # the check can fail
    page = tmp_path / "page.md"
    page.write_text(
        "[a](page.md) [b](https://x.org/y) [c](#here) [d](missing.md#part) `f[int](0)`\n```\nx[0](1)\n```\n[e](gone/)\n",
        encoding="utf-8",
    )
    assert broken_links(page, tmp_path) == ["page.md:1: missing.md#part", "page.md:5: gone/"]


def _fresh(*args: str) -> str:
    """The stdout of ``python -m ARGS`` in a fresh interpreter, in a terminal of 80 columns.

    Fresh, because click keeps each command's help option once it has been
    asked for it, so a test that invoked a command on its own changes the
    help the commands print later in this process.
    """
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    return done.stdout


def test_the_cli_reference_is_every_commands_current_help() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert text == _fresh("unocli.cli.docgen"), "docs/cli.md is stale: run  python -m unocli.cli.docgen docs/cli.md"


def test_the_cli_reference_is_the_help_a_user_sees() -> None:
    # Made another way: the command's own --help, in a terminal of 80 columns.
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for path in (["simulate"], ["rules", "show"], ["check"]):
        shown = _fresh("unocli", *path, "--help")
        assert f"## unocli {' '.join(path)}\n\n```text\n{shown.rstrip()}\n```\n" in text


def undocumented(group: click.Group, text: str) -> list[str]:
    """Commands without help or without a section of ``text``, and options without help."""
    root = click.Context(group, info_name="unocli", **group.context_settings)
    bad = []
    for ctx, cmd in commands(group, root):
        name = ctx.command_path
        if not (cmd.help or "").strip():
            bad.append(f"{name}: no help text")
        if f"\n## {name}\n" not in text:
            bad.append(f"{name}: no section in docs/cli.md")
        for param in cmd.get_params(ctx):
            if isinstance(param, click.Option) and not param.hidden and not (param.help or "").strip():
                bad.append(f"{name} {param.opts[0]}: no help text")
    return bad


def test_every_command_and_option_is_documented() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert text.count("\n## unocli") >= 17  # every command and subcommand of today, at least
    assert undocumented(cli, text) == []


def test_the_documentation_check_sees_an_undocumented_command_and_option() -> None:
    @click.group()
    def top() -> None:
        """Top."""

    @top.command()
    @click.option("--quiet", is_flag=True)
    def bare() -> None:
        pass

    @top.command()
    @click.option("--loud", is_flag=True, help="Shout.")
    def told() -> None:
        """Told."""

    text = "\n## unocli\n\n## unocli told\n"
    assert undocumented(top, text) == [
        "unocli bare: no help text",
        "unocli bare: no section in docs/cli.md",
        "unocli bare --quiet: no help text",
    ]


def test_the_generator_writes_the_reference_or_refuses_two_paths(tmp_path: Path, capsys) -> None:
    out = tmp_path / "cli.md"
    out.write_text("old\n", encoding="utf-8")
    assert main([str(out)]) == 0 and out.read_text(encoding="utf-8") == reference()
    assert main([str(out), str(out)]) == 2 and "usage:" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == reference()


def test_the_experiment_files_shown_in_docs_experiments_md_load(tmp_path):
    """Each example experiment file of docs/experiments.md loads as written (full and quick); the format's
    reference at its top shows every key at once ([arms] and [grid] together), so it is read for known keys only."""
    from unocli.report.experiment import TOP_KEYS, load_experiment

    blocks = re.findall(r"```toml\n(.*?)```", (ROOT / "docs" / "experiments.md").read_text(encoding="utf-8"), re.S)
    reference, *examples = blocks
    assert examples, "docs/experiments.md shows no example experiment file"
    keys = re.findall(r"^(\w+) *=", reference, re.M) + re.findall(r"^\[\[?(\w+)", reference, re.M)
    assert {k for k in keys if k in TOP_KEYS} >= {"analysis", "seed", "games", "arms", "grid", "view", "quick"}
    (tmp_path / "policies.toml").write_text((ROOT / "sims" / "policies.toml").read_text(encoding="utf-8"))
    for i, text in enumerate(examples):
        path = tmp_path / f"example-{i}.toml"
        path.write_text(text, encoding="utf-8")
        load_experiment(path)
        load_experiment(path, quick=True)
