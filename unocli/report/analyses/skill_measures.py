"""The skill report's ladder section: its options, and the tables and sentences of the ladders' skill measures.

The measures (relative skill, skill shares of a round and a match, rounds and
matches until the best player leads ``random``, and each rule set's paired
ratio to the baseline's) are computed by :mod:`unocli.analysis.skill_ladder`
(docs/ladder.md); this module checks the ``ladder_*`` options, unpacks the
experiment for the computations (:func:`plan`) and words the measures.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from unocli.analysis import skill_ladder
from unocli.analysis.skill import Plan, RuleSet
from unocli.analysis.skill_ladder import LadderMeasures
from unocli.errors import ConfigError
from unocli.report import fmt
from unocli.report.model import TableBlock
from unocli.study.arm import check_spec
from unocli.study.ladder import ANCHOR
from unocli.study.stats import LARGER, WITHIN_MARGIN

if TYPE_CHECKING:  # not imported: report.experiment imports the analyses' registry (tests/test_layout.py)
    from unocli.report.experiment import Experiment

MEASURES = {
    "relative_skill": "relative skill (best gain over random / the bound's)",
    "share_round": "skill share of a round's outcome variance",
    "share_match": "skill share of a match's outcome variance",
    "lead_round": "rounds until the best leads random with 90% chance",
    "lead_match": "matches until the best leads random with 90% chance",
}


def _spec_list(value: Any) -> str | None:
    """A list of policy specs (templates allowed: their names are checked per cell), possibly empty."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return f"must be a list of policy specs, not {value!r}"
    for v in value:
        try:
            check_spec(v)
        except ConfigError as exc:
            return str(exc)
    if len(set(value)) != len(value):
        return f"names a policy twice: {value!r}"
    return None


def _lone_list(value: Any) -> str | None:
    """A list of policy specs that may name the search players (``search``, ``peek``), possibly empty."""
    from unocli.game.policies import parse_policy_spec

    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return f"must be a list of policy specs, not {value!r}"
    for v in value:
        try:
            parse_policy_spec(v)
        except ConfigError as exc:
            return str(exc)
    if len(set(value)) != len(value):
        return f"names a policy twice: {value!r}"
    return None


def _count(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return f"must be a positive whole number, not {value!r}"
    return None


def _ratio(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 1:
        return f"must be a ratio above 1 (1.2: a change within 1/1.2 to 1.2 times is no change), not {value!r}"
    return None


OPTIONS = {
    "ladder_policies": ([], _spec_list),  # empty: no ladder section
    "ladder_lone": ([], _lone_list),
    "ladder_games": (10000, _count),
    "ladder_lone_games": (1000, _count),
    "ladder_match_games": (2000, _count),
    "ladder_margin_ratio": (1.2, _ratio),
}


def enabled(exp: Experiment) -> bool:
    return bool(exp.options.get("ladder_policies"))


def check(exp: Experiment) -> str | None:
    """``random`` must be in the round robin (gains are over it), lone games at most the ladder's, every name known."""
    if not enabled(exp):
        return None
    opts = exp.options
    if ANCHOR not in opts["ladder_policies"]:
        return f"options.ladder_policies must include {ANCHOR!r}: the relative skill and the leads are gains over it"
    if opts["ladder_lone"] and opts["ladder_lone_games"] > opts["ladder_games"]:
        return "options.ladder_lone_games must not exceed options.ladder_games: the lone tables play a subset of the deals"
    for p in exp.players:
        for arm in exp.arms or ():
            try:
                skill_ladder.policies(plan(exp), arm.name, p)
            except ConfigError as exc:
                return f"options: {exc}"
    return None


def plan(exp: Experiment) -> Plan:
    """The experiment as the skill computations read it: seed, sizes, rule sets, options and margins."""
    arms = tuple(RuleSet(a.name, a.table) for a in exp.arms)
    return Plan(exp.name, exp.seed, exp.games, exp.players, exp.base, arms, exp.options, exp.margins)


# ---------------------------------------------------------------- render


def _share(row: pd.Series, key: str) -> str:
    return f"{100 * row[key]:.2f}% [{100 * row[key + '_low']:.2f}, {100 * row[key + '_high']:.2f}]"


def _lead(row: pd.Series, key: str) -> str:
    def c(x: float) -> str:
        return "inf" if not math.isfinite(x) else fmt.count(int(x))

    return f"{c(row[key])} [{c(row[key + '_low'])}, {c(row[key + '_high'])}] ({row['best_' + key.split('_')[1]]})"


def cells_table(m: LadderMeasures) -> TableBlock:
    """The three measures per rule set and table size, with their intervals, in one table."""
    c = m.cells
    rel = [
        f"{r['relative_skill']:.3f} [{r['relative_skill_low']:.3f}, {r['relative_skill_high']:.3f}] ({r['best']} / {r['bound']})"
        if "relative_skill" in c and pd.notna(r.get("relative_skill"))
        else "-"
        for _, r in c.iterrows()
    ]
    shown = pd.DataFrame(
        {
            "players": c["players"],
            "rules": c["rules"],
            "n deals (rounds / lone / matches)": [
                f"{fmt.count(r.n_round)} / {fmt.count(r.n_lone)} / {fmt.count(r.n_match)}" for r in c.itertuples()
            ],
            "relative skill [95%] (best / bound)": rel,
            "skill share, round [95%]": [_share(r, "share_round") for _, r in c.iterrows()],
            "skill share, match [95%]": [_share(r, "share_match") for _, r in c.iterrows()],
            "rounds until the best leads random [95%]": [_lead(r, "lead_round") for _, r in c.iterrows()],
            "matches until the best leads random [95%]": [_lead(r, "lead_match") for _, r in c.iterrows()],
        }
    )
    return TableBlock(
        "skill-measures",
        "Skill and luck per rule set and table size, from ladders on common deals: relative skill, the share of outcome "
        "variance due to skill, and the rounds and matches until the best player leads random with 90% chance",
        shown,
        c,
        note="Relative skill: the best player's Luce rating gain over random divided by the clairvoyant bound's (peek, "
        "the search that sees every hidden card: a bound, not a player); 95% Wald by the delta method, clustered by "
        "deal. Skill share: Var(true) = Var(observed) - Var(luck) over the round-robin policies' lone-vs-field win "
        "shares, over one round's (match's) outcome variance (Getty et al. 2018); 95% percentile bootstrap over deals. "
        "Leads: the fewest rounds (matches) decided between the two after which the best player has won more with 90% "
        "chance; heads-up every round, at more players the rounds won by one of the two; the rating gap's 95% interval "
        "mapped through the same count. Every deal is played once per seat rotation; n counts deals (the lone-only "
        "policies' tables play the first of them). docs/ladder.md.",
    )


def changes_table(m: LadderMeasures, baseline: str) -> TableBlock:
    """Each rule set's change of each measure against the baseline, paired on common deals, with verdicts."""
    ch = m.changes
    level = fmt.fixed(100 * ch["sim_level"].iloc[0], 2)
    shown = pd.DataFrame(
        {
            "players": ch["players"],
            "rules": ch["rules"],
            "measure": ch["measure"].map(MEASURES),
            "n deals": ch["n"].map(fmt.count),
            f"ratio to {baseline} [95%]": [f"x{r.ratio:.3f} [{r.ratio_low:.3f}, {r.ratio_high:.3f}]" for r in ch.itertuples()],
            f"simultaneous {level}%": [f"[{r.sim_low:.3f}, {r.sim_high:.3f}]" for r in ch.itertuples()],
            "verdict": [f"{r.verdict} (x1/{fmt.num(r.margin_ratio)} to x{fmt.num(r.margin_ratio)})" for r in ch.itertuples()],
            "p (Holm)": ch["p_holm"].map(fmt.pvalue),
        }
    )
    return TableBlock(
        "skill-measures-vs-baseline",
        f"Does a house rule change how much skill counts? Each rule set's measure over the {baseline} rules' on the same "
        "deals (paired deal by deal), with verdicts against the ratio margin",
        shown,
        ch,
        note=f"A ratio's interval is exp of the paired interval of the difference of logs, each measure linearised by "
        f"its per-deal influence (delta method; the leads through their normal approximation). Verdicts by "
        f"stats.classify on the simultaneous {level}% intervals (Bonferroni over the {len(ch)} rows, read together) "
        f"against x1/{fmt.num(m.margin_ratio)} to x{fmt.num(m.margin_ratio)}: larger, beyond the margin; negligible, "
        "a change within it; equivalent, no change beyond it; unsized, a change of undecided size; else undecided. "
        "p (Holm): the Holm-adjusted p-value of no change, over the same rows. A measure at or below 0 in either "
        "rule set (a skill share where luck explains all) has no ratio and no row.",
    )


def findings(m: LadderMeasures, baseline: str) -> str:
    """Sentences for the report: the range of each measure under the baseline, and how the changes fall."""
    base = m.cells[m.cells["rules"] == baseline]
    parts = []
    for _, r in base.iterrows():
        rel = (
            f"relative skill {r['relative_skill']:.3f} [{r['relative_skill_low']:.3f}, {r['relative_skill_high']:.3f}]; "
            if "relative_skill" in r and pd.notna(r["relative_skill"])
            else ""
        )
        parts.append(
            f"at {r['players']} players {rel}skill share {_share(r, 'share_round')} of a round and "
            f"{_share(r, 'share_match')} of a match"
        )
    text = f"Under the {baseline} rules, " + "; ".join(parts) + "."
    if m.changes.empty:
        return text
    ch = m.changes
    larger = ch["verdict"] == LARGER
    up, down = int((larger & (ch["ratio"] > 1)).sum()), int((larger & (ch["ratio"] < 1)).sum())
    within = int(ch["verdict"].isin(sorted(WITHIN_MARGIN)).sum())
    moved = ", ".join(
        f"{r.rules} at {r.players} players ({MEASURES[r.measure]}, x{r.ratio:.2f})"
        for r in ch[larger].sort_values("ratio", key=lambda s: -np.abs(np.log(s))).head(4).itertuples()
    )
    return (
        text + f" Against {baseline} on the same deals, of {len(ch)} changes (rule set x table size x measure), {up} raise "
        f"a measure and {down} lower it beyond x1/{fmt.num(m.margin_ratio)} to x{fmt.num(m.margin_ratio)}, {within} stay "
        "within that margin, the rest are undecided at this size" + (f"; the largest: {moved}." if moved else ".")
    )
