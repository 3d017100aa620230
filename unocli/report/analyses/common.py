"""Helpers the analyses share: the run context, the verdicts' words, captions and the charts of table sizes.

The numbers they share (typed access to comparisons, quantiles, balance,
bootstrap intervals, a family's verdicts) are :mod:`unocli.analysis.measures`,
:mod:`~unocli.analysis.seats` and :mod:`~unocli.analysis.verdicts`. Nothing here
imports matplotlib: an analysis's ``compute`` runs without it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from unocli.analysis.measures import Plan
from unocli.report import kinds
from unocli.report.experiment import Experiment
from unocli.report.model import Section, sentences
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.compare import Comparison
from unocli.study.stats import EQUIVALENT, LARGER, NEGLIGIBLE, UNDECIDED, UNSIZED, VERDICTS
from unocli.version import __version__

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Context:
    """Where and how an analysis runs."""

    backend: Backend
    log: Callable[[str], None]
    threads: int | None = None


def plan(exp: Experiment, ctx: Context) -> Plan:
    """The experiment's seed, size and target with the context's backend: how its computations play."""
    return Plan(
        name=exp.name,
        seed=exp.seed,
        games=exp.games,
        backend=ctx.backend,
        log=ctx.log,
        threads=ctx.threads,
        target_error=exp.target_error,
        max_games=exp.max_games,
        metric=exp.metric,
    )


def run_compare(
    exp: Experiment, ctx: Context, arms: Sequence[Arm], *, games: int | None = None, label: str = "", **kwargs: Any
) -> Comparison:
    """:func:`~unocli.study.compare.compare` with the experiment's seed, size, target and backend (:class:`Plan`)."""
    return plan(exp, ctx).compare(arms, games=games, label=label, **kwargs)


def section(
    exp: Experiment,
    answer: str,
    played: str,
    findings: list[str],
    games: int,
    frames: Mapping[str, pd.DataFrame],
    setup: kinds.Setup,
    views: str,
) -> Section:
    """A report's section: its answer, the file's description and what was played, the declared views (or those of the
    shipped file ``views``) drawn from ``frames``, and the findings."""
    blocks = kinds.declared(kinds.chosen(exp, views), exp, frames, setup)
    intro = f"{answer}\n\n{exp.description or ''}\n\n{played}"
    first = sentences(answer)
    return Section(exp.name, exp.title, intro, findings, blocks, {"games": games}, answer=first[0] if first else "")


def verdict_text(verdict: str, margin: str) -> str:
    """A verdict (:func:`~unocli.study.stats.classify`) as a reader's phrase, with the margin it was judged at."""
    return {
        LARGER: f"a change larger than +/-{margin}",
        UNSIZED: f"a change, of undecided size against +/-{margin}",
        NEGLIGIBLE: f"a change smaller than +/-{margin} (negligible)",
        EQUIVALENT: f"equivalent (no change beyond +/-{margin})",
        UNDECIDED: f"undecided at +/-{margin}",
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
