"""Share cards: one PNG per debate, sized for social previews (1200 x 630), that carries the answer by itself.

A card holds the question (the section's title), its one-sentence answer,
the headline chart (the section's first chart, as saved), and the numbers it
rests on: the chart's sample size and intervals (from its caption), the rules,
table sizes, seed, games played and unocli version.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from unocli.report.model import Section
from unocli.report.repro import Reproduce

CARD = "share-card.png"
WIDTH, HEIGHT, DPI = 12.0, 6.3, 100  # inches at 100 dpi: 1200 x 630 pixels, the Open Graph preview size
_N = re.compile(r"\bn = (.+?)\.(?:\s|$)")


def plain(text: str) -> str:
    """Markdown marks dropped (code spans, bold, italics): a card is an image, not a page."""
    return re.sub(r"`([^`]*)`", r"\1", re.sub(r"\*\*?([^*]+)\*\*?", r"\1", text))


def chart_numbers(caption: str) -> tuple[str, str]:
    """The headline chart's sample size (``n = ...``) and its intervals (the caption's last sentence)."""
    m = _N.search(caption)
    n = f"n = {m.group(1)}" if m else ""
    last = [s.strip() for s in re.split(r"(?<=\.)\s+(?=[A-Z])", caption.strip()) if s.strip()]
    intervals = last[-1] if last and "interval" in last[-1].lower() else ""
    return n, intervals


def _wrapped(text: str, width: int, lines: int) -> str:
    out = textwrap.wrap(text, width)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: width - 1].rstrip() + "…"
    return "\n".join(out)


def draw_card(section: Section, folder: Path, repro: Reproduce, answer: str) -> Path:
    """Draw the section's card into ``folder`` (where its charts were saved) and return the PNG's path."""
    from matplotlib.figure import Figure
    from matplotlib.image import imread

    fig = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI, facecolor="white")
    title = _wrapped(section.title, 34, 2)
    fig.text(0.03, 0.93, title, fontsize=26, weight="bold", va="top", color="#1a1a1a")
    below = 0.93 - 0.085 * (title.count("\n") + 1) - 0.05  # the answer starts under the title's last line
    fig.text(0.03, below, _wrapped(plain(answer), 52, 11), fontsize=14, va="top", color="#1a1a1a", linespacing=1.4)
    chart = section.charts[0] if section.charts else None
    n, intervals = chart_numbers(chart.caption) if chart else ("", "")
    if chart is not None:
        ax = fig.add_axes((0.52, 0.16, 0.46, 0.8))
        ax.imshow(imread(folder / f"{chart.name}.png"))
        ax.set_axis_off()
    facts = [
        n,
        intervals,
        f"Rules: {repro.rules}. Players: {repro.players}. Seed {repro.seed}; {repro.games:,} games played"
        + (" (quick run)" if repro.quick else "")
        + f"; {repro.experiment}, unocli {repro.version}.",
    ]
    footer = ". ".join(f.rstrip(".") for f in facts if f) + "."
    fig.text(0.03, 0.03, _wrapped(footer, 175, 3), fontsize=9.5, va="bottom", color="#444444")
    path = folder / CARD
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    return path
