"""The stacking report's answer, field tables, strategy tables, charts and findings (:mod:`unocli.analysis.stacking`'s tables)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.common import verdict_counts
from unocli.report.words import agreement, change_word
from unocli.study.stats import LARGER

if TYPE_CHECKING:
    from unocli.report.analyses.stacking import StackingResult


def field_label(result: StackingResult, field: str) -> str:
    """A field's name in prose: ``adapted`` with the policy it stands for."""
    return f"adapted ({result.exp.options['adapted']})" if field == "adapted" else field


def _mid(result: StackingResult) -> int:
    players = result.exp.players
    return 4 if 4 in players else players[0]


def _list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _sim(row: Any, column: str, kind: str) -> str:
    """A change on its simultaneous interval: turns and cards signed, shares in pp."""
    form = fmt.pp_ci if kind == "pp" else fmt.signed_ci
    return form(
        getattr(row, column), getattr(row, f"{column}_sim_low"), getattr(row, f"{column}_sim_high"), 2 if kind == "pp" else 1
    )


def _holds(rows: pd.DataFrame, column: str, words: tuple[str, str], kind: str, between: Any = None) -> str:
    """Each field's verdict on ``column`` (simultaneous intervals, :func:`~unocli.analysis.stacking.judge_column`) as
    the word for its change, and what the interaction between fields says (:func:`~fields.agreement`): "lowers
    under all three fields (...)" or "by field: ... (the fields cannot be told apart ...)"."""
    up, down = words
    verdicts = {
        str(r.field): change_word(str(getattr(r, f"{column}_verdict")), getattr(r, column), up, down) for r in rows.itertuples()
    }
    figures = {str(r.field): _sim(r, column, kind) for r in rows.itertuples()}
    return agreement(verdicts, lambda f: figures[f], between)


def _level(frame: pd.DataFrame, column: str) -> str:
    """ "simultaneous 99.86% intervals over the 36 cells of the column"."""
    has = frame[column].notna()
    return (
        f"simultaneous {fmt.fixed(100 * frame.loc[has, f'{column}_sim_level'].iloc[0], 2)}% intervals over the "
        f"{int(has.sum())} cells of the table"
    )


_KINDS = {
    "larger": "larger than the margin",
    "unsized": "changes of undecided size",
    "negligible": "negligible",
    "equivalent": "equivalent",
    "undecided": "undecided",
}


def _kinds(verdicts: pd.Series) -> str:
    """The verdicts of a family that occur, counted: "6 a change of undecided size, 6 undecided of 12"."""
    found = [f"{int((verdicts == v).sum())} {w}" for v, w in _KINDS.items() if (verdicts == v).any()]
    return ", ".join(found) + f" of {len(verdicts)}"


# ---------------------------------------------------------------- the answer


def answer(result: StackingResult) -> str:
    """The report's quotable answer (under about 80 words), from the numbers at the middle table size."""
    mid, base, f = _mid(result), result.base, result.fields
    at = f[f["players"] == mid]
    var = at[at["stacking"] != base]
    if not len(var):
        return ""
    big = var.loc[var["p_draw_8"].idxmax()]
    off = at[at["stacking"] == base]
    text = (
        f"**Answer ({mid} players).** Stacking turns penalties into big draws: a player draws 8 or more cards at once "
        f"in up to {fmt.share(big['p_draw_8'], 1)} of rounds ({big['stacking']}, {big['field']} field), against "
        f"{fmt.share(off['p_draw_8'].max(), 1)} under {base}. Its effect on round length, per variant and field, "
        f"against the +/-{fmt.num(result.exp.margins['turns'])}-turn margin: {_kinds(var['d_turns_verdict'])}; "
        f"on the comeback chance, against +/-{fmt.num(result.exp.margins['win_share_pp'])} pp: "
        f"{_kinds(var['d_comeback_verdict'])}."
    )
    return text  # under about 80 words; whether it changes the best strategy opens the findings (strategy_summary)


def strategy_summary(result: StackingResult, mid: int) -> str:
    """The findings' first sentences: does stacking change the best strategy, and under which fields.

    Counted on the interactions' verdicts (simultaneous intervals over every interaction of the table, against the
    win-share margin), so "does better" or "does worse" is said only of a change larger than the margin.
    """
    s, base, opt = result.strategy, result.base, result.exp.options
    if not len(s) or not (s["players"] == mid).any():
        return ""
    at = s[s["players"] == mid]
    sm = at[at["stacking"] != base]
    worst, best = sm.loc[sm["interaction"].idxmin()], sm.loc[sm["interaction"].idxmax()]
    big = sm["interaction_verdict"] == LARGER
    up, down = int((big & (sm["interaction"] > 0)).sum()), int((big & (sm["interaction"] < 0)).sum())
    on_base = at[at["stacking"] == base]
    same = bool(((on_base["edge"] == 0) & (on_base["edge_low"] == 0) & (on_base["edge_high"] == 0)).all())
    margin = fmt.num(result.exp.margins["win_share_pp"])
    text = (
        f"Does stacking change the best strategy? The adapted player ({opt['adapted']}) against "
        f"{opt['reference']} at seat 0: "
        + (
            f"under {base} they are the same player (its knobs act only when stacking is on), so the interaction is "
            if same
            else ""
        )
        + f"from {_sim(worst, 'interaction', 'pp')} ({worst['stacking']}, {worst['field']} field) to "
        f"{_sim(best, 'interaction', 'pp')} ({best['stacking']}, {best['field']} field) ({_level(s, 'interaction')}); "
        f"of {len(sm)} variant x field cells against +/-{margin} pp: {verdict_counts(sm['interaction_verdict'])}"
    )
    fields = sorted(set(sm["field"]), key=result.field_names.index)
    if down == len(sm):
        return (
            text
            + f": under every variant and every field ({_list(fields)}) the adapted player does worse, by more than the margin."
        )
    if up == len(sm):
        return (
            text
            + f": under every variant and every field ({_list(fields)}) the adapted player does better, by more than the margin."
        )
    per_field = ", ".join(
        f"{f} {int((big & (sm['interaction'] > 0) & (sm['field'] == f)).sum())} of {int((sm['field'] == f).sum())}"
        for f in fields
    )
    return text + f" (a larger gain beyond the margin, counted by field: {per_field}; counts, not a test of the fields)."


# ---------------------------------------------------------------- tables and charts


# ---------------------------------------------------------------- findings


def field_findings(result: StackingResult) -> list[str]:
    """Findings over the fields, each naming the fields it holds under, and whether the fields differ only from
    the interaction between them (turns and cards drawn; the comeback chance has no per-block figure to test it)."""
    mid, base, f, m = _mid(result), result.base, result.fields, result.exp.margins
    at = f[(f["players"] == mid) & (f["stacking"] != base)]
    off = f[(f["players"] == mid) & (f["stacking"] == base)]
    out = [strategy_summary(result, mid)] if len(result.strategy) else []
    out = [line for line in out if line]
    if len(at):
        out.append(
            f"At {mid} players the effect on round length lies between {fmt.signed(at['d_turns'].min(), 1)} and "
            f"{fmt.signed(at['d_turns'].max(), 1)} turns across variants and fields; the comeback chance (the first "
            f"player left with one card does not win) is {fmt.share(off['comeback'].min(), 1)}-"
            f"{fmt.share(off['comeback'].max(), 1)} under {base} and {fmt.share(at['comeback'].min(), 1)}-"
            f"{fmt.share(at['comeback'].max(), 1)} under the variants."
        )
    for column, label, key, words, kind, margin in (
        (
            "d_turns",
            "turns per finished round",
            "turns",
            ("lengthens", "shortens"),
            "signed",
            f"margin +/-{fmt.num(m['turns'])} turn",
        ),
        (
            "d_cards_drawn",
            "cards drawn per round",
            "cards_drawn",
            ("raises", "lowers"),
            "signed",
            "no margin, so any change that excludes 0 counts",
        ),
        ("d_comeback", "the comeback chance", "", ("raises", "lowers"), "pp", f"margin +/-{fmt.num(m['win_share_pp'])} pp"),
    ):
        parts = []
        for v in result.variants:
            between = result.between.get(key, {}).get((mid, v)) if key else None
            parts.append(f"{v}: {_holds(at[at['stacking'] == v], column, words, kind, between)}")
        out.append(
            f"Change in {label} against {base} at {mid} players, by variant ({_level(f, column)}, {margin}): "
            + "; ".join(parts)
            + "."
        )
    big = at.groupby("stacking")["p_draw_12"].max()
    out.append(
        f"Drawing 12 or more cards at once (at {mid} players, the most of any field): "
        + ", ".join(f"{v} {fmt.share(big[v], 2)}" for v in result.variants)
        + f"; under {base} the most one penalty can be is 6 cards (a failed challenge of a +4)."
    )
    out += _strategy_findings(result)
    return out


def _strategy_findings(result: StackingResult) -> list[str]:
    s = result.strategy
    if not len(s):
        return []
    opt, base, out = result.exp.options, result.base, []
    for p in sorted(set(s["players"])):
        at = s[s["players"] == p]
        on_base = at[at["stacking"] == base]
        edge = "; ".join(f"{r.field} {fmt.pp_ci(r.edge, r.edge_low, r.edge_high, 2)}" for r in on_base.itertuples())
        parts = []
        for v in result.variants:
            rows = at[at["stacking"] == v]
            parts.append(f"{v}: {_holds(rows, 'interaction', ('a larger gain', 'a smaller gain'), 'pp')}")
        gaps = at.groupby("stacking")["gap"].agg(["min", "max"])
        out.append(
            f"{p} players: {opt['adapted']} at seat 0 against {opt['reference']} under {base}: {edge}. Interaction "
            f"(its gain under the variant minus under {base}; {_level(s, 'interaction')}, margin "
            f"+/-{fmt.num(result.exp.margins['win_share_pp'])} pp): " + "; ".join(parts) + ". Edge (its share minus "
            f"1/{p}, docs/statistics.md) from {fmt.pp(gaps['min'].min(), 2)} to {fmt.pp(gaps['max'].max(), 2)} across "
            "variants and fields."
        )
    return out
