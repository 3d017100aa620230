"""A sweep over the experiment's grid: tidy table and a chart (line for one axis, heatmap for two)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from unocli.report.analyses.common import Context, caption, ci, pct_ci, pp_ci, pvalue, signed_ci
from unocli.report.render import Chart, Section, TableBlock
from unocli.study.compare import is_binary
from unocli.study.experiments import Experiment
from unocli.study.sweep import SweepResult, sweep

OPTIONS: dict = {}


def check(exp: Experiment) -> str | None:
    if not exp.grid:
        return "grid: a sweep needs at least one axis"
    return None


def sweep_chart(result: SweepResult, metric: str, cap: str):
    """Line chart (one axis, a line per table size) or heatmap (two axes); None for more axes."""
    from unocli.report import plots

    df = result.table()
    df = df[df["metric"] == metric]
    axes = [a for a in result.axes if a.name != "players"]
    binary = is_binary(metric)
    if len(axes) == 0 or (len(result.axes) == 1 and result.axes[0].name == "players"):
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
            percent=binary,
            xticks=x,
        )
    if len(axes) == 1:
        axis = axes[0]
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
            percent=binary,
            xticks=None if numeric else positions,
            xticklabels=None if numeric else [str(v) for v in axis.values],
        )
    if len(axes) == 2 and len(df["players"].unique()) == 1:
        ya, xa = axes
        grid = np.full((len(ya.values), len(xa.values)), math.nan)
        annot = np.full(grid.shape, "", dtype=object)
        for _, r in df.iterrows():
            i, j = list(ya.values).index(r[ya.name]), list(xa.values).index(r[xa.name])
            grid[i, j] = r["mean"]
            half = (r["ci_high"] - r["ci_low"]) / 2
            annot[i, j] = f"{100 * r['mean']:.1f}%\n±{100 * half:.1f}" if binary else f"{r['mean']:.3g}\n±{half:.2g}"
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
    return None


def run(exp: Experiment, ctx: Context) -> Section:
    ctx.log(f"{exp.name}: sweep over {', '.join(a.name for a in exp.grid)}")
    base = exp.base
    axes = list(exp.grid)
    if len(exp.players) > 1 and not any(a.name == "players" for a in axes):
        from unocli.study.sweep import parse_axis

        axes.append(parse_axis("players", list(exp.players)))
    elif len(exp.players) == 1:
        from dataclasses import replace

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
    table = result.table()
    shown = table_shown(table, [a.name for a in result.axes if a.name != "players"])
    n = int(table["n"].min())
    cap = caption(
        exp,
        f"Mean {exp.metric} in every cell of the grid",
        f"at least {n:,} games per cell",
        intervals="bands and bars are 95% intervals (t for means, Wilson for shares)",
    )
    blocks: list = []
    fig = sweep_chart(result, exp.metric, cap)
    if fig is not None:
        blocks.append(Chart("sweep", fig, cap, f"{exp.metric} over the grid"))
    blocks.append(TableBlock("sweep", "Every cell and metric", shown, table))
    findings = [f"{len(result.cells)} cells x {len(result.metrics)} metrics; {result.games:,} games in all."]
    return Section(
        name=exp.name, title=exp.title, intro=exp.description, findings=findings, blocks=blocks, meta={"games": result.games}
    )


def table_shown(table: pd.DataFrame, axis_names: list[str]) -> pd.DataFrame:
    """The sweep table formatted for reading."""
    out = table[[*axis_names, "players", "metric"]].copy()
    out["n"] = table["n"].map("{:,}".format)
    out["mean [95% CI]"] = [
        pct_ci(m, lo, hi, 2) if is_binary(q) else ci(m, lo, hi)
        for m, lo, hi, q in zip(table["mean"], table["ci_low"], table["ci_high"], table["metric"], strict=True)
    ]
    out["vs first cell [paired 95% CI]"] = [
        "" if pd.isna(d) else (pp_ci(d, lo, hi) if is_binary(q) else signed_ci(d, lo, hi))
        for d, lo, hi, q in zip(table["diff"], table["diff_low"], table["diff_high"], table["metric"], strict=True)
    ]
    out["p (Holm)"] = table["p_holm"].map(pvalue)
    return out
