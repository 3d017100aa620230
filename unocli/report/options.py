"""What the options of an experiment file accept: each check says why a value will not do (None: it will).

The analyses name these checks in their ``OPTIONS`` (the keys of ``[options]``:
name -> (default, check)); :data:`VIEW_OPTIONS` names the options each kind of
``[[view]]`` takes and their checks, and :func:`view_problem` checks one view's
options. :mod:`unocli.report.experiment` turns a problem into the one sentence
that names the file and the key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from unocli.errors import ConfigError
from unocli.report.forms import ARITY, FORMED
from unocli.study.arm import check_spec

Check = Callable[[Any], str | None]
# Equivalence margins (TOST, ``stats.equivalence``) and their defaults: the keys of an experiment's ``[margins]``.
MARGINS: dict[str, float] = {"win_share_pp": 0.5, "turns": 1.0, "balance": 0.01}


def positive_int(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return f"must be a positive whole number, not {value!r}"
    return None


def probability_list(value: Any) -> str | None:
    if not isinstance(value, list | str):
        return f"must be a list of probabilities or START:STOP:STEP, not {value!r}"
    try:
        from unocli.study.sweep import parse_values

        values = [float(v) for v in parse_values(value)]
    except (ConfigError, ValueError, TypeError):  # TypeError: a list or a table among the values
        return f"must be a list of probabilities or START:STOP:STEP, not {value!r}"
    if not values:
        return "the grid is empty: give at least one value"
    if not all(0.0 <= v <= 1.0 for v in values):
        return f"probabilities must lie between 0 and 1, not {value!r}"
    return None


def players_list(value: Any) -> str | None:
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= 10 for n in values):
        return f"must be table sizes from 2 to 10, not {value!r}"
    return None


def policy_spec(value: Any) -> str | None:
    """A preset spec, or a ``{rules}``/``{players}`` template (its name is checked by the analysis, per table)."""
    if not isinstance(value, str):
        return f"must be a policy spec, not {value!r}"
    try:
        check_spec(value)
    except ConfigError as exc:
        return str(exc)
    return None


def policy_list(value: Any) -> str | None:
    """A non-empty list of distinct policy specs (a report's fields of players)."""
    if not isinstance(value, list) or not value:
        return f"must be a non-empty list of policy specs, not {value!r}"
    for v in value:
        message = policy_spec(v)
        if message:
            return message
    if len(set(value)) != len(value):
        return f"names a field twice: {value!r}"
    return None


def _when(ok: Callable[[Any], object], why: str) -> Check:
    """A check that says ``why`` when a value is not ``ok``: most options' checks, each one line below."""
    return lambda v: None if ok(v) else why


def _strings(v: Any) -> bool:  # a list of non-empty texts: columns, words
    return isinstance(v, list) and all(isinstance(x, str) and x for x in v)


def _texts(v: Any) -> bool:  # a table of non-empty texts: labels, headings
    return isinstance(v, dict) and all(isinstance(x, str) and x for x in v.values())


def _one_of(*words: str) -> Check:
    """A check that the value is one of ``words``, naming them when not: 'must be "a", "b" or "c"'."""
    quoted = [f'"{w}"' for w in words]
    return _when(lambda v: v in words, f"must be {', '.join(quoted[:-1])} or {quoted[-1]}")


_column = _when(lambda v: isinstance(v, str) and v, "must be a column name")
_text = _when(lambda v: isinstance(v, str) and v, "must be text")
_bool = _when(lambda v: isinstance(v, bool), "must be true or false")
_number = _when(lambda v: isinstance(v, int | float) and not isinstance(v, bool), "must be a number")
_whole = _when(lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 6, "must be a whole number 0 to 6")
_share = _when(lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= 1, "must be a share in (0, 1]")
_words = _when(lambda v: _strings(v) and len(v) == 2, 'must be two words, for a change up and down: ["lengthens", "shortens"]')
_three_columns = _when(
    lambda v: _strings(v) and len(v) == 3,
    'must name three columns: the point, its low and its high, e.g. ["share", "low", "high"]',
)
_names = _when(lambda v: _strings(v) and v, 'must be a list of column names, e.g. ["rule", "field"]')
_labels = _when(
    lambda v: _texts(v) or (isinstance(v, str) and "{value}" in v),
    'must be a table of labels, e.g. { adapted = "adapted ({adapted})" }, or one "{value} ..."',
)
_headings = _when(_texts, 'must be a table of headings by value, e.g. { best = "best response c={best_rate}" }')


# a file the report writes into its own folder (a view's name, a table's ``file``): no path, no dot first
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")


def file_name(v: Any) -> str | None:
    ok = isinstance(v, str) and FILE_NAME.fullmatch(v)
    return None if ok else f"{v!r} must be a plain file name: letters, digits, - and _ only"


def _one_size(v: Any) -> str | None:
    return players_list([v]) if not isinstance(v, list) else "must be one table size"


def _size_or_all(v: Any) -> str | None:
    return None if v == "all" else _one_size(v)


def _panel(c: list[str]) -> list[str]:
    """A panel of a ``panels`` view without its last item "pp" (a share's margin in percentage points)."""
    return c[:-1] if c[-1:] == ["pp"] else c


def _panels(v: Any) -> str | None:
    """[[(value of by), x label, point, low, high, margin key, ("pp")]]: each panel's columns and the [margins] key of
    its band, or ``options.KEY`` for an option of the report's (its value of ``by`` is checked against ``by`` by
    :func:`view_problem`)."""

    def ok(c: Any) -> bool:
        return _strings(c) and len(_panel(c)) in (5, 6) and (_panel(c)[-1] in MARGINS or _panel(c)[-1].startswith("options."))

    if isinstance(v, list) and v and all(ok(c) for c in v):
        return None
    margins = ", ".join(MARGINS)
    return f'must be a list of [x label, point, low, high, margin ({margins} or options.KEY)] with "pp" last for a share'


def _columns(v: Any) -> str | None:
    """[[heading, form, column...]]: a form of ``forms.FORMS`` (``FORM`` or ``FORM:D``, D decimals) and its columns."""

    def ok(c: Any) -> bool:
        if not (isinstance(c, list) and len(c) >= 2 and all(isinstance(x, str) for x in c)):
            return False
        return _form(c[1], len(c) - 2)

    if not (isinstance(v, list) and v and all(ok(c) for c in v)):
        return f"must be a list of [heading, form, column...] with forms {', '.join(ARITY)} (FORM:D for D decimals)"
    formats = (_format_problem(c[2]) for c in v if c[1].partition(":")[0] == "format")
    formed = (template_problem(c[2]) for c in v if c[1].partition(":")[0] == "formed")
    return next((m for m in (*formats, *formed) if m), None)


# The widest field a "format" column may ask for: a width of 10**8 wrote a 600 MB README from one edit.
MAX_FORMAT_WIDTH = 999


def _format_problem(template: str) -> str | None:
    """Why a ``format`` column's template will not do: Python cannot read it, or a field asks for a width or
    precision over :data:`MAX_FORMAT_WIDTH` (None: it will do)."""
    import string

    try:
        specs = [spec or "" for _, name, spec, _ in string.Formatter().parse(template) if name is not None]
    except ValueError as bad:
        return f"{template!r} is not a template Python can read ({bad})"
    if any(int(n) > MAX_FORMAT_WIDTH for spec in specs for n in re.findall(r"\d+", spec)):
        return f"{template!r} asks for a field wider than {MAX_FORMAT_WIDTH} characters"
    return None


def _form(form: str, columns: int) -> bool:
    """Whether ``form`` (``FORM`` or ``FORM:D``, D up to 6 decimals) is a column form reading ``columns`` columns."""
    name, colon, decimals = form.partition(":")
    return ARITY.get(name) == columns and (not colon or (decimals.isdigit() and int(decimals) <= 6))


def template_problem(text: Any) -> str | None:
    """Why a template of forms (a ``formed`` column's, a published figure's ``ours.text``) will not do: not text, or
    a ``{FORM[:D] column ...}`` whose form is unknown or reads another number of columns (None: it will do)."""
    if not isinstance(text, str):
        return f"must be text (in quotes), not {text!r}"
    for m in FORMED.finditer(text):
        if not _form(m[1], len(m[2].split())):
            return f"{m[0]!r} names no column form of {len(m[2].split())} column(s); the forms are: {', '.join(ARITY)}"
    return None


def _cell(v: Any) -> str | None:
    """[FORM[:D], point, column...]: one column's form of a ``table`` view, without its heading."""
    return None if isinstance(v, list) and not _columns([["", *v]]) else "must be [form, column...], a table column's form"


# The words of a chart a view draws, and the columns of its lines, bars or dots ([point, low, high] per value of by).
_WORDS: dict[str, Check] = {"caption": _text, "intervals": _text, "alt": _text}
_SERIES: dict[str, Check] = {"columns": _three_columns, "by": _column}
_DISTRIBUTION: dict[str, Check] = {"field": _text, "players": players_list, "xlabel": _text, "alt": _text, "caption": _text}
# The kinds of view that draw no one quantity of the design frame (a [[view]] of another kind names one, but a
# heatmap of a frame of effects: see needs_quantity).
NO_QUANTITY = ("published", "table", "report", "sizes", "bars", "dots", "curves", "csv", "panels")
# A view's kinds and the options each takes: name -> the check of its value (None: fine, else why not).
VIEW_OPTIONS: dict[str, dict[str, Check]] = {
    "differences": {"arm": _column},
    "wide": {"arm": _column},
    "lines": {
        "by": _one_of("arm", "field"),
        "arm": _when(lambda v: isinstance(v, str), "must name an arm"),
        "field": _when(lambda v: isinstance(v, str), "must name a field"),
        "fair": _bool,
        "percent": _bool,
        "ylabel": _text,
        "caption": _text,
        "n": _text,
        "policies": _text,
    },
    "sizes": {
        **_SERIES,
        "ylabel": _text,
        **_WORDS,
        "percent": _bool,
        "hline": _number,
        "hline_label": _text,
        "reference": _column,
        "reference_label": _text,
        "fair": _bool,
    },
    "bars": {
        "players": _one_size,
        "x": _column,
        **_SERIES,
        "xlabel": _text,
        "ylabel": _text,
        **_WORDS,
        "percent": _bool,
        "fair": _bool,
    },
    "dots": {
        "players": _size_or_all,
        "zero": _bool,
        "y": _column,
        **_SERIES,
        "scale": _number,
        "percent": _bool,
        "change": _bool,
        "xlabel": _text,
        **_WORDS,
        "n": _text,
        "policies": _text,
        "labels": _labels,
    },
    "curves": {
        "players": _one_size,
        "x": _column,
        **_SERIES,
        "log": _bool,
        "percent": _bool,
        "xlabel": _text,
        "ylabel": _text,
        **_WORDS,
        "n": _text,
        "policies": _text,
    },
    "csv": {},
    "panels": {
        "players": _size_or_all,
        "label": _names,
        "by": _column,
        "panels": _panels,
        "caption": _text,
        "intervals": _text,
        "n": _text,
        "policies": _text,
    },
    "forest": {"players": _one_size, "arm": _column, "caption": _text, "intervals": _text, "xlabel": _text},
    "heatmap": {
        "rows": _column,
        "cols": _column,
        "players": _one_size,
        "field": _text,
        "arm": _column,
        "caption": _text,
        "intervals": _text,
        "value": _column,
        "verdict": _column,
        "scale": _number,
        "unit": _text,
        "n": _text,
        "policies": _text,
    },
    "published": {},
    "verdicts": {"arm": _column, "words": _words, "decimals": _whole, "cell": _cell, "verdict": _column},
    "interactions": {"arm": _column},
    "table": {"columns": _columns, "note": _text, "by": _column, "label": _names, "labels": _headings, "file": file_name}
    | {"reverse": _bool, "shown_only": _names, "csv": _bool, "drop_blank": _bool},
    "report": {},
    "percentiles": {"arm": _column, "field": _text, "ylabel": _text, "caption": _text},
    "histogram": _DISTRIBUTION,
    "ecdf": {**_DISTRIBUTION, "top": _share},
}
# The options a view of each kind cannot go without.
VIEW_REQUIRED: dict[str, tuple[str, ...]] = {
    "table": ("columns",),
    "sizes": ("columns", "ylabel", "caption", "intervals"),
    "bars": ("players", "x", "columns", "xlabel", "ylabel", "caption", "intervals"),
    "dots": ("y", "columns", "xlabel", "caption", "intervals"),
    "curves": ("x", "columns", "xlabel", "ylabel", "caption", "intervals"),
    "panels": ("label", "panels", "caption", "intervals"),
    "percentiles": ("field", "ylabel"),
    "histogram": ("field", "xlabel"),
    "ecdf": ("field", "xlabel"),
}


def table_problem(table: Mapping[str, Any], checks: Mapping[str, Check | None], unknown: str) -> tuple[str, str] | None:
    """(key, why) for the first key of ``table`` not in ``checks`` ("``unknown``: the keys"), or whose check refuses it.

    Key by key in the table's order, so the first problem is the one reported; a None check: checked elsewhere.
    """
    for k, value in table.items():
        if k not in checks:
            return k, f"{unknown}: {', '.join(checks) or '(none)'}"
        check = checks[k]
        message = check(value) if check else None
        if message:
            return k, message
    return None


def needs_quantity(kind: str, options: Mapping[str, Any]) -> bool:
    """Whether a ``kind`` view with ``options`` draws one quantity of the design frame (its key ``quantity``)."""
    return kind not in NO_QUANTITY and not (kind == "heatmap" and "value" in options)


def view_problem(kind: str, options: Mapping[str, Any]) -> tuple[str, str] | None:
    """(option, why) for the first option of a ``kind`` view that will not do, or that it lacks; None if all will."""
    problem = table_problem(options, VIEW_OPTIONS[kind], f"unknown option for a {kind} view; its options are")
    if problem:
        return problem
    for k in VIEW_REQUIRED.get(kind, ()):
        if k not in options:
            return k, f"a {kind} view needs it"
    if kind == "table" and "by" in options and "label" not in options:
        return "label", "with by, a table view needs the columns that name its rows"
    if kind == "table" and "by" not in options and any("{value}" in c[0] for c in options["columns"]):
        return "by", "a heading naming {value} needs by, the column whose values it names"
    if kind == "heatmap" and "value" in options:
        lacking = [k for k in ("verdict", "rows", "cols") if k not in options]
        if lacking:
            return lacking[0], "a heatmap of a frame of effects (value) needs verdict, rows and cols"
    if kind == "heatmap" and options.get("rows", "arm") == options.get("cols", "players"):
        return "cols", "must name another column than rows"
    if kind == "heatmap" and "value" not in options:
        design = ("field", "players", "arm")
        for k in ("rows", "cols"):
            if options.get(k, "arm") not in design:
                return k, 'must be "field", "players" or "arm" (any column with value, a frame of effects)'
        own = [k for k in ("verdict", "scale", "unit", "n", "policies") if k in options]
        if own:
            return own[0], "is an option of a heatmap of a frame of effects: it needs value"
    if kind == "verdicts" and ("cell" in options) != ("verdict" in options):
        return "cell", "a verdicts view of a frame of effects needs both cell and verdict"
    if kind == "panels" and any(len(_panel(c)) != 5 + ("by" in options) for c in options["panels"]):
        return "panels", "with by, each panel opens with its value of by: [value, x label, point, low, high, margin]"
    return None
