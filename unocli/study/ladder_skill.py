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

import numpy as np
import pandas as pd

from unocli.study.ladder import Fit, LadderData
from unocli.study.stats import Z95, norm_quantile

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


def lead_probability(delta: float) -> float:
    """The chance that the player rated ``delta`` higher wins a round decided between the two."""
    return 1.0 / (1.0 + math.exp(-delta))


def _field_wins(data: LadderData) -> tuple[np.ndarray, np.ndarray]:
    """Per policy and deal the field-table rounds it won as the lone player (heads-up, every pair), and its rounds per deal."""
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
    """(skill share, Var(true), Var(observed)) from the policies' shares and their luck variances."""
    observed = float(np.var(shares, ddof=1))
    true = observed - float(np.mean(luck))
    mean = float(np.mean(shares))
    return true / (mean * (1 - mean)), true, observed


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
    low, high = np.quantile(boot, [0.025, 0.975])
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


def lead_rows(result: Fit) -> list[dict[str, object]]:
    """Rounds until the better player is 90% likely to be ahead: the best against the second, and against the anchor."""
    order = np.argsort(-result.ratings, kind="stable")
    best = int(order[0])
    others = [int(order[1])]
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


def skill_frame(data: LadderData, result: Fit, replicates: int = 2000, seed: int = 0) -> pd.DataFrame:
    """One row per measure: ``measure``, ``value`` with ``low``/``high`` (95%), ``n`` (deals), the two players
    of a rounds-to-lead row (``better``, ``other``; empty for the skill share) and ``detail``, how it was computed."""
    s = skill_share(data, replicates, seed)
    rows: list[dict[str, object]] = [
        {
            "measure": "skill share of one round's outcome variance",
            "value": s["skill_share"],
            "low": s["skill_low"],
            "high": s["skill_high"],
            "n": data.deals,
            "better": "",
            "other": "",
            "detail": f"Var(true) {s['var_true']:.3g} = Var(observed) {s['var_observed']:.3g} - Var(luck) "
            f"{s['var_luck']:.3g}, over {s['policies']} policies' field shares (mean {s['mean_share']:.4f}), "
            f"{s['rounds_per_policy']:,.0f} rounds each",
        }
    ]
    for r in lead_rows(result):
        unit = "rounds" if data.players == 2 else "rounds won by one of the two"
        rows.append(
            {
                "measure": f"{unit} until {r['better']} leads {r['other']} with 90% chance",
                "value": r["rounds"],
                "low": r["rounds_low"],
                "high": r["rounds_high"],
                "n": data.deals,
                "better": r["better"],
                "other": r["other"],
                "detail": f"p = {r['p']:.4f} that {r['better']} wins a round decided between the two "
                f"(rating gap {r['delta']:.3f} [{r['delta_low']:.3f}, {r['delta_high']:.3f}])",
            }
        )
    return pd.DataFrame(rows)
