"""The skill gap under each house rule: one better player against a field, seats rotated (for the house-rules report).

One ``options["skill_player"]`` sits at a table whose other seats play
``options["skill_field"]``; every deal is played once per seat rotation, so
seat effects cancel (:func:`~unocli.analysis.skill.table_arm` and
:func:`~unocli.analysis.skill.play_cell`). The gap is the player's win share
minus the fair share, with a t interval over deals; a house rule's change of
the gap is the paired difference over the same deals against the baseline
rules, judged on simultaneous intervals against ``margins["win_share_pp"]``.
Arms that only change a policy knob (``policy = "basic:swap_target=fewest"``)
are left out: the skill table seats its own policies, so they would repeat
their rule's row.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from unocli.analysis.skill import Plan, Runner, play_cell, table_arm
from unocli.analysis.verdicts import judged
from unocli.study.stats import paired_diff


def gap_rules(exp: Plan) -> list[str]:
    """The arms the skill gap is measured for: those whose policy carries no knob change of its own."""
    return [a.name for a in exp.arms if ":" not in a.table.policy]


def skill_gaps(exp: Plan, ctx: Runner, base: str) -> pd.DataFrame:
    """Per table size and rule: the player's gap with its 95% interval, and the change from ``base`` with a verdict.

    Columns: players, rule, player, field, n (deals), games (deals x
    rotations), gap, gap_low, gap_high; for rules other than ``base``
    d_gap, d_low, d_high (paired 95%), sim_low, sim_high, sim_level,
    verdict (judged over every rule and size together).
    """
    player, field, games = exp.options["skill_player"], exp.options["skill_field"], exp.options["skill_games"]
    rows: list[dict[str, Any]] = []
    diffs, changed = [], []
    for p in exp.players:
        ctx.log(f"{exp.name}: skill gap, {p} players, {player} against {field}: {len(gap_rules(exp))} rule sets")
        cells = {name: play_cell(exp, ctx, table_arm(exp, name, p, player, field), games, False) for name in gap_rules(exp)}
        for name, c in cells.items():
            row = {"players": p, "rule": name, "player": player, "field": field, "n": c.gap.n, "games": c.acc.games}
            row |= {"gap": c.gap.mean, "gap_low": c.gap.low, "gap_high": c.gap.high}
            if name != base:
                d = paired_diff(c.per_deal, cells[base].per_deal)
                row |= {"d_gap": d.diff, "d_low": d.low, "d_high": d.high}
                diffs.append(d)
                changed.append(len(rows))
            rows.append(row)
    for i, v in zip(changed, judged(diffs, exp.margins["win_share_pp"], scale=100.0), strict=True):
        rows[i] |= {"sim_low": v["sim_low"] / 100, "sim_high": v["sim_high"] / 100, "sim_level": v["sim_level"]}
        rows[i]["verdict"] = v["verdict"]
    return pd.DataFrame(rows)
