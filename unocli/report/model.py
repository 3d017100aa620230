"""The report model: what an analysis hands to the renderer (sections of prose, charts and tables).

Plain data with no behaviour beyond a Markdown table, so the analyses
(which build it) and :mod:`unocli.report.render` (which runs the analyses and
writes it out) both import it and not each other's internals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd


@dataclass
class Chart:
    """A figure to write as ``name.png`` and ``name.svg`` with its caption under it."""

    name: str
    figure: Any
    caption: str
    alt: str


@dataclass
class TableBlock:
    """A table shown in Markdown (``shown``, formatted) and written as ``name.csv`` (``data``, numbers)."""

    name: str
    title: str
    shown: pd.DataFrame
    data: pd.DataFrame
    note: str = ""


Block = Chart | TableBlock | str


@dataclass
class Section:
    """The report of one experiment.

    ``title`` is the question the report answers and ``answer`` its answer in
    one sentence (Markdown), for the HTML page's first line and the share card;
    an analysis that has no one-sentence answer leaves it empty.
    """

    name: str
    title: str
    intro: str
    findings: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    answer: str = ""

    @property
    def charts(self) -> list[Chart]:
        return [b for b in self.blocks if isinstance(b, Chart)]


_LABEL = re.compile(r"^\*\*[^*]+\*\*\s*")  # a paragraph's bold lead-in, "**Answer.** "


def sentences(paragraph: str) -> list[str]:
    """A paragraph's sentences, its bold lead-in (``**Answer.**``) dropped.

    A sentence ends at a full stop followed by a space and a capital letter or
    a backtick, outside brackets and parentheses: "50.9 with", "(n = 1,000. ...)"
    and "[-0.8, +0.3]" do not end one.
    """
    text = _LABEL.sub("", paragraph.strip(), count=1)
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
        elif ch == "." and depth == 0 and text[i + 1 : i + 2] == " " and _opens(text[i + 2 : i + 3]):
            out.append(text[start : i + 1].strip())
            start = i + 2
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def _opens(ch: str) -> bool:
    """Whether ``ch`` can open a sentence: a capital letter or a backtick (a policy's name)."""
    return ch.isupper() or ch == "`"


def md_table(df: pd.DataFrame) -> str:
    """A DataFrame (already formatted) as a Markdown table."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines)
