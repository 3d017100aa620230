"""Skill or luck, by rule set: the skill report's options, its answer, findings, tables and charts.

The numbers come from :mod:`unocli.analysis.skill` (one player's edge against
a field, seats rotated, per table size, field and rule set, and each rule
set's change of it) and :mod:`unocli.analysis.skill_ladder` (the ladders'
relative skill, skill shares and leads); this module unpacks the experiment
into their :class:`~unocli.analysis.skill.Plan` and words the result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from typing import Any

import numpy as np
import pandas as pd

import unocli.report.analyses.skill_measures as skill_measures
from unocli.analysis import skill, skill_ladder
from unocli.analysis.skill import KINDS
from unocli.errors import ConfigError
from unocli.report import fmt
from unocli.report.analyses.common import Context, caption, forest_chart
from unocli.report.experiment import Experiment, positive_int
from unocli.report.experiment import policy_list as _policy_list
from unocli.report.model import Chart, Section, TableBlock, sentences
from unocli.study.arm import Arm, template_name
from unocli.study.stats import (
    ALPHA,
    LARGER,
    WITHIN_MARGIN,
    t_quantile,
)

KIND_TEXT = {"round": "per round", "match": "per match"}


def _positive_number(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        return f"must be a positive number, not {value!r}"
    return None


def _player_spec(value: Any) -> str | None:
    from unocli.report.experiment import policy_spec

    return policy_spec(value)


def _fixed_spec(value: Any) -> str | None:
    """``""`` (none) or a policy spec without placeholders: one player for every rule set and table size."""
    if value == "":
        return None
    if isinstance(value, str) and ("{" in value or "}" in value):
        return f"must be one player for every rule set, without {{rules}} or {{players}}, not {value!r}"
    return _player_spec(value)


OPTIONS = {
    "player": ("strong", _player_spec),
    "fixed_player": ("", _fixed_spec),
    "fields": (["basic", "random"], _policy_list),
    "match_games": (2000, positive_int),
    "match_margin_pp": (3.0, _positive_number),
    **skill_measures.OPTIONS,  # the ladders: relative skill, skill shares and leads per rule set
}


def check(exp: Experiment) -> str | None:
    """The arms are rule sets only: this analysis seats its own player and field.

    Every cell's table is built here, so a ``{rules}``/``{players}`` template
    naming a player that does not exist is refused before any game is played.
    """
    tables = [(f"arms.{a.name}", a.table) for a in exp.arms] or [("base", exp.base)]
    for key, table in tables:
        if table.policy != "random" or table.seats or table.knobs:
            return (
                f"{key}: the skill analysis seats options.player against options.fields itself; "
                "remove policy and seats from [base] and [arms] (the arms are rule sets)"
            )
    names = [a.name for a in exp.arms] or ["base"]
    for field in exp.options["fields"]:
        for p in exp.players:
            for name in names:
                try:
                    table_arm(exp, name, p, exp.options["player"], field)
                except ConfigError as exc:
                    return f"options: {exc}"
    return skill_measures.check(exp)


def player_name(spec: str) -> str:
    """The player's name in the report: a template without its placeholders (``tuned-{rules}-{players}`` -> ``tuned``)."""
    return template_name(spec)


@dataclass(frozen=True)
class SkillResult:
    """The player's win share and gap per table size, field and rule set, and each rule set's change of the edge.

    ``gaps``: one row per (players, field, rules) with, for ``kind`` in round
    and match, ``{kind}_n`` (deals; each played once per rotation, so
    ``{kind}_games`` = deals x players games), ``{kind}_share`` with
    ``_low``/``_high`` (the player's share of games won, clustered 95% t
    interval), ``{kind}_fair`` (an average seat's share: 1/n when every game
    has a winner) and ``{kind}_gap`` with ``_low``/``_high`` (share minus
    fair, 95% t over deals); ``match_rounds`` is the mean rounds per match.
    ``changes``: one row per (kind, players, field, rules other than the
    baseline): ``n`` (deals), ``d_gap`` with ``d_low``/``d_high`` (paired 95%
    interval over deals), ``sim_low``/``sim_high``/``sim_level`` (the
    simultaneous interval over the kind's rows), ``margin_pp``, ``verdict``
    and ``p_tost``.
    ``fixed_gaps``/``fixed_changes``: the same for ``options.fixed_player``
    (one player under every rule set, so a rule set's change of its gap is
    the rule's effect on one player), empty when it is not set.
    """

    exp: Experiment
    player: str
    fields: tuple[str, ...]
    rule_sets: tuple[str, ...]
    baseline: str
    gaps: pd.DataFrame
    changes: pd.DataFrame
    games: int
    fixed_gaps: pd.DataFrame = dc_field(default_factory=pd.DataFrame)
    fixed_changes: pd.DataFrame = dc_field(default_factory=pd.DataFrame)
    ladder: skill_ladder.LadderMeasures | None = None  # with options.ladder_policies: the ladders' skill measures

    @property
    def fixed(self) -> str:
        """The fixed player's spec, ``""`` when none."""
        return str(self.exp.options.get("fixed_player", ""))

    @property
    def player_spec(self) -> str:
        """The player as the experiment names it (``player`` is its name in the report)."""
        return str(self.exp.options["player"])

    @property
    def per_rules(self) -> bool:
        """True when the player is a template: each rule set and table size seats its own player."""
        return self.player != self.player_spec


def table_arm(exp: Experiment, rules_arm: str, players: int, player: str, field: str) -> Arm:
    """The table of one cell (:func:`unocli.analysis.skill.table_arm`)."""
    return skill.table_arm(skill_measures.plan(exp), rules_arm, players, player, field)


def compute(exp: Experiment, ctx: Context) -> SkillResult:
    """Play every (table size, field, rule set) cell, rounds and matches, and compare each rule set's edge with the baseline's.

    The same again for ``options.fixed_player`` when it is set, and the ladders with ``options.ladder_policies``.
    """
    setup = skill_measures.plan(exp)
    names = tuple(a.name for a in exp.arms) or ("base",)
    baseline = exp.baseline or names[0]
    edges = skill.measure(setup, ctx, exp.options["player"], baseline)
    result = SkillResult(
        exp,
        player_name(exp.options["player"]),
        tuple(exp.options["fields"]),
        names,
        baseline,
        edges.gaps,
        edges.changes,
        edges.games,
    )
    if skill_measures.enabled(exp):
        result = replace(result, ladder=skill_ladder.measure(setup, ctx, baseline))
    if not exp.options.get("fixed_player"):
        return result
    fixed = skill.measure(setup, ctx, exp.options["fixed_player"], baseline)
    return replace(result, fixed_gaps=fixed.gaps, fixed_changes=fixed.changes, games=edges.games + fixed.games)


# ---------------------------------------------------------------- render


def render(result: SkillResult) -> Section:
    """The answer in one paragraph, its chart, the findings, the tables of gaps and of changes against the baseline."""
    exp = result.exp
    blocks: list[Any] = [_headline_chart(result), _findings_text(result), _gaps_table(result)]
    if not result.changes.empty:
        blocks += [_change_chart(result), _changes_table(result)]
    if result.ladder is not None:
        blocks += [skill_measures.findings(result.ladder, result.baseline), skill_measures.cells_table(result.ladder)]
        if not result.ladder.changes.empty:
            blocks += [skill_measures.changes_table(result.ladder, result.baseline)]
    if not result.fixed_gaps.empty:
        blocks += [_gaps_table(result, fixed=True)]
        if not result.fixed_changes.empty:
            blocks += [_changes_table(result, fixed=True)]
    answer = _answer(result)
    intro = answer + "\n\n" + (exp.description or "").strip()
    # the answer's first sentence: the tuned player's gap over the fair share against basic and random fields
    return Section(
        name=exp.name,
        title=exp.title,
        intro=intro.strip(),
        blocks=blocks,
        meta={"games": result.games},
        answer=sentences(answer)[0],
    )


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


def _reference_size(result: SkillResult) -> int:
    """The table size the answer speaks of: 4 players if played, else the middle one."""
    sizes = result.exp.players
    return 4 if 4 in sizes else sizes[len(sizes) // 2]


def _row(result: SkillResult, p: int, field: str, rules: str) -> pd.Series:
    g = result.gaps
    return g[(g["players"] == p) & (g["field"] == field) & (g["rules"] == rules)].iloc[0]


def _gap_text(row: pd.Series, kind: str) -> str:
    """The edge in pp with its interval, and relative to the fair share: ``+1.52 pp [+1.21, +1.83], x1.06 fair``."""
    fair = float(row[f"{kind}_fair"])
    text = fmt.pp_ci(row[f"{kind}_gap"], row[f"{kind}_gap_low"], row[f"{kind}_gap_high"], 2)
    if not fair > 0:
        return text
    return text + f", x{fmt.fixed(1 + row[f'{kind}_gap'] / fair, 2)} fair"


def _answer(result: SkillResult) -> str:
    """One paragraph: is it luck? The gap at the reference size per field, its range, and what house rules do."""
    p, g = _reference_size(result), result.gaps
    base, player = result.baseline, f"`{result.player}`"
    shown = [
        f"against {p - 1} `{field}` player{'s' if p > 2 else ''} it wins "
        f"{fmt.share(_row(result, p, field, base)['round_share'])} of rounds "
        f"(edge {_gap_text(_row(result, p, field, base), 'round')}) and "
        f"{fmt.share(_row(result, p, field, base)['match_share'])} of matches "
        f"(edge {_gap_text(_row(result, p, field, base), 'match')})"
        for field in result.fields
    ]
    # the cells are read together: count them on Bonferroni intervals over all of them (the 95% t interval's
    # half-width rescaled to level 1 - 0.05 / cells, with each cell's own degrees of freedom)
    k = len(g)
    scale = [t_quantile(1 - ALPHA / (2 * k), n - 1) / t_quantile(0.975, n - 1) if n > 1 else math.inf for n in g["round_n"]]
    half = (g["round_gap_high"] - g["round_gap_low"]) / 2 * scale
    above = int((g["round_gap"] - half > 0).sum())
    below = int((g["round_gap"] + half < 0).sum())
    lead = "Not pure luck" if above or below else "No skill detected at this sample size"
    text = (
        f"**{lead}.** Under the {base} rules at {p} players, where the fair share is {fmt.share(1 / p)}, "
        f"one {player} player {'; '.join(shown)} (edges are the player's share minus the fair share, "
        f"95% intervals over deals, seats rotated). Over all {len(g)} cells of table size, field and rule set the "
        f"per-round edge is above 0 in {above} and below 0 in {below} (simultaneous {fmt.fixed(100 * (1 - ALPHA / k), 2)}% "
        "intervals over the cells), and ranges from "
        f"{fmt.pp(g['round_gap'].min())} to {fmt.pp(g['round_gap'].max())}; per match it ranges from "
        f"{fmt.pp(g['match_gap'].min())} to {fmt.pp(g['match_gap'].max())}, {_magnify(g)}. "
    )
    return text + _rules_sentence(result) + _per_rules_caveat(result)


def _per_rules_caveat(result: SkillResult) -> str:
    """With a ``{rules}``/``{players}`` player, what a rule set's change of the edge compares (two different players)."""
    if not result.per_rules:
        return ""
    elsewhere = (
        f" {_rules_sentence(result, fixed=True)}"
        if not result.fixed_changes.empty
        else " (for that, the house-rules report measures one fixed player's edge under each rule)."
    )
    return (
        f" The player is a template, `{result.player_spec}`: each rule set and table size seats its own `{result.player}` "
        f"player, so a rule set's change of the edge compares two players, each made for its own rules: it says whether "
        f"skill pays more or less under that rule for a player who knows the rule, not what the rule does to one fixed "
        f"player.{elsewhere}"
    )


def _magnify(g: pd.DataFrame) -> str:
    """Does a match magnify the per-round edge? Compared on the cells whose per-round edge is clear of 0."""
    clear = g[(g["round_gap_low"] > 0) | (g["round_gap_high"] < 0)]
    if clear.empty:
        return "with no per-round edge to magnify"
    same_sign = np.sign(clear["match_gap"]) == np.sign(clear["round_gap"])
    larger = int((same_sign & (clear["match_gap"].abs() > clear["round_gap"].abs())).sum())
    return f"larger than the per-round edge, same sign, in {larger} of the {len(clear)} cells with a clear per-round edge"


def _rules_sentence(result: SkillResult, fixed: bool = False) -> str:
    """What each rule set does to the per-round edge against the baseline, over table sizes and fields, by verdict.

    "Raises" is toward the player (a larger edge, or a smaller deficit where the player trails the fair share),
    and is said only of a change larger than the margin (verdict ``larger``).
    ``fixed``: of the fixed player's gap instead.
    """
    ch = result.fixed_changes if fixed else result.changes
    if ch.empty:
        return ""
    r = ch[ch["kind"] == "round"]
    parts = []
    for name in dict.fromkeys(r["rules"]):
        sub = r[r["rules"] == name]
        larger = sub["verdict"] == LARGER
        up, down = int((larger & (sub["d_gap"] > 0)).sum()), int((larger & (sub["d_gap"] < 0)).sum())
        within = int(sub["verdict"].isin(sorted(WITHIN_MARGIN)).sum())
        parts.append(
            f"{name} raises it beyond the margin in {up}, lowers it beyond the margin in {down} and changes it by no "
            f"more than the margin in {within} of {len(sub)} ({fmt.pp(sub['d_gap'].min())} to {fmt.pp(sub['d_gap'].max())})"
        )
    lead = f"With one fixed `{result.fixed}` player instead, under every rule set: " if fixed else ""
    return (
        f"{lead}{'against' if fixed else 'Against'} the {result.baseline} rules on the same deals "
        "(the per-round edge, over the cells of table size and field): "
        + "; ".join(parts)
        + f" (simultaneous {fmt.fixed(100 * r['sim_level'].iloc[0], 2)}% intervals, equivalence margin "
        f"+/-{fmt.num(r['margin_pp'].iloc[0])} pp; the rest undecided, with or without a change of undecided size)."
    )


def _findings_text(result: SkillResult) -> str:
    """The findings, as a block under the headline chart."""
    g, exp = result.gaps, result.exp
    lines = ["**Findings**", ""]
    for field in result.fields:
        sub = g[(g["field"] == field) & (g["rules"] == result.baseline)]
        lines.append(
            f"- {result.player} against {field}, {result.baseline} rules, per round: "
            + "; ".join(f"{_gap_text(x, 'round')} at {x['players']} players" for _, x in sub.iterrows())
            + "; per match: "
            + "; ".join(f"{_gap_text(x, 'match')} at {x['players']}" for _, x in sub.iterrows())
            + "."
        )
    rounds = g.groupby("players")["match_rounds"].mean()
    lines.append(
        f"- Sizes: {fmt.count(exp.games)} deals per cell for rounds and {fmt.count(exp.options['match_games'])} for "
        f"matches to {_target(result)} points, each deal played once per seat rotation; a match took "
        + ", ".join(f"{fmt.num(v)} rounds at {p} players" for p, v in rounds.items())
        + " on average (over rule sets and fields)."
    )
    if not result.changes.empty:
        m = result.changes[result.changes["kind"] == "match"]
        larger = m["verdict"] == LARGER
        lines.append(
            f"- Per match against {result.baseline}: {int((larger & (m['d_gap'] > 0)).sum())} rule set cells raise the "
            f"gap beyond the margin (+/-{fmt.num(m['margin_pp'].iloc[0])} pp), {int((larger & (m['d_gap'] < 0)).sum())} "
            f"lower it beyond the margin, {int(m['verdict'].isin(sorted(WITHIN_MARGIN)).sum())} change it by no more "
            f"than the margin (negligible or equivalent), of {len(m)}."
        )
    return "\n".join(lines)


def _target(result: SkillResult) -> str:
    arm = table_arm(result.exp, result.baseline, result.exp.players[0], result.player_spec, result.fields[0])
    return fmt.count(arm.rules.target_score)


def _caption(result: SkillResult, what: str, intervals: str) -> str:
    exp = result.exp
    n = (
        f"{fmt.count(exp.games)} deals per cell for rounds, {fmt.count(exp.options['match_games'])} for matches, "
        "each played once per seat rotation"
    )
    own = f" ({result.player_spec}: each rule set's and table size's own)" if result.per_rules else ""
    policies = f"one {result.player}{own} against a field of " + " or ".join(result.fields)
    return caption(exp, what, n, rules=", ".join(result.rule_sets), policies=policies, intervals=intervals)


def _headline_chart(result: SkillResult) -> Chart:
    """Gap per rule set, one marker per field, one row of panels per table size: per round left, per match right."""
    from unocli.report import plots  # matplotlib only when drawing

    exp = result.exp
    cap = _caption(
        result,
        f"The {result.player} player's win share minus the fair share (1/n), per rule set, per round (left) and per "
        "match (right), one row per table size",
        "error bars are 95% t intervals over deals (clustered by deal)",
    )
    # plots has no grid-of-panels chart; its figure and layout helpers keep the caption and look the same
    fig, bottom = plots._figure(2.3 * len(exp.players) + 0.6, cap)
    axes = fig.subplots(len(exp.players), 2, squeeze=False, sharex=True)
    xs = np.arange(len(result.rule_sets), dtype=float)
    offsets = np.linspace(-0.15, 0.15, len(result.fields)) if len(result.fields) > 1 else np.zeros(1)
    for i, p in enumerate(exp.players):
        for j, kind in enumerate(KINDS):
            ax = axes[i][j]
            for k, field in enumerate(result.fields):
                sub = result.gaps[(result.gaps["players"] == p) & (result.gaps["field"] == field)]
                y = 100 * sub[f"{kind}_gap"].to_numpy()
                err = 100 * np.vstack([sub[f"{kind}_gap"] - sub[f"{kind}_gap_low"], sub[f"{kind}_gap_high"] - sub[f"{kind}_gap"]])
                label = f"against {field}"
                ax.errorbar(xs + offsets[k], y, yerr=err, fmt="o", ms=4, capsize=3, color=plots.COLOURS[k], label=label)
            ax.axhline(0.0, color="#555555", lw=1, ls=":")
            ax.set_title(f"{p} players, {KIND_TEXT[kind]}", fontsize=10, loc="left")
            ax.set_ylabel("edge (pp)")
            ax.grid(True, axis="y", alpha=0.3, lw=0.6)
            ax.spines[["top", "right"]].set_visible(False)
            ax.set_xticks(xs)
            ax.set_xticklabels(list(result.rule_sets), rotation=30, ha="right", fontsize=8)
    axes[0][0].legend(fontsize=8, frameon=False)
    fig.suptitle(f"Skill or luck: one {result.player} player's edge over the fair share", fontsize=12, x=0.01, ha="left")
    return Chart("skill-gap", plots._finish(fig, bottom), cap, "edge per rule set, per round and per match")


def _gaps_table(result: SkillResult, fixed: bool = False) -> TableBlock:
    """The gaps per cell (``fixed``: the fixed player's)."""
    g = result.fixed_gaps if fixed else result.gaps
    who = f"{result.fixed} player's (the same player under every rule set)" if fixed else f"{result.player} player's"

    def column(kind: str, what: str) -> list[str]:
        kw = "share_ci" if what == "share" else "pp_ci"
        return [
            getattr(fmt, kw)(r[f"{kind}_{what}"], r[f"{kind}_{what}_low"], r[f"{kind}_{what}_high"], 2 if what == "gap" else 1)
            for _, r in g.iterrows()
        ]

    shown = pd.DataFrame(
        {
            "players": g["players"],
            "field": g["field"],
            "rules": g["rules"],
            "n deals (rounds)": g["round_n"].map(fmt.count),
            "round share [95%]": column("round", "share"),
            "round edge [95%]": column("round", "gap"),
            "n deals (matches)": g["match_n"].map(fmt.count),
            "match share [95%]": column("match", "share"),
            "match edge [95%]": column("match", "gap"),
            "rounds per match": g["match_rounds"].map(fmt.num),
            "fair": g["players"].map(lambda p: fmt.share(1 / p)),
        }
    )
    return TableBlock(
        "skill-fixed-gaps" if fixed else "skill-gaps",
        f"One {who} win share and edge (share minus the fair share) per table size, field and rule "
        "set; each deal played once per seat rotation, intervals over deals",
        shown,
        g,
        note="n counts deals; every deal is played once per seat rotation (n x players games). The fair share is 1/n "
        "(an average seat's share of the games won: 1/n when every game has a winner, as here up to rare locked rounds).",
    )


def _changes_table(result: SkillResult, fixed: bool = False) -> TableBlock:
    """Each rule set's change of the edge against the baseline (``fixed``: of the fixed player's edge)."""
    ch = result.fixed_changes if fixed else result.changes
    who = f" of one fixed {result.fixed} player" if fixed else ""
    rows = []
    for kind in KINDS:
        sub = ch[ch["kind"] == kind]
        for r in sub.itertuples():
            rows.append(
                {
                    "kind": KIND_TEXT[kind],
                    "players": r.players,
                    "field": r.field,
                    "rules": r.rules,
                    "n deals": fmt.count(r.n),
                    f"change in gap vs {result.baseline} [95%]": fmt.pp_ci(r.d_gap, r.d_low, r.d_high, 2),
                    "simultaneous interval": fmt.bounds(r.sim_low, r.sim_high, 2, "pp"),
                    "verdict": f"{r.verdict} (+/-{fmt.num(r.margin_pp)} pp)",
                }
            )
    level = fmt.fixed(100 * ch["sim_level"].iloc[0], 2)
    return TableBlock(
        "skill-fixed-vs-baseline" if fixed else "skill-vs-baseline",
        f"Does a house rule raise or lower the edge{who}? Each rule set's edge minus the {result.baseline} rules' edge "
        f"on the same deals: paired 95% intervals, simultaneous {level}% intervals (Bonferroni over each kind's rows) and "
        "equivalence verdicts",
        pd.DataFrame(rows),
        ch,
        note="larger: the simultaneous interval lies beyond the margin; negligible: it excludes 0 within the margin; "
        "equivalent: it lies within the margin and includes 0; unsized: it excludes 0 and crosses the margin; else "
        "undecided (docs/statistics.md). "
        "Per-round margin from the experiment's [margins] win_share_pp, per-match from options.match_margin_pp.",
    )


def _change_chart(result: SkillResult) -> Chart:
    """A forest of the changes against the baseline: per round and per match panels, one row per cell."""
    ch = result.changes
    wide = ch[ch["kind"] == "round"].reset_index(drop=True)
    match = ch[ch["kind"] == "match"].reset_index(drop=True)
    wide = wide.assign(
        label=[f"{r.rules}, {r.players}p vs {r.field}" for r in wide.itertuples()],
        m_gap=match["d_gap"],
        m_low=match["sim_low"],
        m_high=match["sim_high"],
    )
    margins = (wide["margin_pp"].iloc[0] / 100, match["margin_pp"].iloc[0] / 100)
    level = fmt.fixed(100 * ch["sim_level"].iloc[0], 2)
    cap = _caption(
        result,
        f"Change of the edge from the {result.baseline} rules on the same deals; grey bands are the equivalence margins "
        f"(+/-{fmt.num(100 * margins[0])} pp per round, +/-{fmt.num(100 * margins[1])} pp per match)",
        f"bars are simultaneous {level}% intervals (95% for each panel's family)",
    )
    panels = [
        ("change in gap per round", "d_gap", "sim_low", "sim_high", margins[0], True),
        ("change in gap per match", "m_gap", "m_low", "m_high", margins[1], True),
    ]
    return forest_chart(
        wide, "label", panels, cap, name="skill-vs-baseline", title=f"Which rules raise or lower the edge? (vs {result.baseline})"
    )
