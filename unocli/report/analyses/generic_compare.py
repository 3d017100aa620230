"""A plain paired comparison of the experiment's arms at each table size: every metric, every arm."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.common import Context, caption
from unocli.report.design import Design, play
from unocli.report.experiment import Experiment
from unocli.report.model import Chart, Section, TableBlock
from unocli.study.compare import is_binary
from unocli.study.stats import EQUIVALENT, LARGER, NEGLIGIBLE, UNDECIDED, UNSIZED, VERDICTS

OPTIONS: dict = {}


@dataclass(frozen=True)
class CompareResult:
    """Every arm and metric at every table size.

    ``table``: the design's tidy frame (:mod:`unocli.report.design`) without
    its ``field`` column: one row per (players, arm, quantity) with n, mean,
    low, high, the paired difference from the baseline with its interval, p
    and ``p_adj`` (Holm over every difference of the table, one family), and
    the verdict on the simultaneous interval against the metric's margin
    (:func:`margin_for`).
    """

    exp: Experiment
    table: pd.DataFrame
    baseline: str
    games: int


def check(exp: Experiment) -> str | None:
    if not exp.arms:
        return "arms: a comparison needs at least one [arms.NAME] table"
    return None


def compute(exp: Experiment, ctx: Context) -> CompareResult:
    """Play the arms at every table size (one design) and keep its tidy frame."""
    margins = {m: margin_for(m, exp.margins) for m in exp.metrics}
    played = play(Design.of(exp, exp.metrics, match=exp.match), ctx, margins, family="all")
    return CompareResult(exp=exp, table=played.frame.drop(columns="field"), baseline=played.baseline, games=played.games)


def margin_for(metric: str, margins: dict[str, float]) -> float:
    """The equivalence margin of a metric in its own units: turns, win shares (``win_*``), else 0 (no margin:
    only an exact zero, two arms that played identically, is equivalent)."""
    if metric == "turns":
        return margins["turns"]
    if metric.startswith("win_"):
        return margins["win_share_pp"] / 100
    return 0.0


def render(result: CompareResult) -> Section:
    """The comparison as a chart per metric, a table and findings."""
    exp, table, base = result.exp, result.table, result.baseline
    blocks: list = [c for c in (_diff_chart(result, m) for m in exp.metrics) if c is not None]
    blocks.append(TableBlock("comparison", "Every arm and metric", shown_table(table), table))
    return Section(
        name=exp.name,
        title=exp.title,
        intro=exp.intro,
        findings=_findings(table, base)[:12],
        blocks=blocks,
        meta={"games": result.games},
    )


def shown_table(table: pd.DataFrame) -> pd.DataFrame:
    """The tidy table formatted for reading."""
    base = table["baseline"].iloc[0]
    return pd.DataFrame(
        {
            "players": table["players"],
            "arm": table["arm"],
            "metric": table["quantity"],
            "n": table["n"].map(fmt.count),
            "mean [95% CI]": [
                fmt.estimate(m, lo, hi, is_share=is_binary(q))
                for m, lo, hi, q in zip(table["mean"], table["low"], table["high"], table["quantity"], strict=True)
            ],
            f"difference from {base} [simultaneous CI]": [
                "" if pd.isna(d) else fmt.difference(d, lo, hi, is_share=is_binary(q))
                for d, lo, hi, q in zip(table["difference"], table["sim_low"], table["sim_high"], table["quantity"], strict=True)
            ],
            "verdict": table["verdict"].fillna(""),
        }
    )


def _diff_chart(result: CompareResult, metric: str) -> Chart | None:
    # matplotlib is imported only when a chart is drawn: compute() must run without it
    from unocli.report import plots

    exp, table, base = result.exp, result.table, result.baseline
    others = [a.name for a in exp.arms if a.name != base]
    if not others:
        return None
    sub = table[(table["quantity"] == metric) & table["difference"].notna()]
    series = [
        plots.Series(
            f"{p} players",
            sub[sub["players"] == p]["difference"],
            sub[sub["players"] == p]["diff_low"],
            sub[sub["players"] == p]["diff_high"],
        )
        for p in exp.players
    ]
    unit = "matches" if exp.match else "rounds"
    n_text = f"{fmt.count(table['n'].iloc[0])} {unit} per arm and table size, all arms on the same deals"
    cap = caption(exp, f"Paired difference in {metric} from {base}", n_text, intervals="error bars are paired 95% t intervals")
    figure = plots.dot_chart(
        others,
        series,
        title=f"Change in {metric} from {base}",
        xlabel=f"{metric} minus {base}" + (" (pp)" if is_binary(metric) else ""),
        caption=cap,
        percent=is_binary(metric),
        change=True,
    )
    return Chart(f"diff-{metric}", figure, cap, f"difference in {metric}")


def _findings(table: pd.DataFrame, base: str) -> list[str]:
    """The count of each verdict, then one sentence per change larger than its margin (simultaneous interval beyond it)."""
    judged = table[table["difference"].notna()]
    counts = {v: int((judged["verdict"] == v).sum()) for v in VERDICTS}
    level = fmt.fixed(100 * judged["sim_level"].iloc[0], 2) if len(judged) else "95"
    findings = [
        f"Against {base}, on simultaneous {level}% intervals: {counts[LARGER]} changes larger than the margin, "
        f"{counts[UNSIZED]} changes of undecided size, {counts[NEGLIGIBLE]} changes smaller than the margin, "
        f"{counts[EQUIVALENT]} equivalent (no change beyond the experiment's margins), {counts[UNDECIDED]} undecided "
        "(metrics without a margin count any change as larger than it)."
    ]
    for r in judged[judged["verdict"] == LARGER].itertuples():
        change = fmt.difference(r.difference, r.sim_low, r.sim_high, is_share=is_binary(r.quantity))
        findings.append(f"{r.arm} changes {r.quantity} by {change} at {r.players} players (simultaneous interval).")
    return findings
