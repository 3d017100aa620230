"""When does bluffing a +4 pay? A bluffer at seat 0 against opponents with a challenge rate.

Every cell of the grid bluff rate b x challenge rate c is one arm: seat 0 plays
the ``bluffer`` policy with ``bluff = b``; every other seat plays the
``opponents`` policy with ``challenge = c`` and never bluffs. All cells are
played on the same deals, so:

- the bluffer's gain is its win share minus that of its *honest twin*
  (``b = 0``, same c, same deals): a paired difference;
- the value of challenging for the victims is an opponent's win share at
  (b, c) minus at (b, 0), also paired;
- the break-even challenge rate is where the gain, averaged over the bluff
  rates above 0, crosses zero (linear interpolation between grid points);
- the equilibrium is found by alternating best responses: the bluffer picks
  the bluff rate that maximises its win share against the opponents' history
  of challenge rates, the opponents the challenge rate that minimises it
  against the bluffer's history (fictitious play, which converges in a
  zero-sum game such as this one: the opponents win exactly when the bluffer
  does not, up to blocked rounds). Plain alternating best responses between
  single grid points are reported too; they cycle when no grid point is stable.

Uncertainty of the break-even rate and the per-bluff ratios comes from a
bootstrap over blocks of deals, which keeps the pairing. The equilibrium is an
argmax-like figure: its bootstrap range is reported as the spread of the
equilibrium over resamples, not as a confidence interval (a percentile
interval around an argmax does not cover anything at a known rate).

The situation table, one-player deviations and best-response search are in
:mod:`unocli.report.analyses.bluff_situations`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from unocli.game.policies import Policy, Respond
from unocli.report import fmt
from unocli.report.analyses.bluff_decision import blocks as decision_blocks
from unocli.report.analyses.bluff_decision import check as decision_check
from unocli.report.analyses.bluff_decision import compute as decision_compute
from unocli.report.analyses.bluff_decision import fields as decision_fields
from unocli.report.analyses.bluff_decision import rule as decision_rule
from unocli.report.analyses.bluff_decision import specs as decision_specs
from unocli.report.analyses.bluff_fields import (
    DEFAULT_FIELDS,
    check_specs,
    field_definitions,
    field_policies,
    per_seat_findings,
    per_seat_shown,
    resolve,
    spec_list,
    spec_text,
)
from unocli.report.analyses.bluff_grid import (
    BluffResult,
    Equilibrium,
    crossing,
    fictitious_play,
    pure_path,
    rate_bounds,
    rate_ci_text,
    rate_text,
)
from unocli.report.analyses.bluff_situations import answer as situations_answer
from unocli.report.analyses.bluff_situations import blocks as situations_blocks
from unocli.report.analyses.bluff_situations import compute as situations_compute
from unocli.report.analyses.common import (
    Context,
    add_verdicts,
    arm_diff,
    arm_mean,
    caption,
    percentile_interval,
    run_compare,
)
from unocli.report.experiment import Experiment, players_list, positive_int, probability_list
from unocli.report.model import Chart, Section, TableBlock, sentences
from unocli.study.arm import Arm
from unocli.study.compare import Comparison
from unocli.study.stats import holm
from unocli.study.sweep import parse_values


def games_or_zero(value: Any) -> str | None:
    """A number of games, or 0 for the experiment's ``games``."""
    return None if value == 0 and not isinstance(value, bool) else positive_int(value)


OPTIONS = {
    "bluff_rates": ("0:1:0.1", probability_list),
    "challenge_rates": ("0:1:0.1", probability_list),
    # the grid's players; names resolve against the experiment's policies file (checked by check())
    "bluffer": ("basic", spec_text),
    "opponents": ("basic", spec_text),
    # the situation table, deviations and best responses are played under each field (every seat its policy)
    "fields": (DEFAULT_FIELDS, spec_list),
    "replicates": (1000, positive_int),
    "also_players": ([2, 6], players_list),
    # deals per arm of the situation table, the one-player deviations and each best-response turn (0: ``games``)
    "situation_games": (0, games_or_zero),
    # deals per arm of the situation table for every field after the first (0: situation_games)
    "extra_field_games": (0, games_or_zero),
    "deviation_games": (0, games_or_zero),
    "eq_games": (0, games_or_zero),
    "eq_rounds": (3, positive_int),
    # the decision table: fresh deals per field (0: none), rollouts per option in each half, its fields (default: all)
    "decision_games": (0, games_or_zero),
    "decision_budget": (16, positive_int),
    "decision_fields": ([], decision_specs),
}
QUANTITIES = ("win_0", "lose_0", "won", "bluffs", "challenges", "challenges_won", "plus4_played", "cards_left_0")


def check(exp: Experiment) -> str | None:
    b = [float(v) for v in parse_values(exp.options["bluff_rates"])]
    c = [float(v) for v in parse_values(exp.options["challenge_rates"])]
    if 0.0 not in b or len(b) < 2:
        return "options.bluff_rates: must hold 0 (the honest twin) and at least one other rate"
    if 0.0 not in c or len(c) < 2:
        return "options.challenge_rates: must hold 0 (never challenging) and at least one other rate"
    if len(exp.players) != 1:
        return "players: the bluff analysis plays one table size"
    message = check_specs(exp, ("bluffer", "opponents"))
    if message:
        return message
    if resolve(exp, exp.options["opponents"]).respond is not Respond.KNOBS:
        return "options.opponents: the challenge rate needs a policy with respond=knobs (such as basic)"
    message = check_specs(exp, ("fields",))
    if message:
        return message
    return decision_check(exp)


def cell(b: float, c: float) -> str:
    return f"b={b:g},c={c:g}"


def compute(exp: Experiment, ctx: Context) -> BluffResult:
    """Play the grid, derive gains, break-even rates, per-bluff figures and the equilibrium."""
    opt = exp.options
    bvals = np.array(sorted({float(v) for v in parse_values(opt["bluff_rates"])}))
    cvals = np.array(sorted({float(v) for v in parse_values(opt["challenge_rates"])}))
    n = exp.players[0]
    bluffer, opponent = resolve(exp, opt["bluffer"]), resolve(exp, opt["opponents"])
    arms, idx = _grid_arms(exp, n, bvals, cvals, bluffer, opponent)
    pairs = [(cell(b, c), cell(0.0, c)) for b in bvals[1:] for c in cvals]
    pairs += [(cell(b, c), cell(b, 0.0)) for b in bvals for c in cvals[1:]]
    label = f"{len(bvals)} bluff x {len(cvals)} challenge rates"
    quantities = (*QUANTITIES, *(f"win_{s}" for s in range(1, n)))
    comp = run_compare(exp, ctx, arms, quantities=quantities, pairs=pairs, metric="win_0", label=label)
    q = {name: comp.quantities.index(name) for name in QUANTITIES}
    means, boot = comp.means(), comp.boot_means(opt["replicates"], seed=exp.seed % (2**32))
    w, wb = means[idx, q["win_0"]], boot[:, idx, q["win_0"]]
    gain, gain_b = w - w[0], wb - wb[:, :1]
    gain_ci, value_ci, pvals = _paired(comp, bvals, cvals, n)
    p_holm = np.ones_like(pvals)
    p_holm[1:] = holm(pvals[1:].ravel()).reshape(pvals[1:].shape)
    # break-even challenge rate: pooled over bluff rates > 0, and per bluff rate
    c_star = float(crossing(cvals, gain[1:].mean(axis=0))[0])
    c_lo, c_hi = rate_bounds(crossing(cvals, gain_b[:, 1:].mean(axis=1)))
    rows = []
    for i, b in enumerate(bvals[1:], start=1):
        lo, hi = rate_bounds(crossing(cvals, gain_b[:, i]))
        rows.append({"bluff_rate": b, "break_even_challenge": float(crossing(cvals, gain[i])[0]), "ci_low": lo, "ci_high": hi})
    by_rate = pd.DataFrame(rows).assign(n=comp.games)
    others = _other_sizes(exp, ctx, bluffer, opponent, n, gain_ci, pvals, cvals, comp.games)
    # each other table size played 4 corner arms on the n deals of its 2 rows
    extra = 2 * int(others[others["players"] != n]["n"].sum()) if len(others) else 0
    situations = situations_compute(exp, ctx, field_policies(exp))
    equilibrium = _equilibrium(w, wb, bvals, cvals, n)
    dg = int(opt["decision_games"] or 0)
    decisions = None
    if dg:
        decisions = decision_compute(exp, ctx, decision_fields(exp), equilibrium.challenge_rate, dg, int(opt["decision_budget"]))
    return BluffResult(
        exp=exp,
        players=n,
        bvals=bvals,
        cvals=cvals,
        deals=comp.games,
        gain=gain,
        gain_ci=gain_ci,
        value_ci=value_ci,
        p_holm=p_holm,
        grid=_grid_table(comp, arms, idx, bvals, cvals, gain_ci, value_ci, p_holm, means, q),
        break_even=c_star,
        break_even_low=c_lo,
        break_even_high=c_hi,
        break_even_by_rate=by_rate,
        per_bluff=_per_bluff(means, boot, idx, q, cvals, comp.games),
        equilibrium=equilibrium,
        others=others,
        games=comp.games * len(arms) + extra,
        per_seat=_per_seat(comp, bvals, cvals, n, exp.margins["win_share_pp"]),
        situations=situations,
        decisions=decisions,
    )


def seat_role(seat: int) -> str:
    """Seat ``seat`` relative to the bluffer at seat 0 (play starts in direction +1)."""
    return {0: "bluffer (seat 0)", 1: "next player (seat 1)"}.get(seat, f"seat {seat} ({seat} places after the bluffer)")


def _per_seat(comp: Comparison, bvals: np.ndarray, cvals: np.ndarray, n: int, margin: float) -> pd.DataFrame:
    """Every seat's win-share change from challenging (top c vs 0, at the top b) and from bluffing (top b vs 0, at c = 0
    and the top c): who gains and who pays, not only the pooled opponents."""
    b, c = float(bvals[-1]), float(cvals[-1])
    effects = [
        (f"challenging: c={c:g} vs c=0, at b={b:g}", cell(b, c), cell(b, 0.0)),
        (f"bluffing: b={b:g} vs b=0, at c=0", cell(b, 0.0), cell(0.0, 0.0)),
        (f"bluffing: b={b:g} vs b=0, at c={c:g}", cell(b, c), cell(0.0, c)),
    ]
    rows, diffs = [], []
    for what, arm, ref in effects:
        won = arm_diff(comp, arm, ref, "won").diff  # rounds anybody won (not blocked): the seats' changes sum to it
        for seat in range(n):
            d = arm_diff(comp, arm, ref, f"win_{seat}")
            diffs.append(d)
            rows.append({"effect": what, "seat": seat, "role": seat_role(seat), "n": d.n, "diff": d.diff})
            rows[-1] |= {"diff_low": d.low, "diff_high": d.high, "p": d.p, "won_diff": won}
    table = pd.DataFrame(rows)
    add_verdicts(table, diffs, "win", margin, scale=100)
    return table


def _grid_arms(
    exp: Experiment, n: int, bvals: np.ndarray, cvals: np.ndarray, bluffer: Policy, opponent: Policy
) -> tuple[list[Arm], np.ndarray]:
    """One arm per cell, and the arm index of each cell ``[bluff rate, challenge rate]``."""
    rules = exp.base.build(players=n).rules
    arms: list[Arm] = []
    idx = np.zeros((len(bvals), len(cvals)), int)
    for i, b in enumerate(bvals):
        for j, c in enumerate(cvals):
            idx[i, j] = len(arms)
            pols = (bluffer.replace(bluff=b),) + (opponent.replace(challenge=c, bluff=0.0),) * (n - 1)
            arms.append(Arm(cell(b, c), rules, pols))
    return arms, idx


def _paired(comp: Comparison, bvals: np.ndarray, cvals: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bluffer's paired gain against its honest twin, each opponent's paired gain from challenging, p-values."""
    gain_ci = np.zeros((len(bvals), len(cvals), 3))
    value_ci = np.zeros((len(bvals), len(cvals), 3))
    pvals = np.ones((len(bvals), len(cvals)))
    for i, b in enumerate(bvals):
        for j, c in enumerate(cvals):
            if i:
                d = arm_diff(comp, cell(b, c), cell(0.0, c), "win_0")
                gain_ci[i, j], pvals[i, j] = (d.diff, d.low, d.high), d.p
            if j:
                d = arm_diff(comp, cell(b, c), cell(b, 0.0), "lose_0")
                value_ci[i, j] = np.array([d.diff, d.low, d.high]) / (n - 1)
    return gain_ci, value_ci, pvals


def _grid_table(
    comp: Comparison,
    arms: list[Arm],
    idx: np.ndarray,
    bvals: np.ndarray,
    cvals: np.ndarray,
    gain_ci: np.ndarray,
    value_ci: np.ndarray,
    p_holm: np.ndarray,
    means: np.ndarray,
    q: dict[str, int],
) -> pd.DataFrame:
    """One row per cell: the bluffer's win share, gain against its honest twin, the value of challenging."""
    rows = []
    for i, b in enumerate(bvals):
        for j, c in enumerate(cvals):
            k = idx[i, j]
            m = arm_mean(comp, arms[k].name, "win_0")
            rows.append(
                {
                    "bluff_rate": b,
                    "challenge_rate": c,
                    "n": comp.games,
                    "win_share": m.mean,
                    "win_low": m.low,
                    "win_high": m.high,
                    "gain_vs_honest": gain_ci[i, j, 0],
                    "gain_low": gain_ci[i, j, 1],
                    "gain_high": gain_ci[i, j, 2],
                    "p_holm": p_holm[i, j] if i else math.nan,
                    "challenge_value_per_opponent": value_ci[i, j, 0],
                    "value_low": value_ci[i, j, 1],
                    "value_high": value_ci[i, j, 2],
                    "bluffs_per_round": means[k, q["bluffs"]],
                    "caught_per_round": means[k, q["challenges_won"]],
                }
            )
    return pd.DataFrame(rows)


def _per_bluff(
    means: np.ndarray, boot: np.ndarray, idx: np.ndarray, q: dict[str, int], cvals: np.ndarray, games: int
) -> pd.DataFrame:
    """Per challenge rate, pooled over bluff rates > 0: the share of bluffs caught (a policy's change of win share or
    cards divided by its bluffs is not one: it mixes how often a position occurs with what a bluff there is worth)."""

    def ratios(m: np.ndarray) -> dict[str, np.ndarray]:
        bl = m[..., idx[1:], q["bluffs"]].sum(axis=-2)
        won = m[..., idx[1:], q["challenges_won"]].sum(axis=-2)
        with np.errstate(invalid="ignore", divide="ignore"):
            return {"caught": won / bl}

    point, reps = ratios(means), ratios(boot)
    rows = []
    for j, c in enumerate(cvals):
        row = {"challenge_rate": c, "n": games}
        for key in ("caught",):
            lo, hi = percentile_interval(reps[key][:, j])
            row |= {key: point[key][j], f"{key}_low": lo, f"{key}_high": hi}
        rows.append(row)
    return pd.DataFrame(rows)


def _equilibrium(w: np.ndarray, wb: np.ndarray, bvals: np.ndarray, cvals: np.ndarray, n: int) -> Equilibrium:
    """Fictitious play on the point estimate and on each bootstrap replicate."""
    p_mix, q_mix = fictitious_play(w)
    b_eq, c_eq = float(p_mix @ bvals), float(q_mix @ cvals)
    pb, qb = fictitious_play(wb)
    b_eq_b, c_eq_b = pb @ bvals, qb @ cvals
    value_b = np.einsum("gr,grc,gc->g", pb, wb, qb)
    bi, cj = int(np.argmin(abs(bvals - b_eq))), int(np.argmin(abs(cvals - c_eq)))
    gbl = percentile_interval(wb[:, :, cj].max(axis=1) - wb[:, bi, cj])
    gop = percentile_interval((wb[:, bi, cj] - wb[:, bi, :].min(axis=1)) / (n - 1))
    v_lo, v_hi = percentile_interval(value_b)
    return Equilibrium(
        bluff_rate=b_eq,
        bluff_low=float(np.quantile(b_eq_b, 0.025)),
        bluff_high=float(np.quantile(b_eq_b, 0.975)),
        challenge_rate=c_eq,
        challenge_low=float(np.quantile(c_eq_b, 0.025)),
        challenge_high=float(np.quantile(c_eq_b, 0.975)),
        value=float(p_mix @ w @ q_mix),
        value_low=v_lo,
        value_high=v_hi,
        nearest=(bi, cj),
        bluffer_gain=(float(w[:, cj].max() - w[bi, cj]), *gbl),
        opponent_gain=(float((w[bi, cj] - w[bi, :].min()) / (n - 1)), *gop),
        path=pure_path(w),
    )


def _other_sizes(
    exp: Experiment,
    ctx: Context,
    bluffer: Policy,
    opponent: Policy,
    n: int,
    gain_ci: np.ndarray,
    pvals: np.ndarray,
    cvals: np.ndarray,
    deals: int,
) -> pd.DataFrame:
    """The corners (bluff 0 or the top rate, challenge 0 or the top rate) at the other table sizes of
    ``also_players``, with this table size's corners first; empty when there are no other sizes."""
    top = max(float(v) for v in parse_values(exp.options["bluff_rates"]))
    c_top = max(float(v) for v in parse_values(exp.options["challenge_rates"]))
    rows = []
    for p in exp.options["also_players"]:
        if p == n:
            continue
        rules = exp.base.build(players=p).rules
        arms = [
            Arm(cell(b, c), rules, (bluffer.replace(bluff=b),) + (opponent.replace(challenge=c, bluff=0.0),) * (p - 1))
            for b in (0.0, top)
            for c in (0.0, c_top)
        ]
        pairs = [(cell(top, c), cell(0.0, c)) for c in (0.0, c_top)]
        comp = run_compare(exp, ctx, arms, quantities=("win_0",), pairs=pairs, metric="win_0", label=f"{p} players, corners")
        for c in (0.0, c_top):
            d = arm_diff(comp, cell(top, c), cell(0.0, c), "win_0")
            rows.append(_corner(p, c, comp.games, d.diff, d.low, d.high, d.p))
    if not rows:
        return pd.DataFrame()
    here = [
        _corner(n, c, deals, gain_ci[-1, j, 0], gain_ci[-1, j, 1], gain_ci[-1, j, 2], pvals[-1, j])
        for j, c in enumerate(cvals)
        if c in (cvals[0], cvals[-1])
    ]
    others = pd.DataFrame(here + rows)
    others["p_holm"] = holm(others["p"].to_numpy())
    return others


def _corner(players: int, c: float, n: int, diff: float, low: float, high: float, p: float) -> dict:
    return {"players": players, "challenge_rate": c, "n": n, "diff": diff, "diff_low": low, "diff_high": high, "p": p}


def run(exp: Experiment, ctx: Context) -> Section:
    return render(compute(exp, ctx))


# ---------------------------------------------------------------- render


def render(result: BluffResult) -> Section:
    """Heatmaps and lines of the gains, the tables (grid, break-even, per bluff, equilibrium, other sizes), findings."""
    exp, n = result.exp, result.players
    blocks: list = [
        _gain_heatmap(result),
        _gain_lines(result),
        _gain_table(result),
        _break_even_table(result),
        TableBlock(
            "per-bluff",
            "Cards per bluff, by challenge rate (pooled over bluff rates > 0)",
            _per_bluff_shown(result),
            result.per_bluff,
            "A caught bluff makes the bluffer draw 4; an uncaught one makes the victim draw 4.",
        ),
        _value_heatmap(result),
        _equilibrium_table(result),
    ]
    if len(result.per_seat):
        blocks.insert(
            3,
            TableBlock(
                "per-seat-effects",
                "Who gains and who pays, seat by seat: win-share changes on the same deals, simultaneous intervals over "
                "the table's rows, with equivalence verdicts",
                per_seat_shown(result.per_seat, result.exp.margins["win_share_pp"]),
                result.per_seat,
            ),
        )
    findings = _findings(result)
    if len(result.others):
        blocks.append(_others_table(result))
        findings.append(
            "Other table sizes agree: "
            + "; ".join(
                f"{r.players} players, c={r.challenge_rate:g}: {fmt.pp_ci(r.diff, r.diff_low, r.diff_high, 2)}"
                for r in result.others.itertuples()
                if r.players != n
            )
            + "."
        )
    grid = f"The grid of blind bluff rates (the last part, `{exp.options['bluffer']}` against `{exp.options['opponents']}` only)"
    # the grid plays one pair of policies: each of its findings says so, as the field findings name their fields
    findings = [
        f"Grid, `{exp.options['bluffer']}` against `{exp.options['opponents']}` only: {f[0].lower()}{f[1:]}" for f in findings
    ]
    defined = field_definitions(exp)
    intro = (exp.description or "") + (f"\n\n{defined}" if defined else "")
    intro += f"\n\n{grid}: {_policies_text(result)}; rules {exp.base.rules}; {n} players."
    if result.situations is not None:
        # the situations open the report: the answer first, then its headline chart and tables, then the grid
        sit_blocks, sit_findings = situations_blocks(result.situations, exp)
        note = result.situations.note
        answer = situations_answer(result.situations, exp)
        intro = answer + "\n\n" + intro + (f"\n\n{note}" if note else "")
        blocks, findings = sit_blocks + blocks, sit_findings + findings
    games = result.games + (result.situations.games if result.situations is not None else 0)
    # the answer's second sentence: bluffing at every chance against never- and always-challengers (the first sets the scene)
    one = sentences(answer)[1] if result.situations is not None else ""
    if result.decisions is not None:
        # the decision opens the report: the rule a player can use, then its chart and table
        rule = decision_rule(result.decisions)
        dec_blocks, dec_findings = decision_blocks(result.decisions, exp)
        intro = rule + "\n\n" + intro
        blocks, findings = dec_blocks + blocks, dec_findings + findings
        games += sum(result.decisions.games.values())
        one = sentences(rule)[0]
    return Section(
        name=exp.name, title=exp.title, intro=intro, findings=findings, blocks=blocks, meta={"games": games}, answer=one
    )


def _policies_text(result: BluffResult) -> str:
    opt, n = result.exp.options, result.players
    return (
        f"seat 0: {opt['bluffer']} with bluff rate b; seats 1-{n - 1}: {opt['opponents']} with challenge rate c, never bluffing"
    )


def _caption(result: BluffResult, title: str, intervals: str) -> str:
    n_text = f"{fmt.count(result.deals)} deals per cell, {result.gain.size} cells on the same deals ({result.players} players)"
    return caption(result.exp, title, n_text, rules=result.exp.base.rules, policies=_policies_text(result), intervals=intervals)


def _break_even_text(result: BluffResult) -> str:
    return rate_ci_text(result.break_even_low, result.break_even_high, result.cvals[-1], result.replicates)


def _cell_text(result: BluffResult, i: int, j: int, decimals: int) -> str:
    """A cell's gain in points, starred when significant after Holm."""
    star = "*" if result.p_holm[i, j] < 0.05 else ""
    return fmt.fixed(100 * result.gain[i, j], decimals, sign=True) + star


def _pivot(result: BluffResult) -> pd.DataFrame:
    bvals = result.bvals
    pivot = pd.DataFrame({"bluff rate": [f"{b:g}" for b in bvals[::-1]]})
    for j, c in enumerate(result.cvals):
        pivot[f"c={c:g}"] = [("0" if i == 0 else _cell_text(result, i, j, 2)) for i in range(len(bvals))][::-1]
    return pivot


def _heatmap_height(result: BluffResult) -> float:
    return max(5.6, 0.62 * len(result.bvals) + 1.4)


def _ylabels(result: BluffResult) -> list[str]:
    return [("0 (honest)" if b == 0 else f"{b:g}") for b in result.bvals]


def _gain_heatmap(result: BluffResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing: compute() runs without it

    bvals, cvals, eq = result.bvals, result.cvals, result.equilibrium
    half = 50 * (result.gain_ci[:, :, 2] - result.gain_ci[:, :, 1])
    nc = len(cvals)
    annot = np.array(
        [["" if i == 0 else _cell_text(result, i, j, 1) + f"\n±{half[i, j]:.1f}" for j in range(nc)] for i in range(len(bvals))]
    )
    c_star = result.break_even
    pos_c = float(np.interp(c_star, cvals, np.arange(nc))) if math.isfinite(c_star) else None
    marks = [
        (
            float(np.interp(eq.challenge_rate, cvals, np.arange(nc))),
            float(np.interp(eq.bluff_rate, bvals, np.arange(len(bvals)))),
            f"equilibrium (b={eq.bluff_rate:.2f}, c={eq.challenge_rate:.2f})",
            "o",
        )
    ]
    if pos_c is not None:
        line_text = f"; dashed line: break-even challenge rate {c_star:.2f} {_break_even_text(result)}"
    elif c_star < 0:
        line_text = "; bluffing loses at every challenge rate, so there is no break-even rate"
    else:
        line_text = "; bluffing gains at every challenge rate of the grid"
    cap = _caption(
        result,
        "Bluffer's win share minus its honest twin's on the same deals, in percentage points "
        "(* = paired 95% interval excludes 0 after Holm adjustment)" + line_text,
        "± is the half-width of each cell's paired 95% interval (full intervals in bluff-gain.csv)",
    )
    figure = plots.heatmap(
        100 * result.gain,
        [f"{c:g}" for c in cvals],
        _ylabels(result),
        title="Does bluffing a +4 pay? Bluffer's win-share gain (pp)",
        xlabel="opponents' challenge rate",
        ylabel="bluffer's bluff rate",
        caption=cap,
        colour_label="win-share change vs honest twin (pp)",
        annotations=annot,
        marks=marks,
        vline=(pos_c, "break-even challenge rate") if pos_c is not None else None,
        height=_heatmap_height(result),
    )
    return Chart("bluff-gain-heatmap", figure, cap, "heatmap of the bluffer's win-share gain by bluff and challenge rate")


def _value_heatmap(result: BluffResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    v = result.value_ci
    half = 50 * (v[:, :, 2] - v[:, :, 1])
    annot = np.array(
        [
            ["" if j == 0 else f"{100 * v[i, j, 0]:+.1f}\n±{half[i, j]:.1f}" for j in range(len(result.cvals))]
            for i in range(len(result.bvals))
        ]
    )
    cap = _caption(
        result,
        "Each opponent's win share at challenge rate c minus at c = 0, same deals, in percentage points",
        "± is the half-width of each cell's paired 95% interval (full intervals in bluff-gain.csv)",
    )
    figure = plots.heatmap(
        100 * v[:, :, 0],
        [f"{c:g}" for c in result.cvals],
        _ylabels(result),
        title="Does challenging pay for the victims? Opponent's win-share change (pp)",
        xlabel="opponents' challenge rate",
        ylabel="bluffer's bluff rate",
        caption=cap,
        colour_label="win-share change per opponent vs never challenging (pp)",
        annotations=annot,
        height=_heatmap_height(result),
    )
    return Chart("challenge-value-heatmap", figure, cap, "heatmap of the value of challenging for each opponent")


def _gain_lines(result: BluffResult) -> Chart:
    from unocli.report import plots  # matplotlib only when drawing

    g, bvals = result.gain_ci, result.bvals
    picks = sorted({len(bvals) - 1, max(1, len(bvals) // 2), 1})
    series = [plots.Series(f"bluff rate {bvals[i]:g}", 100 * g[i, :, 0], 100 * g[i, :, 1], 100 * g[i, :, 2]) for i in picks]
    cap = _caption(
        result, "Bluffer's win-share change against its honest twin by challenge rate", "bands are paired 95% t intervals"
    )
    figure = plots.line_chart(
        result.cvals,
        series,
        title="Bluffer's gain against its honest twin",
        xlabel="opponents' challenge rate",
        ylabel="win-share change vs honest twin (pp)",
        hline=0.0,
        hline_label="no gain",
        caption=cap,
    )
    return Chart("bluff-gain-lines", figure, cap, "bluffer's gain by challenge rate")


def _gain_table(result: BluffResult) -> TableBlock:
    return TableBlock(
        "bluff-gain",
        "Bluffer's win-share change against its honest twin, percentage points (* significant after Holm)",
        _pivot(result),
        result.grid,
        f"n = {fmt.count(result.deals)} paired deals per cell; full intervals and p-values in the CSV.",
    )


def _break_even_table(result: BluffResult) -> TableBlock:
    top, reps = result.cvals[-1], result.replicates
    rates = result.break_even_by_rate
    texts = [rate_ci_text(lo, hi, top, reps) for lo, hi in zip(rates["ci_low"], rates["ci_high"], strict=True)]
    data = pd.DataFrame(
        {"bluff_rate": rates["bluff_rate"], "break_even_challenge": rates["break_even_challenge"], "ci": texts, "n": rates["n"]}
    )
    shown = data.assign(
        break_even_challenge=data["break_even_challenge"].map(lambda x: rate_text(x, top)), n=data["n"].map(fmt.count)
    )
    return TableBlock("break-even", "Break-even challenge rate by bluff rate (bootstrap 95% CI)", shown, data)


def _per_bluff_shown(result: BluffResult) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "challenge rate": f"{r.challenge_rate:g}",
                "share of bluffs caught": fmt.share_ci(r.caught, r.caught_low, r.caught_high, 1),
                "cards the bluffer draws per bluff": fmt.fixed(4 * r.caught, 2),
                "cards the victim draws per bluff": fmt.fixed(4 * (1 - r.caught), 2),
            }
            for r in result.per_bluff.itertuples()
        ]
    )


def _equilibrium_table(result: BluffResult) -> TableBlock:
    eq = result.equilibrium
    bi, cj = eq.nearest
    shown = pd.DataFrame(
        [
            {
                "bluff rate [spread]": fmt.interval(eq.bluff_rate, eq.bluff_low, eq.bluff_high, 2),
                "challenge rate [spread]": fmt.interval(eq.challenge_rate, eq.challenge_low, eq.challenge_high, 2),
                "bluffer's win share [spread]": fmt.share_ci(eq.value, eq.value_low, eq.value_high, 2),
                "nearest grid point": cell(result.bvals[bi], result.cvals[cj]),
                "bluffer's gain from deviating there [spread]": fmt.pp_ci(*eq.bluffer_gain, 2),
                "an opponent's gain from deviating there [spread]": fmt.pp_ci(*eq.opponent_gain, 2),
            }
        ]
    )
    data = pd.DataFrame(
        [
            {
                "bluff_rate": eq.bluff_rate,
                "bluff_low": eq.bluff_low,
                "bluff_high": eq.bluff_high,
                "challenge_rate": eq.challenge_rate,
                "challenge_low": eq.challenge_low,
                "challenge_high": eq.challenge_high,
                "value": eq.value,
                "n": result.deals,
                "replicates": result.replicates,
                "bounds": "middle 95% of the equilibrium over block-bootstrap resamples (a spread, not a CI)",
            }
        ]
    )
    path = " -> ".join(f"(b={result.bvals[i]:g}, c={result.cvals[j]:g})" for i, j in eq.path)
    return TableBlock(
        "equilibrium",
        "Equilibrium of the blind bluff rate and the shared challenge rate on the grid (fictitious play)",
        shown,
        data,
        f"Brackets are the spread of the equilibrium over {result.replicates} block-bootstrap resamples of the deals "
        "(the middle 95%), not confidence intervals: an equilibrium is an argmax, and a percentile range around an "
        "argmax covers nothing at a known rate. This game has the three opponents share one rate; the best-response "
        f"tables above let each seat deviate alone. Plain alternating best responses from (0, 0): {path}.",
    )


def _others_table(result: BluffResult) -> TableBlock:
    others, top = result.others, max(result.bvals)
    shown = pd.DataFrame(
        {
            "players": others["players"],
            "challenge rate": others["challenge_rate"].map("{:g}".format),
            f"gain of bluffing at rate {top:g} [paired 95% CI]": [
                fmt.pp_ci(d, lo, hi, 2) for d, lo, hi in zip(others["diff"], others["diff_low"], others["diff_high"], strict=True)
            ],
            "n (paired deals)": others["n"].map(fmt.count),
            "p (Holm)": others["p_holm"].map(fmt.pvalue),
        }
    )
    return TableBlock(
        "other-table-sizes",
        "Bluffing at every chance against never and always challenging opponents, other table sizes (paired on the same deals)",
        shown,
        others,
    )


def _findings(result: BluffResult) -> list[str]:
    cvals, top, n = result.cvals, len(result.bvals) - 1, result.players
    never, always = result.gain_ci[top, 0], result.gain_ci[top, -1]
    out = [
        f"Against opponents who never challenge, bluffing at every chance (b={result.bvals[top]:g}) changes the "
        f"bluffer's win share by {fmt.pp_ci(never[0], never[1], never[2], 2)} (paired 95% interval, {n} players, "
        f"n = {fmt.count(result.deals)} deals).",
        f"Against opponents who always challenge (c={cvals[-1]:g}), the same bluffing changes it by "
        f"{fmt.pp_ci(always[0], always[1], always[2], 2)}.",
        _break_even_finding(result),
    ]
    pb = result.per_bluff
    half = int(np.argmin(abs(cvals - 0.5)))
    out.append(
        f"A bluff is caught about as often as it is challenged (share caught at c={cvals[half]:g}: "
        f"{fmt.share(pb['caught'].iloc[half], 0)}): a caught bluff costs the bluffer 4 cards, an uncaught one costs the "
        f"victim 4, so counted in cards alone a bluff breaks even at a challenge rate of one half."
    )
    out.append(
        "A bluff does not add a +4 to the game: it plays earlier a card the honest twin keeps for when it holds "
        "nothing of the current colour, and then plays anyway. What that is worth at one decision is in the decision "
        "table (a policy's whole effect divided by its bluffs mixes how often a position occurs with its value, so it "
        "is not reported)."
    )
    v = result.value_ci[top, -1]
    out.append(
        f"For the victims, always challenging an always-bluffing seat 0 is worth {fmt.pp_ci(v[0], v[1], v[2], 2)} "
        f"of win share per opponent on average; per seat it is not shared evenly:"
    )
    out += per_seat_findings(result.per_seat, result.exp.margins["win_share_pp"])
    eq = result.equilibrium
    kind = "cycle" if eq.path[-1] != eq.path[-2] else "settle"
    out.append(
        f"Equilibrium (neither side gains by changing its rate): bluff rate {eq.bluff_rate:.2f}, challenge rate "
        f"{eq.challenge_rate:.2f}, when the three opponents share one challenge rate and the bluffer bluffs blind "
        "(the equilibrium table gives the spread of these over bootstrap resamples, not a confidence interval); plain "
        f"alternating best responses between grid points {kind}."
    )
    return out


def _break_even_finding(result: BluffResult) -> str:
    c_star, c_text = result.break_even, _break_even_text(result)
    if math.isfinite(c_star):
        return (
            f"Bluffing a +4 stops paying once opponents challenge more than {c_star:.2f} of +4s "
            f"(95% CI {c_text}; pooled over bluff rates)."
        )
    if c_star < 0:
        return (
            f"Bluffing a +4 does not pay at any challenge rate, not even against opponents who never "
            f"challenge, so there is no break-even challenge rate {c_text}."
        )
    return f"Bluffing pays at every challenge rate of the grid (break-even rate {c_text})."
