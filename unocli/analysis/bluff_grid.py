"""The grid of blind bluff rates against a shared challenge rate, and its game theory.

Every cell of the grid bluff rate b x challenge rate c is one arm: seat 0 plays
the bluffer's policy with ``bluff = b``; every other seat plays the opponents'
policy with ``challenge = c`` and never bluffs. All cells are played on the
same deals, so:

- the bluffer's gain is its win share minus that of its *honest twin*
  (``b = 0``, same c, same deals): a paired difference;
- the value of challenging for the victims is an opponent's win share at
  (b, c) minus at (b, 0), also paired;
- the break-even challenge rate is where the gain, averaged over the bluff
  rates above 0, crosses zero (linear interpolation between grid points);
- the equilibrium is found by fictitious play (:func:`fictitious_play`, which
  converges in a zero-sum game such as this one: the opponents win exactly
  when the bluffer does not, up to blocked rounds); plain alternating best
  responses between grid points (:func:`pure_path`) cycle when no grid point
  is stable.

Uncertainty of the break-even rate and the share of bluffs caught comes from a
bootstrap over blocks of deals, which keeps the pairing. The equilibrium is an
argmax-like figure: its bootstrap range is the spread of the equilibrium over
resamples, not a confidence interval.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from unocli.analysis.bluff_play import Play, run
from unocli.analysis.verdicts import add_verdicts
from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.study.arm import Arm
from unocli.study.compare import Comparison
from unocli.study.stats import holm

FP_ITERATIONS = 3000
QUANTITIES = ("win_0", "lose_0", "won", "bluffs", "challenges", "challenges_won", "plus4_played", "cards_left_0")


# ---------------------------------------------------------------- game theory on a grid


def fictitious_play(w: np.ndarray, iterations: int = FP_ITERATIONS) -> tuple[np.ndarray, np.ndarray]:
    """Mixtures over rows (maximiser) and columns (minimiser) after alternating best responses to the
    other side's history; ``w`` is ``[..., rows, cols]`` (leading axes are independent games)."""
    lead = w.shape[:-2]
    rows, cols = w.shape[-2:]
    cr = np.zeros((*lead, rows))
    cc = np.zeros((*lead, cols))
    cr[..., 0] = 1
    cc[..., 0] = 1
    flat_r, flat_c = cr.reshape(-1, rows), cc.reshape(-1, cols)
    ww = w.reshape(-1, rows, cols)
    at = np.arange(ww.shape[0])
    for _ in range(iterations):
        i = np.argmax(np.einsum("grc,gc->gr", ww, flat_c), axis=1)
        flat_r[at, i] += 1
        j = np.argmin(np.einsum("gr,grc->gc", flat_r, ww), axis=1)
        flat_c[at, j] += 1
    return cr / cr.sum(axis=-1, keepdims=True), cc / cc.sum(axis=-1, keepdims=True)


def pure_path(w: np.ndarray) -> list[tuple[int, int]]:
    """Alternating pure best responses from (0, 0) until a grid point repeats."""
    i, j = 0, 0
    seen = [(i, j)]
    while True:
        i = int(np.argmax(w[:, j]))
        j = int(np.argmin(w[i, :]))
        if (i, j) in seen:
            return [*seen, (i, j)]
        seen.append((i, j))


def crossing(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Where each row of ``ys`` first falls from above 0 to 0 or below (interpolated between grid points).

    ``-inf``: at or below 0 already at ``xs[0]`` (bluffing never pays); ``inf``: never falls (always pays).
    """
    ys = np.atleast_2d(ys)
    out = np.full(ys.shape[0], np.inf)
    for r, y in enumerate(ys):
        if y[0] <= 0:
            out[r] = -np.inf
            continue
        below = np.flatnonzero(y <= 0)
        if below.size:
            k = below[0]
            out[r] = xs[k - 1] + (xs[k] - xs[k - 1]) * y[k - 1] / (y[k - 1] - y[k])
    return out


def rate_bounds(samples: np.ndarray) -> tuple[float, float]:
    """Percentile interval of bootstrap break-even rates, which may be -inf or inf."""
    s = np.sort(np.asarray(samples, float))
    return float(s[int(0.025 * (len(s) - 1))]), float(s[int(np.ceil(0.975 * (len(s) - 1)))])


def spread(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """The middle ``level`` of bootstrap replicates (the finite ones)."""
    s = np.asarray(samples, float)
    s = s[np.isfinite(s)]
    if s.size == 0:
        return (math.nan, math.nan)
    a = (1 - level) / 2
    return float(np.quantile(s, a)), float(np.quantile(s, 1 - a))


# ---------------------------------------------------------------- the typed result


@dataclass(frozen=True)
class Equilibrium:
    """Fictitious play on the grid of win shares, with its spread over bootstrap resamples.

    ``nearest`` is the grid point (row, column) nearest the mixed equilibrium;
    ``bluffer_gain`` and ``opponent_gain`` what either side gains by deviating
    there (win share; an opponent's per opponent); ``path`` the plain
    alternating best responses between grid points from (0, 0).
    """

    bluff_rate: float
    bluff_low: float
    bluff_high: float
    challenge_rate: float
    challenge_low: float
    challenge_high: float
    value: float
    value_low: float
    value_high: float
    nearest: tuple[int, int]
    bluffer_gain: tuple[float, float, float]
    opponent_gain: tuple[float, float, float]
    path: list[tuple[int, int]]


@dataclass(frozen=True)
class Grid:
    """The bluff x challenge grid at one table size, and its corners at the other sizes.

    Arrays are ``[bluff rate, challenge rate]``: ``gain`` is the bluffer's win
    share minus its honest twin's (b = 0, same c), ``gain_ci`` the paired
    difference with its interval ``[..., (diff, low, high)]``, ``value_ci``
    each opponent's win-share change against never challenging (c = 0, same
    b), ``p_holm`` the Holm-adjusted p-values of the gains (1 for b = 0).
    ``table`` holds all of it per cell. ``break_even`` is the challenge rate
    where the gain pooled over b > 0 crosses 0 (``-inf``: never pays; ``inf``:
    pays on the whole grid) with bootstrap bounds; ``break_even_by_rate`` per
    bluff rate. ``per_bluff``: per challenge rate, the share of bluffs caught
    (pooled over b > 0). ``others``: the gain of bluffing at the top rate
    against c = 0 and the top c at every table size (empty without other
    sizes). ``per_seat``: the effects of challenging and of bluffing on every
    seat's win share, with simultaneous intervals and verdicts (margin in pp).
    """

    players: int
    bvals: np.ndarray
    cvals: np.ndarray
    deals: int
    replicates: int
    gain: np.ndarray
    gain_ci: np.ndarray
    value_ci: np.ndarray
    p_holm: np.ndarray
    table: pd.DataFrame
    break_even: float
    break_even_low: float
    break_even_high: float
    break_even_by_rate: pd.DataFrame
    per_bluff: pd.DataFrame
    equilibrium: Equilibrium
    others: pd.DataFrame
    per_seat: pd.DataFrame
    games: int
    gains: pd.DataFrame


def cell(b: float, c: float) -> str:
    return f"b={b:g},c={c:g}"


def play_grid(
    play: Play,
    rules: Mapping[int, Rules],
    bvals: np.ndarray,
    cvals: np.ndarray,
    bluffer: Policy,
    opponent: Policy,
    replicates: int,
    margin_pp: float,
) -> Grid:
    """Play the grid at the first table size of ``rules`` and the corners at the others; derive gains, break-even
    rates, the share of bluffs caught and the equilibrium (``replicates`` block-bootstrap resamples)."""
    n = next(iter(rules))
    arms, idx = grid_arms(rules[n], bvals, cvals, bluffer, opponent)
    pairs = [(cell(b, c), cell(0.0, c)) for b in bvals[1:] for c in cvals]
    pairs += [(cell(b, c), cell(b, 0.0)) for b in bvals for c in cvals[1:]]
    label = f"{len(bvals)} bluff x {len(cvals)} challenge rates"
    quantities = (*QUANTITIES, *(f"win_{s}" for s in range(1, n)))
    comp = run(play, arms, quantities=quantities, pairs=pairs, metric="win_0", label=label)
    q = {name: comp.quantities.index(name) for name in QUANTITIES}
    means, boot = comp.means(), comp.boot_means(replicates, seed=play.seed % (2**32))
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
    others = _other_sizes(play, rules, bluffer, opponent, gain_ci, pvals, cvals, comp.games, bvals[-1])
    # each other table size played 4 corner arms on the n deals of its 2 rows
    extra = 2 * int(others[others["players"] != n]["n"].sum()) if len(others) else 0
    return Grid(
        gains=_gains(comp, bvals, cvals, margin_pp),
        players=n,
        bvals=bvals,
        cvals=cvals,
        deals=comp.games,
        replicates=replicates,
        gain=gain,
        gain_ci=gain_ci,
        value_ci=value_ci,
        p_holm=p_holm,
        table=_grid_table(comp, arms, idx, bvals, cvals, gain_ci, value_ci, p_holm, means, q),
        break_even=c_star,
        break_even_low=c_lo,
        break_even_high=c_hi,
        break_even_by_rate=pd.DataFrame(rows).assign(n=comp.games),
        per_bluff=_per_bluff(means, boot, idx, q, cvals, comp.games),
        equilibrium=_equilibrium(w, wb, bvals, cvals, n),
        others=others,
        per_seat=_per_seat(comp, bvals, cvals, n, margin_pp),
        games=comp.games * len(arms) + extra,
    )


def seat_role(seat: int) -> str:
    """Seat ``seat`` relative to the bluffer at seat 0 (play starts in direction +1)."""
    return {0: "bluffer (seat 0)", 1: "next player (seat 1)"}.get(seat, f"seat {seat} ({seat} places after the bluffer)")


def _per_seat(comp: Comparison, bvals: np.ndarray, cvals: np.ndarray, n: int, margin_pp: float) -> pd.DataFrame:
    """Every seat's win-share change from challenging (top c vs 0, at the top b) and from bluffing (top b vs 0, at c = 0
    and the top c): who gains and who pays, not only the pooled opponents; verdicts over the table's rows."""
    b, c = float(bvals[-1]), float(cvals[-1])
    effects = [
        (f"challenging: c={c:g} vs c=0, at b={b:g}", cell(b, c), cell(b, 0.0)),
        (f"bluffing: b={b:g} vs b=0, at c=0", cell(b, 0.0), cell(0.0, 0.0)),
        (f"bluffing: b={b:g} vs b=0, at c={c:g}", cell(b, c), cell(0.0, c)),
    ]
    rows, diffs = [], []
    for what, arm, ref in effects:
        won = comp.diff(arm, ref, "won").diff  # rounds anybody won (not blocked): the seats' changes sum to it
        for seat in range(n):
            d = comp.diff(arm, ref, f"win_{seat}")
            diffs.append(d)
            rows.append({"effect": what, "seat": seat, "role": seat_role(seat), "n": d.n, "diff": d.diff})
            rows[-1] |= {"diff_low": d.low, "diff_high": d.high, "p": d.p, "won_diff": won}
    table = pd.DataFrame(rows)
    add_verdicts(table, diffs, "win", margin_pp, scale=100)
    return table


def _gains(comp: Comparison, bvals: np.ndarray, cvals: np.ndarray, margin_pp: float) -> pd.DataFrame:
    """The bluffer's gain in every cell with b > 0 (pp), judged as one family on simultaneous intervals: the
    differences a heatmap of the grid shows (bluff_rate, challenge_rate, n, diff, sim_low, sim_high, verdict)."""
    keys = [(b, c) for b in bvals[1:] for c in cvals]
    diffs = [comp.diff(cell(b, c), cell(0.0, c), "win_0") for b, c in keys]
    table = pd.DataFrame({"bluff_rate": [b for b, _ in keys], "challenge_rate": [c for _, c in keys]})
    table["n"] = [d.n for d in diffs]
    table["diff"] = [100 * d.diff for d in diffs]
    add_verdicts(table, diffs, "gain", margin_pp, scale=100)
    return table.assign(sim_low=100 * table["gain_sim_low"], sim_high=100 * table["gain_sim_high"], verdict=table["gain_verdict"])


def grid_arms(
    rules: Rules, bvals: np.ndarray, cvals: np.ndarray, bluffer: Policy, opponent: Policy
) -> tuple[list[Arm], np.ndarray]:
    """One arm per cell, and the arm index of each cell ``[bluff rate, challenge rate]``."""
    n = rules.players
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
                d = comp.diff(cell(b, c), cell(0.0, c), "win_0")
                gain_ci[i, j], pvals[i, j] = (d.diff, d.low, d.high), d.p
            if j:
                d = comp.diff(cell(b, c), cell(b, 0.0), "lose_0")
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
            m = comp.mean(arms[k].name, "win_0")
            rows.append(
                {"bluff_rate": b, "challenge_rate": c, "n": comp.games, "win_share": m.mean, "win_low": m.low}
                | {"win_high": m.high, "gain_vs_honest": gain_ci[i, j, 0], "gain_low": gain_ci[i, j, 1]}
                | {"gain_high": gain_ci[i, j, 2], "p_holm": p_holm[i, j] if i else math.nan}
                | {"challenge_value_per_opponent": value_ci[i, j, 0], "value_low": value_ci[i, j, 1]}
                | {"value_high": value_ci[i, j, 2], "bluffs_per_round": means[k, q["bluffs"]]}
                | {"caught_per_round": means[k, q["challenges_won"]]}
            )
    return pd.DataFrame(rows)


def _per_bluff(
    means: np.ndarray, boot: np.ndarray, idx: np.ndarray, q: dict[str, int], cvals: np.ndarray, games: int
) -> pd.DataFrame:
    """Per challenge rate, pooled over bluff rates > 0: the share of bluffs caught (a policy's change of win share or
    cards divided by its bluffs is not one: it mixes how often a position occurs with what a bluff there is worth)."""

    def caught(m: np.ndarray) -> np.ndarray:
        bl = m[..., idx[1:], q["bluffs"]].sum(axis=-2)
        won = m[..., idx[1:], q["challenges_won"]].sum(axis=-2)
        with np.errstate(invalid="ignore", divide="ignore"):
            return won / bl

    point, reps = caught(means), caught(boot)
    rows = []
    for j, c in enumerate(cvals):
        lo, hi = spread(reps[:, j])
        rows.append({"challenge_rate": c, "n": games, "caught": point[j], "caught_low": lo, "caught_high": hi})
    return pd.DataFrame(rows)


def _equilibrium(w: np.ndarray, wb: np.ndarray, bvals: np.ndarray, cvals: np.ndarray, n: int) -> Equilibrium:
    """Fictitious play on the point estimate and on each bootstrap replicate."""
    p_mix, q_mix = fictitious_play(w)
    b_eq, c_eq = float(p_mix @ bvals), float(q_mix @ cvals)
    pb, qb = fictitious_play(wb)
    b_eq_b, c_eq_b = pb @ bvals, qb @ cvals
    value_b = np.einsum("gr,grc,gc->g", pb, wb, qb)
    bi, cj = int(np.argmin(abs(bvals - b_eq))), int(np.argmin(abs(cvals - c_eq)))
    gbl = spread(wb[:, :, cj].max(axis=1) - wb[:, bi, cj])
    gop = spread((wb[:, bi, cj] - wb[:, bi, :].min(axis=1)) / (n - 1))
    v_lo, v_hi = spread(value_b)
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
    play: Play,
    rules: Mapping[int, Rules],
    bluffer: Policy,
    opponent: Policy,
    gain_ci: np.ndarray,
    pvals: np.ndarray,
    cvals: np.ndarray,
    deals: int,
    top: float,
) -> pd.DataFrame:
    """The corners (bluff 0 or the top rate, challenge 0 or the top rate) at the other table sizes of ``rules``,
    with the first size's corners first; empty when there are no other sizes."""
    n, c_top = next(iter(rules)), float(cvals[-1])
    rows = []
    for p, at in list(rules.items())[1:]:
        arms = [
            Arm(cell(b, c), at, (bluffer.replace(bluff=b),) + (opponent.replace(challenge=c, bluff=0.0),) * (p - 1))
            for b in (0.0, top)
            for c in (0.0, c_top)
        ]
        pairs = [(cell(top, c), cell(0.0, c)) for c in (0.0, c_top)]
        comp = run(play, arms, quantities=("win_0",), pairs=pairs, metric="win_0", label=f"{p} players, corners")
        for c in (0.0, c_top):
            d = comp.diff(cell(top, c), cell(0.0, c), "win_0")
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
