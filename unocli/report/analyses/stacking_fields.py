"""The stacking report's fields and strategy: every variant under several fields of players.

A *field* is the policy every seat plays (``random``, ``basic``, an adapted
player). Per field, table size and variant: round length (two turn
definitions), cards drawn, the chance of drawing 8+ or 12+ cards at once as a
penalty (``max_draw``, docs/rules.md §9) and the comeback chance (the first
player left with one card does not win, ``first_to_one``). At the strategy
table sizes seat 0 also plays the adapted player and the reference player
(``basic``) among each field, on the same deals, which gives the rule x
strategy interaction: (adapted minus reference at seat 0) under a variant
minus the same under the baseline, with a paired interval over deals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from unocli.game.policies import parse_policy_spec
from unocli.report.analyses.common import Context, arm_diff, arm_mean, percentile_interval, run_compare
from unocli.report.analyses.fields import field_experiment, field_name
from unocli.report.experiment import Experiment
from unocli.study.arm import Arm, has_placeholders
from unocli.study.compare import Comparison
from unocli.study.stats import Difference, paired_t, welch, wilson

ADAPTED = "adapted"  # a field named so plays the experiment's ``adapted`` option
DRAW_AT_ONCE = (8, 12)  # P(max_draw >= k)
SEAT0 = ("adapted", "reference")  # the two players compared at seat 0
QUANTITIES = ("turns", "skips", "cards_drawn", "max_stack", "max_draw", "won", "stuck", "capped", "win_first", "win_dealer")


def field_spec(field: str, opt: dict[str, Any]) -> str:
    """The policy spec of a field: the ``adapted`` option for the field named ``adapted``."""
    return str(opt["adapted"]) if field == ADAPTED else field


def seat0_name(variant: str, field: str, who: str, opt: dict[str, Any]) -> str:
    """The arm in which seat 0 plays ``who`` (adapted or reference) among ``field``: the field arm itself when equal.

    A ``{rules}``/``{players}`` field is a player from the policies file, never the adapted or the reference preset.
    """
    spec = str(opt["adapted"] if who == "adapted" else opt["reference"])
    if not has_placeholders(field) and parse_policy_spec(spec) == parse_policy_spec(field_spec(field, opt)):
        return variant
    return f"{variant}+{who}"


def play_field(exp: Experiment, ctx: Context, p: int, field: str, base: str, name: str | None = None) -> Comparison:
    """Every variant with the whole table playing ``field``; at strategy sizes also seat 0 swapped, paired.

    A ``{rules}``/``{players}`` field seats each variant's own player (the
    variant's rules preset); ``name`` is the field's name in the log.
    """
    opt = exp.options
    if has_placeholders(field):
        arms = [Arm(a.name, a.rules, a.policies) for a in field_experiment(exp, field).arms_for(p)]
    else:
        policy = parse_policy_spec(field_spec(field, opt))
        arms = [Arm(a.name, a.rules, (policy,) * p) for a in exp.arms_for(p)]
    variants = [a.name for a in arms]
    pairs = [(v, base) for v in variants if v != base]
    if p in opt["versus_players"]:
        for a in list(arms):
            for who in SEAT0:
                name = seat0_name(a.name, field, who, opt)
                if name != a.name:
                    seat0 = parse_policy_spec(str(opt["adapted"] if who == "adapted" else opt["reference"]))
                    arms.append(Arm(name, a.rules, (seat0, *a.policies[1:])))
        for v in variants:  # every pair of the four arms an interaction contrast reads
            four = [seat0_name(x, field, who, opt) for x in (v, base) for who in SEAT0]
            pairs += [(a, b) for a, b in combinations(four, 2) if a != b and (a, b) not in pairs and (b, a) not in pairs]
    quantities = (*QUANTITIES, *(f"win_{s}" for s in range(p)))
    return run_compare(
        exp, ctx, arms, baseline=base, quantities=quantities, pairs=pairs, label=f"{p} players, field {name or field}"
    )


def contrast(comp: Comparison, coefs: dict[str, int], quantity: str) -> Difference:
    """The per-deal contrast sum_k c_k x_k (a 0/1 ``quantity`` over every deal) with a paired t interval.

    Its sum of squares comes from the arms' sums of squares and the recorded
    pairs' sums of squared differences: sum x_k x_l = (sum x_k^2 + sum x_l^2 -
    sum (x_k - x_l)^2) / 2, so every pair of the arms must have been recorded.
    """
    sums, j = comp.sums, comp.quantities.index(quantity)
    names = [n for n, c in coefs.items() if c != 0]
    idx = {n: comp.index(n) for n in names}
    total = sum(coefs[n] * int(sums.s1[idx[n], j]) for n in names)
    sq = {n: int(sums.s2[idx[n], j]) for n in names}
    total_sq = sum(coefs[n] ** 2 * sq[n] for n in names)
    for a, b in combinations(names, 2):
        ka, kb = idx[a], idx[b]
        pair = (ka, kb) if (ka, kb) in sums.pairs else (kb, ka)
        d2 = int(sums.d2[sums.pairs.index(pair), j])
        total_sq += coefs[a] * coefs[b] * (sq[a] + sq[b] - d2)  # 2 * c_a c_b * sum x_a x_b
    return paired_t(comp.games, total, total_sq)


def _level(successes: int, n: int, key: str) -> dict[str, Any]:
    w = wilson(successes, n)
    return {key: w.share, f"{key}_low": w.low, f"{key}_high": w.high}


def _diff(d: Difference, key: str) -> dict[str, Any]:
    return {key: d.diff, f"{key}_low": d.low, f"{key}_high": d.high, f"{key}_p": d.p}


def _comeback(comp: Comparison, name: str) -> tuple[int, int]:
    acc = comp.acc(name)
    return acc.one_lost, acc.one_reached


def field_rows(
    comp: Comparison, p: int, field: str, variants: Sequence[str], base: str, replicates: int, seed: int
) -> list[dict[str, Any]]:
    """One row per variant: levels with 95% intervals, and changes from ``base`` (paired where the deals pair)."""
    boot = comp.boot_means(replicates, seed=seed % (2**32) + 7 * p)
    q = comp.quantities
    long = boot[:, :, q.index("turns")] + boot[:, :, q.index("skips")]  # turns counting skipped players
    means = comp.means()
    kb = comp.index(base)
    rows = []
    for v in variants:
        k, acc = comp.index(v), comp.acc(v)
        t = arm_mean(comp, v, "turns")
        d = arm_mean(comp, v, "cards_drawn")
        lost, reached = _comeback(comp, v)
        row: dict[str, Any] = {"players": p, "field": field, "stacking": v, "n": comp.games, "finished": acc.finished}
        row |= {"turns": t.mean, "turns_low": t.low, "turns_high": t.high}
        lo, hi = percentile_interval(long[:, k])
        row |= {"turns_skips": means[k, q.index("turns")] + means[k, q.index("skips")], "turns_skips_low": lo}
        row |= {"turns_skips_high": hi, "cards_drawn": d.mean, "cards_drawn_low": d.low, "cards_drawn_high": d.high}
        for at in DRAW_AT_ONCE:
            row |= _level(int(acc.penalty_hist[at:].sum()), int(acc.penalty_hist.sum()), f"p_draw_{at}")
        row |= {"one_reached": reached} | _level(lost, reached, "comeback")
        if v != base:
            row |= _changes(comp, v, base, long[:, k] - long[:, kb], means[k] - means[kb])
        rows.append(row)
    return rows


def _changes(comp: Comparison, v: str, base: str, boot_long: np.ndarray, dmeans: np.ndarray) -> dict[str, Any]:
    """Changes from ``base``: paired t for turns and cards drawn, bootstrap for turns + skips, Welch for comebacks."""
    q = comp.quantities
    out = _diff(arm_diff(comp, v, base, "turns"), "d_turns") | _diff(arm_diff(comp, v, base, "cards_drawn"), "d_cards_drawn")
    lo, hi = percentile_interval(boot_long)
    out |= {"d_turns_skips": dmeans[q.index("turns")] + dmeans[q.index("skips")]}
    out |= {"d_turns_skips_low": lo, "d_turns_skips_high": hi}
    (la, na), (lb, nb) = _comeback(comp, v), _comeback(comp, base)
    pa, pb = la / max(na, 1), lb / max(nb, 1)
    # Comebacks are conditional on someone reaching one card, so the two shares do not pair deal by deal:
    # Welch's interval treats them as independent (conservative when the deals correlate them positively).
    w = welch(pa, math.sqrt(pa * (1 - pa)), na, pb, math.sqrt(pb * (1 - pb)), nb)
    return out | _diff(w, "d_comeback")


def strategy_rows(comp: Comparison, p: int, field: str, variants: Sequence[str], base: str, opt: dict[str, Any]) -> list:
    """Per variant: adapted minus reference at seat 0 (paired), the interaction against ``base``, the skill gap.

    ``field`` is the field's spec; the rows name it as reports do (:func:`~unocli.report.analyses.fields.field_name`).
    """
    rows = []
    b_a, b_r = (seat0_name(base, field, who, opt) for who in SEAT0)
    for v in variants:
        v_a, v_r = (seat0_name(v, field, who, opt) for who in SEAT0)
        row: dict[str, Any] = {"players": p, "field": field_name(field), "stacking": v, "n": comp.games}
        row |= _diff(arm_diff(comp, v_a, v_r, "win_0"), "edge")
        share = arm_mean(comp, v_a, "win_0")
        row |= {"gap": share.mean - 1 / p, "gap_low": share.low - 1 / p, "gap_high": share.high - 1 / p}
        if v != base:
            row |= _diff(contrast(comp, {v_a: 1, v_r: -1, b_a: -1, b_r: 1}, "win_0"), "interaction")
        else:
            row |= {"interaction": math.nan, "interaction_low": math.nan, "interaction_high": math.nan}
            row["interaction_p"] = math.nan
        rows.append(row)
    return rows


@dataclass(frozen=True)
class StackingResult:
    """Every variant's levels, paired effects, penalty chains, and its effects under each field and on strategy.

    ``table``: one row per (players, stacking): n, turns, first_player_share
    (first_low/high) and balance with intervals; for variants also the paired
    changes d_turns, d_cards_drawn, d_win_first (intervals, p-values p_*) and
    d_balance. ``effects``: the variants' rows with p_*_holm adjusted over all
    of them. ``stacks``: the longest chain per round (mean_max_stack,
    p_at_least_2..4, share_k, longest_seen); these under the main field.
    ``fields``: per (players, field, stacking) the levels and changes of
    stacking_fields.field_rows. ``strategy``: per (players, field, stacking)
    the adapted player's edge over the reference at seat 0, its skill gap and
    the interaction (empty when not played). ``stack_hists``: each
    (players, stacking)'s histogram of the longest chain, main field.
    """

    exp: Experiment
    names: tuple[str, ...]
    base: str
    table: pd.DataFrame
    effects: pd.DataFrame
    stacks: pd.DataFrame
    fields: pd.DataFrame
    strategy: pd.DataFrame
    main_field: str
    stack_hists: dict[tuple[int, str], np.ndarray]
    rounds: dict[int, int]
    fair: dict[int, float]
    games: int

    @property
    def variants(self) -> list[str]:
        return [n for n in self.names if n != self.base]

    @property
    def field_names(self) -> list[str]:
        """The fields as reports name them (a template without its placeholders)."""
        return [field_name(str(f)) for f in self.exp.options["fields"]]
