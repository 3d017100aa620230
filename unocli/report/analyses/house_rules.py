"""The house-rules report: each house rule alone against the official rules, paired, per field and table size.

The design (every arm under every field of ``options.fields`` at every table
size, on the same deals) is played once by :func:`unocli.report.design.play`;
:func:`unocli.analysis.house_rules.measure` reads its comparisons into the
levels, the effects with their verdicts and the ranking; the skill gap is
:func:`unocli.analysis.house_rules_gap.skill_gaps`; whether a rule acts
differently under two fields is the interaction of fields
(:func:`~unocli.report.analyses.fields.field_interactions`).

Every word of change ("lengthens", "raises", "widens") comes from
:func:`~unocli.report.words.change_word` of a verdict
(:func:`~unocli.study.stats.classify`), so it is said only of a change larger
than its margin; "holds under X but not Y" comes only from the interaction of
fields (:mod:`unocli.study.interaction`, via :mod:`unocli.report.analyses.fields`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import fields as fields_of
from functools import partial

import pandas as pd

from unocli.analysis import house_rules as analysis
from unocli.analysis.house_rules_gap import skill_gaps
from unocli.analysis.skill import Plan, RuleSet
from unocli.report import fmt, kinds
from unocli.report.analyses.common import Context, caption, section
from unocli.report.analyses.fields import (
    FIELDS_OPTION,
    by_field,
    check_fields,
    field_interactions,
    field_notes,
    field_specs,
    fields_text,
    interactions_frame,
)
from unocli.report.design import Design, play
from unocli.report.experiment import Experiment
from unocli.report.model import Section
from unocli.report.options import policy_spec, positive_int
from unocli.report.words import agreement, change_word, level, listed
from unocli.study.interaction import FieldInteraction
from unocli.study.stats import LARGER, WITHIN_MARGIN


def non_negative_int(value: object) -> str | None:
    """0 (skip the skill gap) or a positive number of deals."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return f"must be a whole number 0 or more, not {value!r}"
    return None


def reference_field(value: object) -> str | None:
    """The name of one of the fields (checked against them by :func:`check`), or empty for the default."""
    return None if isinstance(value, str) else f"must be a field's name, not {value!r}"


OPTIONS = {
    "fields": FIELDS_OPTION,
    "replicates": (1000, positive_int),
    "skill_player": ("strong", policy_spec),
    "skill_field": ("basic", policy_spec),
    "skill_games": (8000, non_negative_int),
    "reference_field": ("", reference_field),
}


VIEWS = "house-rules"  # a file without [[view]] tables draws the shipped file's
FRAMES = ("", "effects", "levels", "interactions", "skill", "ranking")  # the design's, the matrix's, ..., the ranking


@dataclass(frozen=True)
class HouseRulesResult(analysis.HouseRules):
    """The measured matrix (:class:`~unocli.analysis.house_rules.HouseRules`: levels ``table``, ``effects``, ...)
    with the experiment, the design's tidy ``frame``, the games played, the skill gap (None when
    ``options.skill_games`` is 0), the fields' interactions per quantity (``turns``, ``first``, ``dealer``; keyed
    (players, rule)) and the ``ranking``."""

    exp: Experiment
    frame: pd.DataFrame
    games: int
    skill: pd.DataFrame | None = None
    between: dict[str, dict[tuple, list[FieldInteraction]]] = field(default_factory=dict)
    ranking: pd.DataFrame | None = None

    def cell(self, rule: str, p: int, field: str) -> pd.DataFrame:
        """The effects row of one rule at ``p`` players under ``field``."""
        eff = self.effects
        return eff[(eff["rule"] == rule) & (eff["players"] == p) & (eff["field"] == field)]


def check(exp: Experiment) -> str | None:
    if len(exp.arms) < 2:
        return "arms: the house-rules analysis needs the baseline arm and at least one house rule"
    return check_fields(exp) or _reference_error(exp) or kinds.refused(exp, (*kinds.FRAME_KINDS, "verdicts"), FRAMES)


def _reference_error(exp: Experiment) -> str | None:
    ref, names = exp.options["reference_field"], list(field_specs(exp))
    if ref and ref not in names:
        return f"options.reference_field: {ref!r} is not one of the fields ({', '.join(names)})"
    return None


def compute(exp: Experiment, ctx: Context) -> HouseRulesResult:
    """Play every rule set at every table size under every field on the same deals and measure the effects."""
    names = tuple(a.name for a in exp.arms)
    base, m = exp.baseline or names[0], exp.margins
    design = Design(*by_field(exp), analysis.quantities, base)  # check_fields: every field at every size
    share = m["win_share_pp"] / 100
    played = play(design, ctx, {"turns": m["turns"], "win_first": share, "win_dealer": share})
    data = analysis.measure(played.cells, names, base, m, exp.options["replicates"], exp.seed, exp.options["reference_field"])
    plan = Plan(
        exp.name, exp.seed, exp.games, exp.players, exp.base, tuple(RuleSet(a.name, a.table) for a in exp.arms), exp.options, m
    )
    skill = skill_gaps(plan, ctx, base) if exp.options["skill_games"] else None
    between = {
        q: field_interactions(played.cells, data.fields, names, base, quantity, margin)
        for q, quantity, margin in (
            ("turns", "turns", m["turns"]),
            ("first", "win_first", share),
            ("dealer", "win_dealer", share),
        )
    }
    games = played.games + (int(skill["games"].sum()) if skill is not None else 0)
    measured = {f.name: getattr(data, f.name) for f in fields_of(analysis.HouseRules)}
    ranked = analysis.ranking(data, m, skill)
    return HouseRulesResult(**measured, exp=exp, frame=played.frame, games=games, skill=skill, between=between, ranking=ranked)


def render(result: HouseRulesResult) -> Section:
    """The answer, the declared views (sims/house-rules.toml) and the findings."""
    exp, base = result.exp, result.base
    # every interaction of a quantity belongs to its one family
    families = ", ".join(f"{q} {next(iter(v.values()))[0].family}" for q, v in result.between.items() if v)
    skill = result.skill if result.skill is not None else pd.DataFrame(columns=["players"])
    words = {"families": families, "fair": fmt.fixed(result.fair[result.mid], 3)}
    words |= {"skill_player": skill["player"].iloc[0], "skill_field": skill["field"].iloc[0]} if len(skill) else {}
    # the verdicts views read each quantity's interactions by its name in the design
    named = {"turns": "turns", "first": "win_first", "dealer": "win_dealer"}
    between = {named[q]: b for q, b in result.between.items()}
    setup = kinds.Setup(partial(_caption, result), base, between=between, words=words | _ranking_words(result))
    frames = {"": result.frame, "effects": result.effects, "levels": result.table, "skill": skill}
    frames["ranking"] = ranked(result.ranking) if result.ranking is not None else pd.DataFrame()
    frames["interactions"] = interactions_frame(result.between, {"first": 100.0, "dealer": 100.0})
    text = answer(result, result.ranking) if result.ranking is not None else ""
    played = f"Baseline {base}; fields of players: {fields_text(result.fields)} (every seat plays the field's policy)."
    return section(exp, text, played + field_notes(exp), findings(result), result.games, frames, setup, VIEWS)


def _ranking_words(result: HouseRulesResult) -> dict[str, str]:
    """The ranking table's title words: its setup, the levels of its intervals, the skill gap, the spread's margin."""
    table, opts = result.ranking, result.exp.options
    if table is None or not len(table):
        return {}
    r0 = table.iloc[0]
    skill = (
        f"one `{opts['skill_player']}` player's edge (share minus 1/n) among `{opts['skill_field']}`, seats rotated, on "
        "the skill-gap table's simultaneous intervals (the skill report's share of outcome variance due to skill is not "
        "measured per house rule, so the skill gap stands in for it)"
        if result.skill is not None and len(result.skill)
        else "the skill gap was not played (options.skill_games = 0)"
    )
    return {
        "ranked": f"{r0['players']} players, every seat `{r0['field']}`, {fmt.count(r0['n'])} deals",
        "effects_level": level(result.effects),
        "spread_level": fmt.fixed(100 * r0["level_spread"], 2),
        "skill_gap": skill,
        "spread_margin": fmt.num(100 * result.exp.margins["balance"]),
    }


def _caption(result: HouseRulesResult, title: str, intervals: str, policies: str | None = None, n: str | None = None) -> str:
    n = n or f"{fmt.count(result.rounds[result.exp.players[0]])} deals per table size and field, every rule set on the same deals"
    policies = policies or ("every seat one field's policy: " + ", ".join(result.fields))
    return caption(
        result.exp, title, n, rules=f"each house rule alone on top of {result.base}", policies=policies, intervals=intervals
    )


# ---------------------------------------------------------------- the words: the answer, the ranking, the findings


#: The ranking's four figures: key -> the words for a change up and down.
FIGURES = {
    "turns": ("lengthens", "shortens"),
    "first": ("raises", "lowers"),
    "spread": ("widens", "narrows"),
    "skill": ("widens", "narrows"),
}
#: The matrix's quantities: key -> (what, words for up / down); its columns d_KEY, KEY_sim_low, KEY_sim_high, KEY_verdict.
EFFECTS = {
    "turns": ("length", ("lengthens", "shortens")),
    "first": ("first player's share", ("raises", "lowers")),
    "dealer": ("dealer's share", ("raises", "lowers")),
}


def ranked(table: pd.DataFrame) -> pd.DataFrame:
    """The ranking with its table's words (sims/house-rules.toml): each figure's cell, its interval and its word
    (blank for a skill gap not played, ``options.skill_games = 0``), and how many figures are beyond their margin."""
    played = bool(table["skill_verdict"].astype(bool).any())
    cells = {f"{q}_cell": [_figure(r, q) if q != "skill" or played else "" for _, r in table.iterrows()] for q in FIGURES}
    beyond = [f"{n} of {4 if v else 3}" for n, v in zip(table["larger"], table["skill_verdict"], strict=True)]
    return table.assign(**cells, beyond=beyond)


def _figure(r: pd.Series, q: str) -> str:
    """A ranking figure as a reader sees it: its change on its interval, what it changes, the word for its verdict."""
    if not r[f"{q}_verdict"]:
        return "not measured (a knob of the players, not a rule)"
    if q == "turns":
        text = f"{fmt.signed_ci(r[q], r[f'{q}_low'], r[f'{q}_high'], 1)} ({fmt.fixed(100 * r['turns_rel'], 1, sign=True)}%)"
    else:  # the ranking keeps pp; fmt's pp figures take shares
        text = fmt.pp_ci(r[q] / 100, r[f"{q}_low"] / 100, r[f"{q}_high"] / 100, 2)
    extra = {
        "first": f" (x{r['first_x_official']:.2f} -> x{r['first_x_rule']:.2f} of the fair share)",
        "spread": f" ({fmt.fixed(r['spread_official'], 1)} -> {fmt.fixed(r['spread_rule'], 1)} pp)",
    }
    return f"{text}{extra.get(q, '')}: {change_word(str(r[f'{q}_verdict']), float(r[q]), *FIGURES[q])}"


def _names(result: HouseRulesResult, rules: list[str], most: int = 3) -> str:
    """Rule names, every arm of one rules preset shown once ("seven-o (all 5 variants)") when all are there."""
    preset = {a.name: a.table.rules for a in result.exp.arms}
    names: list[str] = []
    for rule in rules:
        family = [a for a in result.rules if preset.get(a) == preset.get(rule)]
        if len(family) > 1 and all(a in rules for a in family):
            group = f"{preset[rule]} (all {len(family)} variants)"
            names += [group] if group not in names else []
        else:
            names.append(rule)
    if len(names) > most:
        names = [*names[:most], f"{len(names) - most} more"]
    return listed(names)


def answer(result: HouseRulesResult, table: pd.DataFrame) -> str:
    """The report's first paragraph: which rules change which figure beyond its margin, from the ranking's verdicts.

    Under about 80 words: at most three names a list (a rules preset's arms
    shown once when all of them are in it), only the clauses that have a rule;
    then the rules within every margin, and those with no figure beyond its
    margin but some figure undecided.
    """
    m, player = result.exp.margins, result.exp.options["skill_player"]
    clauses = []
    for q, (up, down), what in (
        ("turns", ("longer", "shorter"), f"rounds (beyond +/-{fmt.num(m['turns'])} turn)"),
        ("first", ("larger", "smaller"), f"first-player edge (beyond +/-{fmt.num(m['win_share_pp'])} pp)"),
        ("spread", ("wider", "narrower"), f"seat spread (beyond +/-{fmt.num(100 * m['balance'])} pp)"),
        ("skill", ("wider", "narrower"), f"`{player}` skill gap (beyond +/-{fmt.num(m['win_share_pp'])} pp)"),
    ):
        big = table[table[f"{q}_verdict"] == LARGER]
        sides = [(w, rules) for w, sign in ((up, 1), (down, -1)) if (rules := list(big.loc[sign * big[q] > 0, "rule"]))]
        said = "; ".join(f"{w}{f' {what}' if k == 0 else ''}: {_names(result, rules)}" for k, (w, rules) in enumerate(sides))
        if said:  # "Longer rounds (...): a and b; shorter: c"
            clauses.append(said[0].upper() + said[1:])
    text = f"**Answer ({result.mid} players, every seat `{result.ref}`).** "
    text += ". ".join(clauses) + "." if clauses else "No house rule changes any figure beyond its margin."
    quiet = table[table["larger"] == 0]
    verdicts = quiet[[f"{q}_verdict" for q in FIGURES]].isin([*WITHIN_MARGIN, ""]).all(axis=1)
    within, open_ = list(quiet.loc[verdicts, "rule"]), list(quiet.loc[~verdicts, "rule"])
    if within:
        text += f" Within every margin: {_names(result, within)}."
    if open_ and clauses:
        text += f" Undecided on some figure, none beyond its margin: {_names(result, open_)}."
    if len(table):  # what every verdict above reads: the ranking table's n and its simultaneous intervals
        text += (
            f" (Each rule on the same {fmt.count(table['n'].iloc[0])} deals as {result.base}; every verdict reads the "
            "simultaneous intervals of the ranking table below, which gives their levels.)"
        )
    return text


def value(row: pd.Series, q: str) -> str:
    """A matrix effect with its simultaneous interval: turns, or a share's change in pp."""
    figure = (row[f"d_{q}"], row[f"{q}_sim_low"], row[f"{q}_sim_high"])
    return fmt.signed_ci(*figure, 1) if q == "turns" else fmt.pp_ci(*figure, 2)


def direction(row: pd.Series, q: str) -> str:
    """A verdict as a direction: "lengthens"/"raises" or "shortens"/"lowers" only beyond the margin (:func:`change_word`)."""
    return change_word(str(row[f"{q}_verdict"]), float(row[f"d_{q}"]), *EFFECTS[q][1])


def rule_verdicts(result: HouseRulesResult, rule: str, p: int, q: str) -> dict[str, str]:
    """The direction of ``rule``'s effect on quantity ``q`` at ``p`` players under each field."""
    return {f: direction(result.cell(rule, p, f).iloc[0], q) for f in result.fields if len(result.cell(rule, p, f))}


def _rule_text(result: HouseRulesResult, rule: str, p: int, q: str) -> str:
    """One effect of ``rule`` under every field, with each field's figure and what the fields' interaction says."""
    verdicts, between = rule_verdicts(result, rule, p, q), result.between.get(q, {}).get((p, rule))
    return f"{EFFECTS[q][0]}: " + agreement(verdicts, lambda f: value(result.cell(rule, p, f).iloc[0], q), between)


def _skill_text(result: HouseRulesResult, rule: str, p: int) -> str:
    sk = result.skill
    rows = sk[(sk["rule"] == rule) & (sk["players"] == p)] if sk is not None and len(sk) else pd.DataFrame()
    if not len(rows) or pd.isna(rows.iloc[0].get("d_gap")):
        return ""
    r = rows.iloc[0]
    what = change_word(str(r["verdict"]), float(r["d_gap"]), "widens", "narrows")
    return (
        f"edge of one `{r['player']}` among `{r['field']}`: {what} "
        f"({fmt.pp_ci(r['d_gap'], r['sim_low'], r['sim_high'], 2)}, n = {fmt.count(r['n'])} deals x {p} rotations)"
    )


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


def findings(result: HouseRulesResult) -> list[str]:
    """Per rule at the middle size: each effect under every field (with the fields' interaction), the skill gap;
    the arms that played identically and why; the balance family."""
    mid, out = result.mid, []
    for rule in result.rules:
        parts = [_rule_text(result, rule, mid, q) for q in EFFECTS]
        skill = _skill_text(result, rule, mid)
        out.append(f"{rule} at {mid} players: " + "; ".join(parts + ([skill] if skill else [])) + ".")
    for who, a, b in result.identical:
        out.append(
            f"Under `{who}`, {a} and {b} played bit-identical rounds on every deal at every table size (same result of "
            f"every round), so they are one effect shown twice: {_identical_reason(result, who, a, b)}."
        )
    eff = result.effects
    worst = eff.loc[eff["d_balance"].idxmin()]
    lost = eff[(eff["balance_verdict"] == LARGER) & (eff["d_balance"] < 0)]
    where = ", ".join(f"{r.rule} at {r.players} players, `{r.field}`" for r in lost.itertuples())
    out.append(
        f"Balance (1 minus the largest gap between two seats' win shares), judged on intervals simultaneous over the "
        f"{len(eff)} rule x table size x field cells (normal, with the block-bootstrap standard error) against "
        f"+/-{fmt.num(result.exp.margins['balance'])}: {len(lost)} cell{'s' if len(lost) != 1 else ''} "
        f"lose{'' if len(lost) != 1 else 's'} more than the margin{f' ({where})' if where else ''}; "
        f"the largest loss is {worst['rule']} at {worst['players']} players with `{worst['field']}`, "
        f"{fmt.signed_ci(worst['d_balance'], worst['balance_sim_low'], worst['balance_sim_high'], 3)} "
        f"({worst['balance_verdict']})."
    )
    return out
