"""When does a +4 bluff pay, situation by situation (docs/rules.md §13 situational knobs).

Three studies on top of the bluff grid of :mod:`unocli.report.analyses.bluff`,
each played with :func:`~unocli.report.analyses.common.run_compare` on common deals:

- **situations**: seat 0 bluffs (``bluff = 1``) only when the next player holds
  a given number of cards and it holds a given number itself (the +4
  included), against one field of opponents per challenge policy; its gain is
  its win share minus its honest twin's (``bluff = 0``) on the same deals.
  Verdicts come from simultaneous intervals over the whole table and an
  equivalence test (TOST) against the experiment's win-share margin.
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
from typing import Any

import numpy as np
import pandas as pd

from unocli.game.policies import Policy
from unocli.report import fmt
from unocli.report.analyses.bluff_fields import (
    CHALLENGE_RESET,
    challenging,
    field_scope,
    flip_findings,
    flips,
    gain_panels,
    own_challenge,
    uniform_note,
    verdicts_by_field,
)
from unocli.report.analyses.common import Context, add_verdicts, arm_diff, change_word, run_compare
from unocli.report.experiment import Experiment
from unocli.report.model import Block, Chart, TableBlock
from unocli.study.arm import Arm
from unocli.study.stats import t_quantile

BIG = 108  # the knobs' upper bound: "no limit"
# The next player's hand size and the bluffer's own (the +4 included; 1 is the +4 alone, never a bluff).
NEXT_BANDS: tuple[tuple[str, int, int], ...] = (("1", 1, 1), ("2", 2, 2), ("3", 3, 3), ("4", 4, 4), ("5+", 5, BIG))
OWN_BANDS: tuple[tuple[str, int, int], ...] = (("2-3", 2, 3), ("4-6", 4, 6), ("7+", 7, BIG), ("any", 1, BIG))
ANY = "any"
# The opponents' challenge policies (knobs on top of the field's policy; every challenge knob set, so a field's own
# informed rules never leak into them; see bluff_fields.challenging for a field that responds uniformly).
CHALLENGERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("never", CHALLENGE_RESET),
    ("0.25", {**CHALLENGE_RESET, "challenge": 0.25}),
    ("0.5", {**CHALLENGE_RESET, "challenge": 0.5}),
    ("always", {**CHALLENGE_RESET, "challenge": 1.0}),
    ("informed", {**CHALLENGE_RESET, "challenge": 0.25, "challenge_if_own_colour": True, "trust_if_lacked": True}),
)
INFORMED_TEXT = (
    "informed = challenges when the +4's player last showed the colour under it, trusts when that player "
    "was seen lacking it, otherwise challenges one in four"
)
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
class SituationResult:
    """The three studies' tables, each with a ``field`` column (the policy every seat plays).

    ``situations``: one row per field x challenge policy x next player's hand
    x own hand (``any`` pools a band; next ``any`` with own ``any`` bluffs at
    every chance), with ``gain_pp`` and its paired 95% interval
    ``ci_low``/``ci_high``, ``n`` deals, the simultaneous interval (over the
    whole table, every field) and verdict, bluffs and caught bluffs per game
    and the gain per bluff with a bootstrap interval; ``opponents`` is the
    policy the opponents played.
    ``deviations``: per field and one-player change, every seat's win-share
    change (simultaneous intervals over the whole table).
    ``iterations``: the best-response search, one row per field and seat's turn.
    ``own``: per field, what its own policy does facing a +4, in words.
    """

    players: int
    fields: tuple[str, ...]
    own: dict[str, str]
    games: int
    situation_games: dict[str, int]
    deviation_games: int
    eq_games: int
    margin_pp: float
    situations: pd.DataFrame
    deviations: pd.DataFrame
    iterations: pd.DataFrame
    fixed_points: pd.DataFrame
    note: str = ""


def option_games(exp: Experiment, key: str) -> int:
    """A game count from the options, or the experiment's ``games`` when unset (0)."""
    value = int(exp.options.get(key) or 0)
    return value if value > 0 else exp.games


def field_games(exp: Experiment, field: str) -> int:
    """Deals per arm of the situation table under ``field``: ``situation_games``, or ``extra_field_games`` (when set)
    for every field after the first (the first keeps the report's sample-size finding)."""
    extra = int(exp.options.get("extra_field_games") or 0)
    first = str(exp.options["fields"][0])
    return extra if extra > 0 and field != first else option_games(exp, "situation_games")


def compute(exp: Experiment, ctx: Context, fields: Sequence[tuple[str, Policy]]) -> SituationResult:
    """Play the situation table, the one-player deviations and the best-response search under every field."""
    n = exp.players[0]
    rules = exp.base.build(players=n).rules
    dg, eg = (option_games(exp, k) for k in ("deviation_games", "eq_games"))
    margin = float(exp.margins["win_share_pp"])
    sit, sit_diffs, dev, dev_diffs, its, ends = [], [], [], [], [], []
    played = 0
    for name, policy in fields:
        field = policy.replace(bluff=0.0)
        sg = field_games(exp, name)
        rows, diffs = _situations(exp, ctx, rules, name, field, sg)
        sit += rows
        sit_diffs += diffs
        rows, diffs = _deviations(exp, ctx, rules, name, field, dg)
        dev += rows
        dev_diffs += diffs
        played += sg * len(CHALLENGERS) * (len(situation_cells()) + 1) + dg * (len(deviation_arms(rules, field)[0]))
        iterations, fixed, eq_played = _best_responses(exp, ctx, rules, name, field, eg)
        its.append(iterations)
        ends.append(fixed)
        played += eq_played
    return SituationResult(
        players=n,
        fields=tuple(name for name, _ in fields),
        own={name: own_challenge(policy) for name, policy in fields},
        games=played,
        situation_games={name: field_games(exp, name) for name, _ in fields},
        deviation_games=dg,
        eq_games=eg,
        margin_pp=margin,
        situations=_situation_table(sit, sit_diffs, margin),
        deviations=_deviation_table(dev, dev_diffs, margin),
        iterations=pd.concat(its, ignore_index=True),
        fixed_points=pd.concat(ends, ignore_index=True),
        note=uniform_note(fields),
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


def opponents_text(field: str, field_policy: Policy, knobs: dict[str, Any]) -> str:
    """The opponents' policy as a spec: the field's, with the knobs that differ from it."""
    opp = challenging(field_policy, knobs)
    changed = [f"{k}={getattr(opp, k)}" for k in ("respond", *knobs) if getattr(opp, k) != getattr(field_policy, k)]
    return field + (":" + ",".join(changed) if changed else "")


def _situations(
    exp: Experiment, ctx: Context, rules: Any, name: str, field: Policy, games: int
) -> tuple[list[dict[str, Any]], list[Any]]:
    """One comparison per challenge policy: the honest twin and one bluffer per situation, on the same deals."""
    n = rules.players
    cells = situation_cells()
    rows, diffs = [], []
    for ch, knobs in CHALLENGERS:
        opp = challenging(field, knobs)
        arms = [Arm("honest", rules, (field, *(opp,) * (n - 1)))]
        arms += [Arm(f"next={nb},own={ob}", rules, (field.replace(bluff=1.0, **kn), *(opp,) * (n - 1))) for nb, ob, kn in cells]
        pairs = [(a.name, "honest") for a in arms[1:]]
        label = f"situations, field {name}, {ch}"
        comp = run_compare(
            exp, ctx, arms, games=games, quantities=("win_0", *QUANTITIES), pairs=pairs, metric="win_0", label=label
        )
        means = comp.means()
        boot = comp.boot_means(int(exp.options["replicates"]), seed=exp.seed % (2**32))
        w, b, c = (comp.quantities.index(q) for q in ("win_0", *QUANTITIES))
        for k, (nb, ob, _) in enumerate(cells, start=1):
            d = arm_diff(comp, arms[k].name, "honest", "win_0")
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
    return rows, diffs


def _situation_table(rows: list[dict[str, Any]], diffs: list[Any], margin: float) -> pd.DataFrame:
    """The rows with simultaneous intervals and verdicts over the whole table (every field at once)."""
    table = pd.DataFrame(rows)
    add_verdicts(table, diffs, "gain", margin, scale=100)
    table["gain_sim_low"] *= 100
    table["gain_sim_high"] *= 100
    table["verdict"] = [verdict_word(v, g) for v, g in zip(table["gain_verdict"], table["gain_pp"], strict=True)]
    # each interval right after its point (the simultaneous one after the per-cell one), then the verdicts
    first = ["field", "challenge_policy", "next_hand", "own_hand", "n", "gain_pp", "ci_low", "ci_high", "p"]
    first += ["gain_sim_low", "gain_sim_high", "sim_level", "verdict", "gain_verdict", "gain_p_tost"]
    return table[first + [c for c in table.columns if c not in first]]


def verdict_word(verdict: str, gain: float) -> str:
    """An equivalence verdict as the answer to "does the bluff pay?": "pays"/"loses" only beyond the margin."""
    return change_word(verdict, gain, "pays", "loses")


# ---------------------------------------------------------------- 3. one-player deviations


def deviation_arms(rules: Any, field: Policy) -> tuple[list[Arm], list[tuple[str, str, str, int]]]:
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


def _deviations(
    exp: Experiment, ctx: Context, rules: Any, name: str, field: Policy, games: int
) -> tuple[list[dict[str, Any]], list[Any]]:
    """Every seat's win-share change from each one-player deviation."""
    n = rules.players
    arms, effects = deviation_arms(rules, field)
    pairs = [(arm, ref) for _, arm, ref, _ in effects]
    quantities = tuple(f"win_{s}" for s in range(n))
    label = f"one-player deviations, field {name}"
    comp = run_compare(exp, ctx, arms, games=games, quantities=quantities, pairs=pairs, metric="win_0", label=label)
    rows, diffs = [], []
    for what, arm, ref, mover in effects:
        for s in range(n):
            d = arm_diff(comp, arm, ref, f"win_{s}")
            diffs.append(d)
            role = _role(s) + (" (deviates)" if s == mover else "")
            rows.append(
                {"field": name, "effect": what, "deviator": mover, "seat": s, "role": role, "n": d.n}
                | {"diff_pp": 100 * d.diff, "ci_low": 100 * d.low, "ci_high": 100 * d.high, "p": d.p}
            )
    return rows, diffs


def _deviation_table(rows: list[dict[str, Any]], diffs: list[Any], margin: float) -> pd.DataFrame:
    table = pd.DataFrame(rows)
    add_verdicts(table, diffs, "win", margin, scale=100)
    table["win_sim_low"] *= 100
    table["win_sim_high"] *= 100
    return table


def _role(seat: int) -> str:
    return "seat 0, the bluffer" if seat == 0 else ("seat 1, the bluffer's victim" if seat == 1 else f"seat {seat}")


# ---------------------------------------------------------------- 4. best responses


def _best_responses(
    exp: Experiment, ctx: Context, rules: Any, name: str, field: Policy, games: int
) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    """Best-response iteration from every start point; one row per seat's turn, one per start point's end."""
    n = rules.players
    space = strategies()
    rounds = int(exp.options.get("eq_rounds") or 3)
    rows, ends, played, step = [], [], 0, 0
    names = [s for s, _ in space]
    for start_name, start in START_POINTS:
        profile = [names.index(start)] * n
        fixed = False
        for rnd in range(1, rounds + 1):
            switched = False
            for s in range(n):
                arms = [
                    Arm(sname, rules, tuple(challenging(field, knobs if i == s else space[profile[i]][1]) for i in range(n)))
                    for sname, knobs in space
                ]
                current = space[profile[s]][0]
                pairs = [(a.name, current) for a in arms if a.name != current]
                # fresh deals for every turn, so a switch is not fitted to the deals that will judge the next one
                comp = run_compare(
                    exp,
                    ctx,
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


def _turn(comp: Any, space: list[tuple[str, dict[str, Any]]], current: int, seat: int) -> tuple[dict[str, Any], int]:
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
        d = arm_diff(comp, space[best][0], name, q)
        half = t_quantile(1 - 0.05 / (2 * alternatives), d.df) * d.se if d.se > 0 else 0.0
        d_pp, low, high = 100 * d.diff, 100 * (d.diff - half), 100 * (d.diff + half)
    switch = low > 0
    row = {
        "seat": seat,
        "current": name,
        "current_win_share": means[current],
        "best": space[best][0],
        "best_win_share": means[best],
        "gain_pp": d_pp,
        "gain_low": low,
        "gain_high": high,
        "switches": switch,
        "n_deals": comp.games,
    }
    return row, best if switch else current


# ---------------------------------------------------------------- render


def _pp(x: float, lo: float, hi: float, decimals: int | None = 2) -> str:
    """A gain already in points with its interval: ``+0.12 pp [-0.05, +0.29]``."""
    return fmt.pp_ci(x / 100, lo / 100, hi / 100, decimals)


def field_text(n: int, field: str) -> str:
    """The field a finding holds under."""
    return f"field `{field}` (seat 0 and opponents 1-{n - 1} play {field}; the opponents never bluff)"


def _level(t: pd.DataFrame) -> str:
    return fmt.fixed(100 * t["sim_level"].iloc[0], 2)


def _games_text(result: SituationResult) -> str:
    """Deals per cell: one number, or one per field when they differ."""
    g = result.situation_games
    if len(set(g.values())) == 1:
        return fmt.count(next(iter(g.values())))
    return ", ".join(f"{fmt.count(v)} under {f}" for f, v in g.items())


def answer(result: SituationResult, exp: Experiment) -> str:
    """The report's one-paragraph answer: where a bluff pays, under which fields and challenge policies."""
    t, m, fields = result.situations, fmt.num(result.margin_pp), list(result.fields)
    wide = verdicts_by_field(t, fields)
    idx = t.set_index(["field", "challenge_policy", "next_hand", "own_hand"])

    def every(ch: str) -> str:
        row = wide[(wide["challenge_policy"] == ch) & (wide["next_hand"] == ANY)].iloc[0]
        figs = "; ".join(f"{f} {_sim(idx.loc[(f, ch, ANY, ANY)])}" for f in fields)
        return f"{field_scope(row, fields)} ({figs})"

    pooled = t[(t["next_hand"] != ANY) & (t["own_hand"] == ANY)]
    pays = []
    for f in fields:
        sub = pooled[(pooled["field"] == f) & (pooled["verdict"] == "pays")]
        where = "; ".join(
            f"next holds {r.next_hand}, '{r.challenge_policy}' challengers: {_pp(r.gain_pp, r.gain_sim_low, r.gain_sim_high)}"
            for r in sub.itertuples()
        )
        pays.append(f"under `{f}` {'only when ' + where if where else 'in no situation'}")
    cells = t[(t["next_hand"] != ANY) & (t["own_hand"] != ANY)]
    counts = "; ".join(
        f"`{f}` " + ", ".join(f"{w} {int(((cells['field'] == f) & (cells['verdict'] == w)).sum())}" for w in VERDICTS)
        for f in fields
    )
    flipped = flips(t, fields)
    flip_text = (
        "The label 'pays' holds under some fields, not all (the fields' difference is not tested), at "
        + "; ".join(
            f"next holds {r['next_hand']}, against '{r['challenge_policy']}' challengers: {field_scope(r, fields)}"
            for _, r in flipped.iterrows()
        )
        if len(flipped)
        else "No situation is labelled 'pays' under some fields and not others"
    )
    victim = _victims(result)
    return (
        f"**Answer.** Every seat plays the same field (`{'`, `'.join(fields)}`); seat 0 bluffs, the opponents never do. "
        f"Bluffing a +4 at every chance, against opponents who never challenge: {every('never')}; against opponents "
        f"who always challenge: {every('always')}.{_uniform_pointer(result)} Confined to one situation (own hand "
        "pooled), a bluff pays "
        + "; ".join(pays)
        + f". {flip_text}. Over the {len(cells) // len(fields)} cells per field of next player's hand x own hand band x "
        f"challenge policy: {counts} (negligible and no change = within +/-{m} pp). Bluffs are rare in any one "
        "situation (at most "
        f"{fmt.fixed(cells['bluffs_per_game'].max(), 2)} per game in one cell), so their gains are small. The victim "
        f"(seat 1) gains by challenging every +4 alone against an always-bluffing seat 0: {victim}. Intervals are "
        f"simultaneous ({_level(t)}% over the whole situation table, every field; per bluff, 95% block bootstrap); "
        f"{result.players} players, n = {_games_text(result)} paired deals per cell."
    )


#: The verdict words of the situation table (:func:`verdict_word`), in the order the findings count them.
VERDICTS = ("pays", "loses", "a change of undecided size", "negligible", "no change", "undecided")


def _uniform_pointer(result: SituationResult) -> str:
    """For a field whose own policy ignores the challenge knobs (random): where the note explains it, or ''."""
    names = [f"`{f}`" for f, own in result.own.items() if "uniform" in own]
    if not names:
        return ""
    return (
        f" Under {' and '.join(names)} the opponents' challenge policy replaces random's own one-in-two coin "
        "(the note below says how)."
    )


def _sim(r: Any) -> str:
    return _pp(r["gain_pp"], r["gain_sim_low"], r["gain_sim_high"])


def _victims(result: SituationResult) -> str:
    d = result.deviations
    rows = d[(d["effect"] == "seat 1 alone always challenges, seat 0 bluffing") & (d["seat"] == 1)]
    return "; ".join(
        f"{_pp(r.diff_pp, r.win_sim_low, r.win_sim_high)} under {r.field}, where every other seat {result.own[r.field]}"
        for r in rows.itertuples()
    )


def gain_chart(result: SituationResult, exp: Experiment) -> Chart:
    """The headline: gain by the next player's hand size, one line per challenge policy, one panel per field."""
    return gain_panels(
        result.situations,
        exp,
        result.fields,
        [ch for ch, _ in CHALLENGERS],
        [b for b, _, _ in NEXT_BANDS],
        result.situation_games,
        INFORMED_TEXT,
    )


def situation_table(result: SituationResult) -> TableBlock:
    """The situation table: a pivot (field x situation x challenge policy) in Markdown, every figure in the CSV."""
    t = result.situations
    keys = ["field", "next_hand", "own_hand"]
    shown = t[keys].drop_duplicates().reset_index(drop=True)
    for ch, _ in CHALLENGERS:
        sub = t[t["challenge_policy"] == ch].reset_index(drop=True)
        shown[ch] = [f"{_pp(r.gain_pp, r.gain_sim_low, r.gain_sim_high)} {r.verdict}" for r in sub.itertuples()]
    shown = shown.rename(columns={"next_hand": "next holds", "own_hand": "own hand"})
    return TableBlock(
        "bluff-by-situation",
        f"Seat 0's win-share gain from bluffing only in a situation, by field and the opponents' challenge policy "
        f"(simultaneous {_level(t)}% intervals over the whole table, every field; verdict at "
        f"+/-{fmt.num(result.margin_pp)} pp)",
        shown,
        t,
        f"n = {_games_text(result)} paired deals per cell; next `any`, own `any` = bluffing at every chance; "
        f"{INFORMED_TEXT}. {result.note} Per-cell 95% intervals, bluffs and caught bluffs per game, the opponents' "
        f"exact policy and the gain per bluff (block bootstrap, shown where a cell saw at least {MIN_BLUFFS} bluffs) are "
        "in the CSV.",
    )


def situation_findings(result: SituationResult) -> list[str]:
    """Per field and challenge policy: how many situations get each verdict word (:data:`VERDICTS`); the sample size."""
    t, n = result.situations, result.players
    out = flip_findings(t, result.fields, [ch for ch, _ in CHALLENGERS])
    for f in result.fields:
        parts = []
        for ch, _ in CHALLENGERS:
            sub = t[(t["field"] == f) & (t["challenge_policy"] == ch) & (t["next_hand"] != ANY)]
            groups = []
            for word in VERDICTS:
                cells = sub[sub["verdict"] == word]
                names = ", ".join(f"{r.next_hand}/{r.own_hand}" for r in cells.itertuples())
                listed = names and word in ("pays", "negligible", "no change")
                groups.append(f"{word} {len(cells)}" + (f" ({names})" if listed else ""))
            parts.append(f"'{ch}': " + ", ".join(groups))
        out.append(
            f"Under {field_text(n, f)}, bluffing only in one situation (next holds / own hand), by challenge "
            "policy: " + "; ".join(parts) + "."
        )
    out.append(
        "Why a bluff can pay when the next player holds 1 card: an unchallenged +4 makes the victim take 4 cards and "
        "miss a turn (docs/rules.md §4), the very turn on which a player holding one card could go out, where the honest "
        "twin's card of the current colour leaves it that chance. A challenged bluff is caught (§5) and the bluffer "
        "takes the 4 instead, so the more the field challenges, the less any situation is worth."
    )
    out.append(_sample_size(result))
    return out


def _sample_size(result: SituationResult) -> str:
    t, m = result.situations, result.margin_pp
    parts = []
    for f, games in result.situation_games.items():
        cells = t[(t["next_hand"] != ANY) & (t["field"] == f)]
        half = float(((cells["gain_sim_high"] - cells["gain_sim_low"]) / 2).median())
        parts.append(
            f"under {f}, n = {fmt.count(games)} deals per cell give a median simultaneous half-width of "
            f"{fmt.fixed(half, 2)} pp (about {fmt.count(_needed(games, half, m))} deals would tell a gain from "
            f"+/-{fmt.num(m)} pp in every cell, {fmt.count(_needed(games, half, 0.05))} a 0.05 pp gain)"
        )
    return (
        "Sample size: "
        + "; ".join(parts)
        + ". Half-widths shrink as 1/sqrt(n). 'no change' and 'negligible' are equivalence verdicts (simultaneous interval "
        f"inside +/-{fmt.num(m)} pp, without and with 0 excluded), never the lack of a significant difference; 'pays' "
        "and 'loses' say the interval lies entirely beyond the margin."
    )


def _needed(games: int, half: float, target: float) -> int:
    return math.ceil(games * (half / target) ** 2) if target > 0 else 0


def deviation_table(result: SituationResult) -> TableBlock:
    d = result.deviations
    shown = pd.DataFrame(
        {
            "field": d["field"],
            "one-player deviation": d["effect"],
            "seat": d["role"],
            "n": d["n"].map(fmt.count),
            "win-share change [simultaneous CI]": [
                _pp(x, lo, hi) for x, lo, hi in zip(d["diff_pp"], d["win_sim_low"], d["win_sim_high"], strict=True)
            ],
            f"verdict (+/-{fmt.num(result.margin_pp)} pp)": d["win_verdict"],
        }
    )
    own = "; ".join(f"{f} {text}" for f, text in result.own.items())
    return TableBlock(
        "one-player-deviations",
        "One player deviates alone, every other seat plays the field's own policy, honest: every seat's win-share "
        f"change on the same deals (simultaneous {_level(d)}% intervals over the whole table, every field)",
        shown,
        d,
        f"Bluffing = bluff at every chance. The fields' own challenge behaviour: {own}; a change that leaves a seat's "
        "policy as it was (never challenging in a field that never challenges) is not played. Per-row 95% intervals "
        "in the CSV.",
    )


def deviation_findings(result: SituationResult) -> list[str]:
    d, n = result.deviations, result.players
    out = []

    def text(r: Any) -> str:
        return f"{_pp(r.diff_pp, r.win_sim_low, r.win_sim_high)} ({r.win_verdict})"

    for f in result.fields:
        sub = d[d["field"] == f]

        def rows(effect: str, sub: pd.DataFrame = sub) -> pd.DataFrame:
            return sub[sub["effect"] == effect]

        own = [text(rows(f"seat {s} alone bluffs at every chance").iloc[s]) for s in range(n)]
        pay = rows("seat 0 alone bluffs at every chance")
        out.append(
            f"Who pays under field `{f}` (every other seat plays {f} and {result.own[f]}, honest; simultaneous {_level(d)}% "
            f"intervals, n = {fmt.count(result.deviation_games)} deals): a seat bluffing at every chance alone changes "
            "its own win share by, per seat, "
            + "; ".join(f"seat {s} {t}" for s, t in enumerate(own))
            + "; seat 0's bluffs move each seat by "
            + "; ".join(f"{r.role} {text(r)}" for r in pay.itertuples())
            + "."
        )
        changes = []
        for effect in sub["effect"].drop_duplicates():
            if "challenges" in effect:
                r = sub[(sub["effect"] == effect) & (sub["seat"] == sub["deviator"])].iloc[0]
                changes.append(f"{effect.removesuffix(', seat 0 bluffing')}: {text(r)}")
        out.append(
            f"Under field `{f}`, against an always-bluffing seat 0, the deviating seat's own gain when "
            + "; ".join(changes)
            + "."
        )
    return out


def iteration_table(result: SituationResult) -> TableBlock:
    it = result.iterations
    shown = pd.DataFrame(
        {
            "field": it["field"],
            "start": it["start"],
            "round": it["round"],
            "seat": it["seat"],
            "plays": it["current"],
            "win share": it["current_win_share"].map(lambda x: fmt.share(x, 1)),
            "best on these deals": it["best"],
            "best's gain [simultaneous CI]": [
                "-" if b == c else _pp(g, lo, hi)
                for b, c, g, lo, hi in zip(it["best"], it["current"], it["gain_pp"], it["gain_low"], it["gain_high"], strict=True)
            ],
            "switches": it["switches"].map({True: "yes", False: "no"}),
        }
    )
    return TableBlock(
        "best-response-iterations",
        "Best-response iteration per field, seat by seat, from two start points: convergence",
        shown,
        it,
        f"Each turn plays the seat's {len(strategies())} strategies (the field's policy with the strategy's knobs) "
        f"against the others' current ones on {fmt.count(result.eq_games)} fresh deals; the seat switches only when the "
        f"best beats its current strategy on a simultaneous interval, Bonferroni over the {len(strategies()) - 1} "
        "alternatives (95% for the turn).",
    )


def fixed_point_text(result: SituationResult) -> str:
    """Where each start point's search ended, as a Markdown table (a profile of strategies has no interval)."""
    rows = ["| field | start | rounds | fixed point | " + " | ".join(f"seat {s}" for s in range(result.players)) + " |"]
    rows.append("|" + "---|" * (4 + result.players))
    for r in result.fixed_points.itertuples():
        seats = " | ".join(str(getattr(r, f"seat_{s}")) for s in range(result.players))
        rows.append(f"| {r.field} | {r.start} | {r.rounds} | {'yes' if r.fixed_point else 'no'} | {seats} |")
    return "**Where the best-response search ended**\n\n" + "\n".join(rows)


def fixed_point_findings(result: SituationResult) -> list[str]:
    """Where each field's start points ended, whether they agree, and what the fixed point is (and is not)."""
    out = []
    for f in result.fields:
        ends = result.fixed_points[result.fixed_points["field"] == f]
        texts = []
        for r in ends.itertuples():
            profile = ", ".join(f"seat {s}: {getattr(r, f'seat_{s}')}" for s in range(result.players))
            state = f"a fixed point after {r.rounds} round(s)" if r.fixed_point else f"no fixed point in {r.rounds} rounds"
            texts.append(f"from '{r.start}', {state}: {profile}")
        profiles = {tuple(r[f"seat_{s}"] for s in range(result.players)) for _, r in ends.iterrows()}
        agree = "the start points agree" if len(profiles) == 1 else "the start points end at different profiles"
        out.append(f"Best responses under field `{f}`: " + "; ".join(texts) + f" ({agree}).")
    out.append(
        f"Where start points end at different profiles, at {fmt.count(result.eq_games)} deals per turn the search cannot "
        "tell them apart (the remaining gains lie inside their intervals in the iteration table): what they share is "
        "what the search supports. A fixed point here is a best response over the knobs searched (bluff: honest, only "
        "when the next player holds 1 card, always; challenge: never, one in four, informed, always), at the sample "
        "size used: no seat had a strategy in that space that beat its own by a margin the sample could detect. It is "
        "not a Nash equilibrium of Uno."
    )
    return out


def blocks(result: SituationResult, exp: Experiment) -> tuple[list[Block], list[str]]:
    """The sections' blocks (headline chart first) and findings."""
    out: list[Block] = [
        gain_chart(result, exp),
        situation_table(result),
        deviation_table(result),
        iteration_table(result),
        fixed_point_text(result),
    ]
    return out, situation_findings(result) + deviation_findings(result) + fixed_point_findings(result)
