"""Number formatting for the command line and the reports: one module, one set of conventions.

- counts carry thousands separators: ``12,345``;
- shares are percentages: ``26.84%``; differences of shares are percentage
  points: ``-1.30 pp``;
- differences are signed, and so are the bounds of their intervals:
  ``+0.12 [-0.20, +0.44]``;
- an interval is ``point [low, high]``, the three with the same decimals;
  a report table chooses its decimals, command output leaves them to the
  interval (:func:`decimals_for`: two significant figures of the
  half-width, so a number shows as many digits as its precision warrants);
- never scientific notation; ``n/a`` for a value that does not exist (NaN or
  infinite), and ``(no interval)`` for an interval whose bounds both do not;
- p-values: three decimals, ``<0.001`` below that, empty when there is none.

A value is formatted as one of four kinds: ``number``, ``signed`` (a
difference of numbers), ``share`` and ``pp`` (a difference of shares).
Only :mod:`math` is imported, so the command line pays nothing to use it.
"""

from __future__ import annotations

import math
from typing import Literal

Kind = Literal["number", "signed", "share", "pp"]
NA = "n/a"
MAX_DECIMALS = 6


def finite(x: float | None) -> bool:
    """Is ``x`` a number that exists (not None, NaN or infinite)?"""
    return x is not None and math.isfinite(x)


def count(n: float) -> str:
    """A count with thousands separators: ``12,345``."""
    return f"{int(n):,}"


def fixed(x: float, decimals: int = 2, *, sign: bool = False) -> str:
    """``x`` with ``decimals`` decimals and thousands separators (``sign``: always a + or -)."""
    if not finite(x):
        return NA
    return f"{x:{'+' if sign else ''},.{decimals}f}"


def sig_decimals(x: float, digits: int = 4, default: int = 2) -> int:
    """Decimals that show ``x`` to ``digits`` significant figures (at most six; ``default`` for 0 or n/a)."""
    if not finite(x) or x == 0:
        return default
    return min(MAX_DECIMALS, max(0, digits - 1 - math.floor(math.log10(abs(x)))))


def sig(x: float, digits: int = 4) -> str:
    """``x`` to ``digits`` significant figures in positional notation: ``0.01533``, ``42.67``, ``1,217``; ``0`` for 0."""
    if not finite(x):
        return NA
    if x == 0:
        return "0"
    decimals = digits - 1 - math.floor(math.log10(abs(x)))
    if decimals <= 0:
        return f"{round(x, decimals):,.0f}"
    return f"{x:,.{decimals}f}"


def num(x: float | None, digits: int = 3) -> str:
    """A compact number for prose and report tables: ``digits`` significant figures from 1 to 100,
    one decimal from 100 to 1,000, none above; below 1, ``digits - 1`` decimals."""
    if x is None or not finite(x):
        return NA
    if abs(x) >= 100:
        return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.1f}"
    return f"{x:.{digits}g}" if abs(x) >= 1 else f"{x:.{max(digits - 1, 1)}f}"


def decimals_for(lo: float, hi: float, default: int = 2) -> int:
    """Decimals that show an interval from ``lo`` to ``hi`` to two significant figures of its half-width
    (``default`` for an interval of no width)."""
    half = (hi - lo) / 2
    if not finite(half) or half <= 0:
        return default
    return min(MAX_DECIMALS, max(0, 1 - math.floor(math.log10(half))))


def _scale(kind: Kind) -> float:
    return 100.0 if kind in ("share", "pp") else 1.0


def _auto(lo: float, hi: float, kind: Kind, decimals: int | None) -> int:
    return decimals_for(_scale(kind) * lo, _scale(kind) * hi) if decimals is None else decimals


def value(x: float, decimals: int, kind: Kind = "number") -> str:
    """One value of a kind: ``26.84%`` (share), ``-1.30 pp`` (pp), ``+0.12`` (signed), ``0.12`` (number)."""
    if kind == "share":
        return fixed(100 * x, decimals) + ("%" if finite(x) else "")
    if kind == "pp":
        return fixed(100 * x, decimals, sign=True) + (" pp" if finite(x) else "")
    return fixed(x, decimals, sign=kind == "signed")


def bounds(lo: float, hi: float, decimals: int | None = None, kind: Kind = "number") -> str:
    """The bounds of an interval: ``[25.64%, 26.85%]``; a difference's in points without the unit: ``[-0.30, +0.54]``."""
    k = _auto(lo, hi, kind, decimals)
    if kind == "pp":
        return f"[{fixed(100 * lo, k, sign=True)}, {fixed(100 * hi, k, sign=True)}]"
    return f"[{value(lo, k, kind)}, {value(hi, k, kind)}]"


def point(x: float, lo: float, hi: float, decimals: int | None = None, kind: Kind = "number") -> str:
    """The point of an interval alone, with the decimals :func:`interval` would give it (for a table that shows
    the point and :func:`bounds` in two columns)."""
    return value(x, _auto(lo, hi, kind, decimals), kind)


def interval(x: float, lo: float, hi: float, decimals: int | None = None, kind: Kind = "number") -> str:
    """``x [lo, hi]``: a point and its interval with the same decimals (given, or from the interval's width);
    ``x (no interval)`` when neither bound exists (a cell too small for one), rather than ``[n/a, n/a]``."""
    k = _auto(lo, hi, kind, decimals)
    if not (finite(lo) or finite(hi)):
        return f"{value(x, k, kind)} (no interval)"
    return f"{value(x, k, kind)} {bounds(lo, hi, k, kind)}"


def share(p: float, decimals: int = 1) -> str:
    """A share as a percentage: ``26.3%``."""
    return value(p, decimals, "share")


def pp(d: float, decimals: int = 2) -> str:
    """A difference of shares in percentage points: ``+1.23 pp``."""
    return value(d, decimals, "pp")


def signed(x: float, decimals: int = 2) -> str:
    """A difference: ``+0.12``."""
    return value(x, decimals, "signed")


def share_ci(p: float, lo: float, hi: float, decimals: int | None = None) -> str:
    """``26.84% [25.64%, 28.05%]``."""
    return interval(p, lo, hi, decimals, "share")


def pp_ci(d: float, lo: float, hi: float, decimals: int | None = None) -> str:
    """``+1.23 pp [+0.40, +2.06]``."""
    return interval(d, lo, hi, decimals, "pp")


def signed_ci(d: float, lo: float, hi: float, decimals: int | None = None) -> str:
    """``+0.12 [-0.20, +0.44]``."""
    return interval(d, lo, hi, decimals, "signed")


def compact_decimals(x: float, digits: int = 3) -> int:
    """The decimals :func:`num` shows ``x`` with (trailing zeros kept)."""
    if not finite(x) or abs(x) < 1:
        return max(digits - 1, 1)
    if abs(x) >= 100:
        return 0 if abs(x) >= 1000 else 1
    return max(digits - 1 - math.floor(math.log10(abs(x))), 0)


def ci(m: float, lo: float, hi: float, digits: int = 3) -> str:
    """A mean and its interval with the decimals :func:`num` gives the mean: ``44.9 [44.6, 45.2]``, ``1.00 [1.00, 1.00]``."""
    return interval(m, lo, hi, compact_decimals(m, digits))


def estimate(m: float, lo: float, hi: float, *, is_share: bool, decimals: int | None = None) -> str:
    """A mean (a percentage for a share) with its interval."""
    return interval(m, lo, hi, decimals, "share" if is_share else "number")


def difference(d: float, lo: float, hi: float, *, is_share: bool, decimals: int | None = None) -> str:
    """A difference (in percentage points for shares) with its interval."""
    return interval(d, lo, hi, decimals, "pp" if is_share else "signed")


def pvalue(p: float | None) -> str:
    """``0.012``, ``<0.001``, or empty when there is no p-value."""
    if p is None or not finite(p):
        return ""
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def quantile(x: int, lo: int, hi: int, top: int) -> str:
    """An order statistic of a clipped histogram with its interval; a value in the last bin (``top``) means "at least"."""

    def show(v: int) -> str:
        return f">={v}" if v >= top else str(v)

    return f"{show(x)} [{show(lo)}, {show(hi)}]"
