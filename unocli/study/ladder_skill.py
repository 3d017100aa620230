"""Skill against luck from a ladder's games: the share of outcome variance due to skill, and rounds until the better player leads.

*Skill share* (Getty, Li, Yano, Gao and Hosoi, SIAM Review 2018): each
policy's observed win share ``s_i`` over its field tables (as the lone player
against a field of every other policy; heads-up, the round robin) is its true
share ``p_i`` plus luck ``e_i``. ``Var(true) = Var(observed) - mean Var(e_i)``,
with ``Var(observed)`` the sample variance of the ``s_i`` over the policies and
``Var(e_i)`` each share's squared standard error, clustered by deal (the
rotations of a deal are not independent; with independent games it is the
binomial ``s(1 - s)/g`` of the paper). One round's outcome for a seat drawn
from the ladder has variance ``mean(p) (1 - mean(p))`` (the law of total
variance), so the share of a single round's outcome variance due to who plays
is ``Var(true) / (mean(s) (1 - mean(s)))``; a ladder played as matches gives it
per match. It is not clipped at 0: a negative estimate says luck explains all
that was seen. Interval: percentile bootstrap over deals.

*Rounds to lead*: two players whose decided rounds the better one wins with
chance ``p`` (the Luce model: ``1 / (1 + exp(-(r_a - r_b)))``, whoever else sits
at the table); after m such rounds it is ahead (more wins, a tie is not ahead)
with chance ``P(Bin(m, p) > m / 2)``, and :func:`rounds_to_lead` is the smallest
m where that reaches 90%. Heads-up every round is decided by the two; at larger
tables m counts the rounds won by one of the two. Its interval maps the rating
difference's 95% interval through the same computation (infinite when that
interval reaches 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from unocli.errors import ConfigError
from unocli.study.ladder import ANCHOR, Fit, LadderData, deal_influence
from unocli.study.stats import Z95, Difference, norm_quantile, t_quantile, t_sf

LEAD = 0.9  # the chance of being ahead the rounds-to-lead figure asks for
BOOT_CELLS = 4_000_000  # bootstrap weights held at once (32 MB)
EXACT_LIMIT = 10_000_000  # beyond this many rounds the normal approximation is given (exact to well under 1%)


def rounds_to_lead(p: float, prob: float = LEAD) -> float:
    """The smallest m with ``P(Bin(m, p) > m / 2) >= prob`` (``inf`` when ``p <= 1/2``).

    Found exactly (``scipy.special.bdtrc``) from 1 up to past the normal
    approximation ``(z sqrt(p (1 - p)) / (p - 1/2))^2``; when that passes
    ``EXACT_LIMIT`` rounds, the normal approximation itself.
    """
    from scipy.special import bdtrc  # scipy only when computing

    if not p > 0.5:
        return math.inf
    if p >= 1.0:
        return 1.0
    z = norm_quantile(prob)
    approx = (z * math.sqrt(p * (1 - p)) / (p - 0.5)) ** 2
    if approx > EXACT_LIMIT:
        return float(math.ceil(approx))
    m = np.arange(1, int(2 * approx) + 100, dtype=np.int64)
    ahead = bdtrc(m // 2, m, p)  # P(X > floor(m/2)) = P(X > m/2)
    hit = np.flatnonzero(ahead >= prob)
    return float(m[hit[0]]) if hit.size else float(math.ceil(approx))  # pragma: no cover - the range covers it


def _deals_of(data: LadderData, k: int) -> int:
    """The deals policy k's rating rests on: the most any of its tables played (a lone policy's are fewer)."""
    return int(data.table_deals()[[k in t.slots for t in data.tables]].max())


def lead_probability(delta: float) -> float:
    """The chance that the player rated ``delta`` higher wins a round decided between the two."""
    return 1.0 / (1.0 + math.exp(-delta))


def _field_wins(data: LadderData) -> tuple[np.ndarray, np.ndarray]:
    """Per policy and deal the field-table rounds it won as the lone player (heads-up, every pair), and its rounds per deal.

    Only the policies of the round robin (``field`` tables); lone-only policies (searchers, a bound) are left out.
    """
    x, m = _all_field_wins(data)
    keep = m > 0
    return x[keep], m[keep]


def _all_field_wins(data: LadderData) -> tuple[np.ndarray, np.ndarray]:
    n, k = data.players, len(data.names)
    x = np.zeros((k, data.deals))
    m = np.zeros(k)
    for t, tb in enumerate(data.tables):
        if tb.kind != "field":
            continue
        for s, pol in enumerate(tb.slots):
            if n == 2 or s == 0:  # the lone player (heads-up, both seats)
                x[pol] += data.wins[t, :, s]
                m[pol] += n
    return x, m


def _skill_share(shares: np.ndarray, luck: np.ndarray) -> tuple[float, float, float]:
    """(skill share, Var(true), Var(observed)) from the policies' shares and their luck variances.

    The share is NaN where every share is 0 or every share is 1 (a round's outcome has no variance to share out):
    at a handful of deals, in the data or in a bootstrap resample of it.
    """
    observed = float(np.var(shares, ddof=1))
    true = observed - float(np.mean(luck))
    mean = float(np.mean(shares))
    spread = mean * (1 - mean)
    return (true / spread if spread > 0 else math.nan), true, observed


def skill_share(data: LadderData, replicates: int = 2000, seed: int = 0) -> dict[str, float]:
    """The share of one round's outcome variance due to skill, with a 95% percentile bootstrap over deals."""
    x, m = _field_wins(data)
    g = data.deals
    y = x / m[:, None]  # per-deal shares [k, d]
    shares = y.mean(axis=1)
    luck = y.var(axis=1, ddof=1) / g
    point, true, observed = _skill_share(shares, luck)
    rng = np.random.default_rng(seed)
    boot = np.empty(replicates)
    chunk = max(1, BOOT_CELLS // g)  # replicates drawn at once: the weights hold chunk x deals values
    for first in range(0, replicates, chunk):
        size = min(chunk, replicates - first)
        w = rng.multinomial(g, np.full(g, 1.0 / g), size=size).astype(np.float64) / g  # [B, d]
        mean_b = w @ y.T  # [B, k]
        var_b = (w @ (y * y).T - mean_b**2) * g / max(g - 1, 1) / g
        boot[first : first + size] = [_skill_share(mean_b[b], var_b[b])[0] for b in range(size)]
    defined = boot[np.isfinite(boot)]  # a resample with no variance has no share (_skill_share)
    low, high = np.quantile(defined, [0.025, 0.975]) if len(defined) else (math.nan, math.nan)
    return {
        "skill_share": point,
        "skill_low": float(low),
        "skill_high": float(high),
        "var_true": true,
        "var_observed": observed,
        "var_luck": float(np.mean(luck)),
        "mean_share": float(np.mean(shares)),
        "policies": len(shares),
        "deals": g,
        "rounds_per_policy": float(np.mean(m)) * g,
    }


def lead_rows(result: Fit, bounds: Sequence[int] = ()) -> list[dict[str, object]]:
    """Rounds until the better player is 90% likely to be ahead: the best against the second, and against the anchor.

    ``bounds`` (a clairvoyant ``peek``) are not players: neither the best nor the second.
    """
    order = [int(i) for i in np.argsort(-result.ratings, kind="stable") if int(i) not in set(bounds)]
    best = order[0]
    others = [order[1]]
    if result.anchor not in (best, others[0]):
        others.append(result.anchor)
    rows = []
    for other in others:
        delta = float(result.ratings[best] - result.ratings[other])
        se = result.diff_se(best, other)
        low, high = delta - Z95 * se, delta + Z95 * se
        rows.append(
            {
                "better": result.names[best],
                "other": result.names[other],
                "delta": delta,
                "delta_low": low,
                "delta_high": high,
                "p": lead_probability(delta),
                "rounds": rounds_to_lead(lead_probability(delta)),
                "rounds_low": rounds_to_lead(lead_probability(high)),
                "rounds_high": rounds_to_lead(lead_probability(low)),
            }
        )
    return rows


def skill_frame(
    data: LadderData, result: Fit, replicates: int = 2000, seed: int = 0, bounds: Sequence[int] = (), level: str = "round"
) -> pd.DataFrame:
    """One row per measure: ``key``, ``level`` (round or match), ``measure``, ``value`` with ``low``/``high`` (95%),
    ``n`` (deals), the two players of a rounds-to-lead row (``better``, ``other``; else empty) and ``detail``.

    ``key``: ``skill_share``; ``relative_skill`` (with a bound among the
    policies and ``random`` as the anchor: the first bound of ``bounds``);
    ``lead_second`` and ``lead_anchor``. ``bounds`` are never the best player.
    """
    s = skill_share(data, replicates, seed)
    rows: list[dict[str, object]] = [
        {
            "key": "skill_share",
            "level": level,
            "measure": f"skill share of one {level}'s outcome variance",
            "value": s["skill_share"],
            "low": s["skill_low"],
            "high": s["skill_high"],
            "n": data.deals,
            "better": "",
            "other": "",
            "detail": f"Var(true) {s['var_true']:.3g} = Var(observed) {s['var_observed']:.3g} - Var(luck) "
            f"{s['var_luck']:.3g}, over {s['policies']} policies' field shares (mean {s['mean_share']:.4f}), "
            f"{s['rounds_per_policy']:,.0f} {'matches' if level == 'match' else level + 's'} each",
        }
    ]
    if bounds and result.names[result.anchor] == ANCHOR:
        rel = relative_skill(data, result, bounds[0], bounds)
        low, high = rel.interval()
        best = best_player(result, bounds)
        rows.append(
            {
                "key": "relative_skill",
                "level": level,
                "measure": f"relative skill: {result.names[best]}'s gain over {ANCHOR} / the bound {result.names[bounds[0]]}'s",
                "value": rel.value,
                "low": low,
                "high": high,
                "n": _deals_of(data, bounds[0]),
                "better": result.names[best],
                "other": result.names[bounds[0]],
                "detail": f"ratings {result.ratings[best]:.3f} / {result.ratings[bounds[0]]:.3f} over {ANCHOR} = 0; "
                "95% Wald by the delta method, clustered by deal",
            }
        )
    for key, r in zip(("lead_second", "lead_anchor"), lead_rows(result, bounds), strict=False):
        plural = "matches" if level == "match" else f"{level}s"
        unit = plural if data.players == 2 else f"{plural} won by one of the two"
        rows.append(
            {
                "key": key,
                "level": level,
                "measure": f"{unit} until {r['better']} leads {r['other']} with 90% chance",
                "value": r["rounds"],
                "low": r["rounds_low"],
                "high": r["rounds_high"],
                "n": min(_deals_of(data, result.names.index(str(r[who]))) for who in ("better", "other")),
                "better": r["better"],
                "other": r["other"],
                "detail": f"p = {r['p']:.4f} that {r['better']} wins a {level} decided between the two "
                f"(rating gap {r['delta']:.3f} [{r['delta_low']:.3f}, {r['delta_high']:.3f}])",
            }
        )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- linearised measures, for intervals and paired changes


@dataclass(frozen=True)
class Linear:
    """An estimate with its per-deal influence ``phi``: to first order the estimate moves by ``sum_d phi_d``.

    Deals are independent clusters, so ``se = sqrt(G/(G-1) sum_d phi_d^2)``;
    two estimates from ladders on the same deals are paired through their
    ``phi`` (deal d of one with deal d of the other).
    """

    value: float
    phi: np.ndarray

    @property
    def deals(self) -> int:
        return int(self.phi.size)

    @property
    def se(self) -> float:
        g = self.deals
        return float(math.sqrt(float(self.phi @ self.phi) * g / max(g - 1, 1)))

    def interval(self, z: float = Z95) -> tuple[float, float]:
        return self.value - z * self.se, self.value + z * self.se

    def log(self) -> Linear:
        """``log(value)``, its influence ``phi / value`` (a ratio of two such estimates is a difference of logs)."""
        if not self.value > 0:
            raise ConfigError(f"a measure of {self.value:.3g} has no logarithm: its change cannot be taken as a ratio")
        return Linear(math.log(self.value), self.phi / self.value)


def players_of(names: Sequence[str], bounds: Sequence[int]) -> list[int]:
    """The policies that are players: all but the bounds."""
    return [i for i in range(len(names)) if i not in set(bounds)]


def best_player(result: Fit, bounds: Sequence[int] = ()) -> int:
    """The highest-rated policy that is not a bound (the first of a tie, in ladder order)."""
    return max(players_of(result.names, bounds), key=lambda i: (result.ratings[i], -i))


def relative_skill(data: LadderData, result: Fit, bound: int, bounds: Sequence[int] = ()) -> Linear:
    """The best player's gain over ``random`` divided by the clairvoyant bound's gain, on the rating scale.

    Dreef, Borm and van der Genugten's relative skill: the learning effect
    (best player minus beginner) over the learning plus the random effect
    (the fictive player who sees hidden information minus the beginner).
    The beginner is ``random`` (the anchor, rating 0), the fictive player the
    bound. Influence by the delta method: ``(psi_best - RS psi_bound) / r_bound``.
    """
    if result.names[result.anchor] != ANCHOR:
        raise ConfigError(f"the relative skill needs {ANCHOR!r} in the ladder: gains are taken over it")
    best = best_player(result, [*bounds, bound])
    gain_bound = float(result.ratings[bound] - result.ratings[result.anchor])
    if not gain_bound > 0:
        raise ConfigError(f"the bound {result.names[bound]} does not rate above {ANCHOR}: no relative skill")
    value = float(result.ratings[best] - result.ratings[result.anchor]) / gain_bound
    psi = deal_influence(data, result)
    return Linear(value, (psi[:, best] - value * psi[:, bound]) / gain_bound)


def skill_share_linear(data: LadderData) -> Linear:
    """The skill share (:func:`skill_share`) with its delta-method influence per deal.

    ``S = (V - L) / (mu (1 - mu))`` over the round robin's lone-vs-field
    shares ``s_i``: ``dS/ds_i = [2 (s_i - mu) / (K - 1) - S (1 - 2 mu) / K] / (mu (1 - mu))``,
    and ``s_i`` moves by ``(y_id - s_i) / G`` for deal d. The luck term L is
    O(1/G) and its own variation O(G^-1.5), so it is held fixed. (The delta
    method fails where skill is nil, as S is quadratic in the shares there:
    this form serves the paired changes; one ladder's interval is the bootstrap.)
    """
    x, m = _field_wins(data)
    g = data.deals
    y = x / m[:, None]
    shares = y.mean(axis=1)
    luck = y.var(axis=1, ddof=1) / g
    value, _, _ = _skill_share(shares, luck)
    k, mu = len(shares), float(np.mean(shares))
    grad = (2 * (shares - mu) / (k - 1) - value * (1 - 2 * mu) / k) / (mu * (1 - mu))
    return Linear(value, grad @ (y - shares[:, None]) / g)


def lead_linear(data: LadderData, result: Fit, better: int, other: int) -> Linear:
    """Rounds (or matches) until ``better`` leads ``other`` with 90% chance: the exact count, with the influence of its log.

    The count is :func:`rounds_to_lead`; its log's influence comes from the
    normal approximation ``m = (z sqrt(p (1 - p)) / (p - 1/2))^2``, whose
    derivative in the rating gap is ``(1 - 2p) - 2 p (1 - p) / (p - 1/2)``.
    Use it through :meth:`Linear.log` for ratios (the influence of the value is
    that of its log times the value).
    """
    delta = float(result.ratings[better] - result.ratings[other])
    p = lead_probability(delta)
    m = rounds_to_lead(p)
    if not math.isfinite(m):
        raise ConfigError(f"{result.names[better]} does not rate above {result.names[other]}: it never leads")
    psi = deal_influence(data, result)
    dlog = (1 - 2 * p) - 2 * p * (1 - p) / (p - 0.5)
    return Linear(m, m * dlog * (psi[:, better] - psi[:, other]))


def paired_change(a: Linear, b: Linear, log: bool = True) -> Difference:
    """``a - b`` (with ``log``: ``log a - log b``, the log of their ratio) as a :class:`Difference` with a t interval.

    Paired over deals when both come from the same deals (deal d of a with
    deal d of b, ``sd`` then the per-deal spread); otherwise the two are
    independent and their variances add (``sd`` NaN).
    """
    x, y = (a.log(), b.log()) if log else (a, b)
    diff = x.value - y.value
    if x.deals == y.deals:
        g = x.deals
        d = Linear(diff, x.phi - y.phi)
        se, df, n, sd = d.se, float(g - 1), g, d.se * math.sqrt(g)
    else:
        se = math.hypot(x.se, y.se)
        df, n, sd = float(min(x.deals, y.deals) - 1), x.deals + y.deals, math.nan
    half = t_quantile(0.975, df) * se
    p = 2 * t_sf(abs(diff) / se, df) if se > 0 else (1.0 if diff == 0.0 else 0.0)  # se 0: no change, or a sure one
    return Difference(diff, se, n, diff - half, diff + half, min(1.0, p), df, sd)
