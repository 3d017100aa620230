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
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from unocli.game.policies import Policy
from unocli.report import fmt
from unocli.report.analyses.common import Context, add_verdicts, arm_diff, caption, run_compare
from unocli.report.model import Block, Chart, TableBlock
from unocli.study.arm import Arm
from unocli.study.experiments import Experiment
from unocli.study.stats import t_quantile

BIG = 108  # the knobs' upper bound: "no limit"
# The next player's hand size and the bluffer's own (the +4 included; 1 is the +4 alone, never a bluff).
NEXT_BANDS: tuple[tuple[str, int, int], ...] = (("1", 1, 1), ("2", 2, 2), ("3", 3, 3), ("4", 4, 4), ("5+", 5, BIG))
OWN_BANDS: tuple[tuple[str, int, int], ...] = (("2-3", 2, 3), ("4-6", 4, 6), ("7+", 7, BIG), ("any", 1, BIG))
ANY = "any"
# The opponents' challenge policies (knobs on top of the opponents' policy).
CHALLENGERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("never", {"challenge": 0.0}),
    ("basic 0.25", {"challenge": 0.25}),
    ("0.5", {"challenge": 0.5}),
    ("always", {"challenge": 1.0}),
    ("informed", {"challenge": 0.25, "challenge_if_own_colour": True, "trust_if_lacked": True}),
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
    ("everyone basic", "honest / basic 0.25"),
    ("everyone bluffs always and never challenges", "bluff always / never"),
)
QUANTITIES = ("bluffs", "challenges_won")
MIN_BLUFFS = 100  # bluffs in a cell below which its per-bluff gain is not shown (the ratio's interval is meaningless)


def strategies() -> list[tuple[str, dict[str, Any]]]:
    """The best-response knob space: every bluff situation with every challenge policy."""
    return [(f"{b} / {c}", {**bk, **ck}) for b, bk in BLUFF_STRATEGIES for c, ck in CHALLENGE_STRATEGIES]


@dataclass(frozen=True)
class SituationResult:
    """The three studies' tables.

    ``situations``: one row per challenge policy x next player's hand x own
    hand (``any`` pools a band; next ``any`` with own ``any`` bluffs at every
    chance), with ``gain_pp`` and its paired 95% interval ``ci_low``/``ci_high``,
    ``n`` deals, the simultaneous interval and verdict, bluffs and caught bluffs
    per game and the gain per bluff with a bootstrap interval.
    ``deviations``: per one-player change, every seat's win-share change.
    ``iterations``: the best-response search, one row per seat's turn.
    """

    players: int
    games: int
    situation_games: int
    deviation_games: int
    eq_games: int
    margin_pp: float
    situations: pd.DataFrame
    deviations: pd.DataFrame
    iterations: pd.DataFrame
    fixed_points: pd.DataFrame


def option_games(exp: Experiment, key: str) -> int:
    """A game count from the options, or the experiment's ``games`` when unset (0)."""
    value = int(exp.options.get(key) or 0)
    return value if value > 0 else exp.games


def compute(exp: Experiment, ctx: Context, bluffer: Policy, opponent: Policy) -> SituationResult:
    """Play the situation table, the one-player deviations and the best-response search."""
    n = exp.players[0]
    rules = exp.base.build(players=n).rules
    honest, field = bluffer.replace(bluff=0.0), opponent.replace(bluff=0.0)
    sg, dg, eg = (option_games(exp, k) for k in ("situation_games", "deviation_games", "eq_games"))
    margin = float(exp.margins["win_share_pp"])
    situations, played = _situations(exp, ctx, rules, honest, field, sg, margin)
    deviations = _deviations(exp, ctx, rules, honest, field, dg, margin)
    played += dg * (2 * n + 1)
    iterations, fixed, eq_played = _best_responses(exp, ctx, rules, field, eg)
    return SituationResult(
        players=n,
        games=played + eq_played,
        situation_games=sg,
        deviation_games=dg,
        eq_games=eg,
        margin_pp=margin,
        situations=situations,
        deviations=deviations,
        iterations=iterations,
        fixed_points=fixed,
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


def _situations(
    exp: Experiment, ctx: Context, rules: Any, honest: Policy, field: Policy, games: int, margin: float
) -> tuple[pd.DataFrame, int]:
    """One comparison per challenge policy: the honest twin and one bluffer per situation, on the same deals."""
    n = rules.players
    cells = situation_cells()
    rows, diffs, played = [], [], 0
    for ch, knobs in CHALLENGERS:
        opp = field.replace(**knobs)
        arms = [Arm("honest", rules, (honest, *(opp,) * (n - 1)))]
        arms += [Arm(f"next={nb},own={ob}", rules, (honest.replace(bluff=1.0, **kn), *(opp,) * (n - 1))) for nb, ob, kn in cells]
        pairs = [(a.name, "honest") for a in arms[1:]]
        comp = run_compare(
            exp, ctx, arms, games=games, quantities=("win_0", *QUANTITIES), pairs=pairs, metric="win_0", label=f"situations, {ch}"
        )
        played += games * len(arms)
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
                {"challenge_policy": ch, "next_hand": nb, "own_hand": ob, "n": d.n}
                | {"gain_pp": 100 * d.diff, "ci_low": 100 * d.low, "ci_high": 100 * d.high, "p": d.p}
                | {"bluffs_per_game": bluffs, "caught_per_game": means[k, c]}
                | {"gain_per_bluff_pp": per, "per_bluff_low": per - half, "per_bluff_high": per + half}
            )
    table = pd.DataFrame(rows)
    add_verdicts(table, diffs, "gain", margin, scale=100)
    table["gain_sim_low"] *= 100
    table["gain_sim_high"] *= 100
    table["verdict"] = [verdict_word(v, g) for v, g in zip(table["gain_verdict"], table["gain_pp"], strict=True)]
    # each interval right after its point (the simultaneous one after the per-cell one), then the verdicts
    first = ["challenge_policy", "next_hand", "own_hand", "n", "gain_pp", "ci_low", "ci_high", "p"]
    first += ["gain_sim_low", "gain_sim_high", "sim_level", "verdict", "gain_verdict", "gain_p_tost"]
    return table[first + [c for c in table.columns if c not in first]], played


def verdict_word(verdict: str, gain: float) -> str:
    """An equivalence verdict as the answer to "does the bluff pay?"."""
    if verdict == "different":
        return "pays" if gain > 0 else "loses"
    return "no effect" if verdict == "equivalent" else "undecided"


# ---------------------------------------------------------------- 3. one-player deviations


def deviation_arms(rules: Any, honest: Policy, field: Policy) -> tuple[list[Arm], list[tuple[str, str, str, int]]]:
    """The arms, and the effects (description, arm, reference, seat who deviated) they measure.

    Each arm changes one seat's policy from the field's (every opponent plays
    ``field``, seat 0 its honest policy), or one seat's on top of seat 0's bluffing.
    """
    n = rules.players
    base = (honest, *(field,) * (n - 1))

    def seat(pols: tuple[Policy, ...], s: int, **knobs: Any) -> tuple[Policy, ...]:
        return tuple(p.replace(**knobs) if i == s else p for i, p in enumerate(pols))

    arms = [Arm("field", rules, base)]
    effects = []
    for s in range(n):
        arms.append(Arm(f"bluff@{s}", rules, seat(base, s, bluff=1.0)))
        effects.append((f"seat {s} alone bluffs at every chance", f"bluff@{s}", "field", s))
    bluffing = seat(base, 0, bluff=1.0)
    for s in range(1, n):
        arms.append(Arm(f"bluff@0,challenge1@{s}", rules, seat(bluffing, s, challenge=1.0)))
        effects.append((f"seat {s} alone always challenges, seat 0 bluffing", f"bluff@0,challenge1@{s}", "bluff@0", s))
    arms.append(Arm("bluff@0,challenge0@1", rules, seat(bluffing, 1, challenge=0.0)))
    effects.append(("seat 1 alone never challenges, seat 0 bluffing", "bluff@0,challenge0@1", "bluff@0", 1))
    return arms, effects


def _deviations(
    exp: Experiment, ctx: Context, rules: Any, honest: Policy, field: Policy, games: int, margin: float
) -> pd.DataFrame:
    """Every seat's win-share change from each one-player deviation, simultaneous intervals over the table."""
    n = rules.players
    arms, effects = deviation_arms(rules, honest, field)
    pairs = [(arm, ref) for _, arm, ref, _ in effects]
    quantities = tuple(f"win_{s}" for s in range(n))
    comp = run_compare(
        exp, ctx, arms, games=games, quantities=quantities, pairs=pairs, metric="win_0", label="one-player deviations"
    )
    rows, diffs = [], []
    for what, arm, ref, mover in effects:
        for s in range(n):
            d = arm_diff(comp, arm, ref, f"win_{s}")
            diffs.append(d)
            role = _role(s) + (" (deviates)" if s == mover else "")
            rows.append(
                {"effect": what, "deviator": mover, "seat": s, "role": role, "n": d.n}
                | {"diff_pp": 100 * d.diff, "ci_low": 100 * d.low, "ci_high": 100 * d.high, "p": d.p}
            )
    table = pd.DataFrame(rows)
    add_verdicts(table, diffs, "win", margin, scale=100)
    table["win_sim_low"] *= 100
    table["win_sim_high"] *= 100
    return table


def _role(seat: int) -> str:
    return "seat 0, the bluffer" if seat == 0 else ("seat 1, the bluffer's victim" if seat == 1 else f"seat {seat}")


# ---------------------------------------------------------------- 4. best responses


def _best_responses(
    exp: Experiment, ctx: Context, rules: Any, field: Policy, games: int
) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    """Best-response iteration from every start point; one row per seat's turn, one per start point's end."""
    n = rules.players
    space = strategies()
    rounds = int(exp.options.get("eq_rounds") or 3)
    rows, ends, played, step = [], [], 0, 0
    names = [name for name, _ in space]
    for start_name, start in START_POINTS:
        profile = [names.index(start)] * n
        fixed = False
        for rnd in range(1, rounds + 1):
            switched = False
            for s in range(n):
                arms = [
                    Arm(name, rules, tuple(field.replace(**(knobs if i == s else space[profile[i]][1])) for i in range(n)))
                    for name, knobs in space
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
                    label=f"best response, {start_name}, round {rnd}, seat {s}",
                )
                step, played = step + 1, played + games * len(arms)
                row, best = _turn(comp, space, profile[s], s)
                rows.append({"start": start_name, "round": rnd, **row})
                if best != profile[s]:
                    profile[s], switched = best, True
            if not switched:
                fixed = True
                break
        ends.append(
            {"start": start_name, "rounds": rnd, "fixed_point": fixed} | {f"seat_{s}": space[profile[s]][0] for s in range(n)}
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


def field_text(n: int, challenger: str) -> str:
    """The field a finding holds under."""
    return f"opponents (seats 1-{n - 1}) playing basic, never bluffing, challenging '{challenger}'"


def answer(result: SituationResult, exp: Experiment) -> str:
    """The report's one-paragraph answer."""
    t, n, m = result.situations, result.players, fmt.num(result.margin_pp)
    every = t[t["next_hand"] == ANY].set_index("challenge_policy")
    pooled = t[(t["next_hand"] != ANY) & (t["own_hand"] == ANY)]
    cells = t[(t["next_hand"] != ANY) & (t["own_hand"] != ANY)]
    counts = {w: int((cells["verdict"] == w).sum()) for w in ("pays", "loses", "no effect", "undecided")}
    pays = pooled[pooled["verdict"] == "pays"]
    pay_text = (
        "Confined to one situation (own hand pooled), a bluff pays only "
        + "; ".join(
            f"when the next player holds {r.next_hand} card(s), against '{r.challenge_policy}' challengers: "
            f"{_pp(r.gain_pp, r.gain_sim_low, r.gain_sim_high)}{_per_bluff_text(r)}"
            for r in pays.itertuples()
        )
        + " (simultaneous interval; per bluff, a 95% block-bootstrap interval)"
        if len(pays)
        else "Confined to one situation (own hand pooled), a bluff pays in none (no simultaneous interval lies above 0)"
    )
    dev = result.deviations
    victim = dev[(dev["effect"] == "seat 1 alone always challenges, seat 0 bluffing") & (dev["seat"] == 1)].iloc[0]
    return (
        f"**Answer.** Against opponents who play `{exp.options['opponents']}` and never bluff, bluffing a +4 at every "
        f"chance loses whatever they challenge: {_pp(*every.loc['never', ['gain_pp', 'ci_low', 'ci_high']])} of seat 0's "
        f"win share against opponents who never challenge, {_pp(*every.loc['always', ['gain_pp', 'ci_low', 'ci_high']])} "
        f"against opponents who always do ({n} players, n = {fmt.count(result.situation_games)} paired deals, 95% "
        f"intervals). {pay_text}. Over the {len(cells)} cells of next player's hand x own hand band x challenge policy "
        f"it pays in {counts['pays']}, loses in {counts['loses']}, has no effect beyond +/-{m} pp in {counts['no effect']} "
        f"and is undecided in {counts['undecided']}. A bluff's gain is small because the situations are rare (at most "
        f"{fmt.fixed(cells['bluffs_per_game'].max(), 2)} bluffs per game in one cell). Its victim gains "
        f"{_pp(victim.diff_pp, victim.win_sim_low, victim.win_sim_high)} by challenging every +4 alone while the rest of "
        f"the field keeps basic's one in four. Every figure holds for its field, named with it."
    )


def _per_bluff_text(r: Any) -> str:
    if not math.isfinite(r.gain_per_bluff_pp):
        return ""
    return f", {_pp(r.gain_per_bluff_pp, r.per_bluff_low, r.per_bluff_high, 1)} per bluff"


def gain_chart(result: SituationResult, exp: Experiment) -> Chart:
    """The headline: gain by the next player's hand size, one line per challenge policy (own hand pooled)."""
    from unocli.report import plots  # matplotlib only when drawing

    t = result.situations
    pooled = t[(t["own_hand"] == ANY) & (t["next_hand"] != ANY)]
    xs = np.arange(1, len(NEXT_BANDS) + 1, dtype=float)
    series = [
        plots.Series(name, sub["gain_pp"], sub["ci_low"], sub["ci_high"])
        for name, sub in ((ch, pooled[pooled["challenge_policy"] == ch]) for ch, _ in CHALLENGERS)
    ]
    cap = caption(
        exp,
        "Seat 0's win share when it bluffs (bluff = 1) only while the next player holds the given number of cards, "
        "whatever its own hand, minus its honest twin's on the same deals, in percentage points; one line per "
        f"challenge policy of the opponents ({INFORMED_TEXT})",
        f"{fmt.count(result.situation_games)} deals per point ({result.players} players)",
        rules=exp.base.rules,
        policies=f"seat 0: {exp.options['bluffer']}; seats 1-{result.players - 1}: {exp.options['opponents']}, never bluffing",
        intervals="error bars are paired 95% t intervals (per point; the table gives simultaneous ones)",
    )
    figure = plots.line_chart(
        xs,
        series,
        band=False,
        title="Does a +4 bluff pay? By the next player's hand size",
        xlabel="cards in the next player's hand when seat 0 could bluff",
        ylabel="seat 0's win-share change vs honest twin (pp)",
        xticks=list(xs),
        xticklabels=[b for b, _, _ in NEXT_BANDS],
        hline=0.0,
        hline_label="no gain",
        caption=cap,
    )
    return Chart("bluff-by-situation", figure, cap, "bluffer's gain by the next player's hand size, per challenge policy")


def situation_table(result: SituationResult) -> TableBlock:
    """The situation table: a pivot (situation x challenge policy) in Markdown, every figure in the CSV."""
    t = result.situations
    shown = t[["next_hand", "own_hand"]].drop_duplicates().rename(columns={"next_hand": "next holds", "own_hand": "own hand"})
    shown = shown.reset_index(drop=True)
    for ch, _ in CHALLENGERS:
        sub = t[t["challenge_policy"] == ch].reset_index(drop=True)
        shown[ch] = [f"{_pp(r.gain_pp, r.gain_sim_low, r.gain_sim_high)} {r.verdict}" for r in sub.itertuples()]
    level = fmt.fixed(100 * t["sim_level"].iloc[0], 2)
    return TableBlock(
        "bluff-by-situation",
        f"Seat 0's win-share gain from bluffing only in a situation, by the opponents' challenge policy (simultaneous "
        f"{level}% intervals over the table; verdict at +/-{fmt.num(result.margin_pp)} pp)",
        shown,
        t,
        f"n = {fmt.count(result.situation_games)} paired deals per cell; next `any`, own `any` = bluffing at every chance; "
        f"{INFORMED_TEXT}. Per-cell 95% intervals, bluffs and caught bluffs per game and the gain per bluff (block "
        f"bootstrap, shown where a cell saw at least {MIN_BLUFFS} bluffs) are in the CSV.",
    )


def situation_findings(result: SituationResult) -> list[str]:
    """Per challenge policy: which situations pay, lose, have no effect, are undecided; and the sample size."""
    t, n = result.situations, result.players
    out = []
    for ch, _ in CHALLENGERS:
        sub = t[(t["challenge_policy"] == ch) & (t["next_hand"] != ANY)]
        groups = []
        for word in ("pays", "loses", "no effect", "undecided"):
            cells = sub[sub["verdict"] == word]
            names = ", ".join(f"{r.next_hand}/{r.own_hand}" for r in cells.itertuples())
            groups.append(f"{word} {len(cells)}" + (f" ({names})" if names and word != "undecided" else ""))
        out.append(
            f"Against {field_text(n, ch)}, bluffing only in one situation (next holds / own hand): " + "; ".join(groups) + "."
        )
    out.append(
        "Why a bluff can pay when the next player holds 1 card: an unchallenged +4 makes the victim take 4 cards and "
        "miss a turn (docs/rules.md §4), the very turn on which a player holding one card could go out, where the honest "
        "twin's card of the current colour leaves it that chance. A challenged bluff is caught (§5) and the bluffer "
        "takes the 4 instead, so the more the field challenges, the less any situation is worth."
    )
    cells = t[t["next_hand"] != ANY]
    half = float(((cells["gain_sim_high"] - cells["gain_sim_low"]) / 2).median())
    out.append(
        f"Sample size: with n = {fmt.count(result.situation_games)} deals per cell the median simultaneous half-width is "
        f"{fmt.fixed(half, 2)} pp; it shrinks as 1/sqrt(n), so telling a gain from +/-{fmt.num(result.margin_pp)} pp in "
        f"every cell would need about {fmt.count(_needed(result.situation_games, half, result.margin_pp))} deals, and a "
        f"0.05 pp gain {fmt.count(_needed(result.situation_games, half, 0.05))}. 'no effect' is an equivalence verdict "
        f"(TOST, simultaneous interval inside +/-{fmt.num(result.margin_pp)} pp), never the lack of a significant difference."
    )
    return out


def _needed(games: int, half: float, target: float) -> int:
    return math.ceil(games * (half / target) ** 2) if target > 0 else 0


def deviation_table(result: SituationResult) -> TableBlock:
    d = result.deviations
    level = fmt.fixed(100 * d["sim_level"].iloc[0], 2)
    shown = pd.DataFrame(
        {
            "one-player deviation": d["effect"],
            "seat": d["role"],
            "n": d["n"].map(fmt.count),
            "win-share change [simultaneous CI]": [
                _pp(x, lo, hi) for x, lo, hi in zip(d["diff_pp"], d["win_sim_low"], d["win_sim_high"], strict=True)
            ],
            f"verdict (+/-{fmt.num(result.margin_pp)} pp)": d["win_verdict"],
        }
    )
    return TableBlock(
        "one-player-deviations",
        f"One player deviates alone, every other seat plays the field (basic, honest, challenging one in four): every "
        f"seat's win-share change on the same deals (simultaneous {level}% intervals over the table)",
        shown,
        d,
        "Bluffing = bluff at every chance; challenges are compared with basic's one in four. Per-row 95% intervals in the CSV.",
    )


def deviation_findings(result: SituationResult) -> list[str]:
    d, n = result.deviations, result.players
    level = fmt.fixed(100 * d["sim_level"].iloc[0], 2)

    def row(effect: str, seat: int) -> Any:
        return d[(d["effect"] == effect) & (d["seat"] == seat)].iloc[0]

    def text(r: Any) -> str:
        return f"{_pp(r.diff_pp, r.win_sim_low, r.win_sim_high)} ({r.win_verdict})"

    own = [text(row(f"seat {s} alone bluffs at every chance", s)) for s in range(n)]
    pay = d[d["effect"] == "seat 0 alone bluffs at every chance"]
    victim = row("seat 1 alone always challenges, seat 0 bluffing", 1)
    lazy = row("seat 1 alone never challenges, seat 0 bluffing", 1)
    others = [text(row(f"seat {s} alone always challenges, seat 0 bluffing", s)) for s in range(2, n)]
    return [
        f"One-player deviations, field basic at every other seat (simultaneous {level}% intervals, "
        f"n = {fmt.count(result.deviation_games)} deals): the bluffer's own gain from bluffing at every chance alone is, "
        "by seat, " + "; ".join(f"seat {s} {t}" for s, t in enumerate(own)) + ".",
        "Who pays for seat 0's bluffs: " + "; ".join(f"{r.role} {text(r)}" for r in pay.itertuples()) + ".",
        f"The victim's gain from challenging alone (seat 1 always challenges, every other seat keeps basic's one in four, "
        f"seat 0 bluffing at every chance): {text(victim)}; from never challenging: {text(lazy)}. The same change at a "
        "seat the bluff rarely hits, for that seat: "
        + "; ".join(f"seat {s} {t}" for s, t in zip(range(2, n), others, strict=True))
        + ".",
    ]


def iteration_table(result: SituationResult) -> TableBlock:
    it = result.iterations
    shown = pd.DataFrame(
        {
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
        "Best-response iteration, seat by seat, from two start points: convergence",
        shown,
        it,
        f"Each turn plays the seat's {len(strategies())} strategies against the others' current ones on "
        f"{fmt.count(result.eq_games)} fresh deals; the seat switches only when the best beats its current strategy on a "
        f"simultaneous interval, Bonferroni over the {len(strategies()) - 1} alternatives (95% for the turn).",
    )


def fixed_point_text(result: SituationResult) -> str:
    """Where each start point's search ended, as a Markdown table (a profile of strategies has no interval)."""
    rows = ["| start | rounds | fixed point | " + " | ".join(f"seat {s}" for s in range(result.players)) + " |"]
    rows.append("|" + "---|" * (3 + result.players))
    for r in result.fixed_points.itertuples():
        seats = " | ".join(str(getattr(r, f"seat_{s}")) for s in range(result.players))
        rows.append(f"| {r.start} | {r.rounds} | {'yes' if r.fixed_point else 'no'} | {seats} |")
    return "**Where the best-response search ended**\n\n" + "\n".join(rows)


def fixed_point_findings(result: SituationResult) -> list[str]:
    """Where each start point ended, whether they agree, and what the fixed point is (and is not)."""
    out = []
    for r in result.fixed_points.itertuples():
        profile = ", ".join(f"seat {s}: {getattr(r, f'seat_{s}')}" for s in range(result.players))
        state = f"reached a fixed point after {r.rounds} round(s)" if r.fixed_point else f"did not settle in {r.rounds} rounds"
        out.append(f"Best responses from '{r.start}' {state}: {profile}.")
    ends = result.fixed_points
    profiles = {tuple(r[f"seat_{s}"] for s in range(result.players)) for _, r in ends.iterrows()}
    if len(profiles) > 1:
        out.append(
            f"The start points end at different profiles: at {fmt.count(result.eq_games)} deals per turn the search "
            "cannot tell them apart (the remaining gains lie inside their intervals in the iteration table), so no "
            "single profile is the answer; what they share is what the search supports."
        )
    out.append(
        "That is a best-response fixed point over the knobs searched (bluff: honest, only when the next player holds "
        "1 card, always; challenge: never, one in four, informed, always), at the sample size used: no seat had a "
        "strategy in that space that beat its own by a margin the sample could detect. It is not a Nash equilibrium of Uno."
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
