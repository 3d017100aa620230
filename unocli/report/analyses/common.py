"""Helpers the analyses share: the run context, formatting, quantiles, balance and bootstrap intervals."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as sps

from unocli import __version__
from unocli.run.backends import Backend
from unocli.study.compare import Arm, Comparison, compare
from unocli.study.experiments import Experiment

Z95 = 1.959963984540054


@dataclass
class Context:
    """Where and how an analysis runs."""

    backend: Backend
    log: Callable[[str], None]
    threads: int | None = None


def run_compare(
    exp: Experiment, ctx: Context, arms: Sequence[Arm], *, games: int | None = None, label: str = "", **kwargs: Any
) -> Comparison:
    """:func:`~unocli.compare.compare` with the experiment's seed, size, target and backend."""
    n = games if games is not None else exp.games
    ctx.log(f"{exp.name}: {label or 'arms'}: {len(arms)} arms x {n:,} games")
    target = kwargs.pop("target_error", exp.target_error if games is None else None)
    kwargs.setdefault("metric", exp.metric)
    return compare(
        arms,
        games=n,
        seed=exp.seed,
        target_error=target,
        max_games=exp.max_games,
        threads=ctx.threads,
        backend=ctx.backend,
        **kwargs,
    )


# ---------------------------------------------------------------- formatting


def num(x: float, digits: int = 3) -> str:
    """A number with ``digits`` significant figures (at least one decimal for small values)."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    if abs(x) >= 100:
        return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.1f}"
    return f"{x:.{digits}g}" if abs(x) >= 1 else f"{x:.{max(digits - 1, 1)}f}"


def ci(mean: float, lo: float, hi: float, digits: int = 3) -> str:
    return f"{num(mean, digits)} [{num(lo, digits)}, {num(hi, digits)}]"


def signed(x: float, digits: int = 2) -> str:
    return "n/a" if not math.isfinite(x) else f"{x:+.{digits}f}"


def signed_ci(mean: float, lo: float, hi: float, digits: int = 2) -> str:
    return f"{signed(mean, digits)} [{signed(lo, digits)}, {signed(hi, digits)}]"


def pct(x: float, digits: int = 1) -> str:
    return "n/a" if not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def pct_ci(p: float, lo: float, hi: float, digits: int = 1) -> str:
    return f"{pct(p, digits)} [{pct(lo, digits)}, {pct(hi, digits)}]"


def pp(x: float, digits: int = 2) -> str:
    """A difference of shares in percentage points."""
    return "n/a" if not math.isfinite(x) else f"{100 * x:+.{digits}f} pp"


def pp_ci(d: float, lo: float, hi: float, digits: int = 2) -> str:
    return f"{pp(d, digits)} [{100 * lo:+.{digits}f}, {100 * hi:+.{digits}f}]"


def pvalue(p: float) -> str:
    if not math.isfinite(p):
        return ""
    return "<0.001" if p < 0.001 else f"{p:.3f}"


# ---------------------------------------------------------------- distributions


def hist_value(hist: np.ndarray, rank: int) -> int:
    """The value of the ``rank``-th smallest observation (1-based) of a histogram of 0, 1, 2, ..."""
    cum = np.cumsum(hist)
    rank = min(max(rank, 1), int(cum[-1]))
    return int(np.searchsorted(cum, rank))


def hist_quantile(hist: np.ndarray, q: float) -> tuple[int, int, int]:
    """The ``q`` quantile of a histogram with a distribution-free 95% interval (binomial order statistics).

    A value in the last bin means "at least that much" (the histogram is clipped).
    """
    n = int(np.sum(hist))
    if n == 0:
        return (-1, -1, -1)
    point = hist_value(hist, math.ceil(q * n))
    lo_rank = max(1, int(sps.binom.ppf(0.025, n, q)))
    hi_rank = min(n, int(sps.binom.ppf(0.975, n, q)) + 1)
    return point, hist_value(hist, lo_rank), hist_value(hist, hi_rank)


def quantile_text(hist: np.ndarray, q: float) -> str:
    point, lo, hi = hist_quantile(hist, q)
    top = len(hist) - 1

    def show(v: int) -> str:
        return f">={v}" if v >= top else str(v)

    return f"{show(point)} [{show(lo)}, {show(hi)}]"


def dkw_eps(n: int) -> float:
    """Half-width of the Dvoretzky-Kiefer-Wolfowitz 95% band for an empirical CDF of n games."""
    return math.sqrt(math.log(2 / 0.05) / (2 * max(n, 1)))


# ---------------------------------------------------------------- balance and bootstrap


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


def interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates (NaNs ignored)."""
    s = np.asarray(samples, float)
    s = s[np.isfinite(s)]
    if s.size == 0:
        return (math.nan, math.nan)
    a = (1 - level) / 2
    return float(np.quantile(s, a)), float(np.quantile(s, 1 - a))


def seat_columns(comp: Comparison, players: int) -> list[int]:
    return [comp.quantities.index(f"win_{s}") for s in range(players)]


def balance_of(comp: Comparison, arm: str, replicates: int = 1000, boot: np.ndarray | None = None) -> tuple[float, float, float]:
    """Balance of one arm with a block-bootstrap 95% interval."""
    k = comp.index(arm)
    cols = seat_columns(comp, comp.arms[k].players)
    point = float(balance(comp.means()[k, cols]))
    b = comp.boot_means(replicates) if boot is None else boot
    lo, hi = interval(balance(b[:, k][:, cols]))
    return point, lo, hi


# ---------------------------------------------------------------- captions


def caption(
    exp: Experiment,
    title: str,
    n: str,
    *,
    rules: str | None = None,
    policies: str | None = None,
    intervals: str = "bands and bars are 95% intervals",
) -> str:
    """The caption every chart carries: what, n, rules, policies, seed, version, intervals."""
    base = exp.base
    sets = ", ".join(f"{k}={v}" for k, v in base.sets)
    rules_text = rules or (base.rules + (f" with {sets}" if sets else ""))
    pol = policies or (base.policy + "".join(f"; seat {s}: {p}" for s, p in base.seats))
    quick = " (quick run)" if exp.quick else ""
    return (
        f"{title}. n = {n}. Rules: {rules_text}. Policies: {pol}. Seed {exp.seed}, {exp.path.name}{quick}, "
        f"unocli {__version__}. {intervals[0].upper() + intervals[1:]}."
    )


def arms_text(exp: Experiment) -> str:
    """The arms of an experiment in a few words each."""
    parts = []
    for a in exp.arms:
        t = a.table
        sets = ", ".join(f"{k}={v}" for k, v in t.sets)
        parts.append(f"{a.name} = {t.rules}" + (f" with {sets}" if sets else ""))
    return "; ".join(parts)
