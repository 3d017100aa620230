"""Helpers the analyses share: the run context, the verdicts' words, captions and the charts of table sizes.

The numbers they share (typed access to comparisons, quantiles, balance,
bootstrap intervals, a family's verdicts) are :mod:`unocli.analysis.measures`,
re-exported here for the analyses that know them by this module. Nothing here
imports matplotlib: an analysis's ``compute`` runs without it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from unocli.analysis.measures import (  # re-exported: the analyses know them by this module
    Plan as Plan,
)
from unocli.analysis.measures import (
    add_verdicts as add_verdicts,
)
from unocli.analysis.measures import (
    arm_diff as arm_diff,
)
from unocli.analysis.measures import (
    arm_mean as arm_mean,
)
from unocli.analysis.measures import (
    arm_rows as arm_rows,
)
from unocli.analysis.measures import (
    balance as balance,
)
from unocli.analysis.measures import (
    dkw_eps as dkw_eps,
)
from unocli.analysis.measures import (
    fair_balance as fair_balance,
)
from unocli.analysis.measures import (
    hist_quantile as hist_quantile,
)
from unocli.analysis.measures import (
    hist_value as hist_value,
)
from unocli.analysis.measures import (
    identical_arms as identical_arms,
)
from unocli.analysis.measures import (
    judged as judged,
)
from unocli.analysis.measures import (
    percentile_interval as percentile_interval,
)
from unocli.analysis.measures import (
    seat_columns as seat_columns,
)
from unocli.analysis.measures import (
    total_games as total_games,
)
from unocli.report import fmt
from unocli.report.experiment import Experiment
from unocli.report.model import Chart
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.compare import Comparison
from unocli.study.stats import EQUIVALENT, LARGER, NEGLIGIBLE, UNDECIDED, UNSIZED, VERDICTS
from unocli.version import __version__

if TYPE_CHECKING:
    import pandas as pd

    from unocli.report.plots import Series


@dataclass
class Context:
    """Where and how an analysis runs."""

    backend: Backend
    log: Callable[[str], None]
    threads: int | None = None


def plan(exp: Experiment, ctx: Context) -> Plan:
    """The experiment's seed, size and target with the context's backend: how its computations play."""
    return Plan(exp.name, exp.seed, exp.games, ctx.backend, ctx.log, ctx.threads, exp.target_error, exp.max_games, exp.metric)


def run_compare(
    exp: Experiment, ctx: Context, arms: Sequence[Arm], *, games: int | None = None, label: str = "", **kwargs: Any
) -> Comparison:
    """:func:`~unocli.study.compare.compare` with the experiment's seed, size, target and backend (:class:`Plan`)."""
    return plan(exp, ctx).compare(arms, games=games, label=label, **kwargs)


def verdict_text(verdict: str, margin: str) -> str:
    """A verdict (:func:`~unocli.study.stats.classify`) as a reader's phrase, with the margin it was judged at."""
    return {
        LARGER: f"a change larger than +/-{margin}",
        UNSIZED: f"a change, of undecided size against +/-{margin}",
        NEGLIGIBLE: f"a change smaller than +/-{margin} (negligible)",
        EQUIVALENT: f"equivalent (no change beyond +/-{margin})",
        UNDECIDED: f"undecided at +/-{margin}",
    }[verdict]


def change_word(verdict: str, value: float, up: str, down: str) -> str:
    """A verdict as the word for a change: ``up`` or ``down`` ("lengthens", "pays" ...) only when larger than the margin.

    A change inside the margin is "negligible", one whose interval excludes 0
    but crosses a margin "a change of undecided size"; the other two verdicts
    are "no change" (equivalent) and "undecided".
    """
    if verdict == LARGER:
        return up if value > 0 else down
    return {
        UNSIZED: "a change of undecided size",
        NEGLIGIBLE: "negligible",
        EQUIVALENT: "no change",
        UNDECIDED: "undecided",
    }[verdict]


def verdict_counts(verdicts: pd.Series) -> str:
    """How many of a family's verdicts are of each kind: "2 larger than the margin, 0 of undecided size, ..."."""
    c = {v: int((verdicts == v).sum()) for v in VERDICTS}
    return (
        f"{c[LARGER]} larger than the margin, {c[UNSIZED]} changes of undecided size, {c[NEGLIGIBLE]} negligible "
        f"(smaller than the margin), {c[EQUIVALENT]} equivalent, {c[UNDECIDED]} undecided of {len(verdicts)}"
    )


# ---------------------------------------------------------------- captions


def caption(
    exp: Experiment,
    title: str,
    n: str,
    *,
    rules: str | None = None,
    policies: str | None = None,
    intervals: str = "bands and bars are 95% intervals",
) -> str:
    """The caption every chart carries: what, n, rules, policies, seed, version, intervals."""
    base = exp.base
    sets = ", ".join(f"{k}={v}" for k, v in base.sets)
    rules_text = rules or (base.rules + (f" with {sets}" if sets else ""))
    pol = policies or (base.policy + "".join(f"; seat {s}: {p}" for s, p in base.seats))
    quick = " (quick run)" if exp.quick else ""
    return (
        f"{title}. n = {n}. Rules: {rules_text}. Policies: {pol}. Seed {exp.seed}, {exp.path.name}{quick}, "
        f"unocli {__version__}. {intervals[0].upper() + intervals[1:]}."
    )


# ---------------------------------------------------------------- charts (matplotlib loads only when one is drawn)


def interval_series(
    table: pd.DataFrame, key: str, values: Sequence[Any], columns: tuple[str, str, str], labels: Sequence[str] | None = None
) -> list[Series]:
    """One line per value of ``table[key]``: its rows' ``columns`` (point, low, high), labelled ``labels`` or the value."""
    from unocli.report import plots  # matplotlib only when drawing: compute() runs without it

    point, low, high = columns
    names = labels if labels is not None else [str(v) for v in values]
    series = []
    for value, label in zip(values, names, strict=True):
        rows = table[table[key] == value]
        series.append(plots.Series(label, rows[point], rows[low], rows[high]))
    return series


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


def first_player_chart(exp: Experiment, series: list[Series], cap: str, *, name: str, title: str, ylabel: str) -> Chart:
    """The first player's win share by table size (as a percentage), against the fair share 1/n (dashed)."""
    fair = ("fair share 1/n", [1 / p for p in exp.players])
    return players_chart(
        exp, series, cap, name=name, alt="first player win share", title=title, ylabel=ylabel, percent=True, reference=fair
    )


def balance_chart(exp: Experiment, series: list[Series], fair: dict[int, float], cap: str, *, name: str, title: str) -> Chart:
    """Balance by table size, against what a perfectly fair game measures at this n (dashed).

    ``fair`` maps each table size to that expected balance (see :func:`fair_balance`).
    """
    reference = ("a perfectly fair game at this n", [fair[p] for p in exp.players])
    return players_chart(
        exp, series, cap, name=name, alt="balance by players", title=title, ylabel="balance", reference=reference
    )


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


def effect_forest(
    at: pd.DataFrame,
    label: str,
    first: str,
    margins: dict[str, float],
    cap: Callable[[str, str], str],
    *,
    what: str,
    name: str,
    title: str,
) -> Chart:
    """The forest chart of rule effects on turns (``d_turns``), the first player's win share (column ``first``)
    and balance (``d_balance``), each against its margin; ``cap(what, intervals)`` writes the caption."""
    level = fmt.fixed(100 * at["sim_level"].iloc[0], 2)
    text = cap(
        f"{what}; grey bands are the equivalence margins (+/-{fmt.num(margins['turns'])} turns, "
        f"+/-{fmt.num(margins['win_share_pp'])} pp, +/-{fmt.num(margins['balance'])} balance)",
        f"turns and first-player bars are simultaneous {level}% intervals (95% for each family), balance bars "
        "95% block-bootstrap intervals",
    )
    panels = [
        ("turns per finished round", "d_turns", "turns_sim_low", "turns_sim_high", margins["turns"], False),
        ("first player's win share", first, "first_sim_low", "first_sim_high", margins["win_share_pp"] / 100, True),
        ("balance", "d_balance", "d_balance_low", "d_balance_high", margins["balance"], False),
    ]
    return forest_chart(at, label, panels, text, name=name, title=title)
