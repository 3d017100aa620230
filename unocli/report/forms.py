"""The column forms of a ``table`` view (``[heading, FORM[:D], column...]``), of a ``verdicts`` view's cells and of a
published figure's ``{FORM[:D] column ...}``: each turns columns of a row into the text a reader sees.

:data:`ARITY` (how many columns each form reads) is derived from the forms themselves, so the experiment file's
check (:mod:`unocli.report.options`) and the drawing (:mod:`unocli.report.kinds`) cannot disagree.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import pandas as pd

from unocli.report import fmt
from unocli.run.accumulate import TURNS_BINS
from unocli.study.compare import is_binary

FORMED = re.compile(r"\{([\w:]+)((?: \w+)+)\}")  # "{FORM[:D] column ...}" in a template of forms


def interval(form: Any, point: str, low: str, high: str, *args: Any) -> Any:
    """A column of :func:`shown`: ``form(row[point], row[low], row[high], *args)`` (``fmt.pp_ci``, ``fmt.signed_ci``,
    ...), blank where the point is missing."""
    return lambda r: "" if pd.isna(r[point]) else form(r[point], r[low], r[high], *args)


def shown(frame: pd.DataFrame, columns: Mapping[str, Any]) -> pd.DataFrame:
    """A frame as a reader sees it: each column a column of ``frame`` (by name) or a function of its row."""
    rows = [r for _, r in frame.iterrows()]
    return pd.DataFrame(
        {title: frame[c].to_numpy() if isinstance(c, str) else [c(r) for r in rows] for title, c in columns.items()}
    )


# A ``table`` view's column forms: a function of the columns and the decimals (``FORM:D``; without
# them the form's own) giving a column of the frame or a function of its row.
FORMS: dict[str, Callable[..., Any]] = {
    "text": lambda c, d=None: c,
    "count": lambda c, d=None: lambda r: fmt.count(r[c]),
    "num": lambda c, d=None: lambda r: fmt.num(r[c]),
    "g": lambda c, d=None: lambda r: f"{r[c]:g}",  # a rate as written in the experiment file: 0, 0.5, 1
    "share": lambda c, d=1: lambda r: fmt.share(r[c], d),
    "pvalue": lambda c, d=None: lambda r: fmt.pvalue(r[c]),
    "pair": lambda a, b, d=None: lambda r: f"{r[a]} minus {r[b]}",
    "optional": lambda c, d=None: lambda r: "" if pd.isna(r[c]) else r[c],  # a column some rows leave blank
    "counts": lambda a, b, d=None: lambda r: f"{fmt.count(r[a])} ({fmt.count(r[b])})",
    "times": lambda a, b, d=None: lambda r: f"{fmt.count(r[a])} x {r[b]}",  # deals x rotations
    "ci": lambda p, lo, hi, d=None: interval(fmt.ci, p, lo, hi),
    "share_ci": lambda p, lo, hi, d=2: interval(fmt.share_ci, p, lo, hi, d),
    "pp_ci": lambda p, lo, hi, d=2: interval(fmt.pp_ci, p, lo, hi, d),
    # a change already in pp (a column of pp, not a share)
    "pp_column_ci": lambda p, lo, hi, d=2: interval(lambda x, a, b, e: fmt.pp_ci(x / 100, a / 100, b / 100, e), p, lo, hi, d),
    "signed_ci": lambda p, lo, hi, d=2: interval(fmt.signed_ci, p, lo, hi, d),
    "signed_percent": lambda c, d=1: lambda r: fmt.fixed(100 * r[c], d, sign=True) + "%",
    "round": lambda c, d=4: lambda r: round(r[c], d),
    "interval": lambda p, lo, hi, d=None: interval(fmt.interval, p, lo, hi, d),
    "pp_bounds": lambda lo, hi, d=2: lambda r: "" if pd.isna(r[lo]) else fmt.bounds(r[lo], r[hi], d, "pp"),
    "share_ci_count": lambda p, lo, hi, n, d=1: lambda r: f"{fmt.share_ci(r[p], r[lo], r[hi], d)} ({fmt.count(r[n])})",
    # an order statistic of a histogram of turns: its last bin (TURNS_BINS - 1) means "at least"
    "quantile": lambda p, lo, hi, d=None: lambda r: fmt.quantile(r[p], r[lo], r[hi], TURNS_BINS - 1),
    # a change already in pp on its interval, then a word (its verdict); the word alone where there is no interval
    "pp_column_ci_word": lambda p, lo, hi, w, d=2: (
        lambda r: r[w] if pd.isna(r[lo]) else f"{fmt.pp_ci(r[p] / 100, r[lo] / 100, r[hi] / 100, d)} {r[w]}"
    ),
    # a change already in pp of one option over another on its interval, "-" where they are one (a best response)
    "pp_column_ci_unless_same": lambda p, lo, hi, a, b, d=2: (
        lambda r: "-" if r[a] == r[b] else fmt.pp_ci(r[p] / 100, r[lo] / 100, r[hi] / 100, d)
    ),
    "yes_no": lambda c, d=None: lambda r: "yes" if r[c] else "no",
    # the fair share 1/n of a column of table sizes, as the fair = true of a chart draws it (float: a size of 0, a
    # Python or a numpy one, is refused alike rather than written "inf%")
    "fair": lambda c, d=1: lambda r: fmt.share(1 / float(r[c]), d),
    # a template naming the row's columns in braces, each number written as "num" writes it: "per {kind}"
    "format": lambda t, d=None: lambda r: t.format(**{k: fmt.num(x) if isinstance(x, float) else x for k, x in r.items()}),
    # a mean (or a change) on its interval, a share's in % (in pp) when the row's quantity column names a share
    "estimate": lambda p, lo, hi, q, d=None: per_quantity(fmt.estimate, p, lo, hi, q),
    "difference": lambda p, lo, hi, q, d=None: per_quantity(fmt.difference, p, lo, hi, q),
    "fixed": lambda c, d=2: lambda r: fmt.fixed(r[c], d),  # a plain number with D decimals: 2.01, 4.00
    # a template of forms: each "{FORM[:D] column ...}" written as that form writes the row
    "formed": lambda t, d=None: lambda r: FORMED.sub(partial(formed, row=r), t),
}


def per_quantity(form: Callable[..., str], point: str, low: str, high: str, quantity: str) -> Callable[[pd.Series], str]:
    """A column of ``form`` (``fmt.estimate``, ``fmt.difference``) at each row, as a share where the row's
    ``quantity`` is one (:func:`~unocli.study.compare.is_binary`); blank where the point is missing."""
    return lambda r: "" if pd.isna(r[point]) else form(r[point], r[low], r[high], is_share=is_binary(str(r[quantity])))


def column_of(form: str, names: Sequence[str]) -> Any:
    """The column a ``table`` view's ``[heading, FORM[:D], column...]`` shows."""
    name, _, decimals = form.partition(":")
    make = FORMS[name]
    return make(*names, int(decimals)) if decimals else make(*names)


def formatted(frame: pd.DataFrame, columns: Sequence[Sequence[str]]) -> pd.DataFrame:
    """``frame`` as a ``table`` view without words shows it: ``columns`` = [heading, FORM[:D], column...]."""
    return pd.DataFrame({str(h): shown(frame, {"": column_of(form, names)})[""].to_numpy() for h, form, *names in columns})


def formed(m: re.Match[str], row: pd.Series) -> str:
    """``{FORM[:D] column ...}`` of a template of forms: that column form (:func:`column_of`) at ``row``."""
    return at(column_of(m[1], m[2].split()), row)


def at(column: Any, row: pd.Series) -> str:
    """A column form's (:func:`column_of`) text at ``row``."""
    return str(row[column] if isinstance(column, str) else column(row))


# The columns each form reads: its parameters without a default (the decimals, ``FORM:D``, have one).
ARITY: dict[str, int] = {
    name: sum(p.default is inspect.Parameter.empty for p in inspect.signature(make).parameters.values())
    for name, make in FORMS.items()
}
