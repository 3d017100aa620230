"""When does a +4 bluff pay, situation by situation, under several fields of players (docs/rules.md §13).

Three studies, each played on common deals under every field (every seat the field's policy):

- **situations**: seat 0 bluffs (``bluff = 1``) only when the next player holds
  a given number of cards and it holds a given number itself (the +4
  included), against one set of opponents per challenge policy; its gain is
  its win share minus its honest twin's (``bluff = 0``) on the same deals.
  Verdicts read simultaneous intervals over the whole table against the
  experiment's win-share margin. Whether a gain differs between two fields is
  the *interaction* (:mod:`unocli.study.interaction`: the difference of the
  two fields' paired differences, deal by deal), judged as one family.
- **deviations**: one player at a time changes its policy while every other
  seat keeps the field's: a bluffer at each seat, and each seat alone
  challenging a bluffing seat 0; every seat's win-share change says who pays.
- **best responses**: every seat in turn switches to the strategy of a small
  knob space (bluff situation x challenge policy) that beats its current one
  on fresh deals, until no seat switches for a whole round. That is a
  best-response fixed point over the knobs searched, at the sample size used,
  not a Nash equilibrium of Uno.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from unocli.analysis.bluff_play import ANY, CHALLENGE_RESET, CHALLENGERS, NEXT_BANDS, OWN_BANDS, Play, challenging, run
from unocli.analysis.verdicts import add_verdicts
from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.study.arm import Arm
from unocli.study.compare import Comparison
from unocli.study.interaction import FieldInteraction, interaction, judge_family
from unocli.study.stats import t_quantile

# The knob space of the best-response search: bluff situations x challenge policies.
BLUFF_STRATEGIES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("honest", {"bluff": 0.0}),
    ("bluff if next holds 1", {"bluff": 1.0, "bluff_next_max": 1}),
    ("bluff always", {"bluff": 1.0}),
)
CHALLENGE_STRATEGIES = tuple((name, knobs) for name, knobs in CHALLENGERS if name != "0.5")
# (description, strategy name every seat starts from)
START_POINTS: tuple[tuple[str, str], ...] = (
    ("everyone honest, challenging one in four", "honest / 0.25"),
    ("everyone bluffs always and never challenges", "bluff always / never"),
)
QUANTITIES = ("bluffs", "challenges_won")
MIN_BLUFFS = 100  # bluffs in a cell below which its per-bluff gain is not shown (the ratio's interval is meaningless)


def strategies() -> list[tuple[str, dict[str, Any]]]:
    """The best-response knob space: every bluff situation with every challenge policy."""
    return [(f"{b} / {c}", {**bk, **ck}) for b, bk in BLUFF_STRATEGIES for c, ck in CHALLENGE_STRATEGIES]


@dataclass(frozen=True)
class Sizes:
    """Deals per arm of the situation table, of the deviations and of each best-response turn; its rounds."""

    situations: int
    deviations: int
    turn: int
    rounds: int


@dataclass(frozen=True)
class SituationResult:
    """The three studies' tables, each with a ``field`` column (the policy every seat plays).

    ``situations``: one row per field x challenge policy x next player's hand
    x own hand (``any`` pools a band; next ``any`` with own ``any`` bluffs at
    every chance), with ``gain_pp`` and its paired 95% interval, ``n`` deals,
    the simultaneous interval (over the whole table, every field) and
    verdict, bluffs and caught bluffs per game and the gain per bluff with a
    block-bootstrap interval; ``opponents`` is the policy the opponents played.
    ``between``: the interactions of the pooled cells (own hand ``any``)
    between every pair of fields, one family, in pp. ``deviations``: per field
    and one-player change, every seat's win-share change. ``iterations``: the
    best-response search, one row per field and seat's turn; ``fixed_points``
    where each start point ended.
    """

    players: int
    fields: tuple[str, ...]
    sizes: Sizes
    margin_pp: float
    games: int
    situations: pd.DataFrame
    between: pd.DataFrame
    deviations: pd.DataFrame
    iterations: pd.DataFrame
    fixed_points: pd.DataFrame


def play_situations(
    play: Play, rules: Rules, fields: Sequence[tuple[str, Policy]], sizes: Sizes, replicates: int, margin_pp: float
) -> SituationResult:
    """Play the situation table, the one-player deviations and the best-response search under every field."""
    sit: list[dict[str, Any]] = []
    dev: list[dict[str, Any]] = []
    sit_diffs: list[Any] = []
    dev_diffs: list[Any] = []
    its, ends = [], []
    comps: dict[tuple[str, str], Comparison] = {}
    played = 0
    for name, policy in fields:
        field = policy.replace(bluff=0.0)
        rows, diffs, by_challenger = _situations(play, rules, name, field, sizes.situations, replicates)
        sit, sit_diffs = sit + rows, sit_diffs + diffs
        comps |= {(name, ch): comp for ch, comp in by_challenger.items()}
        rows, diffs = _deviations(play, rules, name, field, sizes.deviations)
        dev, dev_diffs = dev + rows, dev_diffs + diffs
        played += sizes.situations * len(CHALLENGERS) * (len(situation_cells()) + 1)
        played += sizes.deviations * len(deviation_arms(rules, field)[0])
        iterations, fixed, eq_played = _best_responses(play, rules, name, field, sizes)
        its.append(iterations)
        ends.append(fixed)
        played += eq_played
    names = tuple(name for name, _ in fields)
    return SituationResult(
        players=rules.players,
        fields=names,
        sizes=sizes,
        margin_pp=margin_pp,
        games=played,
        situations=_situation_table(sit, sit_diffs, margin_pp),
        between=field_interactions(comps, names, margin_pp),
        deviations=_deviation_table(dev, dev_diffs, margin_pp),
        iterations=pd.concat(its, ignore_index=True),
        fixed_points=pd.concat(ends, ignore_index=True),
    )


# ---------------------------------------------------------------- 1. gain by situation


def situation_cells() -> list[tuple[str, str, dict[str, int]]]:
    """(next band, own band, knobs) of every situation, then bluffing at every chance (``any``, ``any``)."""
    cells = [
        (nb, ob, {"bluff_next_min": nlo, "bluff_next_max": nhi, "bluff_own_min": olo, "bluff_own_max": ohi})
        for nb, nlo, nhi in NEXT_BANDS
        for ob, olo, ohi in OWN_BANDS
    ]
    return [*cells, (ANY, ANY, {})]


def arm_name(next_band: str, own_band: str) -> str:
    return f"next={next_band},own={own_band}"


def opponents_text(field: str, field_policy: Policy, knobs: dict[str, Any]) -> str:
    """The opponents' policy as a spec: the field's, with the knobs that differ from it."""
    opp = challenging(field_policy, knobs)
    changed = [f"{k}={getattr(opp, k)}" for k in ("respond", *knobs) if getattr(opp, k) != getattr(field_policy, k)]
    return field + (":" + ",".join(changed) if changed else "")


def _situations(
    play: Play, rules: Rules, name: str, field: Policy, games: int, replicates: int
) -> tuple[list[dict[str, Any]], list[Any], dict[str, Comparison]]:
    """One comparison per challenge policy: the honest twin and one bluffer per situation, on the same deals."""
    n = rules.players
    cells = situation_cells()
    rows, diffs, comps = [], [], {}
    for ch, knobs in CHALLENGERS:
        opp = challenging(field, knobs)
        arms = [Arm("honest", rules, (field, *(opp,) * (n - 1)))]
        arms += [Arm(arm_name(nb, ob), rules, (field.replace(bluff=1.0, **kn), *(opp,) * (n - 1))) for nb, ob, kn in cells]
        pairs = [(a.name, "honest") for a in arms[1:]]
        label = f"situations, field {name}, {ch}"
        comp = run(play, arms, games=games, quantities=("win_0", *QUANTITIES), pairs=pairs, metric="win_0", label=label)
        comps[ch] = comp
        means = comp.means()
        boot = comp.boot_means(replicates, seed=play.seed % (2**32))
        w, b, c = (comp.quantities.index(q) for q in ("win_0", *QUANTITIES))
        for k, (nb, ob, _) in enumerate(cells, start=1):
            d = comp.diff(arms[k].name, "honest", "win_0")
            diffs.append(d)
            bluffs = means[k, b]
            per, half = math.nan, math.nan
            if bluffs * comp.games >= MIN_BLUFFS:
                # a normal interval with the block-bootstrap standard error of the ratio: the denominator is far
                # from 0 here, and unlike a percentile interval it is centred on the point
                with np.errstate(invalid="ignore", divide="ignore"):
                    reps = (boot[:, k, w] - boot[:, 0, w]) / boot[:, k, b]
                per, half = 100 * d.diff / bluffs, 100 * 1.96 * float(np.nanstd(reps, ddof=1))
            rows.append(
                {"field": name, "challenge_policy": ch, "next_hand": nb, "own_hand": ob, "n": d.n}
                | {"gain_pp": 100 * d.diff, "ci_low": 100 * d.low, "ci_high": 100 * d.high, "p": d.p}
                | {"bluffs_per_game": bluffs, "caught_per_game": means[k, c]}
                | {"gain_per_bluff_pp": per, "per_bluff_low": per - half, "per_bluff_high": per + half}
                | {"opponents": opponents_text(name, field, knobs)}
            )
    return rows, diffs, comps


def _situation_table(rows: list[dict[str, Any]], diffs: list[Any], margin_pp: float) -> pd.DataFrame:
    """The rows with simultaneous intervals and verdicts over the whole table (every field at once)."""
    table = pd.DataFrame(rows)
    add_verdicts(table, diffs, "gain", margin_pp, scale=100)
    table["gain_sim_low"] *= 100
    table["gain_sim_high"] *= 100
    # each interval right after its point (the simultaneous one after the per-cell one), then the verdict
    first = ["field", "challenge_policy", "next_hand", "own_hand", "n", "gain_pp", "ci_low", "ci_high", "p"]
    first += ["gain_sim_low", "gain_sim_high", "sim_level", "gain_verdict", "gain_p_tost"]
    return table[first + [c for c in table.columns if c not in first]]


def field_interactions(comps: dict[tuple[str, str], Comparison], fields: Sequence[str], margin_pp: float) -> pd.DataFrame:
    """Each pooled situation's gain (own hand ``any``, and bluffing at every chance) under one field minus under
    another, per challenge policy: every pair of fields, one family judged at +-``margin_pp`` (in pp)."""
    pooled = [(nb, ANY) for nb, _, _ in NEXT_BANDS] + [(ANY, ANY)]
    found = [
        ((ch, nb, ob), a, b, interaction(comps[(a, ch)], comps[(b, ch)], arm_name(nb, ob), "honest", "win_0"))
        for a, b in combinations(fields, 2)
        for ch, _ in CHALLENGERS
        for nb, ob in pooled
    ]
    return interactions_frame(judge_family(found, margin_pp / 100), ("challenge_policy", "next_hand", "own_hand"))


def interactions_frame(judged: Sequence[FieldInteraction], keys: Sequence[str]) -> pd.DataFrame:
    """One row per judged interaction (the key's parts as ``keys``), its figures in pp."""
    return pd.DataFrame(
        [
            dict(zip(keys, i.key, strict=True))
            | {"field_a": i.field_a, "field_b": i.field_b, "interaction_pp": 100 * i.diff}
            | {"sim_low": 100 * i.low, "sim_high": 100 * i.high, "sim_level": i.level, "margin_pp": 100 * i.margin}
            | {"verdict": i.verdict, "n_blocks": i.n, "p": i.p, "p_holm": i.p_holm, "family": i.family}
            for i in judged
        ]
    )


# ---------------------------------------------------------------- 2. one-player deviations


def deviation_arms(rules: Rules, field: Policy) -> tuple[list[Arm], list[tuple[str, str, str, int]]]:
    """The arms, and the effects (description, arm, reference, seat who deviated) they measure.

    Each arm changes one seat's policy from the field's (every seat plays
    ``field``, honest), or one seat's on top of seat 0's bluffing. A change
    that leaves the seat's policy as it was (a field that never challenges,
    asked to never challenge) is left out: it would report an exact zero.
    """
    n = rules.players
    base = (field,) * n

    def seat(pols: tuple[Policy, ...], s: int, **knobs: Any) -> tuple[Policy, ...]:
        return tuple((challenging(p, knobs) if i == s else p) for i, p in enumerate(pols))

    arms = [Arm("field", rules, base)]
    effects = []
    for s in range(n):
        arms.append(Arm(f"bluff@{s}", rules, seat(base, s, bluff=1.0)))
        effects.append((f"seat {s} alone bluffs at every chance", f"bluff@{s}", "field", s))
    bluffing = seat(base, 0, bluff=1.0)  # arm bluff@0
    changes = [(f"seat {s} alone always challenges", s, {**CHALLENGE_RESET, "challenge": 1.0}) for s in range(1, n)]
    changes.append(("seat 1 alone never challenges", 1, CHALLENGE_RESET))
    for what, s, knobs in changes:
        pols = seat(bluffing, s, **knobs)
        if pols[s] == field:
            continue
        name = f"bluff@0,{what}"
        arms.append(Arm(name, rules, pols))
        effects.append((f"{what}, seat 0 bluffing", name, "bluff@0", s))
    return arms, effects


def role(seat: int) -> str:
    return "seat 0, the bluffer" if seat == 0 else ("seat 1, the bluffer's victim" if seat == 1 else f"seat {seat}")


def _deviations(play: Play, rules: Rules, name: str, field: Policy, games: int) -> tuple[list[dict[str, Any]], list[Any]]:
    """Every seat's win-share change from each one-player deviation."""
    n = rules.players
    arms, effects = deviation_arms(rules, field)
    pairs = [(arm, ref) for _, arm, ref, _ in effects]
    quantities = tuple(f"win_{s}" for s in range(n))
    label = f"one-player deviations, field {name}"
    comp = run(play, arms, games=games, quantities=quantities, pairs=pairs, metric="win_0", label=label)
    rows, diffs = [], []
    for what, arm, ref, mover in effects:
        for s in range(n):
            d = comp.diff(arm, ref, f"win_{s}")
            diffs.append(d)
            rows.append(
                {"field": name, "effect": what, "deviator": mover, "seat": s}
                | {"role": role(s) + (" (deviates)" if s == mover else ""), "n": d.n}
                | {"diff_pp": 100 * d.diff, "ci_low": 100 * d.low, "ci_high": 100 * d.high, "p": d.p}
            )
    return rows, diffs


def _deviation_table(rows: list[dict[str, Any]], diffs: list[Any], margin_pp: float) -> pd.DataFrame:
    table = pd.DataFrame(rows)
    add_verdicts(table, diffs, "win", margin_pp, scale=100)
    table["win_sim_low"] *= 100
    table["win_sim_high"] *= 100
    return table


# ---------------------------------------------------------------- 3. best responses


def _best_responses(play: Play, rules: Rules, name: str, field: Policy, sizes: Sizes) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    """Best-response iteration from every start point; one row per seat's turn, one per start point's end."""
    n, games = rules.players, sizes.turn
    space = strategies()
    rows, ends, played, step = [], [], 0, 0
    names = [s for s, _ in space]
    for start_name, start in START_POINTS:
        profile = [names.index(start)] * n
        fixed = False
        for rnd in range(1, sizes.rounds + 1):
            switched = False
            for s in range(n):
                arms = [
                    Arm(sname, rules, tuple(challenging(field, knobs if i == s else space[profile[i]][1]) for i in range(n)))
                    for sname, knobs in space
                ]
                current = space[profile[s]][0]
                pairs = [(a.name, current) for a in arms if a.name != current]
                # fresh deals for every turn, so a switch is not fitted to the deals that will judge the next one
                comp = run(
                    play,
                    arms,
                    games=games,
                    quantities=(f"win_{s}",),
                    pairs=pairs,
                    metric=f"win_{s}",
                    start=(1 + step) * games,
                    label=f"best response, field {name}, {start_name}, round {rnd}, seat {s}",
                )
                step, played = step + 1, played + games * len(arms)
                row, best = _turn(comp, space, profile[s], s)
                rows.append({"field": name, "start": start_name, "round": rnd, **row})
                if best != profile[s]:
                    profile[s], switched = best, True
            if not switched:
                fixed = True
                break
        ends.append(
            {"field": name, "start": start_name, "rounds": rnd, "fixed_point": fixed}
            | {f"seat_{s}": space[profile[s]][0] for s in range(n)}
        )
    return pd.DataFrame(rows), pd.DataFrame(ends), played


def _turn(comp: Comparison, space: list[tuple[str, dict[str, Any]]], current: int, seat: int) -> tuple[dict[str, Any], int]:
    """One seat's turn: the best strategy, and a switch only when its simultaneous interval (Bonferroni over
    the alternatives, 95% for the turn) against the current one lies above 0 (so the search does not chase noise)."""
    q = f"win_{seat}"
    means = comp.means()[:, comp.quantities.index(q)]
    best = int(np.argmax(means))
    name = space[current][0]
    alternatives = len(space) - 1
    if best == current:
        d_pp, low, high = 0.0, 0.0, 0.0
    else:
        d = comp.diff(space[best][0], name, q)
        half = t_quantile(1 - 0.05 / (2 * alternatives), d.df) * d.se if d.se > 0 else 0.0
        d_pp, low, high = 100 * d.diff, 100 * (d.diff - half), 100 * (d.diff + half)
    row = {"seat": seat, "current": name, "current_win_share": means[current], "best": space[best][0]}
    row |= {"best_win_share": means[best], "gain_pp": d_pp, "gain_low": low, "gain_high": high}
    row |= {"switches": low > 0, "n_deals": comp.games}
    return row, best if low > 0 else current
