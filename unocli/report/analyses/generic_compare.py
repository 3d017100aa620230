"""A plain paired comparison of the experiment's arms at each table size: every metric, every arm.

The design (:mod:`unocli.report.design`) is the experiment's own table at each table size; its views are the
file's ``[[view]]`` tables, or by default a chart of the paired differences per metric and the table of every
arm and metric (:func:`default_views`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import pandas as pd

from unocli.report import fmt, kinds
from unocli.report.analyses.common import Context, caption
from unocli.report.design import Design, play
from unocli.report.experiment import Experiment, View
from unocli.report.model import Section
from unocli.study.compare import is_binary
from unocli.study.stats import EQUIVALENT, LARGER, NEGLIGIBLE, UNDECIDED, UNSIZED, VERDICTS

OPTIONS: dict = {}
VIEWS: tuple[View, ...] = ()  # a file may declare views; without, :func:`default_views`
FRAMES = ("", "comparison")  # the design's tidy frame; the same without its field column (comparison.csv)


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
    return kinds.refused(exp, kinds.FRAME_KINDS, FRAMES)


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


def default_views(exp: Experiment) -> list[View]:
    """Per metric a chart of each arm's paired difference at every table size, then the table of every arm and metric."""
    charts = [
        View(
            "dots",
            f"diff-{m}",
            title=f"Change in {m} from {{base}}",
            where=f"quantity == {m!r} and difference == difference",  # the baseline's rows have no difference
            options={
                **{"players": "all", "y": "arm", "by": "players", "labels": "{value} players"},
                **{"columns": ["difference", "diff_low", "diff_high"], "percent": is_binary(m), "change": True},
                "xlabel": f"{m} minus {{base}}" + (" (pp)" if is_binary(m) else ""),
                "caption": f"Paired difference in {m} from {{base}}",
                "intervals": "error bars are paired 95% t intervals",
                "alt": f"difference in {m}",
            },
        )
        for m in exp.metrics
    ]
    columns = [["players", "text", "players"], ["arm", "text", "arm"], ["metric", "text", "quantity"], ["n", "count", "n"]]
    columns += [["mean [95% CI]", "estimate", "mean", "low", "high", "quantity"]]
    columns += [["difference from {base} [simultaneous CI]", "difference", "difference", "sim_low", "sim_high", "quantity"]]
    columns += [["verdict", "optional", "verdict"]]
    return [*charts, View("table", "comparison", title="Every arm and metric", frame="comparison", options={"columns": columns})]


def render(result: CompareResult) -> Section:
    """The declared views (or :func:`default_views`) and the findings."""
    exp, table, base = result.exp, result.table, result.baseline
    unit = "matches" if exp.match else "rounds"
    n_text = f"{fmt.count(table['n'].iloc[0])} {unit} per arm and table size, all arms on the same deals"
    setup = kinds.Setup(partial(_caption, exp, n_text), base)
    frames = {"": table.assign(field=""), "comparison": table}
    blocks = kinds.declared(kinds.chosen(exp, default_views(exp)), exp, frames, setup)
    return Section(exp.name, exp.title, exp.intro, _findings(table, base)[:12], blocks, {"games": result.games})


def _caption(exp: Experiment, n_text: str, what: str, intervals: str, n: str | None = None, policies: str | None = None) -> str:
    return caption(exp, what, n or n_text, policies=policies, intervals=intervals)


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
