"""A ladder: policies rated by a Luce (first-place Plackett-Luce) model fitted to tables played on common deals.

Tables (:func:`plan_tables`): for every ordered pair of policies (A, B), one A
against a field of B at every other seat (at two players each unordered pair
once: heads-up, the two orders are the same table once seats rotate); and, at
three or more players, *mixed* tables that seat the policies in turn (seat s
of mixed table m plays policy ``(m * n + s) mod k``), so each policy sits as
often as any other and meets every other one. Every table plays the same deals
``0 .. games - 1`` of the seed, each once per rotation of the seats, through
the simulation shards (:func:`unocli.run.shards.run_shard`). The ratings are
fitted to the field tables (and a lone-only policy's tables), where swapping
two policies swaps their tables; a mixed table keeps each policy beside the
same neighbours, so its shares are a check of the model, not part of its fit.

Model: in a round with a winner, seat i wins with probability
``exp(r_i) / sum_j exp(r_j)`` over the table's seats, ``r`` the rating of the
seat's policy. No seat term: every deal is played once per rotation, so each
policy sits at every seat equally often and a seat effect adds the same factor
to every policy's likelihood; rounds without a winner (locked or capped) are
left out. Ratings are maximum-likelihood (``scipy.optimize.minimize``,
trust-exact with the analytic gradient and Hessian), anchored at ``random = 0``
when ``random`` plays, else at the first policy. Intervals are Wald intervals
from the cluster-robust (sandwich) covariance, clustered by deal: every table
plays every deal, so a deal's rounds are correlated within and across tables.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from unocli.errors import ConfigError
from unocli.game.limits import OutOfRange
from unocli.game.policies import Policy
from unocli.game.rules import Rules
from unocli.run.backends import Backend, LocalBackend
from unocli.run.shards import RunSpec, run_shard, split
from unocli.study.simulate import check_run_args
from unocli.study.stats import Z95, clustered_share

SHARD = 1 << 14  # deals per shard; each is played once per rotation
KINDS = ("field", "mixed")
LONE = "lone"  # the kind of a table where a lone-only policy (a costly searcher, a bound) meets a field
# The kinds of table the ratings are fitted to. A mixed table seats its policies in one cyclic order, so a policy
# always has the same neighbours (who plays just before it, whose +2 it takes): two copies of one policy were rated
# 0.016 apart in the official 4-player ladder. A field table, or a lone one, gives every seat but one the same policy,
# so swapping two policies swaps their tables; mixed tables stay as a check of the model, out of its sample.
RATED = ("field", LONE)
#: Every kind of table: how ladders written before the fit left the mixed tables out were fitted (their folders hold
#: no gaps.csv), so a replay of one reproduces it (unocli.analysis.skill_stored).
EVERY_TABLE = ("field", "mixed", LONE)
ANCHOR = "random"
Progress = Callable[[str], None]


@dataclass(frozen=True)
class LadderTable:
    """One table: its kind (``field`` or ``mixed``) and the policy index of each seat before rotation."""

    kind: str
    slots: tuple[int, ...]


def plan_tables(policies: int, players: int) -> tuple[LadderTable, ...]:
    """The ladder's tables for ``policies`` policies at a table of ``players``.

    ``field``: policy a at seat 0 and policy b everywhere else, for every
    ordered pair a != b (at two players, every unordered pair once). ``mixed``
    (three or more players): ``k / gcd(k, n)`` tables seating the policies in
    turn, so each sits equally often.
    """
    k, n = policies, players
    if k < 2:
        raise ConfigError(f"a ladder needs at least two policies, not {k}")
    if n < 2:
        raise ConfigError(f"a ladder needs at least two players, not {n}")
    if n == 2:
        fields = [LadderTable("field", (a, b)) for a in range(k) for b in range(a + 1, k)]
        return tuple(fields)
    fields = [LadderTable("field", (a, *([b] * (n - 1)))) for a in range(k) for b in range(k) if a != b]
    mixed = [LadderTable("mixed", tuple((m * n + s) % k for s in range(n))) for m in range(k // math.gcd(k, n))]
    return (*fields, *mixed)


@dataclass(frozen=True)
class LadderData:
    """What the fit needs: per table, deal and seat slot, the rotations that slot won.

    ``wins[t, d, s]``: of the n rotations of deal d at table t, how many the
    policy of slot s won (rotation k seats slot s at seat ``(s + k) mod n``).
    """

    names: tuple[str, ...]
    tables: tuple[LadderTable, ...]
    wins: np.ndarray  # int [tables, deals, players]
    players: int
    played: tuple[int, ...] | None = None  # deals each table played (the first ones); None: every table all

    @property
    def deals(self) -> int:
        return int(self.wins.shape[1])

    def table_deals(self) -> np.ndarray:
        """Deals played by each table: ``played``, or every deal."""
        return np.array(self.played if self.played is not None else [self.deals] * len(self.tables), dtype=np.int64)

    def design(self) -> np.ndarray:
        """``X[t, s, k]`` = 1 when slot s of table t plays policy k."""
        x = np.zeros((len(self.tables), self.players, len(self.names)))
        for t, table in enumerate(self.tables):
            x[t, np.arange(self.players), list(table.slots)] = 1.0
        return x

    def by_policy(self) -> np.ndarray:
        """``V[t, d, k]``: rotations of deal d at table t won by a seat of policy k."""
        return np.einsum("tds,tsk->tdk", self.wins.astype(np.float64), self.design())

    def seats(self) -> np.ndarray:
        """``c[t, k]``: seats of table t played by policy k."""
        return self.design().sum(axis=1)

    def rated(self, kinds: Sequence[str] = RATED) -> LadderData:
        """The tables of ``kinds`` (by default those the ratings are fitted to, :data:`RATED`: not the mixed ones)."""
        keep = [t for t, table in enumerate(self.tables) if table.kind in kinds]
        played = None if self.played is None else tuple(self.played[t] for t in keep)
        return LadderData(self.names, tuple(self.tables[t] for t in keep), self.wins[keep], self.players, played)


def _check_memory(size: int, games: int) -> None:
    """Refuse a ladder whose per-deal wins (``size`` bytes) would not fit in this machine's memory.

    The game count itself is bounded by unocli.game.limits; the ladder alone keeps every deal's
    wins (a fit needs them all), so its own limit is the memory, read from the system.
    """
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # a system without these names: let the allocation decide
        return
    if size > memory:
        raise OutOfRange(
            f"a ladder of {games:,} deals keeps {size / 2**30:,.1f} GiB of win counts, more than this machine's "
            f"{memory / 2**30:,.1f} GiB of memory: play fewer deals"
        )


def play_ladder(
    rules: Rules,
    policies: Sequence[Policy],
    names: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    match: bool = False,
    threads: int | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> LadderData:
    """Play every table of the ladder on deals ``0 .. games - 1`` of ``seed``, each once per seat rotation."""
    check_run_args(games, seed)
    if len(policies) != len(names):
        raise ConfigError(f"{len(policies)} policies but {len(names)} names")
    dup = sorted({n for n in names if list(names).count(n) > 1})
    if dup:
        raise ConfigError(f"policy {dup[0]!r} is named twice in the ladder")
    tables = plan_tables(len(policies), rules.players)
    return play_tables(
        rules,
        policies,
        names,
        tables,
        [games] * len(tables),
        seed=seed,
        match=match,
        threads=threads,
        backend=backend,
        progress=progress,
    )


def plan_lone_tables(policies: int, lone: int, players: int) -> tuple[LadderTable, ...]:
    """:func:`plan_tables` for the first ``policies`` policies, then each of the next ``lone`` alone against a field.

    A lone-only policy (index ``policies + j``) sits at seat 0 against a field
    of each of the first ``policies`` policies (kind ``lone``; heads-up, one
    pair table each). It never fills a field, never sits at a mixed table and
    never meets another lone-only policy: a searching seat costs hundreds of
    times a scripted one, and these tables are all the fit needs to place it
    on the same scale (each links it to every other policy's rating).
    """
    if lone < 0:
        raise ConfigError(f"the lone-only policies cannot number {lone}")
    base = plan_tables(policies, players)
    extra = [LadderTable(LONE, (policies + j, *([b] * (players - 1)))) for j in range(lone) for b in range(policies)]
    return (*base, *extra)


def play_tables(
    rules: Rules,
    policies: Sequence[Policy],
    names: Sequence[str],
    tables: Sequence[LadderTable],
    deals: Sequence[int],
    *,
    seed: int = 0,
    match: bool = False,
    threads: int | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> LadderData:
    """Play table t on deals ``0 .. deals[t] - 1`` of ``seed``, each once per seat rotation (common deals).

    A table that plays fewer deals than the most holds zero wins for the rest,
    which add nothing to the fit's likelihood or to its per-deal scores.
    """
    games = max(deals) if deals else 0
    check_run_args(games, seed)
    if len(policies) != len(names):
        raise ConfigError(f"{len(policies)} policies but {len(names)} names")
    dup = sorted({n for n in names if list(names).count(n) > 1})
    if dup:
        raise ConfigError(f"policy {dup[0]!r} is named twice in the ladder")
    if len(deals) != len(tables) or min(deals) < 1:
        raise ConfigError("every table of the ladder plays at least one deal")
    _check_memory(len(tables) * games * rules.players * np.dtype(np.int16).itemsize, games)
    runner = backend or LocalBackend()
    wins = np.zeros((len(tables), games, rules.players), dtype=np.int16)
    for t, table in enumerate(tables):
        if progress is not None:
            progress(f"table {t + 1} of {len(tables)} ({table.kind}): " + ", ".join(names[s] for s in table.slots))
        spec = RunSpec(rules, tuple(policies[s] for s in table.slots), int(seed), match, rotate_seats=True, threads=threads)
        for part in runner.map_unordered(partial(run_shard, spec), split(0, int(deals[t]), SHARD)):
            assert part.wins is not None  # rotate_seats always counts them
            wins[t, part.start : part.start + part.count] = part.wins
    played = None if all(d == games for d in deals) else tuple(int(d) for d in deals)
    return LadderData(tuple(names), tuple(tables), wins, rules.players, played)


# ---------------------------------------------------------------- the fit


def anchor_index(names: Sequence[str]) -> int:
    """The policy whose rating is fixed at 0: ``random`` when it plays, else the first."""
    return list(names).index(ANCHOR) if ANCHOR in names else 0


def log_likelihood(r: np.ndarray, won: np.ndarray, decided: np.ndarray, seats: np.ndarray) -> float:
    """Luce log-likelihood: ``sum_t [won_t . r - decided_t * log(seats_t . exp(r))]``.

    ``won[t, k]``: rounds of table t won by a seat of policy k; ``decided[t]``:
    rounds of table t with a winner; ``seats[t, k]``: seats of policy k at table t.
    """
    top = float(np.max(r))
    log_norm = top + np.log(seats @ np.exp(r - top))
    return float(won.ravel() @ np.broadcast_to(r, won.shape).ravel() - decided @ log_norm)


def _probabilities(r: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """``pi[t, k]``: the chance that a seat of policy k wins a decided round of table t."""
    w = seats * np.exp(r - np.max(r))
    return w / w.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class Fit:
    """Ratings with their cluster-robust covariance (the anchor's row and column are 0)."""

    names: tuple[str, ...]
    anchor: int
    ratings: np.ndarray
    cov: np.ndarray
    loglik: float
    deals: int
    kinds: tuple[str, ...] = RATED  # the kinds of table fitted (deal_influence reads the same ones)

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.diag(self.cov))

    def interval(self, level_z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
        return self.ratings - level_z * self.se, self.ratings + level_z * self.se

    def diff_se(self, a: int, b: int) -> float:
        """Standard error of ``r_a - r_b``."""
        return float(math.sqrt(max(0.0, self.cov[a, a] + self.cov[b, b] - 2 * self.cov[a, b])))


def fit_counts(
    won: np.ndarray, seats: np.ndarray, anchor: int = 0, names: Sequence[str] | None = None
) -> tuple[np.ndarray, float]:
    """Maximum-likelihood ratings from per-table totals (``won[t, k]``, ``seats[t, k]``), ``r[anchor] = 0``.

    Raises ConfigError when no finite maximum exists (a policy that won none
    of its rounds, or all of them).
    """
    from scipy.optimize import minimize  # scipy only when fitting

    k = won.shape[1]
    free = np.array([i for i in range(k) if i != anchor])
    decided = won.sum(axis=1)
    _check_exists(won, seats, names or [f"policy {i}" for i in range(k)])

    def full(theta: np.ndarray) -> np.ndarray:
        r = np.zeros(k)
        r[free] = theta
        return r

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        r = full(theta)
        grad = (won - decided[:, None] * _probabilities(r, seats)).sum(axis=0)
        return -log_likelihood(r, won, decided, seats), -grad[free]

    def hessian(theta: np.ndarray) -> np.ndarray:
        return _information(full(theta), decided, seats)[np.ix_(free, free)]

    res = minimize(objective, np.zeros(k - 1), jac=True, hess=hessian, method="trust-exact", options={"gtol": 1e-9})
    if not res.success and np.max(np.abs(res.jac)) > 1e-6 * max(1.0, float(decided.sum())):  # pragma: no cover
        raise ConfigError(f"the ladder's fit did not converge ({res.message}); play more games")
    r = full(res.x)
    return r, log_likelihood(r, won, decided, seats)


def _information(r: np.ndarray, decided: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Observed (= expected) information: ``sum_t decided_t (diag(pi_t) - pi_t pi_t')``."""
    pi = _probabilities(r, seats)
    return np.einsum("t,tk->k", decided, pi) * np.eye(len(r)) - np.einsum("t,tk,tj->kj", decided, pi, pi)


def _check_exists(won: np.ndarray, seats: np.ndarray, names: Sequence[str]) -> None:
    """A policy that won no round it played, or every decided round it played, has no finite rating."""
    played = seats > 0
    decided = won.sum(axis=1)
    for k in range(won.shape[1]):
        tables = played[:, k]
        if not tables.any():
            raise ConfigError(f"{names[k]} sits at no table of the ladder")
        if won[tables, k].sum() == 0:
            raise ConfigError(f"{names[k]} won none of its rounds, so its rating is -infinity: play more games")
        if np.all(won[tables, k] == decided[tables]):
            raise ConfigError(f"{names[k]} won every round it played, so its rating is +infinity: play more games")


def fit(data: LadderData, anchor: int | None = None, kinds: Sequence[str] = RATED) -> Fit:
    """Ratings of the ladder's policies with the cluster-robust covariance, clustered by deal, fitted to its tables of
    ``kinds`` (:meth:`LadderData.rated`: the field and lone tables; :data:`EVERY_TABLE` only to reproduce a ladder
    written before the mixed tables were left out).

    The sandwich ``A^-1 B A^-1`` over the free ratings: ``A`` the information,
    ``B = G/(G-1) sum_d g_d g_d'`` with ``g_d`` the score of deal d's rounds at
    every rated table.
    """
    a = anchor_index(data.names) if anchor is None else anchor
    data = data.rated(kinds)
    v = data.by_policy()  # [t, d, k]
    seats = data.seats()
    won = v.sum(axis=1)
    r, ll = fit_counts(won, seats, a, data.names)
    decided_td = v.sum(axis=2)  # [t, d]
    pi = _probabilities(r, seats)
    scores = (v - decided_td[:, :, None] * pi[:, None, :]).sum(axis=0)  # [d, k]
    free = np.array([i for i in range(len(r)) if i != a])
    g = data.deals
    meat = scores[:, free].T @ scores[:, free] * (g / max(g - 1, 1))
    bread = np.linalg.inv(_information(r, won.sum(axis=1), seats)[np.ix_(free, free)])
    cov = np.zeros((len(r), len(r)))
    cov[np.ix_(free, free)] = bread @ meat @ bread
    return Fit(data.names, a, r, cov, ll, g, tuple(kinds))


def deal_influence(data: LadderData, result: Fit) -> np.ndarray:
    """``psi[d, k]``: deal d's influence on the ratings, ``A^-1 g_d`` over the free ratings (0 for the anchor).

    The fitted ratings move, to first order, by ``sum_d psi_d`` when the deals
    are drawn again, and ``fit``'s covariance is ``G/(G-1) sum_d psi_d psi_d'``;
    a smooth function of the ratings of one ladder, or of two ladders played
    on the same deals, gets its clustered standard error from these rows.
    """
    data = data.rated(result.kinds)
    v = data.by_policy()  # [t, d, k]
    seats = data.seats()
    pi = _probabilities(result.ratings, seats)
    scores = (v - v.sum(axis=2)[:, :, None] * pi[:, None, :]).sum(axis=0)  # [d, k]
    free = np.array([i for i in range(len(result.ratings)) if i != result.anchor])
    bread = np.linalg.inv(_information(result.ratings, v.sum(axis=(1, 2)), seats)[np.ix_(free, free)])
    psi = np.zeros_like(scores)
    psi[:, free] = scores[:, free] @ bread  # bread is symmetric
    return psi


# ---------------------------------------------------------------- the tidy frame


def win_shares(data: LadderData, kind: str, ratings: np.ndarray | None = None) -> list[dict[str, float]]:
    """Per policy, its seats' share of the rounds of ``kind`` tables (field: as the lone player), clustered by deal.

    With ``ratings``, also ``model``: the share the fitted model expects for the same tables (each table's
    decided rounds shared out by the model's chances), to set beside the observed share.
    """
    n = data.players
    rows = []
    decided = data.wins.sum(axis=(1, 2)).astype(np.float64)  # [t]
    for k in range(len(data.names)):
        if kind == "field":
            idx = [t for t, tb in enumerate(data.tables) if tb.kind == "field" and k in tb.slots and (n == 2 or tb.slots[0] == k)]
            idx += [t for t, tb in enumerate(data.tables) if tb.kind == LONE and tb.slots[0] == k]  # a lone-only policy's
        else:
            idx = [t for t, tb in enumerate(data.tables) if tb.kind == kind and k in tb.slots]
        if not idx:
            rows.append({"share": math.nan, "low": math.nan, "high": math.nan, "games": 0, "model": math.nan})
            continue
        g = int(data.table_deals()[idx].min())  # a policy's tables all play the same deals (the first g)
        mine = np.array([[s == k for s in data.tables[t].slots] for t in idx], dtype=np.float64)  # [tables, slots]
        x = np.einsum("tds,ts->d", data.wins[idx, :g].astype(np.float64), mine)  # rotations won per deal
        per_deal = int(mine.sum()) * n  # seat-rounds of policy k per deal
        est = clustered_share(g, float(x.sum()), float((x * x).sum()), per_deal)
        model = math.nan
        if ratings is not None:
            w = np.exp(ratings[[list(data.tables[t].slots) for t in idx]])  # [tables, slots]
            model = float((decided[idx] * (w * mine).sum(axis=1) / w.sum(axis=1)).sum()) / (per_deal * g)
        rows.append({"share": est.mean, "low": est.low, "high": est.high, "games": per_deal * g, "model": model})
    return rows


_SHARE_COLUMNS = (("share", "share"), ("low", "low"), ("high", "high"), ("games", "games"), ("model", "model"))


def ratings_frame(data: LadderData, result: Fit, specs: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per policy, best first: rating with its 95% interval, games and deals, win share per table kind.

    ``rating``: log-odds scale, anchor 0; ``low``/``high``: Wald 95% from the
    cluster-robust covariance (0 and 0 for the anchor). ``games``: rounds the
    policy played a seat in (each deal once per rotation, at every table it
    sits at); ``{kind}_share`` with ``_low``/``_high``: its seats' share of
    the rounds of that kind of table (``field``: as the lone player against a
    field of each other policy; heads-up, every pair), 95% t over deals, and
    ``{kind}_model``, the share the fitted ratings expect at the same tables.
    """
    low, high = result.interval()
    seat_games = (data.seats() * data.table_deals()[:, None]).sum(axis=0) * data.players
    rows = []
    shares = {kind: win_shares(data, kind, result.ratings) for kind in KINDS}
    for k, name in enumerate(data.names):
        row: dict[str, object] = {
            "policy": name,
            "spec": specs[k] if specs else name,
            "rating": result.ratings[k],
            "low": low[k],
            "high": high[k],
            "se": result.se[k],
            "anchor": k == result.anchor,
            "games": int(seat_games[k]),
            "deals": int(data.table_deals()[data.seats()[:, k] > 0].max()),
            "players": data.players,
        }
        for kind in KINDS:
            s = shares[kind][k]
            row |= {f"{kind}_{key}": s[col] for key, col in _SHARE_COLUMNS}
        rows.append(row)
    return pd.DataFrame(rows).sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)


def gaps_frame(result: Fit, bounds: Sequence[int] = ()) -> pd.DataFrame:
    """The rating gap of every pair of policies (not the ``bounds``), the higher rated first: ``gap`` with its
    cluster-robust ``se`` (:meth:`Fit.diff_se`, the two ratings' covariance included) and 95% Wald ``low``/``high``;
    ``clear``: the interval excludes 0. Highest pairs first, as the ratings are ordered."""
    order = [k for k in np.argsort(-result.ratings, kind="stable") if k not in set(bounds)]
    rows = []
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            gap, se = float(result.ratings[a] - result.ratings[b]), result.diff_se(int(a), int(b))
            low, high = gap - Z95 * se, gap + Z95 * se
            rows.append(
                {"better": result.names[a], "other": result.names[b], "gap": gap, "se": se, "low": low, "high": high}
                | {"clear": bool(low > 0)}
            )
    return pd.DataFrame(rows, columns=["better", "other", "gap", "se", "low", "high", "clear"])
