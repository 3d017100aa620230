"""The house-rules report: each house rule alone against the official rules, paired, per field and table size.

The design (every arm under every field of ``options.fields`` at every table
size, on the same deals) is played once by :func:`unocli.report.design.play`;
:func:`unocli.analysis.house_rules.measure` reads its comparisons into the
levels, the effects with their verdicts and the ranking; the skill gap is
:func:`unocli.analysis.house_rules_gap.skill_gaps`; whether a rule acts
differently under two fields is the interaction of fields
(:func:`~unocli.report.analyses.fields.field_interactions`). The words are in
:mod:`unocli.report.analyses.house_rules_text`.
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
from unocli.report.analyses.common import Context, caption
from unocli.report.analyses.fields import (
    FIELDS_OPTION,
    check_fields,
    field_experiment,
    field_interactions,
    field_specs,
    fields_text,
    interactions_frame,
    templates_text,
)
from unocli.report.analyses.house_rules_text import EFFECTS, SORT_KEY, answer, direction, findings, shown, value
from unocli.report.design import Design, play
from unocli.report.experiment import Experiment
from unocli.report.model import Block, Section, TableBlock, sentences
from unocli.report.options import policy_spec, positive_int
from unocli.report.words import verdict_matrix
from unocli.study.interaction import FieldInteraction


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


VIEWS = "house-rules"  # a file without [[view]] tables draws the shipped file's
FRAMES = ("", "effects", "levels", "interactions", "skill")  # the design's, the matrix's effects and levels, ..., the skill gap


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
    return check_fields(exp) or kinds.refused(exp, kinds.FRAME_KINDS, FRAMES)


def compute(exp: Experiment, ctx: Context) -> HouseRulesResult:
    """Play every rule set at every table size under every field on the same deals and measure the effects."""
    names = tuple(a.name for a in exp.arms)
    base, m = exp.baseline or names[0], exp.margins
    specs = field_specs(exp)
    design = Design(
        {f: field_experiment(exp, s) for f, s in specs.items()}, dict.fromkeys(specs, exp.players), analysis.quantities, base
    )
    share = m["win_share_pp"] / 100
    played = play(design, ctx, {"turns": m["turns"], "win_first": share, "win_dealer": share})
    data = analysis.measure(played.cells, names, base, m, exp.options["replicates"], exp.seed)
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
    """The answer, the declared views (sims/house-rules.toml), the report's own tables and charts, the findings."""
    exp, base = result.exp, result.base
    own: dict[str, Block] = {
        **({"house-rules-ranking": _ranking_table(result)} if result.ranking is not None else {}),
        **{b.name: b for b in _verdict_tables(result)},
    }
    # every interaction of a quantity belongs to its one family
    families = ", ".join(f"{q} {next(iter(v.values()))[0].family}" for q, v in result.between.items() if v)
    skill = result.skill if result.skill is not None else pd.DataFrame(columns=["players"])
    words = {"families": families, "fair": fmt.fixed(result.fair[result.mid], 3)}
    words |= {"skill_player": skill["player"].iloc[0], "skill_field": skill["field"].iloc[0]} if len(skill) else {}
    setup = kinds.Setup(partial(_caption, result), base, blocks=own, words=words)
    frames = {"": result.frame, "effects": result.effects, "levels": result.table, "skill": skill}
    frames["interactions"] = interactions_frame(result.between, {"first": 100.0, "dealer": 100.0})
    text = answer(result, result.ranking) if result.ranking is not None else ""
    intro = (
        f"{text}\n\n{exp.description or ''}\n\nBaseline {base}; fields of players: {fields_text(result.fields)} (every "
        f"seat plays the field's policy).{templates_text(exp)}"
    )
    blocks = kinds.declared(kinds.chosen(exp, VIEWS), exp, frames, setup)
    return Section(exp.name, exp.title, intro, findings(result), blocks, meta={"games": result.games}, answer=sentences(text)[0])


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


def _level(result: HouseRulesResult) -> str:
    return fmt.fixed(100 * result.effects["sim_level"].iloc[0], 2)


def _caption(result: HouseRulesResult, title: str, intervals: str, policies: str | None = None, n: str | None = None) -> str:
    n = n or f"{fmt.count(result.rounds[result.exp.players[0]])} deals per table size and field, every rule set on the same deals"
    policies = policies or ("every seat one field's policy: " + ", ".join(result.fields))
    return caption(
        result.exp, title, n, rules=f"each house rule alone on top of {result.base}", policies=policies, intervals=intervals
    )


def _verdict_tables(result: HouseRulesResult) -> list[TableBlock]:
    """Per quantity: one row per (players, rule), one column per field with the change and its direction."""
    blocks = []
    for q, (what, *_rest) in EFFECTS.items():
        eff = result.effects.assign(verdict=[direction(r, q) for _, r in result.effects.iterrows()])
        cell = partial(lambda row, q: f"{value(row, q)} {direction(row, q)}", q=q)
        table = verdict_matrix(eff, ("players", "rule"), result.fields, cell, result.between.get(q))
        margin = (
            f"{fmt.num(result.exp.margins['turns'])} turns"
            if q == "turns"
            else f"{fmt.num(result.exp.margins['win_share_pp'])} pp"
        )
        title = (
            f"Each house rule's effect on the {what} under each field of players (simultaneous {_level(result)}% "
            f"intervals, equivalence margin +/-{margin}); the last column says whether the verdict holds under every "
            "field and what the test of the fields' difference (the interaction, table house-rules-fields-interaction) says"
        )
        blocks.append(TableBlock(f"house-rules-{q}-by-field", title, table, eff))
    return blocks


def _ranking_table(result: HouseRulesResult) -> TableBlock:
    table, opts, m = result.ranking, result.exp.options, result.exp.margins
    assert table is not None
    r0 = table.iloc[0]
    skill = (
        f"one `{opts['skill_player']}` player's edge (share minus 1/n) among `{opts['skill_field']}`, seats rotated, on "
        "the skill-gap table's simultaneous intervals (the skill report's share of outcome variance due to skill is not "
        "measured per house rule, so the skill gap stands in for it)"
        if result.skill is not None and len(result.skill)
        else "the skill gap was not played (options.skill_games = 0)"
    )
    title = (
        f"The house rules ranked against {result.base}, {r0['players']} players, every seat `{r0['field']}`, "
        f"{fmt.count(r0['n'])} deals, each rule on the same deals as {result.base}. Length and the first player's "
        f"edge (share minus 1/n; x: relative to the fair share) on the matrix's simultaneous {_level(result)}% intervals; "
        f"the seat spread (largest gap between two seats' win shares) on a normal interval with its block-bootstrap "
        f"standard error, simultaneous {fmt.fixed(100 * r0['level_spread'], 2)}% over the {len(table)} rows; the "
        f"skill gap: {skill}. Margins +/-{fmt.num(m['turns'])} turns, +/-{fmt.num(m['win_share_pp'])} pp, "
        f"+/-{fmt.num(100 * m['balance'])} pp of spread. Sorted by {SORT_KEY}"
    )
    return TableBlock("house-rules-ranking", title, shown(table, m), table)
