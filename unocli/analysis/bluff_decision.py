"""The bluff at the decision: holding a +4 and a card of the colour, is the +4 now worth more than the best other card?

Games are played by a field (every seat the field's policy, nobody bluffing);
every turn where the acting seat could bluff is measured by rollouts
(:mod:`unocli.kernel.bluff_decision`): the round-win value of the +4 now
(its best colour) minus that of the best other legal card, against a victim
who challenges with probability c, for c in :data:`RATES` and the best-response
challenge rate of the grid (its equilibrium's), a column of its own only when it
is not one of the rates (:func:`challengers`: a column of the same probability
would be the same cells twice, counted twice in every family). The positions
are grouped by situation, the bands of :mod:`unocli.analysis.bluff_play` (the
victim's hand, the bluffer's own, the +4 included).

A game gives several positions (a seat holds its +4 over several turns), so a
cell's interval is clustered by game (CR1 sandwich: the positions' deviations
summed per game; t with games - 1 degrees of freedom). Every cell of the
table, every field, is one family: verdicts read the simultaneous
(Bonferroni) interval through :func:`unocli.study.stats.equivalence`, and
p-values against 0 are Holm-adjusted over the family.

Every field plays the same deals (game ``i`` of the same seed), so a cell's
value under two fields is compared deal by deal: :func:`clustered_difference`
clusters both fields' positions by the deal they came from
(:func:`interactions`, one family over every cell and pair of fields).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from unocli.analysis.bluff_play import ANY, BIG, CHALLENGE_RESET, NEXT_BANDS, OWN_BANDS, Play, challenging
from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.study.interaction import judge_family
from unocli.study.stats import Difference, equivalence, holm, t_quantile, t_sf

#: The victim's challenge probabilities measured (the best-response rate is added to them when it is not one).
RATES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
BEST = "best response"
# A best-response rate this close to one of RATES is that rate (the grid's equilibrium is a mixture's mean).
SAME_RATE = 1e-9
#: The own-hand bands of the fine situations (``any`` pools them).
FINE_OWN = tuple(band for band in OWN_BANDS if band[0] != ANY)
#: Game indices of the measurement start here: deals no other study of the bluff report plays.
START = 1 << 40
# A cell needs this many games for its interval: the clustered standard error leans on many clusters (with a few,
# t(G - 1) understates it); a cell with fewer is shown with its n and no interval or verdict.
MIN_GAMES = 30


def responders(field: Policy) -> tuple[Policy, Policy]:
    """The victim's answer to the measured +4: the field's policy accepting it, and challenging it."""
    return challenging(field, CHALLENGE_RESET), challenging(field, {**CHALLENGE_RESET, "challenge": 1.0})


def measure(play: Play, rules: Rules, name: str, field: Policy, games: int, budget: int) -> pd.DataFrame:
    """The measured positions of ``games`` fresh deals played by ``field``: one row each (kernel COLUMNS + field)."""
    from unocli.kernel.bluff_decision import COLUMNS, decisions

    accept, challenge = responders(field)
    play.log(f"{play.name}: decisions, field {name}: {games:,} games, {budget} + {budget} rollouts per option")
    rows = decisions(
        rules, field, accept, challenge, seed=play.seed, start=START, count=games, budget=budget, threads=play.threads
    )
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame.insert(0, "field", name)
    return frame


def values(rows: pd.DataFrame, c: float, budget: int) -> np.ndarray:
    """Per position: the +4 now minus the best other card, in win share, against a victim challenging with probability c.

    The +4's colour is the one best at c on the selection rollouts (ties to the first); its value is
    (1 - c) x accepted + c x challenged on the evaluation rollouts, exact per rollout.
    """
    sel = np.stack(
        [(1 - c) * rows[f"accept_select_{k}"].to_numpy() + c * rows[f"challenge_select_{k}"].to_numpy() for k in range(4)]
    )
    colour = np.argmax(sel, axis=0)  # argmax: the first of ties
    acc = np.stack([rows[f"accept_{k}"].to_numpy() for k in range(4)])[colour, np.arange(len(rows))]
    cha = np.stack([rows[f"challenge_{k}"].to_numpy() for k in range(4)])[colour, np.arange(len(rows))]
    return ((1 - c) * acc + c * cha - rows["alt"].to_numpy()) / budget


def clustered_mean(x: np.ndarray, clusters: np.ndarray, level: float = 0.95) -> Difference:
    """The mean of ``x`` with a standard error clustered by ``clusters`` (CR1), t with (clusters - 1) df.

    Var = G / (G - 1) x sum over clusters of (sum of x_i - mean)^2 / n^2: the intercept-only regression's
    cluster-robust variance with the G / (G - 1) small-sample factor.
    """
    n = len(x)
    mean = float(np.mean(x))
    groups = pd.Series(x - mean).groupby(np.asarray(clusters)).sum().to_numpy()
    g = len(groups)
    if g < MIN_GAMES:
        return Difference(mean, math.nan, n, math.nan, math.nan, math.nan, math.nan)
    se = math.sqrt(g / (g - 1) * float(np.sum(groups**2))) / n
    df = float(g - 1)
    half = t_quantile(1 - (1 - level) / 2, df) * se
    p = 2 * t_sf(abs(mean) / se, df) if se > 0 else float(mean != 0)
    return Difference(mean, se, n, mean - half, mean + half, min(1.0, p), df, level=level)


def clustered_difference(
    x: np.ndarray, x_clusters: np.ndarray, y: np.ndarray, y_clusters: np.ndarray, level: float = 0.95
) -> Difference:
    """mean(``x``) - mean(``y``) with a CR1 standard error over the clusters of both (the deals they share).

    The regression of the stacked values on an intercept and a group dummy, clustered: its slope's variance is
    G / (G - 1) x sum over clusters g of (sum of (x_i - mean x) / n_x - sum of (y_i - mean y) / n_y)^2, G the
    clusters either sample has; t with G - 1 df. ``n`` of the result is G.
    """
    mx, my = float(np.mean(x)), float(np.mean(y))
    ux = pd.Series((x - mx) / len(x)).groupby(np.asarray(x_clusters)).sum()
    uy = pd.Series((y - my) / len(y)).groupby(np.asarray(y_clusters)).sum()
    u = ux.sub(uy, fill_value=0.0).to_numpy()
    g, diff = len(u), mx - my
    if g < MIN_GAMES:
        return Difference(diff, math.nan, g, math.nan, math.nan, math.nan, math.nan)
    se = math.sqrt(g / (g - 1) * float(np.sum(u**2)))
    df = float(g - 1)
    half = t_quantile(1 - (1 - level) / 2, df) * se
    p = 2 * t_sf(abs(diff) / se, df) if se > 0 else float(diff != 0)
    return Difference(diff, se, g, diff - half, diff + half, min(1.0, p), df, level=level)


def situations() -> list[tuple[str, str, int, int, int, int]]:
    """(next band, own band, next min, next max, own min, own max): the fine cells, each next band pooled, everything."""
    cells = [(nb, ob, nlo, nhi, olo, ohi) for nb, nlo, nhi in NEXT_BANDS for ob, olo, ohi in FINE_OWN]
    cells += [(nb, ANY, nlo, nhi, 1, BIG) for nb, nlo, nhi in NEXT_BANDS]
    return [*cells, (ANY, ANY, 1, BIG, 1, BIG)]


def best_column(best: float) -> str | None:
    """The name of the rate's column whose challenge probability is the best response's, or None (none is)."""
    return next((f"{c:g}" for c in RATES if math.isclose(c, best, rel_tol=0.0, abs_tol=SAME_RATE)), None)


def challengers(best: float) -> list[tuple[str, float]]:
    """(name, challenge probability) of every column: the rates, then the best response when its probability is not
    already a column's (:func:`best_column`): each distinct probability is read, shown, counted and adjusted for
    once."""
    rates = [(f"{c:g}", c) for c in RATES]
    return rates if best_column(best) is not None else [*rates, (BEST, best)]


def _cells(sub: pd.DataFrame, budget: int, best: float):
    """(challenger, rate, situation, its values and games) of one field's positions, every cell with a position."""
    for name, c in challengers(best):
        v = values(sub, c, budget)
        for nb, ob, nlo, nhi, olo, ohi in situations():
            mask = sub["next_hand"].between(nlo, nhi).to_numpy() & sub["own_hand"].between(olo, ohi).to_numpy()
            yield name, c, nb, ob, v[mask], sub["game"].to_numpy()[mask]


def table(rows: pd.DataFrame, budget: int, best: float, margin_pp: float) -> pd.DataFrame:
    """One row per field x situation x challenger: n positions and games, the mean in pp, its 95% clustered interval,
    the simultaneous interval over the whole table, the Holm-adjusted p and the verdict (margin in pp)."""
    out, diffs = [], []
    for field in rows["field"].drop_duplicates():
        for name, c, nb, ob, v, games in _cells(rows[rows["field"] == field], budget, best):
            n_games = len(np.unique(games))
            if n_games == 0:
                continue
            d = clustered_mean(v, games)
            diffs.append(d)
            out.append(
                {"field": field, "next_hand": nb, "own_hand": ob, "challenger": name, "challenge_rate": c}
                | {"n_positions": len(v), "n_games": n_games, "value_pp": 100 * d.diff}
                | {"ci_low": 100 * d.low, "ci_high": 100 * d.high, "p": d.p, "se_pp": 100 * d.se}
            )
    frame = pd.DataFrame(out)
    if not len(frame):
        return frame
    # the family: every cell with an interval, every field
    ok = frame["n_games"].to_numpy() >= MIN_GAMES
    family = int(ok.sum())
    judged = [equivalence(d, margin_pp / 100, family=family) if k else None for d, k in zip(diffs, ok, strict=True)]
    frame["sim_low"] = [100 * e.low if e else math.nan for e in judged]
    frame["sim_high"] = [100 * e.high if e else math.nan for e in judged]
    frame["sim_level"] = [e.level if e else math.nan for e in judged]
    frame["p_holm"] = math.nan
    if family:
        frame.loc[ok, "p_holm"] = holm(frame.loc[ok, "p"].to_numpy())
    frame["verdict"] = [e.verdict if e else None for e in judged]
    # the standard error last: a table's checks read the number before an interval as its point
    return frame[[c for c in frame.columns if c != "se_pp"] + ["se_pp"]]


def interactions(rows: pd.DataFrame, budget: int, best: float, margin_pp: float) -> pd.DataFrame:
    """Every cell's value under one field minus under another (:func:`clustered_difference`, clustered by deal),
    for every pair of fields; one family over the cells where both fields saw :data:`MIN_GAMES` games, in pp."""
    fields = list(rows["field"].drop_duplicates())
    cells = {f: list(_cells(rows[rows["field"] == f], budget, best)) for f in fields}
    found = []
    for a, b in combinations(fields, 2):
        for (name, _, nb, ob, va, ga), (_, _, _, _, vb, gb) in zip(cells[a], cells[b], strict=True):
            if len(np.unique(ga)) >= MIN_GAMES and len(np.unique(gb)) >= MIN_GAMES:
                found.append(((name, nb, ob), a, b, clustered_difference(va, ga, vb, gb)))
    keys = ("challenger", "next_hand", "own_hand")
    return pd.DataFrame(
        [
            dict(zip(keys, i.key, strict=True))
            | {"field_a": i.field_a, "field_b": i.field_b, "interaction_pp": 100 * i.diff}
            | {"sim_low": 100 * i.low, "sim_high": 100 * i.high, "sim_level": i.level, "margin_pp": 100 * i.margin}
            | {"verdict": i.verdict, "n_games": i.n, "p": i.p, "p_holm": i.p_holm, "family": i.family}
            for i in judge_family(found, margin_pp / 100)
        ]
    )


@dataclass(frozen=True)
class DecisionResult:
    """The measured positions (``rows``, kernel columns with ``field``), the decision table (:func:`table`) and the
    fields' interactions (:func:`interactions`)."""

    players: int
    games: dict[str, int]
    budget: int
    best_rate: float
    margin_pp: float
    rows: pd.DataFrame
    table: pd.DataFrame
    between: pd.DataFrame

    @property
    def fields(self) -> list[str]:
        return list(self.games)


def play_decisions(
    play: Play, rules: Rules, fields: Sequence[tuple[str, Policy]], best: float, games: int, budget: int, margin_pp: float
) -> DecisionResult:
    """Measure the positions of ``games`` fresh deals under every field and build the decision table."""
    frames = [measure(play, rules, name, policy.replace(bluff=0.0), games, budget) for name, policy in fields]
    rows = pd.concat(frames, ignore_index=True)
    return DecisionResult(
        players=rules.players,
        games={name: games for name, _ in fields},
        budget=budget,
        best_rate=best,
        margin_pp=margin_pp,
        rows=rows,
        table=table(rows, budget, best, margin_pp),
        between=interactions(rows, budget, best, margin_pp),
    )
