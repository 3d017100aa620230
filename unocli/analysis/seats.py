"""Seats of a paired comparison: balance between them (Ludii's), its block bootstrap, and arms that played alike.

Nothing here knows a report: it reads :class:`~unocli.study.compare.Comparison`
results and returns numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from unocli.study.compare import Comparison


def balance(shares: np.ndarray) -> np.ndarray:
    """Ludii's balance: 1 minus the largest gap between two seats' win shares (last axis = seats)."""
    shares = np.asarray(shares, float)
    return 1.0 - (shares.max(axis=-1) - shares.min(axis=-1))


def fair_balance(n: int, players: int, won_share: float = 1.0, draws: int = 2000, seed: int = 0) -> float:
    """Expected balance of a perfectly fair game measured on ``n`` games: below 1 from sampling noise alone."""
    rng = np.random.default_rng(seed)
    p = np.append(np.full(players, won_share / players), 1.0 - won_share)
    counts = rng.multinomial(n, np.clip(p, 0, 1) / np.clip(p, 0, 1).sum(), size=draws)[:, :players]
    return float(balance(counts / n).mean())


def percentile_interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates (NaNs ignored)."""
    s = np.asarray(samples, float)
    s = s[np.isfinite(s)]
    if s.size == 0:
        return (math.nan, math.nan)
    a = (1 - level) / 2
    return float(np.quantile(s, a)), float(np.quantile(s, 1 - a))


def seat_columns(comp: Comparison, players: int) -> list[int]:
    """The columns of ``win_0 .. win_{players-1}`` in the comparison's quantities."""
    return [comp.quantities.index(f"win_{s}") for s in range(players)]


def arm_rows(
    comp: Comparison, p: int, names: Sequence[str], base: str, replicates: int, seed: int, label: str
) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Per arm, the row a table of arms at ``p`` players starts with, and its balance change from ``base``.

    The row: ``players``, the arm's name under ``label``, ``n``, mean turns
    (finished rounds) and the win share of the player who took the first turn
    (``win_first``, which the comparison must record) with 95% intervals, and
    balance with a bootstrap 95% interval (``replicates`` block-bootstrap
    replicates, seeded by ``seed`` and the table size). The change: balance
    minus ``base``'s with its bootstrap interval (empty for ``base`` itself).
    """
    boot = comp.boot_means(replicates, seed=seed % (2**32) + p)
    cols = seat_columns(comp, p)
    bal, bal_b = balance(comp.means()[:, cols]), balance(boot[:, :, cols])
    kb = comp.index(base)
    for name in names:
        k = comp.index(name)
        t, w = comp.mean(name, "turns"), comp.mean(name, "win_first")
        bl, bh = percentile_interval(bal_b[:, k])
        row = {
            "players": p,
            label: name,
            "n": comp.games,
            "turns": t.mean,
            "turns_low": t.low,
            "turns_high": t.high,
            "first_player_share": w.mean,
            "first_low": w.low,
            "first_high": w.high,
            "balance": bal[k],
            "balance_low": bl,
            "balance_high": bh,
        }
        change: dict[str, Any] = {}
        if name != base:
            dl, dh = percentile_interval(bal_b[:, k] - bal_b[:, kb])
            change = {"d_balance": bal[k] - bal[kb], "d_balance_low": dl, "d_balance_high": dh}
        yield name, row, change


def identical_arms(comps: Sequence[Comparison], names: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of arms that played bit-identical games in every comparison (same fingerprint of every row).

    Two rule sets can differ on paper and not in play (free-plus4 and
    no-challenge for players who never bluff): a report shows them as one
    effect, explained, not as two findings.
    """
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if all(c.acc(a).fingerprint == c.acc(b).fingerprint and c.acc(a).games == c.acc(b).games for c in comps):
                out.append((a, b))
    return out
