"""Skill and luck per rule set and table size, from ladders played on common deals (docs/ladder.md).

For every rule set and table size, a ladder of ``options["ladder_policies"]``
(the round robin: every ordered pair one policy against a field of another,
and mixed tables) plus ``options["ladder_lone"]`` (costly searchers and the
clairvoyant bound ``peek``, each only as the lone player against a field of
every round-robin policy, on the first ``ladder_lone_games`` deals), and the
round robin again as matches. Three measures, each with a 95% interval
clustered by deal:

- *relative skill*: the best player's rating gain over ``random`` divided by
  the bound's (Wald, delta method from the cluster-robust covariance);
- *skill share* of one round's and of one match's outcome variance (Getty et
  al. 2018; percentile bootstrap over deals);
- *rounds and matches until the best player leads ``random``* with 90% chance
  (the rating gap's interval mapped through the binomial count).

Every rule set plays the same deals, so a rule set's change of a measure
against the baseline is paired deal by deal through each measure's per-deal
influence (``ladder_skill.Linear``), taken as a ratio (a difference of logs),
and judged by ``stats.classify`` against the ratio margin
``options["ladder_margin_ratio"]`` on Bonferroni intervals over the whole
table of changes (Holm-adjusted p-values beside).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from unocli.analysis.skill import Plan, Runner
from unocli.study.arm import expand_spec, parse_policy, template_name
from unocli.study.ladder import LONE, fit, plan_lone_tables, play_ladder, play_tables
from unocli.study.ladder_skill import (
    Linear,
    best_player,
    lead_linear,
    lead_probability,
    paired_change,
    relative_skill,
    rounds_to_lead,
    skill_share,
    skill_share_linear,
)
from unocli.study.stats import Z95, Difference, equivalence, holm

#: The measures, by key, in the order of the changes table.
MEASURES = ("relative_skill", "share_round", "share_match", "lead_round", "lead_match")


@dataclass(frozen=True)
class LadderMeasures:
    """``cells``: one row per (players, rules) with each measure's ``{key}``, ``{key}_low``, ``{key}_high``, the
    players it names and the deals; ``changes``: one row per (players, rules other than the baseline, measure)."""

    cells: pd.DataFrame
    changes: pd.DataFrame
    margin_ratio: float


def policies(exp: Plan, arm: str, players: int) -> tuple[list[Any], list[str], list[Any], list[str]]:
    """The round-robin and the lone policies of one cell, with their names (templates without placeholders)."""
    from unocli.game.policies import parse_policy_spec

    table = next(a for a in exp.arms if a.name == arm).table
    robin = [expand_spec(s, table.rules, players, table.policies) for s in exp.options["ladder_policies"]]
    lone = list(exp.options["ladder_lone"])  # search players: no templates
    extra = table.policies.policies if table.policies else None
    return (
        [parse_policy(s, table.policies) for s in robin],
        [template_name(s) for s in exp.options["ladder_policies"]],
        [parse_policy_spec(s, extra) for s in lone],
        [template_name(s) for s in exp.options["ladder_lone"]],
    )


def _cell(exp: Plan, ctx: Runner, arm: str, players: int) -> tuple[dict[str, Any], dict[str, Linear]]:
    """Play one cell's ladders and measure: the row of the cells table and each measure's linearised estimate."""
    from unocli.game.policies import SearchMode

    opts = exp.options
    table = next(a for a in exp.arms if a.name == arm).table
    rules = table.build(name=arm, players=players).rules
    robin, names, lone, lone_names = policies(exp, arm, players)
    tables = plan_lone_tables(len(robin), len(lone), players)
    deals = [opts["ladder_games"] if t.kind != LONE else opts["ladder_lone_games"] for t in tables]
    ctx.log(f"{exp.name}: ladder, {arm} rules at {players} players: {len(tables)} tables")
    everyone = [*robin, *lone]
    data = play_tables(
        rules, everyone, [*names, *lone_names], tables, deals, seed=exp.seed, backend=ctx.backend, threads=ctx.threads
    )
    result = fit(data)
    ctx.log(f"{exp.name}: ladder, {arm} rules at {players} players: matches")
    mdata = play_ladder(
        rules, robin, names, games=opts["ladder_match_games"], seed=exp.seed, match=True, backend=ctx.backend, threads=ctx.threads
    )
    mresult = fit(mdata)
    bounds = [i for i, p in enumerate(everyone) if p.search is SearchMode.PEEK]
    row: dict[str, Any] = {"players": players, "rules": arm, "n_round": data.deals, "n_match": mdata.deals}
    row["n_lone"] = opts["ladder_lone_games"] if lone else 0
    lin: dict[str, Linear] = {}
    if bounds:
        rel = relative_skill(data, result, bounds[0], bounds)
        lin["relative_skill"] = rel
        low, high = rel.interval()
        row |= {"relative_skill": rel.value, "relative_skill_low": low, "relative_skill_high": high}
        row |= {"best": result.names[best_player(result, bounds)], "bound": result.names[bounds[0]]}
    for level, d, r in (("round", data, result), ("match", mdata, mresult)):
        boot = skill_share(d, seed=exp.seed)
        lin[f"share_{level}"] = skill_share_linear(d)
        row |= {
            f"share_{level}": boot["skill_share"],
            f"share_{level}_low": boot["skill_low"],
            f"share_{level}_high": boot["skill_high"],
        }
        best = best_player(r, bounds if level == "round" else ())
        lead = lead_linear(d, r, best, r.anchor)
        lin[f"lead_{level}"] = lead
        gap, se = float(r.ratings[best] - r.ratings[r.anchor]), r.diff_se(best, r.anchor)
        row |= {
            f"lead_{level}": lead.value,
            f"lead_{level}_low": rounds_to_lead(lead_probability(gap + Z95 * se)),
            f"lead_{level}_high": rounds_to_lead(lead_probability(gap - Z95 * se)),
            f"best_{level}": r.names[best],
        }
    return row, lin


def measure(exp: Plan, ctx: Runner, baseline: str) -> LadderMeasures:
    """Every cell's ladders and measures, and each rule set's paired change of each measure against ``baseline``."""
    rows, lins = [], {}
    names = [a.name for a in exp.arms]
    for p in exp.players:
        for arm in names:
            row, lin = _cell(exp, ctx, arm, p)
            rows.append(row)
            lins[(p, arm)] = lin
    margin = float(exp.options["ladder_margin_ratio"])
    return LadderMeasures(pd.DataFrame(rows), _changes(exp, lins, names, baseline, margin), margin)


def _changes(
    exp: Plan, lins: dict[tuple[int, str], dict[str, Linear]], names: list[str], baseline: str, margin: float
) -> pd.DataFrame:
    """Each (players, rule set, measure) against the baseline: a paired ratio with a Bonferroni interval over the table."""
    # a ratio needs both measures above 0 (a skill share can estimate at or below 0 where luck explains all)
    keys = [
        (p, name, m)
        for p in exp.players
        for name in names
        if name != baseline
        for m in MEASURES
        if m in lins[(p, name)] and m in lins[(p, baseline)] and lins[(p, name)][m].value > 0 and lins[(p, baseline)][m].value > 0
    ]
    diffs = [paired_change(lins[(p, name)][m], lins[(p, baseline)][m], log=True) for p, name, m in keys]
    if not diffs:
        return pd.DataFrame()
    return ratio_table(keys, [d.n for d in diffs], diffs, margin)


def ratio_table(keys: list[tuple[int, str, str]], ns: list[int], diffs: list[Difference], margin: float) -> pd.DataFrame:
    """Rows of (players, rule set, measure) changes on the log scale as ratios: each with its interval, a Bonferroni
    interval over the table and an equivalence verdict against [1/margin, margin], and Holm-adjusted p-values."""
    judged = [equivalence(d, math.log(margin), family=len(diffs)) for d in diffs]
    p_holm, p_tost_holm = holm([d.p for d in diffs]), holm([e.p_tost for e in judged])
    rows = []
    for (p, name, m), n, d, e, ph, pt in zip(keys, ns, diffs, judged, p_holm, p_tost_holm, strict=True):
        rows.append(
            {
                "players": p,
                "rules": name,
                "measure": m,
                "n": n,
                "paired": not math.isnan(d.sd),
                "ratio": math.exp(d.diff),
                "ratio_low": math.exp(d.low),
                "ratio_high": math.exp(d.high),
                "sim_low": math.exp(e.low),
                "sim_high": math.exp(e.high),
                "sim_level": e.level,
                "margin_ratio": margin,
                "verdict": e.verdict,
                "p": d.p,
                "p_holm": float(ph),
                "p_tost_holm": float(pt),
            }
        )
    return pd.DataFrame(rows)
