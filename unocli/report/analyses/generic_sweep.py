"""A sweep over the experiment's grid: tidy table and a chart (line for one axis, heatmap for two).

Its views are the file's ``[[view]]`` tables over the sweep's tidy frame, or by default the chart (a ``report``
view, drawn here) and the table of every cell and metric (:func:`default_views`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from unocli.report import fmt, forms, kinds
from unocli.report.analyses.common import Context, caption
from unocli.report.experiment import Experiment, View
from unocli.report.model import Block, Chart, Section
from unocli.study.compare import is_binary
from unocli.study.sweep import Axis, SweepResult, parse_axis, sweep

OPTIONS: dict = {}
VIEWS: tuple[View, ...] = ()  # a file may declare views; without, :func:`default_views`


@dataclass(frozen=True)
class SweepOutcome:
    """A sweep and its tidy table (one row per cell and metric: axis values, players, metric, n, mean,
    ci_low, ci_high, diff, diff_low, diff_high, p, p_holm; differences from the first cell)."""

    exp: Experiment
    sweep: SweepResult
    table: pd.DataFrame

    @property
    def axis_names(self) -> list[str]:
        """The grid's axes other than the table size."""
        return [a.name for a in self.sweep.axes if a.name != "players"]


def check(exp: Experiment) -> str | None:
    if not exp.grid:
        return "grid: a sweep needs at least one axis"
    return kinds.refused(exp, kinds.FRAME_KINDS)


def compute(exp: Experiment, ctx: Context) -> SweepOutcome:
    """Play every cell of the grid (at every table size of the experiment)."""
    ctx.log(f"{exp.name}: sweep over {', '.join(a.name for a in exp.grid)}")
    base = exp.base
    axes = list(exp.grid)
    if len(exp.players) > 1 and not any(a.name == "players" for a in axes):
        axes.append(parse_axis("players", list(exp.players)))
    elif len(exp.players) == 1:
        base = replace(base, players=exp.players[0])
    result = sweep(
        base,
        axes,
        games=exp.games,
        seed=exp.seed,
        metrics=exp.metrics,
        metric=exp.metric,
        match=exp.match,
        target_error=exp.target_error,
        max_games=exp.max_games,
        threads=ctx.threads,
        backend=ctx.backend,
    )
    return SweepOutcome(exp=exp, sweep=result, table=result.table())


def render(outcome: SweepOutcome) -> Section:
    """The sweep's chart (when it has one) and table."""
    exp, table, result = outcome.exp, outcome.table, outcome.sweep
    cap = caption(
        exp,
        f"Mean {exp.metric} in every cell of the grid",
        cap_n(table),
        intervals="bands and bars are 95% intervals (t for means, Wilson for shares)",
    )
    fig = sweep_chart(table, result.axes, exp.metric, cap)
    own: dict[str, Block] = {"sweep": Chart("sweep", fig, cap, f"{exp.metric} over the grid")} if fig is not None else {}
    setup = kinds.Setup(lambda what, intervals, **_: caption(exp, what, cap_n(table), intervals=intervals), blocks=own)
    blocks = kinds.declared(kinds.chosen(exp, default_views(outcome.axis_names)), exp, table, setup)
    findings = [f"{len(result.cells)} cells x {len(result.metrics)} metrics; {fmt.count(result.games)} games in all."]
    if fig is None:
        sizes = len(table["players"].unique())
        findings.append(
            f"No chart: a line shows one axis and a heatmap two at one table size, and this grid has "
            f"{len(outcome.axis_names)} axes at {sizes} table size{'s' if sizes > 1 else ''}; every cell is in the table."
        )
    return Section(exp.name, exp.title, exp.intro, findings, blocks, {"games": result.games})


def cap_n(table: pd.DataFrame) -> str:
    """The sample size a sweep's caption gives: the fewest games of a cell."""
    return f"at least {fmt.count(table['n'].min())} games per cell"


def table_shown(table: pd.DataFrame, axis_names: Sequence[str]) -> pd.DataFrame:
    """The sweep table formatted for reading, as its default table view shows it (``unocli sweep`` prints it)."""
    return forms.formatted(table, table_view(axis_names).options["columns"])


def default_views(axis_names: Sequence[str]) -> list[View]:
    """The sweep's chart (drawn here), then the table of every cell and metric (:func:`table_view`)."""
    return [View("report", "sweep"), table_view(axis_names)]


def table_view(axis_names: Sequence[str]) -> View:
    """The table of every cell and metric (``sweep.csv``)."""
    columns = [[a, "text", a] for a in (*axis_names, "players", "metric")] + [["n", "count", "n"]]
    columns += [["mean [95% CI]", "estimate", "mean", "ci_low", "ci_high", "metric"]]
    columns += [["vs first cell [paired 95% CI]", "difference", "diff", "diff_low", "diff_high", "metric"]]
    columns += [["p (Holm)", "pvalue", "p_holm"]]
    return View("table", "sweep-table", title="Every cell and metric", options={"columns": columns, "file": "sweep"})


def sweep_chart(table: pd.DataFrame, axes: Sequence[Axis], metric: str, cap: str) -> Any:
    """Line chart (one axis, a line per table size) or heatmap (two axes); None for more axes."""
    df = table[table["metric"] == metric]
    grid = [a for a in axes if a.name != "players"]
    if len(grid) == 0 or (len(axes) == 1 and axes[0].name == "players"):
        return _players_chart(df, metric, cap)
    if len(grid) == 1:
        return _axis_chart(df, grid[0], metric, cap)
    if len(grid) == 2 and len(df["players"].unique()) == 1:
        return _heatmap(df, grid[0], grid[1], metric, cap)
    return None


def _players_chart(df: pd.DataFrame, metric: str, cap: str) -> Any:
    # matplotlib is imported only when a chart is drawn: compute() must run without it
    from unocli.report import plots

    x = sorted(df["players"].unique())
    series = [plots.Series(metric, df["mean"], df["ci_low"], df["ci_high"])]
    return plots.line_chart(
        x,
        series,
        title=f"{metric} by table size",
        xlabel="players",
        ylabel=metric,
        caption=cap,
        band=False,
        percent=is_binary(metric),
        xticks=x,
    )


def _axis_chart(df: pd.DataFrame, axis: Axis, metric: str, cap: str) -> Any:
    from unocli.report import plots  # matplotlib only when drawing

    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in axis.values)
    positions = list(axis.values) if numeric else list(range(len(axis.values)))
    series = []
    for p, sub in df.groupby("players"):
        sub = sub.set_index(axis.name).loc[list(axis.values)]
        series.append(plots.Series(f"{p} players", sub["mean"], sub["ci_low"], sub["ci_high"], x=positions))
    return plots.line_chart(
        positions,
        series,
        title=f"{metric} by {axis.name}",
        xlabel=axis.name,
        ylabel=metric,
        caption=cap,
        band=numeric,
        percent=is_binary(metric),
        xticks=None if numeric else positions,
        xticklabels=None if numeric else [str(v) for v in axis.values],
    )


def _heatmap(df: pd.DataFrame, ya: Axis, xa: Axis, metric: str, cap: str) -> Any:
    from unocli.report import plots  # matplotlib only when drawing

    binary = is_binary(metric)
    grid = np.full((len(ya.values), len(xa.values)), math.nan)
    annot = np.full(grid.shape, "", dtype=object)
    for _, r in df.iterrows():
        i, j = list(ya.values).index(r[ya.name]), list(xa.values).index(r[xa.name])
        grid[i, j] = r["mean"]
        half = (r["ci_high"] - r["ci_low"]) / 2
        annot[i, j] = f"{fmt.share(r['mean'], 1)}\n±{100 * half:.1f}" if binary else f"{r['mean']:.3g}\n±{half:.2g}"
    return plots.heatmap(
        grid,
        [str(v) for v in xa.values],
        [str(v) for v in ya.values],
        title=f"{metric} over {ya.name} x {xa.name} (mean ± 95% half-width)",
        xlabel=xa.name,
        ylabel=ya.name,
        caption=cap,
        colour_label=f"{metric} (mean)",
        annotations=annot,
        diverging=False,
    )
