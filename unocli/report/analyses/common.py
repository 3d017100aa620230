"""Helpers the analyses share: the run context, typed access to comparisons, quantiles, balance,
bootstrap intervals and captions.

Nothing here imports matplotlib: an analysis's ``compute`` runs without it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import stats as sps

from unocli.report import fmt
from unocli.report.experiment import Experiment
from unocli.report.model import Chart
from unocli.run.backends import Backend
from unocli.study.arm import Arm
from unocli.study.compare import Comparison, compare
from unocli.study.stats import (
    EQUIVALENT,
    LARGER,
    NEGLIGIBLE,
    UNDECIDED,
    UNSIZED,
    VERDICTS,
    Difference,
    Equivalence,
    Estimate,
    equivalence,
)
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


def run_compare(
    exp: Experiment, ctx: Context, arms: Sequence[Arm], *, games: int | None = None, label: str = "", **kwargs: Any
) -> Comparison:
    """:func:`~unocli.study.compare.compare` with the experiment's seed, size, target and backend."""
    n = games if games is not None else exp.games
    ctx.log(f"{exp.name}: {label or 'arms'}: {len(arms)} arms x {n:,} games")
    target = kwargs.pop("target_error", exp.target_error if games is None else None)
    kwargs.setdefault("metric", exp.metric)
    return compare(
        arms,
        games=n,
        seed=exp.seed,
        target_error=target,
        max_games=exp.max_games,
        threads=ctx.threads,
        backend=ctx.backend,
        **kwargs,
    )


# ---------------------------------------------------------------- typed access to a comparison
# The analyses read a Comparison's means and differences only through these two functions, so a change
# of Comparison's return types is a change here alone.


def arm_mean(comp: Comparison, arm: str, quantity: str) -> Estimate:
    """The mean of ``quantity`` in ``arm`` with its 95% interval."""
    return comp.mean(arm, quantity)


def arm_diff(comp: Comparison, arm: str, ref: str, quantity: str) -> Difference:
    """The paired difference ``arm`` minus ``ref`` in ``quantity``, with its 95% interval, p-value and number of pairs."""
    return comp.diff(arm, ref, quantity)


def arm_rows(
    comp: Comparison, p: int, names: Sequence[str], base: str, replicates: int, seed: int, label: str
) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Per arm, the row a table of arms at ``p`` players starts with, and its balance change from ``base``.

    The row: ``players``, the arm's name under ``label``, ``n``, mean turns
    (finished rounds) and the win share of the player who took the first turn
    (``win_first``, which the comparison must record) with 95% intervals, and balance with a
    bootstrap 95% interval (``replicates`` block-bootstrap replicates). The
    change: balance minus ``base``'s with its bootstrap interval (empty for
    ``base`` itself), for the caller to put after its own columns.
    """
    boot = comp.boot_means(replicates, seed=seed % (2**32) + p)
    cols = seat_columns(comp, p)
    bal, bal_b = balance(comp.means()[:, cols]), balance(boot[:, :, cols])
    kb = comp.index(base)
    for name in names:
        k = comp.index(name)
        t, w = arm_mean(comp, name, "turns"), arm_mean(comp, name, "win_first")
        bl, bh = percentile_interval(bal_b[:, k])
        row = {
            "players": p,
            label: name,
            "n": comp.games,
            "turns": t.mean,
            "turns_low": t.low,
            "turns_high": t.high,
            "first_player_share": w.mean,
            "first_low": w.low,
            "first_high": w.high,
            "balance": bal[k],
            "balance_low": bl,
            "balance_high": bh,
        }
        change: dict[str, Any] = {}
        if name != base:
            dl, dh = percentile_interval(bal_b[:, k] - bal_b[:, kb])
            change = {"d_balance": bal[k] - bal[kb], "d_balance_low": dl, "d_balance_high": dh}
        yield name, row, change


def judged(diffs: Sequence[Difference], margin: float, scale: float = 1.0) -> list[dict[str, Any]]:
    """Equivalence verdicts of a family of differences read together (one table), as row fields.

    Each difference is judged against ``+-margin`` (in the units of the shown
    figure: ``scale`` times the difference, e.g. 100 for percentage points)
    on its simultaneous interval at level 1 - 0.05 / len(diffs)
    (:func:`~unocli.study.stats.equivalence`). The fields: ``sim_low``,
    ``sim_high`` (that interval, scaled), ``margin``, ``verdict``, ``p_tost``
    (Bonferroni-adjusted TOST p-value).
    """
    out = []
    for d in diffs:
        e: Equivalence = equivalence(d, margin / scale, family=len(diffs))
        out.append(
            {
                "sim_low": e.low * scale,
                "sim_high": e.high * scale,
                "sim_level": e.level,
                "margin": margin,
                "verdict": e.verdict,
                "p_tost": e.p_tost_adj,
            }
        )
    return out


def add_verdicts(df: pd.DataFrame, diffs: Sequence[Difference], prefix: str, margin: float, scale: float = 1.0) -> None:
    """Put :func:`judged` verdicts of ``diffs`` (one per row of ``df``, in order) into ``df`` as ``{prefix}_*`` columns.

    The columns: ``{prefix}_sim_low``, ``{prefix}_sim_high`` (the simultaneous
    interval, in the units of the difference), ``{prefix}_verdict`` and
    ``{prefix}_p_tost``; the level is in ``sim_level``.
    """
    for key, values in _columns(judged(diffs, margin, scale)).items():
        if key in ("sim_low", "sim_high"):
            df[f"{prefix}_{key}"] = np.asarray(values) / scale
        elif key in ("verdict", "p_tost"):
            df[f"{prefix}_{key}"] = values
        elif key == "sim_level":
            df["sim_level"] = values


def _columns(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    keys = rows[0].keys() if rows else ()
    return {k: [r[k] for r in rows] for k in keys}


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


def identical_arms(comps: Sequence[Comparison], names: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of arms that played bit-identical games in every comparison (same fingerprint of every row).

    Two rule sets can differ on paper and not in play (free-plus4 and
    no-challenge for players who never bluff): a report shows them as one
    effect, explained, not as two findings.
    """
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if all(c.acc(a).fingerprint == c.acc(b).fingerprint and c.acc(a).games == c.acc(b).games for c in comps):
                out.append((a, b))
    return out


def seat_columns(comp: Comparison, players: int) -> list[int]:
    """The columns of ``win_0 .. win_{players-1}`` in the comparison's quantities."""
    return [comp.quantities.index(f"win_{s}") for s in range(players)]


def total_games(comps: Sequence[Comparison]) -> int:
    """Games played by comparisons: games per arm times arms, summed."""
    return sum(c.games * len(c.arms) for c in comps)


# ---------------------------------------------------------------- distributions


def hist_value(hist: np.ndarray, rank: int) -> int:
    """The value of the ``rank``-th smallest observation (1-based) of a histogram of 0, 1, 2, ..."""
    cum = np.cumsum(hist)
    rank = min(max(rank, 1), int(cum[-1]))
    return int(np.searchsorted(cum, rank))


def hist_quantile(hist: np.ndarray, q: float) -> tuple[int, int, int]:
    """The ``q`` quantile of a histogram with a distribution-free 95% interval (binomial order statistics).

    A value in the last bin means "at least that much" (the histogram is clipped).
    """
    n = int(np.sum(hist))
    if n == 0:
        return (-1, -1, -1)
    point = hist_value(hist, math.ceil(q * n))
    lo_rank = max(1, int(sps.binom.ppf(0.025, n, q)))
    hi_rank = min(n, int(sps.binom.ppf(0.975, n, q)) + 1)
    return point, hist_value(hist, lo_rank), hist_value(hist, hi_rank)


def dkw_eps(n: int) -> float:
    """Half-width of the Dvoretzky-Kiefer-Wolfowitz 95% band for an empirical CDF of n games."""
    return math.sqrt(math.log(2 / 0.05) / (2 * max(n, 1)))


# ---------------------------------------------------------------- balance and bootstrap


def balance(shares: np.ndarray) -> np.ndarray:
    """Ludii's balance: 1 minus the largest gap between two seats' win shares (last axis = seats)."""
    shares = np.asarray(shares, float)
    return 1.0 - (shares.max(axis=-1) - shares.min(axis=-1))


def fair_balance(n: int, players: int, won_share: float = 1.0, draws: int = 2000, seed: int = 0) -> float:
    """Expected balance of a perfectly fair game measured on ``n`` games: below 1 from sampling noise alone."""
    rng = np.random.default_rng(seed)
    p = np.append(np.full(players, won_share / players), 1.0 - won_share)
    counts = rng.multinomial(n, np.clip(p, 0, 1) / np.clip(p, 0, 1).sum(), size=draws)[:, :players]
    return float(balance(counts / n).mean())


def percentile_interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates (NaNs ignored)."""
    s = np.asarray(samples, float)
    s = s[np.isfinite(s)]
    if s.size == 0:
        return (math.nan, math.nan)
    a = (1 - level) / 2
    return float(np.quantile(s, a)), float(np.quantile(s, 1 - a))


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
