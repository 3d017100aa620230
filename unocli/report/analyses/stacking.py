"""What does stacking change? Each stacking variant against ``off``, paired, under several fields of players.

The arms are the stacking variants (rule sets differing in ``stacking``); at
each table size they play the same deals, once per *field* (the policy every
seat plays: option ``fields``, e.g. ``random``, ``basic`` and ``adapted``, the
player of option ``adapted`` who keeps its draw cards to answer a penalty).
The computation is :mod:`unocli.analysis.stacking` (lengths, cards drawn, big
draws and comebacks per field; chains, the first player and balance under the
main field; the adapted player's gain over the ``reference`` player at seat 0
and its interaction with the rule). Every table and chart is a ``[[view]]``
of sims/stacking.toml; this module builds the arms from the experiment and
holds what only this report says: its answer, its findings and the figures it
sets beside the published ones (``[[published]]``, keys of :func:`_ours`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any

import pandas as pd

from unocli.analysis import stacking as analysis
from unocli.analysis.stacking import StackingTables, field_spec
from unocli.game.policies import parse_policy_spec
from unocli.report import fmt, kinds, views
from unocli.report.analyses.common import Context, caption, plan, section, verdict_counts
from unocli.report.analyses.fields import (
    check_fields,
    field_experiment,
    field_notes,
    field_sizes,
    field_specs,
)
from unocli.report.experiment import Experiment
from unocli.report.model import Section
from unocli.report.options import players_list, policy_spec, positive_int
from unocli.report.words import agreement, change_word, listed
from unocli.study.arm import Arm, has_placeholders
from unocli.study.compare import Comparison
from unocli.study.stats import LARGER


def _fields(value: Any) -> str | None:
    """A non-empty list of distinct policy specs, or ``adapted`` (the ``adapted`` option)."""
    if not isinstance(value, list) or not value or len(set(map(str, value))) != len(value):
        return f"must be a non-empty list of distinct policy specs (or 'adapted'), not {value!r}"
    for spec in value:
        message = None if spec == "adapted" else policy_spec(spec)
        if message:
            return message
    return None


OPTIONS = {
    "fields": (["random", "basic", "adapted"], _fields),
    "adapted": ("basic:keep_draws=true", policy_spec),
    "reference": ("basic", policy_spec),
    "versus_players": ([4], players_list),
    "replicates": (1000, positive_int),
}
VIEWS = "stacking"  # a file without [[view]] tables draws the shipped file's
# the tables of analysis.stacking the views may draw ("": fields)
FRAMES = ("", "fields", "strategy", "effects", "stacks", "chains", "arms", "balance")


@dataclass(frozen=True)
class StackingResult(StackingTables):
    """The computation's tables (:class:`~unocli.analysis.stacking.StackingTables`) with the experiment they answer."""

    exp: Experiment = field(kw_only=True)

    @property
    def mid(self) -> int:
        """The table size the answer and most findings read: 4 players, else the first played."""
        return 4 if 4 in self.exp.players else self.exp.players[0]


def check(exp: Experiment) -> str | None:
    if len(exp.arms) < 2:
        return "arms: the stacking analysis needs a baseline arm and at least one stacking variant"
    return check_fields(exp, partial=True) or kinds.refused(exp, (*kinds.FRAME_KINDS, "published", "interactions"), FRAMES)


def main_field(exp: Experiment) -> str:
    """The field the base-policy tables are played under: the base policy if it is a field, else the first.

    Only a field played at every table size qualifies (a template field may miss some).
    """
    names = [name for name, spec in field_specs(exp).items() if field_sizes(exp, spec) == exp.players]
    return exp.base.policy if exp.base.policy in names else names[0]


def field_arms(exp: Experiment, p: int, spec: str) -> list[Arm]:
    """The variants at ``p`` players with every seat playing field ``spec`` (a template seats each variant's own player)."""
    if has_placeholders(spec):
        return [Arm(a.name, a.rules, a.policies) for a in field_experiment(exp, spec).arms_for(p)]
    policy = parse_policy_spec(field_spec(spec, exp.options))
    return [Arm(a.name, a.rules, (policy,) * p) for a in exp.arms_for(p)]


def play_field(exp: Experiment, ctx: Context, p: int, spec: str, base: str, name: str | None = None) -> Comparison:
    """One field's comparison at ``p`` players (:func:`unocli.analysis.stacking.play_field`) from the experiment."""
    return analysis.play_field(plan(exp, ctx), field_arms(exp, p, spec), p, spec, base, exp.options, name)


def compute(exp: Experiment, ctx: Context) -> StackingResult:
    """Play every variant under every field at every table size on the same deals (:func:`unocli.analysis.stacking.play`)."""
    names = tuple(a.name for a in exp.arms)
    specs = field_specs(exp)
    tables = analysis.play(
        plan(exp, ctx),
        names,
        base=exp.baseline or names[0],
        main=main_field(exp),
        specs=specs,
        sizes={name: field_sizes(exp, spec) for name, spec in specs.items()},
        players=exp.players,
        arms=lambda p, spec: field_arms(exp, p, spec),
        opt=exp.options,
        margins=exp.margins,
    )
    return StackingResult(exp=exp, **{f.name: getattr(tables, f.name) for f in fields(tables)})


def render(r: StackingResult) -> Section:
    """The declared views of the tables (sims/stacking.toml) and the report's own sentences."""
    exp, base = r.exp, r.base
    words = {"adapted": str(exp.options["adapted"]), "reference": str(exp.options["reference"]), "main": r.main_field}
    setup = kinds.Setup(partial(_caption, r), base, _ours(r), between=r.between, words=words)
    frames = {"": r.fields, "fields": r.fields, "strategy": r.strategy, "effects": r.effects, "stacks": r.stacks}
    frames |= {"chains": r.chains, "arms": r.table, "balance": r.balance_table}
    played = f"Variants: {', '.join(r.names)} (baseline {base}); fields: "
    played += ", ".join(f"`{field_label(r, f)}`" for f in r.field_names)
    played += f"; the tables of chains, first player and balance are under the `{r.main_field}` field." + field_notes(exp)
    # the answer's first sentence: how often a player draws 8 or more at once
    return section(exp, answer(r), played, [*field_findings(r), *_findings(r)], r.games, frames, setup, VIEWS)


# ---------------------------------------------------------------- words


def _caption(r: StackingResult, what: str, intervals: str, n: str | None = None, policies: str | None = None) -> str:
    """A chart's caption: the base rules with each variant; by default the main field's deals and policies."""
    n = n or f"{fmt.count(r.rounds[r.exp.players[0]])} deals per table size, every variant on the same deals"
    rules = f"{r.exp.base.rules} with stacking = {', '.join(r.names)}"
    return caption(r.exp, what, n, rules=rules, policies=policies, intervals=intervals)


def field_label(result: StackingResult, field: str) -> str:
    """A field's name in prose: ``adapted`` with the policy it stands for."""
    return f"adapted ({result.exp.options['adapted']})" if field == "adapted" else field


def _sim(row: Any, column: str, kind: str) -> str:
    """A change on its simultaneous interval: turns and cards signed, shares in pp."""
    pp, low, high = kind == "pp", getattr(row, f"{column}_sim_low"), getattr(row, f"{column}_sim_high")
    return (fmt.pp_ci if pp else fmt.signed_ci)(getattr(row, column), low, high, 2 if pp else 1)


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


_KINDS = {"larger": "larger than the margin", "unsized": "changes of undecided size", "negligible": "negligible"}
_KINDS |= {"equivalent": "equivalent", "undecided": "undecided"}


def _kinds(verdicts: pd.Series) -> str:
    """The verdicts of a family that occur, counted: "6 a change of undecided size, 6 undecided of 12"."""
    found = [f"{int((verdicts == v).sum())} {w}" for v, w in _KINDS.items() if (verdicts == v).any()]
    return ", ".join(found) + f" of {len(verdicts)}"


def answer(result: StackingResult) -> str:
    """The report's quotable answer (under about 80 words), from the numbers at the middle table size."""
    mid, base, f = result.mid, result.base, result.fields
    at = f[f["players"] == mid]
    var = at[at["stacking"] != base]
    if not len(var):
        return ""
    big = var.loc[var["p_draw_8"].idxmax()]
    off = at[at["stacking"] == base]
    return (
        f"**Answer ({mid} players).** Stacking turns penalties into big draws: a player draws 8 or more cards at once "
        f"in up to {fmt.share_ci(big['p_draw_8'], big['p_draw_8_low'], big['p_draw_8_high'], 1)} of rounds "
        f"({big['stacking']}, `{big['field']}`, n = {fmt.count(big['n'])} deals, 95% CI of the highest of "
        f"{len(var)} cells: it overstates), against "
        f"{fmt.share(off['p_draw_8'].max(), 1)} under {base}. Its effect on round length, per variant and field, "
        f"against the +/-{fmt.num(result.exp.margins['turns'])}-turn margin: {_kinds(var['d_turns_verdict'])}; "
        f"on the comeback chance, against +/-{fmt.num(result.exp.margins['win_share_pp'])} pp: "
        f"{_kinds(var['d_comeback_verdict'])}."
    )  # whether stacking changes the best strategy opens the findings (strategy_summary)


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
    if len(sm) in (up, down):
        every = f": under every variant and every field ({listed(fields)}) the adapted player does "
        return text + every + ("worse" if down == len(sm) else "better") + ", by more than the margin."
    per_field = ", ".join(
        f"{f} {int((big & (sm['interaction'] > 0) & (sm['field'] == f)).sum())} of {int((sm['field'] == f).sum())}"
        for f in fields
    )
    return text + f" (a larger gain beyond the margin, counted by field: {per_field}; counts, not a test of the fields)."


# ---------------------------------------------------------------- findings


def _ends(rows: pd.DataFrame, point: str, low: str, high: str, show: Callable[[float, float, float], str]) -> str:
    """The lowest and highest of ``rows``' ``point`` with their intervals, each with its variant and field."""
    ends = [rows.loc[rows[point].idxmin()], rows.loc[rows[point].idxmax()]]
    said = [f"{show(r[point], r[low], r[high])} ({r['stacking']}, {r['field']})" for r in ends]
    return said[0] if len(rows) == 1 else f"{said[0]} and {said[1]}"


def field_findings(result: StackingResult) -> list[str]:
    """Findings over the fields, each naming the fields it holds under, and whether the fields differ only from
    the interaction between them (turns, cards drawn, the comeback chance and the seat-0 interaction)."""
    mid, base, f, m = result.mid, result.base, result.fields, result.exp.margins
    at = f[(f["players"] == mid) & (f["stacking"] != base)]
    off = f[(f["players"] == mid) & (f["stacking"] == base)]
    out = [line for line in [strategy_summary(result, mid)] if line]
    if len(at):
        turns = _ends(at, "d_turns", "d_turns_sim_low", "d_turns_sim_high", lambda x, lo, hi: fmt.signed_ci(x, lo, hi, 1))
        comeback = [
            _ends(rows, "comeback", "comeback_low", "comeback_high", lambda x, lo, hi: fmt.share_ci(x, lo, hi, 1))
            for rows in (off, at)
        ]
        out.append(
            f"At {mid} players (n = {fmt.count(at['n'].min())} deals a cell) the effect on round length lies between "
            f"{turns} turns across variants and fields (simultaneous {fmt.fixed(100 * at['d_turns_sim_level'].iloc[0], 2)}% "
            f"intervals); the comeback chance (the first player left with one card does not win) is {comeback[0]} "
            f"under {base} and {comeback[1]} under the variants (95% intervals, each read alone: at the two ends "
            "they overstate it)."
        )
    families = [("d_turns", "turns per finished round", "turns", ("lengthens", "shortens"), "signed")]
    families += [("d_cards_drawn", "cards drawn per round", "cards_drawn", ("raises", "lowers"), "signed")]
    families += [("d_comeback", "the comeback chance", "comeback", ("raises", "lowers"), "pp")]
    margins = [f"margin +/-{fmt.num(m['turns'])} turn", "no margin, so any change that excludes 0 counts"]
    margins += [f"margin +/-{fmt.num(m['win_share_pp'])} pp"]
    for (column, label, key, words, kind), margin in zip(families, margins, strict=True):
        parts = []
        for v in result.variants:
            between = result.between.get(key, {}).get((mid, v))
            parts.append(f"{v}: {_holds(at[at['stacking'] == v], column, words, kind, between)}")
        head = f"Change in {label} against {base} at {mid} players, by variant ({_level(f, column)}, {margin}): "
        out.append(head + "; ".join(parts) + ".")
    big = at.loc[at.groupby("stacking")["p_draw_12"].idxmax()].set_index("stacking")
    out.append(
        f"Drawing 12 or more cards at once (at {mid} players, the most of any field: a 95% CI of the highest of "
        f"{at['field'].nunique()} fields overstates it; n = {fmt.count(at['n'].min())} deals or more): "
        + ", ".join(
            f"{v} {fmt.share_ci(r['p_draw_12'], r['p_draw_12_low'], r['p_draw_12_high'], 2)}"
            for v in result.variants
            for r in [big.loc[v]]
        )
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
            between = result.between.get("keep_draws", {}).get((p, v))
            parts.append(f"{v}: {_holds(rows, 'interaction', ('a larger gain', 'a smaller gain'), 'pp', between)}")
        gaps = at.groupby("stacking")["gap"].agg(["min", "max"])
        out.append(
            f"{p} players: {opt['adapted']} at seat 0 against {opt['reference']} under {base}: {edge}. Interaction "
            f"(its gain under the variant minus under {base}; {_level(s, 'interaction')}, margin "
            f"+/-{fmt.num(result.exp.margins['win_share_pp'])} pp): " + "; ".join(parts) + ". Edge (its share minus "
            f"1/{p}, docs/statistics.md) from {fmt.pp(gaps['min'].min(), 2)} to {fmt.pp(gaps['max'].max(), 2)} across "
            "variants and fields."
        )
    between = [i for items in result.between.get("keep_draws", {}).values() for i in items]
    if between:
        widest = max(between, key=lambda i: abs(i.diff))
        out.append(
            f"Between fields, the seat-0 interaction under one field minus under another (paired over "
            f"{fmt.count(widest.n)} blocks of common deals; simultaneous {fmt.fixed(100 * widest.level, 2)}% intervals "
            f"over the {widest.family} field pairs x variants x table sizes, margin "
            f"+/-{fmt.num(100 * widest.margin)} pp): "
            + verdict_counts(pd.Series([i.verdict for i in between]))
            + f"; the largest {fmt.pp_ci(widest.diff, widest.low, widest.high, 2)} ({widest.key[1]} at {widest.key[0]} "
            f"players, {widest.field_a} minus {widest.field_b})."
        )
    return out


def _findings(result: StackingResult) -> list[str]:
    effects, base, stacks, mid = result.effects, result.base, result.stacks, result.mid
    at_mid = stacks[stacks["players"] == mid]
    parts = [
        f"{r.stacking} {fmt.share_ci(r.p_at_least_3, r.p_at_least_3_low, r.p_at_least_3_high, 1)}"
        for r in at_mid.itertuples()
        if r.stacking != base
    ]
    n = f"95% CI, n = {fmt.count(at_mid['n'].min())} rounds each" if len(at_mid) else ""
    out = [
        f"Penalty chains: at {mid} players the share of rounds with a chain of 3 or more +2/+4 cards ({n}) is "
        + ", ".join(parts)
        + f" (impossible with stacking {base}); {_longest(stacks, mid)}."
    ]
    level = f"simultaneous {fmt.fixed(100 * effects['sim_level'].iloc[0], 2)}% intervals over the {len(effects)} cells"
    level += " of the stacking-effects table"
    read = (("turns", "turns per round", "turns_sim", level), ("cards_drawn", "cards drawn per round", "d_cards_drawn", ""))
    for metric, label, bound, how in read:
        ends = [effects.loc[effects[f"d_{metric}"].idxmin()], effects.loc[effects[f"d_{metric}"].idxmax()]]
        said = [
            f"{fmt.signed_ci(r[f'd_{metric}'], r[f'{bound}_low'], r[f'{bound}_high'], 1)} ({r.stacking} at {r.players} players)"
            for r in ends
        ]
        how = how or "95% intervals of the stacking-effects table, each read alone: at the two ends they overstate it"
        out.append(f"Change in {label} against {base} ({how}): from {said[0]} to {said[1]}.")
    at = effects[effects["players"] == mid]
    out.append(
        f"At {mid} players, turns per finished round against {base} under `{result.main_field}` ({level}; n = "
        f"{fmt.count(at['n'].iloc[0]) if len(at) else 0} deals): "
        + "; ".join(
            f"{r.stacking} {fmt.signed(r.d_turns, 1)} {fmt.bounds(r.turns_sim_low, r.turns_sim_high, 1, 'signed')} "
            f"({change_word(r.turns_verdict, r.d_turns, 'lengthens', 'shortens')})"
            for r in at.itertuples()
        )
        + "."
    )
    out.append(
        f"The first player's win share, variant x table size against {base} (equivalence margin "
        f"+/-{fmt.num(result.exp.margins['win_share_pp'])} pp, simultaneous intervals): "
        f"{verdict_counts(effects['first_verdict'])}."
    )
    b = result.table[result.table["stacking"] == base]
    r = effects.loc[effects["d_balance"].abs().idxmax()]
    holds = r["d_balance_low"] <= 0 <= r["d_balance_high"]
    out.append(
        f"Balance under {base}: from {fmt.fixed(b['balance'].min(), 3)} to {fmt.fixed(b['balance'].max(), 3)} across "
        f"table sizes; a variant's balance minus {base}'s, furthest from 0: "
        f"{fmt.signed_ci(r['d_balance'], r['d_balance_low'], r['d_balance_high'], 3)} ({r['stacking']}, {r['players']} "
        f"players; 95% bootstrap interval, read alone{', which holds 0' if holds else ''})."
    )
    return out


# ---------------------------------------------------------------- unocli's figures beside the published ones


def _longest(stacks: pd.DataFrame, mid: int) -> str:
    """The longest chain seen at ``mid`` players, and at any table size where that is longer (with where)."""
    here = int(stacks.loc[stacks["players"] == mid, "longest_seen"].max()) if (stacks["players"] == mid).any() else 0
    top = stacks[stacks["longest_seen"] == stacks["longest_seen"].max()]
    said = f"the longest chain seen at {mid} players was {here} cards"
    if int(top["longest_seen"].iloc[0]) > here:
        where = ", ".join(f"{r.players} players ({r.stacking})" for r in top.itertuples())
        said += f", {int(top['longest_seen'].iloc[0])} at any table size ({where})"
    return said


def _ours(result: StackingResult) -> dict[str, views.Ours]:
    """``longer-P-V``: V's paired change in turns + skips relative to ``off``'s mean at P players (the bootstrap
    interval of the difference over that mean), the one published figure a row of a frame cannot give."""
    f = result.fields[result.fields["field"] == result.main_field].set_index(["players", "stacking"])
    out: dict[str, views.Ours] = {}
    for (p, v), r in f.iterrows():
        if (p, result.base) in f.index and v != result.base:
            off = f.loc[(p, result.base), "turns_skips"]
            rel = [r[c] / off for c in ("d_turns_skips", "d_turns_skips_low", "d_turns_skips_high")]
            point, low, high = (f"{fmt.fixed(100 * x, 1, sign=True)}%" for x in rel)
            text = f"{point} [{low}, {high}] ({v} against {result.base}, n = {fmt.count(r['n'])} deals)"
            out[f"longer-{p}-{v}"] = views.Ours(text, int(r["n"]), rel[1], rel[2])
    return out
