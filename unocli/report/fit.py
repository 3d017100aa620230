"""Whether a report's frame fits the view drawn from it, checked as the view is drawn: the frame exists only
after the games are played, so a misfit (a column it lacks, text where a chart draws numbers, two rows where it
has room for one) must end in one sentence naming the view (:class:`Refused`, worded by
:func:`unocli.report.kinds.declared`), never in pandas' or matplotlib's own exception; and the table size a view
of one size draws.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from numbers import Real
from typing import Any

import pandas as pd

from unocli.report import fmt
from unocli.report.words import level, listed


class Refused(Exception):
    """A view's frame does not fit what its options ask (two rows in one cell): the caller says which view."""


def first_n(rows: pd.DataFrame) -> str:
    """The ``{n}`` of a chart's words: its rows' first sample size given (column ``n``), or "-" without one."""
    return next((fmt.count(n) for n in rows.get("n", ()) if pd.notna(n)), "-")


def number(x: Any) -> float:
    """A cell as a number, NaN where missing (a nullable column's NA)."""
    return float("nan") if pd.isna(x) else float(x)


def level_of(frame: pd.DataFrame) -> str:
    """A frame's simultaneous level in percent (:func:`~unocli.report.words.level`), or "" when it has none."""
    return level(frame) if "sim_level" in frame and frame["sim_level"].notna().any() else ""


def fits(frame: pd.DataFrame, keys: Sequence[str], numbers: Sequence[str] = (), unique: bool = True) -> pd.DataFrame:
    """``frame`` when a view can draw it: the columns named exist, its ``numbers`` columns hold numbers and
    (``unique``) no two rows share ``keys``; else :class:`Refused`, or a KeyError naming the column it lacks."""
    for column in (*keys, *numbers):
        if column not in frame:
            raise KeyError(column)
    for column in numbers:  # numbers, or blanks (None, NaN) among them; not text, not even ""
        values = frame[column]
        if not pd.api.types.is_numeric_dtype(values) and not all(isinstance(x, Real) for x in values.dropna()):
            raise Refused(f"its frame's column {column!r} must hold numbers")
    if unique and keys and frame.duplicated(list(keys)).any():
        raise Refused(f"two rows of its frame have the same {listed(list(keys))}: keep one (with a where)")
    return frame


def size(players: int, sizes: Collection[int]) -> int:
    """The table size a view of one size draws: ``players`` where ``sizes`` (those it has rows or histograms at)
    holds it, else the middle of ``sizes``: one rule for every kind, so a file naming a size the run did not play
    (a quick run's) still draws, at a size its words name (``{players}``)."""
    return players if players in sizes else sorted(sizes)[len(sizes) // 2]


def at_size(frame: pd.DataFrame, p: Any) -> pd.DataFrame:
    """The frame's rows at a view's table size ``p`` (:func:`size` of its ``players``, default 4); every row with
    ``players = "all"``."""
    if p == "all" or not len(frame):
        return frame
    sizes = set(fits(frame, (), ("players",))["players"].dropna())  # table sizes, not text such as "all"
    return frame[frame["players"] == size(p, sizes)] if sizes else frame.iloc[0:0]
