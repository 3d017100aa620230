"""The views an experiment file declares (``[[view]]``), drawn from a report's frames with :mod:`unocli.report.views`
(tables, forests, heatmaps, lines by table size) or, for a chart no other code draws, :mod:`unocli.report.plots`.

A report hands :func:`declared` its frames by name and a :class:`Setup` (the
words a view cannot know: its captions' setup, its own figures and blocks);
each view's kind (:data:`KINDS`) draws it from the view's options, which
:mod:`unocli.report.options` checks when the file is loaded, and from its
frame, known only after the games and checked as it is drawn (:mod:`unocli.report.fit`:
a misfit is one :class:`~unocli.errors.ConfigError` naming the view). :func:`chosen`
picks the file's views or the report's defaults, :func:`refused` says which a
report cannot draw. Each kind's options and the words its titles and captions
may name are in docs/experiments.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from unocli.analysis.fields import interactions_frame
from unocli.analysis.frames import differences, wide
from unocli.analysis.measures import dkw_eps, hist_quantile
from unocli.errors import ConfigError
from unocli.report import fit, fmt, forms
from unocli.report.experiment import Experiment, View, load_experiment, shipped_dir
from unocli.report.model import Block, Chart, TableBlock, md_table
from unocli.report.views import Ours, forest, forest_chart, heatmap, interval_series, players_chart, published
from unocli.report.words import change_word, level, verdict_matrix
from unocli.study.compare import is_binary
from unocli.study.interaction import FieldInteraction


@dataclass(frozen=True)
class Setup:
    """What a report tells the views its experiment file declares: the words a view cannot know.

    ``caption(what, intervals)`` writes a chart's caption (the report's setup:
    n, rules, policies, seed); a chart of one field calls it as
    ``caption(what, intervals, field, arms)`` (``arms``: whether it shows every
    arm), a ``dots`` view with its own ``n`` or ``policies`` as
    ``caption(what, intervals, n=..., policies=...)``. ``ours`` holds the report's figures for the ``published`` view,
    ``published_title`` that table's heading; ``baseline`` names the arm
    differences are from (in titles and axes). The distribution views read
    ``hists`` (each (field, players, arm)'s histogram of the quantity) and
    ``counts`` (the games behind each table size's histograms); the
    ``verdicts`` and ``interactions`` views read ``between`` (per quantity,
    each (players, arm)'s interactions between fields). ``blocks``: the
    tables and charts the report draws itself, by name, which ``report``
    views place among the others; ``words``: values of the report's own that
    the views' titles and captions may name (``{key}``).
    """

    caption: Callable[..., str]
    baseline: str = ""
    ours: Mapping[str, Ours] = field(default_factory=dict)
    published_title: str = "Published figures side by side, with unocli's closest setup"
    hists: Mapping[tuple[str, int, str], np.ndarray] = field(default_factory=dict)
    counts: Mapping[int, int] = field(default_factory=dict)
    between: Mapping[str, Mapping[tuple, list[FieldInteraction]]] = field(default_factory=dict)
    blocks: Mapping[str, Block] = field(default_factory=dict)
    words: Mapping[str, str] = field(default_factory=dict)


def chosen(exp: Experiment, defaults: Sequence[View] | str) -> tuple[View, ...]:
    """The views a report draws: the experiment file's ``[[view]]`` tables, or the report's defaults without any.

    ``defaults`` may name a shipped experiment (``sims/NAME.toml``) whose views are the defaults, so a report
    declares its views once, in its own file.
    """
    if exp.views:
        return exp.views
    if not isinstance(defaults, str):
        return tuple(defaults)
    return load_experiment(shipped_dir() / f"{defaults}.toml").views


def refused(exp: Experiment, kinds: Sequence[str], frames: Sequence[str] = ("",)) -> str | None:
    """``view[i].key: message`` for the first declared view a report cannot draw (its ``check``), else None.

    ``frames``: the names of the frames the report offers its views (``""``: its first).
    """
    for i, v in enumerate(exp.views):
        if v.kind not in kinds:
            return f"view[{i}].kind: this report draws only {', '.join(kinds)} views, not {v.kind!r}"
        if v.frame not in frames:
            named = ", ".join(repr(f) for f in frames if f) or "none but its first"
            return f"view[{i}].frame: this report has no frame {v.frame!r}; its frames are: {named}"
    return None


def declared(
    views: Sequence[View], exp: Experiment, frame: pd.DataFrame | Mapping[str, pd.DataFrame] | None, setup: Setup
) -> list[Block]:
    """Each view drawn from the design's tidy frame (:mod:`unocli.report.design`), in order.

    ``frame``: the one frame, or the report's frames by name (a view's
    ``frame`` key picks one; ``""`` is the first); None: no frame.
    """
    frames = frame if isinstance(frame, Mapping) else {"": frame}
    setup = replace(setup, ours={**setup.ours, **_read_ours(exp, frames, setup)})
    empty = pd.DataFrame(columns=["quantity"])
    out: list[Block] = []
    for i, v in enumerate(map(partial(_file_filled, exp), views)):
        data = frames.get(v.frame)
        data = _rows(exp, i, data, _filled(v.where, setup)) if data is not None else empty
        said = f"experiment file {str(exp.path)!r}, key 'view[{i}]' ({v.name})"
        try:
            if v.kind in _DESIGN and not {"value", "cell"} & set(v.options) and len(data):  # a design frame's columns
                fit.fits(data, ("quantity",), ("mean", "low", "high"), unique=False)
            block = _DRAW[v.kind](v, exp, data, setup)
        except fit.Refused as why:  # the frame the run made does not fit what the file asks of it
            raise ConfigError(f"{said}: {why}") from None
        except KeyError as missing:  # a column the file names that the frame lacks: the file's mistake, said so
            name = missing.args[0] if missing.args else None
            if not isinstance(name, str) or name in data.columns:
                raise
            raise ConfigError(
                f"{said}: no column {name!r} in its frame {v.frame or 'of the design'!r} "
                f"(its columns: {', '.join(map(str, data.columns))})"
            ) from None
        if block is not None:
            out.append(block)
    return out


def _rows(exp: Experiment, i: int, frame: pd.DataFrame, where: str) -> pd.DataFrame:
    """The rows of ``frame`` a view's ``where`` keeps (all without one; ``{base}`` and the report's words filled in,
    as in a ``[published.ours]`` ``where``); a query pandas cannot read is the file's mistake, said in one sentence."""
    if not where or not len(frame):
        return frame
    try:
        return frame.query(where)
    except Exception as bad:  # pandas says which name or syntax it could not read
        raise ConfigError(f"experiment file {str(exp.path)!r}, key 'view[{i}].where': {bad}") from None


def _file_filled(exp: Experiment, v: View) -> View:
    """``v`` with what its title and options name of the experiment filled in: ``{target}``, the target score of a
    match under the first arm's rules, and ``{margin:KEY}``, the ``[margins]`` value KEY."""
    values = {f"{{margin:{k}}}": fmt.num(m) for k, m in exp.margins.items()}

    def fill(x: Any) -> Any:
        if isinstance(x, list):
            return [fill(y) for y in x]
        if not isinstance(x, str):
            return x
        if "{target}" in x:  # the arms are built only when a title asks for their target
            x = x.replace("{target}", str(exp.arms_for(exp.players[0])[0].rules.target_score))
        for key, value in values.items():
            x = x.replace(key, value)
        return x

    return replace(v, title=fill(v.title), options={k: fill(x) for k, x in v.options.items()})


def _what(v: View, setup: Setup, default: str) -> str:
    """The view's title (or ``default``), ``{base}`` and the report's words filled in (:func:`_filled`)."""
    return _filled(v.title or default, setup)


def _shown_differences(d: pd.DataFrame, arm: str, unit: str, percent: bool) -> pd.DataFrame:
    """A differences table as a reader sees it: the change on its simultaneous interval, relative, n, verdict."""
    level_text = fmt.fixed(100 * d["sim_level"].iloc[0], 2).rstrip("0").rstrip(".") if d["sim_level"].notna().any() else "95"
    form = fmt.pp_ci if percent else partial(fmt.signed_ci, decimals=2)
    lows, highs = d["sim_low"].fillna(d["diff_low"]), d["sim_high"].fillna(d["diff_high"])
    shown = pd.DataFrame({k: d[k] for k in ("field", "players", arm) if d[k].astype(str).ne("").any()})
    shown[f"change [simultaneous {level_text}% CI]"] = [form(*x) for x in zip(d["diff"], lows, highs, strict=True)]
    shown["relative"] = [fmt.fixed(100 * r, 1, sign=True) + "%" if fmt.finite(r) else fmt.NA for r in d["relative"]]
    shown["n (pairs)"] = d["n"].map(fmt.count)
    margin = d["margin"].dropna()
    if len(margin):
        shown[f"verdict (margin {fmt.num(100 * margin.iloc[0] if percent else margin.iloc[0])} {unit})"] = d["verdict"]
    return shown


def _differences_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    arm = v.options.get("arm", "arm")
    d = differences(frame, v.quantity, arm=arm)
    if not len(d):
        return None
    percent = is_binary(v.quantity)
    title = _what(v, setup, f"Change in {v.quantity} from {{base}}, paired on the same deals")
    return TableBlock(v.name, title, _shown_differences(d, arm, "pp" if percent else v.quantity, percent), d)


def _wide_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    arm = v.options.get("arm", "arm")
    rows = frame[frame["quantity"] == v.quantity]
    if not len(rows):
        return None
    data = wide(rows, {v.quantity: ("mean", "low", "high")}, arm=arm, n=v.quantity)
    form = partial(fmt.share_ci, decimals=1) if is_binary(v.quantity) else fmt.ci
    shown = data[[k for k in ("field", "players", arm) if data[k].astype(str).ne("").any()]].copy()
    shown["n"] = data["n"].map(fmt.count)
    shown[f"{v.quantity} [95% CI]"] = [form(*x) for x in zip(data["mean"], data["low"], data["high"], strict=True)]
    return TableBlock(v.name, _what(v, setup, f"Mean {v.quantity}"), shown, data)


def _lines_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    rows = frame[frame["quantity"] == v.quantity]
    for key in ("arm", "field"):
        if key in v.options:
            rows = rows[rows[key] == v.options[key]]
    if not len(rows):
        return None
    by = v.options.get("by", "arm")
    fit.fits(rows, (by, "players"))  # two fields drawn by arm (or two arms by field) would zigzag along one line
    series = interval_series(rows, by, ("mean", "low", "high"), x="players")
    fair = ("fair share 1/n", [1 / p for p in exp.players]) if v.options.get("fair") else None
    title = _what(v, setup, f"Mean {v.quantity} by table size")
    what = f"{title} (one line per {by})" + ("; dashed line: the fair share 1/n" if fair else "")
    intervals = "error bars are 95% intervals (Wilson for a share, t for a mean)"
    said = {k: _filled(v.options[k], setup, n=fit.first_n(rows)) for k in ("n", "policies") if k in v.options}
    cap = setup.caption(_filled(v.options.get("caption", what), setup, title=title), intervals, **said)
    percent = bool(v.options.get("percent", is_binary(v.quantity)))
    ylabel = v.options.get("ylabel", v.quantity)
    return players_chart(exp, series, cap, name=v.name, alt=title, title=title, ylabel=ylabel, percent=percent, reference=fair)


def _forest_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    arm = v.options.get("arm", "arm")
    d = _at_size(v, differences(frame, v.quantity, arm=arm))
    if not len(d) or d["margin"].isna().all():
        return None
    players = d["players"].iloc[0]
    percent = is_binary(v.quantity)
    margin = float(d["margin"].iloc[0])
    shown_margin = f"{fmt.num(100 * margin)} pp" if percent else f"{fmt.num(margin)} {v.quantity}"
    title = _what(v, setup, f"Each {arm}'s effect on {v.quantity}") + f", {players} players"
    what = f"{title}: the change from {{base}}, paired on the same deals; the grey band is the equivalence margin "
    intervals = "bars are simultaneous {level}% intervals (95% for the whole family)"
    cap = setup.caption(
        _filled(v.options.get("caption", what + f"+/-{shown_margin}"), setup, players=players),
        _filled(v.options.get("intervals", intervals), setup, level=level(d)),
    )
    labels = [", ".join(str(x) for x in (r[arm], r["field"]) if str(x)) for _, r in d.iterrows()]
    xlabel = v.options.get("xlabel", f"{v.quantity} minus {setup.baseline or 'the baseline'}" + (" (pp)" if percent else ""))
    return forest(d, labels, xlabel=xlabel, caption=cap, name=v.name, title=title, percent=percent)


def _heatmap_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """The change over two of field, players and arm (``rows`` x ``cols``), of one ``field`` or table size
    (``players``) when asked; the arms top down in the frame's order. Its words may name ``{field}``, ``{level}``.

    With ``value`` and ``verdict`` (columns) the frame is a report's effects as they are, one row per cell of any
    two of its columns, drawn times ``scale`` in ``unit`` and captioned with the view's own ``n`` and ``policies``.
    """
    o, field = v.options, None
    if "value" in o:
        if len(frame):
            fit.fits(frame, (o["verdict"], o["rows"], o["cols"]), (o["value"],), unique=False)  # one per cell: below
        d, value, verdict = frame, o["value"], o["verdict"]
        rows, cols, scale, unit = o["rows"], o["cols"], float(o.get("scale", 1.0)), o.get("unit", o["value"])
    else:
        arm, value, verdict = o.get("arm", "arm"), "diff", "verdict"
        d = differences(frame, v.quantity, arm=arm)
        if "players" in o:
            d = _at_size(v, d)
        if "field" in o and len(d):
            field = _field(v, list(dict.fromkeys(d["field"])))
            d = d[d["field"] == field]
        d[arm] = pd.Categorical(d[arm], categories=list(dict.fromkeys(d[arm]))[::-1])  # the frame's order, top down
        rows, cols = (arm if r == "arm" else r for r in (o.get("rows", "arm"), o.get("cols", "players")))
        scale = 100.0 if is_binary(v.quantity) else 1.0
        unit = "pp" if is_binary(v.quantity) else v.quantity
    if not len(d):
        return None
    if d.duplicated([rows, cols]).any():
        third = next(k for k in ("field", "players", "arm") if k not in (o.get("rows", "arm"), o.get("cols", "players")))
        keep = "a where" if "value" in o else f"its option {third}" if third != "arm" else "the arm as rows or cols"
        raise fit.Refused(f"more than one row of its frame falls in a cell of {rows} x {cols}: keep one per cell with {keep}")
    words = partial(_filled, setup=setup, field=field or "", level=fit.level_of(d) or "95")
    title = words(_what(v, setup, f"Change in {v.quantity} from {{base}}"))
    what = words(o.get("caption", f"{title}, each cell with its verdict"))
    intervals = words(o.get("intervals", "verdicts read simultaneous intervals against the margin"))
    said = {k: words(o[k]) for k in ("n", "policies") if k in o}
    cap = setup.caption(what, intervals, field) if field else setup.caption(what, intervals, **said)
    return heatmap(d, rows, cols, (value, verdict), caption=cap, name=v.name, title=title, unit=words(unit), scale=scale)


def _published_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    return published(exp, setup.ours, title=_filled(v.title or setup.published_title, setup), name=v.name)


def _read_ours(exp: Experiment, frames: Mapping[str, pd.DataFrame | None], setup: Setup) -> dict[str, Ours]:
    """The ``[[published]]`` figures whose ``ours`` is a table, read from the one row of its frame that ``where``
    picks (after ``assign``'s formulas; both pandas expressions), by the figure's key ``published[i]``.

    No such row (a table size or arm not played): not measured here; more than one is the file's mistake.
    """
    out = {}
    for i, fig in enumerate(exp.published):
        o, key = fig.ours, f"published[{i}]"
        frame = frames.get(o.get("frame", "")) if isinstance(o, dict) else None
        if frame is None or not len(frame) or not isinstance(o, dict):
            continue
        try:
            rows = frame.eval("\n".join(f"{k} = {e}" for k, e in o["assign"].items())) if "assign" in o else frame
            rows = rows.query(_filled(o["where"], setup))
        except Exception as bad:  # pandas says which name or syntax it could not read
            raise ConfigError(f"experiment file {str(exp.path)!r}, key '{key}.ours': {bad}") from None
        if len(rows) > 1:
            raise ConfigError(f"experiment file {str(exp.path)!r}, key '{key}.ours.where': picks {len(rows)} rows, not one")
        if len(rows):
            out[key] = _ours_of(rows.iloc[0], o, setup, f"experiment file {str(exp.path)!r}, key '{key}.ours'")
    return out


def _ours_of(r: pd.Series, o: Mapping[str, Any], setup: Setup, said: str) -> Ours:
    """unocli's figure written from its row ``r`` by an ``ours`` table (``text``, ``n``, ``interval``); a column the
    row lacks or a value its form cannot write is the file's mistake, said at the figure's key (``said``)."""
    try:
        text = forms.FORMED.sub(partial(forms.formed, row=r), _filled(o["text"], setup))
        low, high = (float(r[c]) for c in o["interval"]) if "interval" in o else (float("nan"),) * 2
        return Ours(text, int(r[o["n"]]) if "n" in o else None, low, high)
    except KeyError as missing:
        columns = ", ".join(map(str, r.index))
        raise ConfigError(f"{said}: no column {missing.args[0]!r} in its frame (its columns: {columns})") from None
    except (TypeError, ValueError, ArithmeticError) as bad:  # text where a number is written, a blank n
        raise ConfigError(f"{said}: a value of its row cannot be written so ({bad})") from None


def _filled(text: str, setup: Setup, **values: Any) -> str:
    """``text`` with ``{base}``, each ``{key}`` of ``values`` and of the report's ``setup.words`` filled in."""
    text = text.replace("{base}", setup.baseline or "the baseline")
    for key, value in {**setup.words, **values}.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def _verdicts_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """One row per (players, arm), one column per field: the change on its simultaneous interval and its word.

    With ``cell`` ([FORM[:D], point, low, high]) the frame is a report's effects as they are (one row per players,
    arm and field), each cell that column form then the word of its ``verdict`` column's verdict; the data is the
    frame with those words as its column ``verdict``.
    """
    arm, o = v.options.get("arm", "arm"), v.options
    up, down = o.get("words", ["higher", "lower"])
    if "cell" in o:
        form, point = forms.column_of(o["cell"][0], o["cell"][1:]), o["cell"][1]
        fit.fits(frame, (), (point,))
        said = [change_word(str(r[o["verdict"]]), fit.number(r[point]), up, down) for _, r in frame.iterrows()]
        d = frame.assign(verdict=said)
    else:
        d = differences(frame, v.quantity, arm=arm)
    if not len(d):
        return None
    fields = list(dict.fromkeys(d["field"]))

    def cell(r: pd.Series) -> str:
        if "cell" in o:
            return f"{forms.at(form, r)} {r['verdict']}"
        change = fmt.signed_ci(r["diff"], r["sim_low"], r["sim_high"], int(o.get("decimals", 1)))
        return f"{change} {change_word(str(r['verdict']), float(r['diff']), up, down)}"

    between = setup.between.get(v.quantity, {})
    table = verdict_matrix(d, ("players", arm), fields, cell, dict(between))
    margin = {"margin": fmt.num(float(d["margin"].iloc[0]))} if "margin" in d else {}
    return TableBlock(v.name, _filled(v.title, setup, level=level(d), **margin), table, d)


def _interactions_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """Each arm's effect under one field minus under another, on common deals, judged as one family."""
    between = setup.between.get(v.quantity)
    if not between:
        return None
    share = is_binary(v.quantity)  # a share's interactions in pp, in the table and its CSV
    data = interactions_frame({v.quantity: dict(between)}, {v.quantity: 100.0} if share else {})
    table = pd.DataFrame(
        {
            "players": data["players"],
            v.options.get("arm", "arm"): data["arm"],
            "fields": [f"{a} minus {b}" for a, b in zip(data["field_a"], data["field_b"], strict=True)],
            "interaction [simultaneous CI]" + (" (pp)" if share else ""): [
                fmt.signed_ci(*x, 2) for x in zip(data["interaction"], data["sim_low"], data["sim_high"], strict=True)
            ],
            "verdict": data["verdict"],
            "p (Holm)": data["p_holm"].map(fmt.pvalue),
        }
    )
    margin = fmt.num(exp.margins[v.quantity]) if v.quantity in exp.margins else ""
    return TableBlock(v.name, _filled(v.title, setup, level=level(data), margin=margin), table, data)


def _table_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """A frame of the report's as it is, shown column by column (``columns``: [heading, form, column...]), or with
    ``label`` one row per label, with ``by`` a long frame shown wide (:func:`_wide`); its words may name ``{level}``
    and ``{rows}``. ``reverse``: the rows bottom up; ``drop_blank``: no column whose every cell is blank;
    ``shown_only``: columns kept out of the CSV; ``csv = false``: no CSV at all."""
    if not len(frame):
        return None
    o = v.options
    values = {"rows": len(frame), **({"level": fit.level_of(frame)} if fit.level_of(frame) else {})}

    def words(text: str) -> str:
        return _filled(text, setup, **values)

    columns = _wide(o, frame) if "label" in o else [(h, frame, forms.column_of(form, names)) for h, form, *names in o["columns"]]
    shown = {}
    for h, rows, c in columns:
        try:
            shown[words(str(h))] = forms.shown(rows, {"": c})[""].to_numpy()
        except (TypeError, ValueError, ArithmeticError) as bad:  # a form given a value it cannot write (text, 1/0)
            raise fit.Refused(f"its column {h!r} cannot write a value of its frame ({bad})") from None
    table = pd.DataFrame(shown)
    table = table[::-1].reset_index(drop=True) if o.get("reverse") else table
    if o.get("drop_blank"):  # a column of a figure the run did not measure
        table = table.loc[:, table.ne("").any()]
    note = words(o.get("note", ""))
    if o.get("csv") is False:  # nothing to download (words, a profile): the table in the report alone
        return "\n\n".join([f"**{words(v.title)}**", md_table(table), *([f"*{note}*"] if note else [])])
    data = frame.drop(columns=o["shown_only"]) if "shown_only" in o else frame  # words computed for the table alone
    return TableBlock(o.get("file", v.name), words(v.title), table, data, note)


def _wide(o: Mapping[str, Any], frame: pd.DataFrame) -> list[tuple[str, pd.DataFrame, Any]]:
    """A long frame's columns shown wide, each (heading, its rows, its column): one row per value of the ``label``
    columns, in the frame's order; with ``by``, a column whose heading names ``{value}`` once per value of that
    column, read from that value's rows (headed by ``labels``' entry for the value, if any); every other column from
    the label's first row."""
    keys, by, labels = o["label"], o.get("by"), o.get("labels", {})
    first = fit.fits(frame, (*keys, by) if by else keys, unique=bool(by)).drop_duplicates(keys)
    out = []
    for heading, form, *names in o["columns"]:
        if "{value}" not in heading or not by:
            out.append((heading, first, forms.column_of(form, names)))
            continue
        for value in dict.fromkeys(frame[by]):
            rows = first[keys].merge(frame[frame[by] == value], on=keys, how="left", validate="one_to_one")
            out.append((labels.get(str(value), heading).replace("{value}", str(value)), rows, forms.column_of(form, names)))
    return out


def _sizes_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """A frame's ``columns`` (point, low, high) by table size, one line per value of ``by``, and the reference lines
    asked for."""
    if not len(frame):
        return None
    o = v.options
    by = o.get("by", "field")
    fit.fits(frame, (by, "players"), ("players", *o["columns"], *([o["reference"]] if "reference" in o else [])))
    series = interval_series(frame, by, o["columns"], x="players")  # each line at the sizes it has rows at
    hline = (float(o["hline"]), o.get("hline_label")) if "hline" in o else None
    reference = ("fair share 1/n", [1 / p for p in exp.players]) if o.get("fair") else None
    if "reference" in o:
        at = frame.drop_duplicates("players").set_index("players", drop=False)[o["reference"]].reindex(exp.players)
        reference = (o.get("reference_label", o["reference"]), [float(x) for x in at])
    words = partial(_filled, setup=setup)
    return players_chart(
        exp,
        series,
        _own_caption(o, setup, words),
        name=v.name,
        alt=words(o.get("alt", v.title)),
        title=words(v.title),
        ylabel=words(o["ylabel"]),
        percent=bool(o.get("percent", False)),
        hline=hline,
        reference=reference,
    )


def _bars_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """A frame's ``columns`` (point, low, high) at one table size as bars per value of ``x``, one colour per value
    of ``by``."""
    from unocli.report import plots  # matplotlib only when drawing

    o, rows = v.options, _at_size(v, frame)
    if not len(rows):
        return None
    p = rows["players"].iloc[0]
    by, x = o.get("by", "field"), o["x"]
    categories = list(dict.fromkeys(rows[x]))
    rows = fit.fits(rows, (by, x), ("players", *o["columns"])).set_index(x, drop=False)
    series = [  # each colour over every category, blank where it has no row
        plots.Series(str(m), *(rows[rows[by] == m].reindex(categories)[c] for c in o["columns"])) for m in dict.fromkeys(rows[by])
    ]
    words = partial(_filled, setup=setup, players=p, last=p - 1)
    cap = _own_caption(o, setup, words)
    figure = plots.grouped_bars(
        [str(c) for c in categories],
        series,
        title=words(v.title),
        xlabel=words(o["xlabel"]),
        ylabel=o["ylabel"],
        percent=bool(o.get("percent", False)),
        caption=cap,
        hline=1 / p if o.get("fair") else None,
        hline_label="fair share 1/n" if o.get("fair") else None,
    )
    return Chart(v.name, figure, cap, words(o.get("alt", v.title)))


def _dots_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """A frame's ``columns`` (point, low, high) at one table size (or every size) as dots with error bars, one row
    per value of ``y`` and one marker per value of ``by``, both in the frame's order."""
    from unocli.report import plots  # matplotlib only when drawing

    o = v.options
    if not len(frame):
        return None
    at = _at_size(v, frame)
    by, (point, low, high), scale = o.get("by", "field"), o["columns"], float(o.get("scale", 1.0))
    ys = list(dict.fromkeys(fit.fits(at, (by, o["y"]), o["columns"])[o["y"]]))
    labels = o.get("labels", {})
    label = (lambda m: labels.replace("{value}", str(m))) if isinstance(labels, str) else (lambda m: labels.get(str(m), str(m)))
    series = [  # each marker on every row, blank where it has none
        plots.Series(_filled(label(m), setup), scale * rows[point], scale * rows[low], scale * rows[high])
        for m in dict.fromkeys(at[by])
        for rows in [at[at[by] == m].set_index(o["y"], drop=False).reindex(ys)]
    ]
    names = ", ".join(s.label for s in series)
    words = partial(_filled, setup=setup, players=at["players"].iloc[0], n=fit.first_n(at), series=names)
    cap = _own_caption(o, setup, words)
    figure = plots.dot_chart(
        [str(y) for y in ys],
        series,
        title=words(v.title),
        xlabel=words(o["xlabel"]),
        caption=cap,
        zero=0.0 if o.get("zero", True) else None,
        percent=bool(o.get("percent", False)),
        change=bool(o.get("change", False)),
    )
    return Chart(v.name, figure, cap, words(o.get("alt", v.title)))


def _own_caption(o: Mapping[str, Any], setup: Setup, words: Callable[[str], str]) -> str:
    """The report's caption of a view's ``caption`` and ``intervals``, with the view's own ``n`` and ``policies``."""
    said = {k: words(o[k]) for k in ("n", "policies") if k in o}
    return setup.caption(words(o["caption"]), words(o["intervals"]), **said)


def _at_size(v: View, frame: pd.DataFrame) -> pd.DataFrame:
    """The frame's rows at the view's table size (:func:`~unocli.report.fit.at_size` of its ``players``)."""
    return fit.at_size(frame, v.options.get("players", 4))


def _curves_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """A frame's ``columns`` (point, low, high) over its column ``x`` at one table size, one line per value of
    ``by`` (on a log axis without the zeros, which it cannot show)."""
    from unocli.report import plots  # matplotlib only when drawing

    if not len(frame):
        return None
    o, at = v.options, _at_size(v, frame)
    by, (point, low, high), log = o.get("by", "field"), o["columns"], bool(o.get("log", False))
    drawn_x = fit.fits(at, (by, o["x"]), (o["x"], *o["columns"]))[o["x"]]
    xs = [x for x in dict.fromkeys(drawn_x) if pd.notna(x) and np.isfinite(float(x))]  # a blank x has no place
    series = []
    for name in dict.fromkeys(at[by]):
        rows = at[at[by] == name].set_index(o["x"], drop=False).reindex(xs)  # blank where this line has no row
        drawn = rows[point] > 0 if log else rows[point].notna()  # a 0 has no place on a log scale
        series.append(plots.Series(str(name), *(rows[c].where(drawn).to_numpy(float) for c in (point, low, high))))
    if log and not any(np.isfinite(s.y).any() for s in series):
        return None  # nothing above 0 to place on a log scale: left out, as a frame without rows is
    words = partial(_filled, setup=setup, players=at["players"].iloc[0], n=fit.first_n(at))
    cap = _own_caption(o, setup, words)
    figure = plots.line_chart(
        xs,
        series,
        title=words(v.title),
        xlabel=words(o["xlabel"]),
        ylabel=words(o["ylabel"]),
        log=log,
        percent=bool(o.get("percent", False)),
        xticks=xs,
        caption=cap,
    )
    return Chart(v.name, figure, cap, words(o.get("alt", v.title)))


def _csv_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """A frame written as a CSV only: the report shows its number of rows and the file's name."""
    return TableBlock(v.name, _filled(v.title, setup), pd.DataFrame([{"rows": len(frame), "file": f"{v.name}.csv"}]), frame)


def _panels_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """A frame's effects at one table size (or every size, ``players = "all"``) as a forest of panels, one row per
    value of the ``label`` columns and one panel per item of ``panels`` (with ``by``, from the rows of its value of
    that column)."""
    o = v.options
    at = _at_size(v, frame)
    if not len(at):
        return None
    players = "all" if o.get("players") == "all" else at["players"].iloc[0]
    at_level = fit.level_of(at) or "95"
    panels = [(c[:-1], True) if c[-1] == "pp" else (c, False) for c in o["panels"]]
    fit.fits(at, (*o["label"], o["by"]) if "by" in o else (), [c for p, _ in panels for c in p[-4:-1]])  # point, low, high
    if "by" in o:  # a long frame: each panel's columns from its own rows, side by side
        # a panel whose value of by no row has is not drawn (as a table's by makes no column for it)
        panels = [(p, percent) for p, percent in panels if (at[o["by"]] == p[0]).any()]
        if not panels:
            return None
        wide, keys = at[o["label"]].drop_duplicates().reset_index(drop=True), o["label"]
        for k, ((value, xlabel, *columns, key), percent) in enumerate(panels):
            rows = at[at[o["by"]] == value]  # a column may serve twice (a point without interval) or be a label too
            own = pd.DataFrame({**{c: rows[c] for c in keys}, **{f"{c}_{k}": rows[c] for c in columns}})
            wide = wide.merge(own, on=keys, how="left", validate="one_to_one")
            panels[k] = ([xlabel, *(f"{c}_{k}" for c in columns), key], percent)
        at = wide
    at = at.assign(label=[", ".join(str(r[c]) for c in o["label"]) for _, r in at.iterrows()])
    first = pd.factorize(at[o["label"][0]], use_na_sentinel=False)[0]  # each value's first place (one for all NaN)
    at = at.assign(order=first).sort_values("order", kind="stable")
    words = partial(_filled, setup=setup, players=players, level=at_level)
    drawn = [
        (words(xlabel), point, low, high, _margin(exp, key) / (100 if percent else 1), percent)
        for (xlabel, point, low, high, key), percent in panels
    ]
    return forest_chart(at, "label", drawn, _own_caption(o, setup, words), name=v.name, title=words(v.title))


def _margin(exp: Experiment, key: str) -> float:
    """A panel's margin: the ``[margins]`` value ``key``, or with ``options.KEY`` the report's option KEY."""
    if not key.startswith("options."):
        return exp.margins[key]
    if key.removeprefix("options.") not in exp.options:
        raise ConfigError(f"experiment file {str(exp.path)!r}: a panel's margin {key!r} names no option of this report")
    return float(exp.options[key.removeprefix("options.")])


def _report_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """A table or chart the report draws itself (``Setup.blocks``, by the view's name), placed here."""
    return setup.blocks.get(v.name)


def _field(v: View, played: Sequence[str]) -> str:
    """The view's ``field`` where it was played, else the first field played (a file may not play it)."""
    return v.options["field"] if v.options["field"] in played else played[0]


def _one_field(v: View, setup: Setup, intervals: str, field: str, players: Any = "", arms: bool = False) -> tuple[str, str]:
    """A one-field chart's title and caption (option ``caption``: what it shows)."""
    what = _filled(v.options.get("caption", v.title), setup, players=players)
    return _filled(v.title, setup, players=players), setup.caption(what, intervals, field, arms)


def _percentiles_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """The baseline's mean, median, 90th and 99th percentile of one field by table size."""
    from unocli.report import plots  # matplotlib only when drawing

    f = _field(v, list(dict.fromkeys(frame["field"])))
    rows = frame[(frame[v.options.get("arm", "arm")] == setup.baseline) & (frame["field"] == f)]
    series = [
        plots.Series(label, rows[point], rows[low], rows[high])
        for label, point, low, high in (
            ("mean", "mean_turns", "ci_low", "ci_high"),
            ("median", "median", "median_low", "median_high"),
            ("90th percentile", "p90", "p90_low", "p90_high"),
            ("99th percentile", "p99", "p99_low", "p99_high"),
        )
    ]
    intervals = "error bars are 95% intervals (t for the mean, binomial order statistics for percentiles)"
    title, cap = _one_field(v, setup, intervals, f)
    ylabel = v.options["ylabel"]
    return players_chart(exp, series, cap, name=v.name, alt=f"percentiles of {ylabel}", title=title, ylabel=ylabel)


def _distribution_view(v: View, exp: Experiment, frame: pd.DataFrame, setup: Setup) -> Block | None:
    """The histogram (share per bin of 5, with 95% Wilson bands) or ECDF (with 95% DKW bands) of the baseline at
    each of ``players``, or of every arm at one table size (the middle one when that size is not played); cut at
    the ``top`` quantile of the longest (0.995)."""
    from unocli.report import plots  # matplotlib only when drawing

    f = _field(v, list(dict.fromkeys(k[0] for k in setup.hists)))
    if isinstance(v.options.get("players"), int):
        p = fit.size(v.options["players"], exp.players)
        arms = list(dict.fromkeys(a for (g, q, a) in setup.hists if (g, q) == (f, p)))
        hists, n = [(a, setup.hists[(f, p, a)]) for a in arms], setup.counts[p]
    else:
        sizes = [p for p in v.options.get("players", exp.players) if p in exp.players] or [fit.size(0, exp.players)]
        hists, n = [(f"{q} players", setup.hists[(f, q, setup.baseline)]) for q in sizes], setup.counts[sizes[0]]
        arms, p = [], 0
    xlabel, xmax = v.options["xlabel"], max(hist_quantile(h, float(v.options.get("top", 0.995)))[0] for _, h in hists) + 10
    if v.kind == "histogram":
        title, cap = _one_field(v, setup, "bands are 95% Wilson intervals for each bin's share", f)
        figure = plots.distribution_chart(
            hists, title=title, xlabel=xlabel, ylabel="share of rounds", bin_width=5, xmax=xmax, caption=cap
        )
    else:
        eps = dkw_eps(n)
        title, cap = _one_field(v, setup, f"bands are 95% DKW bands (+/-{eps:.3f})", f, p if arms else "", bool(arms))
        figure = plots.ecdf_chart([(a, h, eps) for a, h in hists], title=title, xlabel=xlabel, xmax=xmax, caption=cap)
    return Chart(v.name, figure, cap, v.options.get("alt", v.name))


_DRAW: dict[str, Callable[[View, Experiment, pd.DataFrame, Setup], Block | None]] = {
    "differences": _differences_view,
    "wide": _wide_view,
    "lines": _lines_view,
    "forest": _forest_view,
    "heatmap": _heatmap_view,
    "published": _published_view,
    "verdicts": _verdicts_view,
    "interactions": _interactions_view,
    "table": _table_view,
    "report": _report_view,
    "sizes": _sizes_view,
    "bars": _bars_view,
    "dots": _dots_view,
    "curves": _curves_view,
    "csv": _csv_view,
    "panels": _panels_view,
    "percentiles": _percentiles_view,
    "histogram": _distribution_view,
    "ecdf": _distribution_view,
}
KINDS = tuple(_DRAW)
# The kinds that read a design's tidy frame (but a heatmap or verdicts view of a frame of effects: value, cell).
_DESIGN = ("differences", "wide", "lines", "forest", "heatmap", "verdicts")
# The kinds a report draws from its frames alone (no histograms, interactions between fields or published figures).
FRAME_KINDS = tuple(k for k in KINDS if k not in ("published", "verdicts", "interactions", "percentiles", "histogram", "ecdf"))
