"""The house-rules matrix: each house rule alone against the official rules, paired, at a few table sizes.

For every field of players (``options.fields``: every seat plays that
policy), arm (a rule set differing from the baseline in one house rule, or in
a policy knob kept on top of the field's policy, such as ``swap_target``
under 7-0) and table size: the change in turns per round (paired t interval,
and relative), the change in the win share of the first player (the seat that
took the first turn) and of the dealer (paired), and balance with its change
(block bootstrap). Every finding says under which fields it holds. And the
skill gap under each rule: one ``options.skill_player`` against
``options.skill_field`` with seats rotated (``house_rules_gap``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from unocli.report import fmt
from unocli.report.analyses.common import (
    Context,
    add_verdicts,
    arm_diff,
    arm_mean,
    arm_rows,
    caption,
    change_word,
    effect_forest,
    fair_balance,
    identical_arms,
    interval_series,
    run_compare,
    total_games,
)
from unocli.report.analyses.fields import (
    FIELDS_OPTION,
    agreement,
    check_fields,
    field_experiment,
    field_specs,
    fields_text,
    scope,
    templates_text,
    verdict_matrix,
)
from unocli.report.analyses.house_rules_gap import skill_gaps
from unocli.report.experiment import Experiment, policy_spec, positive_int
from unocli.report.model import Chart, Section, TableBlock, sentences
from unocli.study.compare import Comparison
from unocli.study.stats import LARGER, Difference, holm


def non_negative_int(value: object) -> str | None:
    """0 (skip the skill gap) or a positive number of deals."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return f"must be a whole number 0 or more, not {value!r}"
    return None


OPTIONS = {
    "fields": FIELDS_OPTION,
    "replicates": (1000, positive_int),
    "skill_player": ("strong", policy_spec),
    "skill_field": ("basic", policy_spec),
    "skill_games": (8000, non_negative_int),
}


QUANTITIES = ("turns", "cards_drawn", "won", "blocked", "capped", "stuck", "win_first", "win_dealer")


@dataclass(frozen=True)
class HouseRulesResult:
    """Every rule set's levels and every house rule's paired effects.

    ``table``: one row per (field, players, rule): n, turns, first_player_share and
    balance with their intervals (``_low``/``_high``), blocked_share,
    capped_share, dealer_share; and for the rules other than the baseline the paired
    changes d_turns, d_turns_rel, d_first, d_dealer, d_balance with intervals and
    p-values p_turns, p_first. ``effects``: those rows, with p_turns_holm and
    p_first_holm adjusted over all of them and the equivalence verdicts
    (``turns_*``, ``first_*``, ``dealer_*``) judged as one family over every
    field and table size. ``rounds``: rounds per arm at each table size;
    ``fair``: the balance of a perfectly fair game at that size.
    ``identical``: (field, arm, arm) that played bit-identical rounds under
    that field. ``skill``: the skill gap per rule (see ``house_rules_gap``),
    or None when ``options.skill_games`` is 0.
    """

    exp: Experiment
    names: tuple[str, ...]
    base: str
    table: pd.DataFrame
    effects: pd.DataFrame
    rounds: dict[int, int]
    fair: dict[int, float]
    games: int
    identical: tuple[tuple[str, str, str], ...] = ()
    fields: tuple[str, ...] = ("basic",)
    skill: pd.DataFrame | None = None

    @property
    def rules(self) -> list[str]:
        """The house rules (every arm but the baseline)."""
        return [n for n in self.names if n != self.base]

    @property
    def ref(self) -> str:
        """The field the single-field heatmap shows: ``basic`` when played, else the first field."""
        return "basic" if "basic" in self.fields else self.fields[0]

    @property
    def mid(self) -> int:
        """The table size the single-size chart and findings use."""
        return 4 if 4 in self.exp.players else self.exp.players[0]


def check(exp: Experiment) -> str | None:
    if len(exp.arms) < 2:
        return "arms: the house-rules analysis needs the baseline arm and at least one house rule"
    return check_fields(exp)


def compute(exp: Experiment, ctx: Context) -> HouseRulesResult:
    """Play every rule set at every table size under every field on the same deals and measure the effects."""
    names = tuple(a.name for a in exp.arms)
    base = exp.baseline or names[0]
    specs = field_specs(exp)
    fields = tuple(specs)
    rows: list[dict] = []
    comps: dict[tuple[str, int], Comparison] = {}
    diffs: dict[str, list[Difference]] = {"turns": [], "win_first": [], "win_dealer": []}
    identical: list[tuple[str, str, str]] = []
    for field in fields:
        fexp = field_experiment(exp, specs[field])
        for p in exp.players:
            quantities = (*QUANTITIES, *(f"win_{s}" for s in range(p)))
            arms = fexp.arms_for(p)
            comp = run_compare(fexp, ctx, arms, baseline=base, quantities=quantities, label=f"{field}, {p} players")
            comps[(field, p)] = comp
            rows += [{"field": field} | r for r in _rows(comp, p, names, base, exp.options["replicates"], exp.seed)]
            for q, found in diffs.items():
                found += [arm_diff(comp, name, base, q) for name in names if name != base]
        own = [c for (f, _), c in comps.items() if f == field]
        identical += [(field, a, b) for a, b in identical_arms(own, names)]
    table = pd.DataFrame(rows)
    effects = table[table["rule"] != base].copy().reset_index(drop=True)
    effects["p_turns_holm"] = holm(effects["p_turns"].to_numpy())
    effects["p_first_holm"] = holm(effects["p_first"].to_numpy())
    add_verdicts(effects, diffs["turns"], "turns", exp.margins["turns"])
    add_verdicts(effects, diffs["win_first"], "first", exp.margins["win_share_pp"], scale=100)
    add_verdicts(effects, diffs["win_dealer"], "dealer", exp.margins["win_share_pp"], scale=100)
    skill = skill_gaps(exp, ctx, base) if exp.options["skill_games"] else None
    return HouseRulesResult(
        exp=exp,
        names=names,
        base=base,
        table=table,
        effects=effects,
        rounds={p: comps[(fields[0], p)].games for p in exp.players},
        fair={p: fair_balance(comps[(fields[0], p)].games, p) for p in exp.players},
        games=total_games(list(comps.values())) + (int(skill["games"].sum()) if skill is not None else 0),
        identical=tuple(identical),
        fields=fields,
        skill=skill,
    )


def _rows(comp: Comparison, p: int, names: tuple[str, ...], base: str, replicates: int, seed: int) -> list[dict]:
    base_turns = arm_mean(comp, base, "turns").mean
    rows = []
    for name, row, change in arm_rows(comp, p, names, base, replicates, seed, "rule"):
        row |= {"blocked_share": arm_mean(comp, name, "blocked").mean, "capped_share": arm_mean(comp, name, "capped").mean}
        row |= {"stuck_share": arm_mean(comp, name, "stuck").mean, "dealer_share": arm_mean(comp, name, "win_dealer").mean}
        if name != base:
            dt, dw = arm_diff(comp, name, base, "turns"), arm_diff(comp, name, base, "win_first")
            dd = arm_diff(comp, name, base, "win_dealer")
            row |= {"d_dealer": dd.diff, "d_dealer_low": dd.low, "d_dealer_high": dd.high}
            row |= {
                "d_turns": dt.diff,
                "d_turns_low": dt.low,
                "d_turns_high": dt.high,
                "d_turns_rel": dt.diff / base_turns,
                "p_turns": dt.p,
                "d_first": dw.diff,
                "d_first_low": dw.low,
                "d_first_high": dw.high,
                "p_first": dw.p,
            }
        rows.append(row | change)
    return rows


def render(result: HouseRulesResult) -> Section:
    """The answer, the headline forest, the verdict tables per field, the charts, the levels and findings."""
    exp, base, table = result.exp, result.base, result.table
    blocks: list = [
        _forest(result),
        *_verdict_tables(result),
        *([_skill_chart(result), _skill_table(result)] if result.skill is not None and len(result.skill) else []),
        _turns_heatmap(result),
        TableBlock(
            "house-rules-matrix",
            f"Each house rule alone against {base}, paired on the same deals, under each field: changes with simultaneous "
            f"{fmt.fixed(100 * result.effects['sim_level'].iloc[0], 2)}% intervals (Bonferroni over the "
            f"{len(result.effects)} cells of a column) and equivalence verdicts (margins from the experiment file)",
            _matrix(result),
            result.effects,
        ),
        _turns_chart(result),
        _role_chart(result, "first"),
        _role_chart(result, "dealer"),
        _balance_chart(result),
        TableBlock(
            "house-rules-arms",
            "Every rule set under every field: levels",
            _levels(table),
            table,
        ),
    ]
    answer = _answer(result)
    intro = (
        answer
        + "\n\n"
        + (exp.description or "")
        + f"\n\nBaseline {base}; fields of players: {fields_text(result.fields)} (every seat plays the field's policy)."
        + templates_text(exp)
    )
    return Section(
        name=exp.name,
        title=exp.title,
        intro=intro,
        findings=_findings(result),
        blocks=blocks,
        meta={"games": result.games},
        answer=sentences(answer)[0],  # the rules that lengthen a round under every field
    )


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


def _n_text(result: HouseRulesResult) -> str:
    return f"{fmt.count(result.rounds[result.exp.players[0]])} deals per table size and field, every rule set on the same deals"


def _caption(result: HouseRulesResult, title: str, intervals: str, policies: str | None = None) -> str:
    return caption(
        result.exp,
        title,
        _n_text(result),
        rules=f"each house rule alone on top of {result.base}",
        policies=policies or ("every seat one field's policy: " + ", ".join(result.fields)),
        intervals=intervals,
    )


def _cell(result: HouseRulesResult, rule: str, p: int, field: str) -> pd.DataFrame:
    eff = result.effects
    return eff[(eff["rule"] == rule) & (eff["players"] == p) & (eff["field"] == field)]


def _relative_half_width(cell: pd.DataFrame) -> float:
    """Half-width of a cell's paired interval of turns, relative to the baseline's mean (turns minus the change)."""
    r = cell.iloc[0]
    return (r["d_turns_high"] - r["d_turns_low"]) / 2 / (r["turns"] - r["d_turns"])


def _forest(result: HouseRulesResult) -> Chart:
    """Each house rule's effect at the middle table size under each field on turns, the first player and balance."""
    mid, m = result.mid, result.exp.margins
    at = result.effects[result.effects["players"] == mid]
    order = {name: k for k, name in enumerate(result.rules)}  # the experiment's order, the fields together
    at = at.assign(label=[f"{r.rule}, {r.field}" for r in at.itertuples()], order=at["rule"].map(order))
    at = at.sort_values("order", kind="stable")
    return effect_forest(
        at,
        "label",
        "d_first",
        m,
        lambda what, intervals: _caption(result, what, intervals),
        what=f"Each house rule's effect at {mid} players against {result.base}, one row per rule and field",
        name="house-rules-forest",
        title=f"Each house rule's effect under each field, {mid} players",
    )


def _turns_heatmap(result: HouseRulesResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing: compute() runs without it

    players, rules, ref = result.exp.players, result.rules, result.ref
    rel = np.array([[_cell(result, r, p, ref)["d_turns_rel"].iloc[0] for p in players] for r in rules])
    rel_half = np.array([[_relative_half_width(_cell(result, r, p, ref)) for p in players] for r in rules])
    annot = np.array(
        [
            [f"{100 * v:+.0f}% ±{100 * h:.0f}" for v, h in zip(row, hrow, strict=True)]
            for row, hrow in zip(rel, rel_half, strict=True)
        ]
    )
    cap = _caption(
        result,
        f"Change in mean turns per round from {result.base}, in percent, paired on the same deals, every seat {ref} "
        "(the other fields are in the verdict tables)",
        "± is the half-width of each cell's paired 95% interval, in percent of the official mean",
        policies=ref,
    )
    figure = plots.heatmap(
        100 * rel[::-1],
        [str(p) for p in players],
        rules[::-1],
        title=f"How each house rule changes the length of a round ({ref})",
        xlabel="players at the table",
        ylabel="house rule (alone)",
        caption=cap,
        colour_label=f"change in mean turns vs {result.base} (%)",
        annotations=annot[::-1],
        height=max(3.5, 0.45 * len(rules) + 1.5),
    )
    return Chart("house-rules-turns-heatmap", figure, cap, "house rules turns heatmap")


def _by_field(result: HouseRulesResult, frame: pd.DataFrame, columns: tuple[str, str, str]) -> list:
    """One series per field at the middle table size, in the order of ``frame``'s rules."""
    at = frame[frame["players"] == result.mid]
    return interval_series(at, "field", result.fields, columns)


def _turns_chart(result: HouseRulesResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    mid = result.mid
    cap = _caption(
        result,
        f"Change in mean turns per round from {result.base}, {mid} players, one marker per field",
        "error bars are paired 95% t intervals",
    )
    figure = plots.dot_chart(
        result.rules,
        _by_field(result, result.effects, ("d_turns", "d_turns_low", "d_turns_high")),
        title=f"Change in turns per round, {mid} players",
        xlabel=f"turns per round minus {result.base}",
        caption=cap,
    )
    return Chart("house-rules-turns", figure, cap, "change in turns")


ROLES = {"first": ("first player", "d_first"), "dealer": ("dealer", "d_dealer")}


def _role_chart(result: HouseRulesResult, role: str) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    who, col = ROLES[role]
    cap = _caption(
        result,
        f"Change in the {who}'s win share from {result.base} at {result.mid} players, paired, one marker per field "
        "(the first player is the seat that took the first turn)",
        "error bars are paired 95% t intervals",
    )
    figure = plots.dot_chart(
        result.rules,
        _by_field(result, result.effects, (col, f"{col}_low", f"{col}_high")),
        title=f"Does a house rule change the {who}'s win share? ({result.mid} players)",
        xlabel=f"change in the {who}'s win share",
        caption=cap,
        percent=True,
    )
    name = "house-rules-first-player" if role == "first" else "house-rules-dealer"
    return Chart(name, figure, cap, f"{who} change")


def _balance_chart(result: HouseRulesResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    mid = result.mid
    cap = _caption(
        result,
        f"Balance at {mid} players, one marker per field: 1 minus the largest gap between two seats' win shares "
        f"(1 = perfectly balanced); sampling noise alone would make a perfectly fair game measure about "
        f"{fmt.fixed(result.fair[mid], 3)}",
        "error bars are 95% block-bootstrap intervals",
    )
    figure = plots.dot_chart(
        list(result.names),
        _by_field(result, result.table, ("balance", "balance_low", "balance_high")),
        title=f"Balance under each house rule, {mid} players",
        xlabel="balance",
        caption=cap,
        zero=None,
    )
    return Chart("house-rules-balance", figure, cap, "balance per rule")


def _levels(table: pd.DataFrame) -> pd.DataFrame:
    """Every rule set's point estimates (intervals in the CSV): counts with separators, the shares as percentages."""
    shown = table[["field", "players", "rule", "n", "turns", "first_player_share", "dealer_share", "balance"]].round(4)
    return shown.assign(
        n=shown["n"].map(fmt.count),
        first_player_share=table["first_player_share"].map(lambda x: fmt.share(x, 2)),
        dealer_share=table["dealer_share"].map(lambda x: fmt.share(x, 2)),
    )


def _matrix(result: HouseRulesResult) -> pd.DataFrame:
    """The effects on simultaneous intervals with their equivalence verdicts (the bootstrap balance change at 95%)."""
    eff, m = result.effects, result.exp.margins
    return pd.DataFrame(
        {
            "field": eff["field"],
            "rule": eff["rule"],
            "players": eff["players"],
            "n": eff["n"].map(fmt.count),
            "turns per finished round": [
                fmt.signed_ci(*x, 1) for x in zip(eff["d_turns"], eff["turns_sim_low"], eff["turns_sim_high"], strict=True)
            ],
            "relative": eff["d_turns_rel"].map(lambda x: fmt.fixed(100 * x, 1, sign=True) + "%"),
            f"turns verdict (+/-{fmt.num(m['turns'])})": eff["turns_verdict"],
            "first player's win share": [
                fmt.pp_ci(*x, 2) for x in zip(eff["d_first"], eff["first_sim_low"], eff["first_sim_high"], strict=True)
            ],
            f"first player verdict (+/-{fmt.num(m['win_share_pp'])} pp)": eff["first_verdict"],
            "dealer's win share": [
                fmt.pp_ci(*x, 2) for x in zip(eff["d_dealer"], eff["dealer_sim_low"], eff["dealer_sim_high"], strict=True)
            ],
            f"dealer verdict (+/-{fmt.num(m['win_share_pp'])} pp)": eff["dealer_verdict"],
            "balance (per-row 95% bootstrap, not adjusted)": [
                fmt.signed_ci(*x, 3) for x in zip(eff["d_balance"], eff["d_balance_low"], eff["d_balance_high"], strict=True)
            ],
        }
    )


# ---------------------------------------------------------------- verdicts per field, answer and findings

# quantity -> (what, point column, simultaneous low, high, verdict column, words for up / down)
EFFECTS = {
    "turns": ("length", "d_turns", "turns_sim_low", "turns_sim_high", "turns_verdict", ("lengthens", "shortens")),
    "first": ("first player's share", "d_first", "first_sim_low", "first_sim_high", "first_verdict", ("raises", "lowers")),
    "dealer": ("dealer's share", "d_dealer", "dealer_sim_low", "dealer_sim_high", "dealer_verdict", ("raises", "lowers")),
}


def _value(row: pd.Series, q: str) -> str:
    _, point, low, high, _, _ = EFFECTS[q]
    if q == "turns":
        return fmt.signed_ci(row[point], row[low], row[high], 1)
    return fmt.pp_ci(row[point], row[low], row[high], 2)


def direction(row: pd.Series, q: str) -> str:
    """A verdict as a direction: "lengthens"/"raises" or "shortens"/"lowers" only beyond the margin (:func:`change_word`)."""
    _, point, _, _, verdict, (up, down) = EFFECTS[q]
    return change_word(str(row[verdict]), float(row[point]), up, down)


def rule_verdicts(result: HouseRulesResult, rule: str, p: int, q: str) -> dict[str, str]:
    """The direction of ``rule``'s effect on quantity ``q`` at ``p`` players under each field."""
    return {f: direction(_cell(result, rule, p, f).iloc[0], q) for f in result.fields if len(_cell(result, rule, p, f))}


def _rule_text(result: HouseRulesResult, rule: str, p: int, q: str) -> str:
    verdicts = rule_verdicts(result, rule, p, q)
    return f"{EFFECTS[q][0]}: " + agreement(verdicts, lambda f: _value(_cell(result, rule, p, f).iloc[0], q))


def _verdict_cell(row: pd.Series, q: str) -> str:
    return f"{_value(row, q)} {direction(row, q)}"


def _verdict_tables(result: HouseRulesResult) -> list[TableBlock]:
    """Per quantity: one row per (players, rule), one column per field with the change and its direction."""
    level = fmt.fixed(100 * result.effects["sim_level"].iloc[0], 2)
    blocks = []
    for q, (what, *_rest) in EFFECTS.items():
        eff = result.effects.assign(verdict=[direction(r, q) for _, r in result.effects.iterrows()])
        shown = verdict_matrix(eff, ("players", "rule"), result.fields, partial(_verdict_cell, q=q))
        margin = (
            f"{fmt.num(result.exp.margins['turns'])} turns"
            if q == "turns"
            else (f"{fmt.num(result.exp.margins['win_share_pp'])} pp")
        )
        blocks.append(
            TableBlock(
                f"house-rules-{q}-by-field",
                f"Each house rule's effect on the {what} under each field of players (simultaneous {level}% intervals, "
                f"equivalence margin +/-{margin}); the last column says whether the verdict holds under every field",
                shown,
                eff,
            )
        )
    return blocks


def _skill_text(result: HouseRulesResult, rule: str, p: int) -> str:
    sk = result.skill
    if sk is None or not len(sk):
        return ""
    rows = sk[(sk["rule"] == rule) & (sk["players"] == p)]
    if not len(rows) or pd.isna(rows.iloc[0].get("d_gap")):
        return ""
    r = rows.iloc[0]
    what = change_word(str(r["verdict"]), float(r["d_gap"]), "widens", "narrows")
    return (
        f"edge of one `{r['player']}` among `{r['field']}`: {what} "
        f"({fmt.pp_ci(r['d_gap'], r['sim_low'], r['sim_high'], 2)}, n = {fmt.count(r['n'])} deals x {p} rotations)"
    )


def _answer(result: HouseRulesResult) -> str:
    """The report's answer in one paragraph: which rules change length and who wins, under which fields."""
    mid, fields = result.mid, result.fields
    turns = {r: rule_verdicts(result, r, mid, "turns") for r in result.rules}
    longer = [r for r, v in turns.items() if set(v.values()) == {"lengthens"}]
    first_verdicts = {r: rule_verdicts(result, r, mid, "first") for r in result.rules}
    moved = {r: v for r, v in first_verdicts.items() if {"raises", "lowers"} & set(v.values())}
    first = "; ".join(f"{r} {scope(v)}" for r, v in moved.items()) or "no house rule changes it under any field"
    text = (
        f"**Answer.** At {mid} players, with every seat playing one field ({', '.join(f'`{f}`' for f in fields)}): "
        f"{', '.join(longer) or 'no house rule'} lengthen{'s' if len(longer) == 1 else ''} a round under every field. "
        f"The first player's win share: {first}."
    )
    sk = result.skill
    if sk is not None and len(sk):
        at = sk[(sk["players"] == mid) & (sk["verdict"] == LARGER)]
        wider, narrower = list(at.loc[at["d_gap"] > 0, "rule"]), list(at.loc[at["d_gap"] < 0, "rule"])
        r0 = sk.iloc[0]
        text += (
            f" One `{r0['player']}` player among `{r0['field']}` (seats rotated) gains more over the fair share than "
            f"under {result.base}, by more than the margin, with {', '.join(wider) or 'no house rule'} and less with "
            f"{', '.join(narrower) or 'no house rule'}."
        )
    return text + " The findings give every rule's figures under each field."


def _identical_reason(result: HouseRulesResult, field: str, a: str, b: str) -> str:
    """Why two arms played identically under a field: the rules or knobs differ where these players never go."""
    policies = {arm.name: arm.table.policy for arm in result.exp.arms}
    knobs = [policies[x].partition(":")[2] for x in (a, b) if ":" in policies.get(x, "")]
    if {a, b} == {"free-plus4", "no-challenge"}:
        return (
            "nobody plays a Wild Draw Four while holding the colour, so making it legal changes nothing, and both rules "
            "remove the challenge"
        )
    if "no-challenge" in (a, b) and result.base in (a, b):
        return "these players never challenge a Wild Draw Four, so removing the challenge changes nothing"
    if knobs:
        return f"`{field}` already plays {', '.join(knobs)}, so the arm's knob changes nothing"
    return "the rules differ only in situations these players never create"


def _findings(result: HouseRulesResult) -> list[str]:
    mid = result.mid
    findings = []
    for rule in result.rules:
        parts = [_rule_text(result, rule, mid, q) for q in EFFECTS]
        skill = _skill_text(result, rule, mid)
        findings.append(f"{rule} at {mid} players: " + "; ".join(parts + ([skill] if skill else [])) + ".")
    for field, a, b in result.identical:
        findings.append(
            f"Under `{field}`, {a} and {b} played bit-identical rounds on every deal at every table size (same result of "
            f"every round), so they are one effect shown twice: {_identical_reason(result, field, a, b)}."
        )
    eff = result.effects
    worst = eff.loc[eff["d_balance"].idxmin()]
    noise = "" if worst["d_balance_high"] < 0 else "; its 95% bootstrap interval holds 0"
    findings.append(
        f"Largest loss of balance: {worst['rule']} at {worst['players']} players with `{worst['field']}` "
        f"({fmt.signed_ci(worst['d_balance'], worst['d_balance_low'], worst['d_balance_high'], 3)}"
        f"{noise}). The balance changes carry per-row 95% bootstrap intervals, not adjusted over the {len(eff)} rows: "
        "the most extreme of them is picked from the family, so its interval overstates the evidence."
    )
    return findings


def _skill_table(result: HouseRulesResult) -> TableBlock:
    sk = result.skill
    assert sk is not None
    shown = pd.DataFrame(
        {
            "players": sk["players"],
            "rule": sk["rule"],
            "n (deals x rotations)": [f"{fmt.count(n)} x {p}" for n, p in zip(sk["n"], sk["players"], strict=True)],
            "gap [95% CI]": [fmt.pp_ci(*x, 2) for x in zip(sk["gap"], sk["gap_low"], sk["gap_high"], strict=True)],
            f"change from {result.base} [simultaneous CI]": [
                "" if pd.isna(d) else fmt.pp_ci(d, lo, hi, 2)
                for d, lo, hi in zip(sk.get("d_gap"), sk.get("sim_low"), sk.get("sim_high"), strict=True)
            ],
            "verdict": sk.get("verdict", pd.Series([""] * len(sk))).fillna(""),
        }
    )
    r0 = sk.iloc[0]
    return TableBlock(
        "house-rules-skill-gap",
        f"Edge (share minus 1/n): one `{r0['player']}` player against a field of `{r0['field']}`, every deal played "
        f"once per seat rotation; its win share minus the fair share, and the change from {result.base} on the same deals "
        f"(equivalence margin +/-{fmt.num(result.exp.margins['win_share_pp'])} pp)",
        shown,
        sk,
    )


def _skill_chart(result: HouseRulesResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    sk = result.skill
    assert sk is not None
    players = sorted(set(sk["players"]))
    series = interval_series(sk, "players", players, ("gap", "gap_low", "gap_high"), [f"{p} players" for p in players])
    r0 = sk.iloc[0]
    cap = caption(
        result.exp,
        f"Edge under each rule set: one {r0['player']} player's win share minus the fair share, against a field of "
        f"{r0['field']}, seats rotated",
        f"{fmt.count(r0['n'])} deals per rule set and table size, each played once per rotation",
        rules=f"each house rule alone on top of {result.base}",
        policies=f"{r0['player']} at one seat, {r0['field']} at the others",
        intervals="error bars are 95% t intervals over deals",
    )
    names = list(sk[sk["players"] == players[0]]["rule"])
    figure = plots.dot_chart(
        names,
        series,
        title=f"Does a house rule reward skill? ({r0['player']} among {r0['field']})",
        xlabel="win share minus fair share",
        caption=cap,
        percent=True,
    )
    return Chart("house-rules-skill-gap", figure, cap, "edge per rule")
