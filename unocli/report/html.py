"""The HTML report: one self-contained ``index.html`` per report folder and one for the whole run.

A page needs nothing outside its folder and no network: the charts are the
SVG files :func:`unocli.report.render.save_section` wrote, inlined; the tables
are the sections' formatted tables; the style sheet is inline; there is no
script. Every link is relative and inside the folder (a section's own files,
or on the run's page the sections' folders).

Jinja2 renders the templates in ``unocli/report/templates`` with autoescaping
on; the few Markdown marks the sections' prose uses (code, bold, italics,
links) become HTML in :func:`inline`, after escaping.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unocli.report.card import CARD, draw_card
from unocli.report.experiment import Experiment
from unocli.report.model import Chart, Section, TableBlock, sentences
from unocli.report.repro import Reproduce
from unocli.report.words import INTERVALS
from unocli.version import __version__

PAGE = "index.html"


def answer_of(section: Section) -> str:
    """The section's one-sentence answer: its own, else the first sentence of its first finding."""
    if section.answer:
        return section.answer
    return sentences(section.findings[0])[0] if section.findings else ""


# ---------------------------------------------------------------- Markdown marks


_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?![\s*])(.+?)(?<![\s*])\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def inline(text: str) -> Any:
    """Escaped text with the sections' Markdown marks as HTML (a ``Markup`` string).

    Code spans are cut out first, so a ``*`` inside one stays a star. A link
    becomes an anchor only when its target stays in the folder (relative, no
    ``..``); any other keeps its words and loses the link.
    """
    from markupsafe import Markup, escape

    parts = _CODE.split(text)
    out = []
    for k, part in enumerate(parts):
        if k % 2:
            out.append(f"<code>{escape(part)}</code>")
            continue
        s = str(escape(part))
        s = _BOLD.sub(r"<strong>\1</strong>", s)
        s = _ITALIC.sub(r"<em>\1</em>", s)
        s = _LINK.sub(_link, s)
        out.append(s)
    return Markup("".join(out))


def _link(m: re.Match[str]) -> str:
    words, target = m.group(1), m.group(2)
    if is_inside(target):
        return f'<a href="{target}">{words}</a>'
    return words


def is_inside(target: str) -> bool:
    """Whether a link's target is a file of the page's own folder (no scheme, no absolute path, no ``..``)."""
    return not (":" in target or target.startswith(("/", "\\", "#/")) or ".." in target.replace("\\", "/").split("/"))


def paragraphs(text: str) -> list[dict[str, Any]]:
    """Prose as blocks: ``{"bullets": [...]}`` for a list of ``- `` lines, ``{"text": ...}`` for a paragraph."""
    out: list[dict[str, Any]] = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in chunk.strip().splitlines() if line.strip()]
        if not lines:
            continue
        if lines[0].startswith("- "):  # a list; a line that does not open an item continues the one before
            items: list[str] = []
            for line in lines:
                if line.startswith("- "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line
            out.append({"bullets": [inline(item) for item in items]})
        else:
            out.append({"text": inline(" ".join(lines))})
    return out


# ---------------------------------------------------------------- charts


_ID = re.compile(r'\bid="([^"]+)"')
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_XMLNS = re.compile(r'\s+xmlns(?::\w+)?="[^"]*"')
_BETWEEN_TAGS = re.compile(r">\s+<")


def inline_svg(path: Path, prefix: str) -> Any:
    """An SVG file as markup to put in a page: its XML prolog dropped and its ids prefixed.

    matplotlib names its clip paths and glyphs alike in every file
    (``DejaVuSans-30``); prefixed, two charts on one page never share an id.
    The XML namespace declarations and the RDF metadata are dropped (an
    HTML page needs neither).
    """
    from markupsafe import Markup

    text = path.read_text(encoding="utf-8")
    text = text[text.index("<svg") :]
    # An HTML page needs no XML namespace declarations, and the RDF metadata only names matplotlib: both
    # dropped, the page names no web address at all.
    text = _METADATA.sub("", text, count=1)
    text = _XMLNS.sub("", text[: text.index(">")]) + text[text.index(">") :]
    text = _BETWEEN_TAGS.sub("><", text)  # matplotlib's indentation: about a tenth of the bytes, no text of its own
    ids = set(_ID.findall(text))
    if ids:
        names = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
        text = re.sub(rf'\bid="({names})"', rf'id="{prefix}\1"', text)
        text = re.sub(rf"#({names})\b", rf"#{prefix}\1", text)
    return Markup(text)


# ---------------------------------------------------------------- pages


def _environment() -> Any:
    import jinja2  # only when a report is written

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("unocli.report", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = inline
    return env


def _blocks(section: Section, folder: Path, link: str, prefix: str) -> list[dict[str, Any]]:
    """The section's blocks as the template's items, charts read from ``folder`` (where they were saved)."""
    out: list[dict[str, Any]] = []
    for k, block in enumerate(section.blocks):
        if isinstance(block, Chart):
            out.append(
                {
                    "kind": "chart",
                    "svg": inline_svg(folder / f"{block.name}.svg", f"{prefix}{k}-"),
                    "alt": block.alt,
                    "caption": block.caption,
                    "png": f"{link}{block.name}.png",
                    "svg_file": f"{link}{block.name}.svg",
                }
            )
        elif isinstance(block, TableBlock):
            out.append(
                {
                    "kind": "table",
                    "title": block.title,
                    "columns": [str(c) for c in block.shown.columns],
                    "rows": [[str(v) for v in row] for row in block.shown.itertuples(index=False)],
                    "csv": f"{link}{block.name}.csv",
                    "note": block.note,
                }
            )
        else:
            out.append({"kind": "prose", "paragraphs": paragraphs(block)})
    return out


def _section_view(section: Section, folder: Path, repro: Reproduce, link: str, prefix: str, *, full: bool) -> dict[str, Any]:
    blocks = _blocks(section, folder, link, prefix)
    if not full:  # the run's page: the headline chart only, the section's own page has the rest
        blocks = [b for b in blocks if b["kind"] == "chart"][:1]
    return {
        "name": section.name,
        "title": section.title,
        "answer": answer_of(section),
        "intro": paragraphs(section.intro) if full else [],
        "findings": [inline(f) for f in section.findings],
        "blocks": blocks,
        "repro": repro,
        "link": link,
    }


def section_page(section: Section, folder: Path, repro: Reproduce, card: bool) -> str:
    """One report's page: its answer, prose, findings, every chart and table, and how to reproduce it."""
    view = _section_view(section, folder, repro, "", "c", full=True)
    env = _environment()
    return env.get_template("section.html.j2").render(
        s=view, card=CARD if card else None, page_title=section.title, version=__version__, intervals=INTERVALS
    )


def run_page(parts: Sequence[tuple[Section, Path, Reproduce]], command: str) -> str:
    """The whole run's page: each section's question, answer, findings and headline chart, linking its own page."""
    views = [
        _section_view(section, folder, repro, f"{section.name}/", f"s{k}-", full=False)
        for k, (section, folder, repro) in enumerate(parts)
    ]
    return (
        _environment()
        .get_template("run.html.j2")
        .render(
            sections=views,
            page=PAGE,
            card=CARD,
            command=command,
            version=__version__,
            page_title="unocli report",
            intervals=INTERVALS,
        )
    )


def write_pages(parts: Sequence[tuple[Section, Path, Reproduce]], out: Path, command: str, cards: bool) -> list[Path]:
    """Write each section's ``index.html`` into its folder and, for several, the run's into ``out``."""
    written = []
    for section, folder, repro in parts:
        page = folder / PAGE
        page.write_text(section_page(section, folder, repro, cards), encoding="utf-8")
        written.append(page)
    if len(parts) > 1:
        page = out / PAGE
        page.write_text(run_page(parts, command), encoding="utf-8")
        written.insert(0, page)
    return written


def write_shareable(items: Sequence[tuple[Experiment, Section, Path]], out: Path, command: str) -> list[Path]:
    """Draw each section's share card and write the pages; ``items``: each experiment, its section and its folder."""
    parts = []
    for exp, section, folder in items:
        repro = Reproduce.of(exp, section, command)
        draw_card(section, folder, repro, answer_of(section))
        parts.append((section, folder, repro))
    return write_pages(parts, out, command, cards=True)


def default_command(paths: Sequence[str | Path], out: str | Path, quick: bool) -> str:
    """The command line that writes this report, for a report written from Python (the CLI passes its own).

    ``paths``: the experiment files, none for the shipped set (what ``unocli report`` plays by default).
    """
    import shlex

    from unocli.files import display_path

    words = ["unocli", "report", *(display_path(p) for p in paths), "--out", display_path(out), "--quick" if quick else "--full"]
    return shlex.join(words)
