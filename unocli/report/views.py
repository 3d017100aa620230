"""Views of a design's tidy frame (:mod:`unocli.report.design`): tables and charts a report declares.

Each view is a function of the frame and of the words the report supplies
(title, caption): the report keeps its sentences, the views keep the drawing.
matplotlib loads only when a chart is drawn, so a report's ``compute`` never
imports it.

- :func:`forest`: each row's difference from the baseline, centred on 0, the margin drawn as a band;
- :func:`heatmap`: a difference over two of the frame's columns, annotated with its verdict;
- :func:`published`: published figures (data in the experiment file) beside unocli's, reconciled;
- :func:`interval_series`, :func:`players_chart`, :func:`forest_chart`: lines by table size and forests of panels.

:mod:`unocli.report.kinds` draws the views an experiment file declares (``[[view]]``) with these, and its
distributions, bars, dots and curves straight from :mod:`unocli.report.plots`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from unocli.report import fmt
from unocli.report.experiment import Experiment
from unocli.report.model import Chart, TableBlock

if TYPE_CHECKING:
    from unocli.report.plots import Series


def forest(
    diffs: pd.DataFrame,
    labels: Sequence[str],
    *,
    xlabel: str,
    caption: str,
    name: str,
    title: str,
    percent: bool = False,
) -> Chart:
    """Each row's difference (``diff``) with its simultaneous interval, centred on 0, the margin shaded as a band.

    ``percent``: the quantity is a share, its change shown in percentage points.
    """
    rows = diffs.assign(label=list(labels))
    panels = [(xlabel, "diff", "sim_low", "sim_high", float(rows["margin"].iloc[0]), percent)]
    return forest_chart(rows, "label", panels, caption, name=name, title=title)


def heatmap(
    diffs: pd.DataFrame,
    rows: str,
    cols: str,
    columns: tuple[str, str] = ("diff", "verdict"),
    *,
    caption: str,
    name: str,
    title: str,
    unit: str,
    scale: float = 1.0,
) -> Chart:
    """A difference over ``rows`` x ``cols``, each cell annotated with its value and verdict (``columns``: the
    difference's and the verdict's)."""
    from unocli.report import plots  # matplotlib only when drawing

    grid = diffs.pivot(index=rows, columns=cols, values=columns[0]).astype(float)  # a nullable NA as NaN
    verdicts = diffs.pivot(index=rows, columns=cols, values=columns[1])
    notes = np.array(
        [
            [f"{fmt.signed(scale * grid.iloc[i, j], 1)}\n{verdicts.iloc[i, j]}" for j in range(grid.shape[1])]
            for i in range(grid.shape[0])
        ]
    )
    figure = plots.heatmap(
        scale * grid.to_numpy(float),
        [str(c) for c in grid.columns],
        [str(r) for r in grid.index],
        title=title,
        xlabel=cols,
        ylabel=rows,
        caption=caption,
        colour_label=unit,
        annotations=notes,
    )
    return Chart(name, figure, caption, title)


@dataclass(frozen=True)
class Ours:
    """unocli's figure set beside a published one: its text, n and (when it is one number) its 95% interval."""

    text: str
    n: int | None = None
    low: float = float("nan")
    high: float = float("nan")


def published(exp: Experiment, ours: Mapping[str, Ours], *, title: str, name: str = "published") -> TableBlock | None:
    """The experiment file's ``[[published]]`` figures beside unocli's (``ours`` by each figure's ``ours`` key, or
    ``published[i]`` for a figure whose ``ours`` is a table).

    A figure whose ``ours`` key the report did not measure is shown as not measured here; every row keeps
    its reconciliation sentence (the setup reproduced, or the definition or rule that explains a gap, or
    that none is known).
    """
    if not exp.published:
        return None
    rows = []
    for i, fig in enumerate(exp.published):
        mine = ours.get(fig.ours if isinstance(fig.ours, str) else f"published[{i}]", Ours("not measured in this report"))
        value = fig.value + (f" ({fig.interval})" if fig.interval else "")
        rows.append(
            {
                "source": fig.source,
                "figure": fig.figure,
                "definition": fig.definition,
                "published": value,
                "unocli": mine.text,
                "n": mine.n,
                "reconciliation": fig.reconciliation,
                "ci_low": mine.low,
                "ci_high": mine.high,
            }
        )
    data = pd.DataFrame(rows).astype({"n": "Int64"})
    shown = data.drop(columns=["ci_low", "ci_high"]).assign(n=[fmt.count(n) if pd.notna(n) else "-" for n in data["n"]])
    return TableBlock(name, title, shown, data)


# ---------------------------------------------------------------- charts by table size and forests of panels


def interval_series(table: pd.DataFrame, by: str, columns: Sequence[str], x: str | None = None) -> list[Series]:
    """One line per value of ``table[by]``, in the table's order: its rows' ``columns`` (point, low, high), over
    their column ``x`` when given (else over the chart's x)."""
    from unocli.report import plots  # matplotlib only when drawing: compute() runs without it

    point, low, high = columns
    return [
        plots.Series(str(value), sub[point], sub[low], sub[high], x=None if x is None else sub[x])
        for value in dict.fromkeys(table[by])
        for sub in [table[table[by] == value]]
    ]


def players_chart(
    exp: Experiment,
    series: list[Series],
    cap: str,
    *,
    name: str,
    alt: str,
    title: str,
    ylabel: str,
    percent: bool = False,
    hline: tuple[float, str | None] | None = None,
    reference: tuple[str, list[float]] | None = None,
) -> Chart:
    """``series`` across the experiment's table sizes with error bars, captioned ``cap`` (see :func:`caption`).

    ``hline`` draws a dotted horizontal line and labels it; ``reference`` a dashed line, its label and values.
    """
    from unocli.report import plots  # matplotlib only when drawing

    figure = plots.line_chart(
        exp.players,
        series,
        band=False,
        title=title,
        xlabel="players at the table",
        ylabel=ylabel,
        xticks=exp.players,
        percent=percent,
        hline=hline[0] if hline else None,
        hline_label=hline[1] if hline else None,
        caption=cap,
        reference=plots.Series(*reference) if reference else None,
    )
    return Chart(name, figure, cap, alt)


def forest_chart(
    rows: pd.DataFrame,
    label: str,
    panels: Sequence[tuple[str, str, str, str, float, bool]],
    cap: str,
    *,
    name: str,
    title: str,
) -> Chart:
    """The headline chart of a debate: each row's effect per quantity with its interval and equivalence band.

    ``panels``: (x label, point column, low column, high column, margin,
    percent) per quantity; ``rows[label]`` names the rows.
    """
    from unocli.report import plots  # matplotlib only when drawing

    shown = [
        plots.Panel(xlabel, plots.Series(xlabel, rows[point], rows[low], rows[high]), margin, percent)
        for xlabel, point, low, high, margin, percent in panels
    ]
    figure = plots.forest_chart(list(rows[label]), shown, title=title, caption=cap)
    return Chart(name, figure, cap, title)
