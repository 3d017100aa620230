"""The report model: what an analysis hands to the renderer (sections of prose, charts and tables).

Plain data with no behaviour beyond a Markdown table, so the analyses
(which build it) and :mod:`unocli.report.render` (which runs the analyses and
writes it out) both import it and not each other's internals.
"""

from __future__ import annotations

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
    """The report of one experiment."""

    name: str
    title: str
    intro: str
    findings: list[str] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def charts(self) -> list[Chart]:
        return [b for b in self.blocks if isinstance(b, Chart)]


def md_table(df: pd.DataFrame) -> str:
    """A DataFrame (already formatted) as a Markdown table."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines)
