"""Views of the design frame: charts whose axes show the effects (centred on 0, margin band, pp for shares)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from unocli.analysis.frames import wide
from unocli.report import kinds, views
from unocli.report.model import Chart

pytest.importorskip("matplotlib")


def _diffs(values, margin):
    d = np.asarray(values, float)
    return pd.DataFrame(
        {"diff": d, "sim_low": d - 0.3 * margin, "sim_high": d + 0.3 * margin, "margin": margin, "verdict": "negligible"}
    )


def test_a_forest_is_centred_on_zero_and_shows_the_margin_band():
    chart = views.forest(_diffs([0.2, -0.4, 0.1], 1.0), ["a", "b", "c"], xlabel="turns", caption="c", name="f", title="t")
    ax = chart.figure.axes[0]
    low, high = ax.get_xlim()
    assert low == pytest.approx(-high) and 1.0 <= high < 2.0  # the +-1 band and the small effects fill the axis
    one_sided = views.forest(_diffs([0.2, 5.0], 1.0), ["a", "b"], xlabel="turns", caption="c", name="f", title="t")
    low, high = one_sided.figure.axes[0].get_xlim()
    assert low == pytest.approx(-high) and 5.3 <= high < 7  # still centred on 0, as wide as the widest interval
    band = [p for p in ax.patches if p.get_label() == "equivalence band"]
    assert band and band[0].get_x() == pytest.approx(-1.0) and band[0].get_width() == pytest.approx(2.0)


def test_a_change_of_a_share_is_labelled_in_pp_never_percent():
    chart = views.forest(
        _diffs([0.002, -0.001], 0.005), ["a", "b"], xlabel="first player", caption="c", name="f", title="t", percent=True
    )
    ax = chart.figure.axes[0]
    chart.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert labels and all("pp" in t or t == "0" for t in labels) and not any("%" in t for t in labels)
    assert "+0.5 pp" in labels or any(t.startswith("+") for t in labels)


def test_wide_puts_each_quantity_in_its_columns_in_the_frames_order():
    frame = pd.DataFrame(
        [
            {"field": "", "players": 2, "arm": a, "quantity": q, "n": 10, "mean": m, "low": m - 1, "high": m + 1}
            for q, a, m in (("turns", "x", 5.0), ("turns", "y", 6.0), ("won", "x", 0.5), ("won", "y", 0.25))
        ]
    )
    w = wide(frame, {"turns": ("t", "t_lo", "t_hi"), "won": ("w",)}, arm="rules", n="turns")
    assert list(w.columns) == ["field", "players", "rules", "n", "t", "t_lo", "t_hi", "w"]
    assert list(w["rules"]) == ["x", "y"] and list(w["t_hi"]) == [6.0, 7.0] and list(w["w"]) == [0.5, 0.25]


def test_a_heatmap_annotates_each_cell_with_its_value_and_verdict():
    d = pd.DataFrame(
        {"players": [2, 2, 4, 4], "rules": ["a", "b", "a", "b"], "diff": [0.01, -0.02, 0.0, 0.03], "verdict": ["larger"] * 4}
    )
    chart = views.heatmap(d, "players", "rules", caption="c", name="h", title="t", unit="pp", scale=100)
    texts = [t.get_text() for t in chart.figure.axes[0].texts]
    assert "+1.0\nlarger" in texts and "-2.0\nlarger" in texts and len(texts) == 4


# ---------------------------------------------------------------- views declared in the experiment file ([[view]])

VIEW_HEAD = 'analysis = "game-length"\nplayers = [2, 4]\n[arms.official]\nrules = "official"\n[arms.rule]\nrules = "stacking"\n'


def _exp(tmp_path, text: str):
    from unocli.report.experiment import load_experiment

    path = tmp_path / "v.toml"
    path.write_text(VIEW_HEAD + text, encoding="utf-8")
    return load_experiment(path)


def _frame() -> pd.DataFrame:
    """A design frame written by hand: official (mean 40 turns) and rule (42, +2 [+1.5, +2.5]) at 2 and 4 players."""
    rows = []
    for p, d in ((2, 2.0), (4, -0.25)):
        rows.append({"field": "", "players": p, "arm": "official", "quantity": "turns", "n": 100, "mean": 40.0})
        rows[-1] |= {"low": 39.0, "high": 41.0, "baseline": "official"}
        rows.append({"field": "", "players": p, "arm": "rule", "quantity": "turns", "n": 100, "mean": 40.0 + d})
        rows[-1] |= {"low": 39.0 + d, "high": 41.0 + d, "baseline": "official", "diff_n": 100, "difference": d}
        rows[-1] |= {"diff_low": d - 0.4, "diff_high": d + 0.4, "p": 0.01, "p_adj": 0.02, "sim_low": d - 0.5}
        rows[-1] |= {"sim_high": d + 0.5, "sim_level": 0.975, "margin": 1.0, "p_tost": 0.5}
        rows[-1]["verdict"] = "larger" if d > 1 else "equivalent"
    frame = pd.DataFrame(rows)
    frame["diff_n"] = frame["diff_n"].astype("Int64")
    return frame


def test_views_are_read_from_the_file_in_order_with_their_options(tmp_path):
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "forest"\nquantity = "turns"\noptions = { players = 4, arm = "rules" }\n'
        '[[view]]\nkind = "differences"\nname = "diffs"\nquantity = "turns"\ntitle = "Change from {base}"\n',
    )
    assert [(v.kind, v.name, v.quantity, v.options) for v in exp.views] == [
        ("forest", "forest-turns", "turns", {"players": 4, "arm": "rules"}),
        ("differences", "diffs", "turns", {}),
    ]
    defaults = (kinds.View("published", "published"),)
    assert kinds.chosen(exp, defaults) == exp.views and kinds.chosen(_exp(tmp_path, ""), defaults) == defaults
    assert kinds.refused(exp, ("published",)) == "view[0].kind: this report draws only published views, not 'forest'"
    assert kinds.refused(exp, ("forest", "differences")) is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[[view]]\nkind = "pie"\nquantity = "turns"\n', r"view\[0\]\.kind.*unknown view 'pie'"),
        ('[[view]]\nkind = "forest"\nquantity = "length"\n', r"view\[0\]\.quantity.*unknown quantity 'length'"),
        ('[[view]]\nkind = "forest"\nquantity = "turns"\noptions = { colour = 1 }\n', r"view\[0\]\.options\.colour.*unknown"),
        ('[[view]]\nkind = "forest"\nquantity = "turns"\noptions = { players = 11 }\n', r"view\[0\]\.options\.players"),
        ('[[view]]\nkind = "lines"\nquantity = "turns"\noptions = { by = "seat" }\n', r"view\[0\]\.options\.by"),
        ('[[view]]\nkind = "wide"\nquantity = "turns"\nname = "../x"\n', r"view\[0\]\.name.*plain file name"),
        ('[[view]]\nkind = "wide"\nquantity = "turns"\n[[view]]\nkind = "wide"\nquantity = "turns"\n', r"view\[1\]\.name.*two"),
        ('[[view]]\nkind = "wide"\nquantity = 3\n', r"view\[0\]\.quantity.*text"),
        ('[[view]]\nkind = "wide"\nquantity = "turns"\nsize = 3\n', r"view\[0\]\.size.*unknown key"),
        # the new view kinds, without what they need
        ('[[view]]\nkind = "table"\noptions = { columns = [["a", "ci", "x"]] }\n', r"view\[0\]\.options\.columns"),
        ('[[view]]\nkind = "table"\n', r"view\[0\]\.options\.columns.*needs it"),
        ('[[view]]\nkind = "ecdf"\nquantity = "turns"\noptions = { field = "basic" }\n', r"options\.xlabel.*needs it"),
        ('[[view]]\nkind = "verdicts"\nquantity = "turns"\noptions = { words = ["up"] }\n', r"options\.words"),
        ('[[view]]\nkind = "verdicts"\nquantity = "turns"\noptions = { cell = ["pp_ci", "x", "lo", "hi"] }\n', r"cell.*verdict"),
        ('[[view]]\nkind = "verdicts"\nquantity = "turns"\noptions = { cell = ["pp_ci", "x"], verdict = "v" }\n', "cell"),
        ('[[view]]\nkind = "table"\noptions = { columns = [["a", "share:x", "x"]] }\n', r"options\.columns.*FORM:D"),
        ('[[view]]\nkind = "table"\noptions = { columns = [["a", "pair", "x"]] }\n', r"options\.columns"),
        ('[[view]]\nkind = "table"\noptions = { by = "c", columns = [["a", "text", "x"]] }\n', r"options\.label.*needs"),
        ('[[view]]\nkind = "table"\noptions = { columns = [["c={value}", "text", "x"]] }\n', r"options\.by.*\{value\}"),
        ('[[view]]\nkind = "table"\noptions = { shown_only = "x", columns = [["a", "text", "x"]] }\n', r"options\.shown_only"),
        ('[[view]]\nkind = "table"\noptions = { csv = "no", columns = [["a", "text", "x"]] }\n', r"options\.csv.*true or false"),
        # a table's CSV is written into the report's folder: its file name can name no other place
        ('[[view]]\nkind = "table"\noptions = { file = "../x", columns = [["a", "text", "x"]] }\n', r"options\.file.*plain"),
        ('[[view]]\nkind = "table"\noptions = { shown_only = "x", columns = [["a", "text", "x"]] }\n', r"shown_only.*column"),
        # a heatmap of the design draws two of field, players and arm; of a frame of effects, any two columns
        ('[[view]]\nkind = "heatmap"\nquantity = "turns"\noptions = { rows = "seat" }\n', r"options\.rows.*\"field\""),
        ('[[view]]\nkind = "heatmap"\nquantity = "turns"\noptions = { unit = "pp" }\n', r"options\.unit.*needs value"),
        ('[[view]]\nkind = "heatmap"\noptions = { value = "d", verdict = "v", rows = "a" }\n', r"options\.cols.*needs"),
        ('[[view]]\nkind = "heatmap"\noptions = { rows = "arm" }\n', r"view\[0\]\.quantity.*unknown quantity ''"),
        ('[[view]]\nkind = "heatmap"\nquantity = "turns"\noptions = { rows = "arm", cols = "arm" }\n', r"cols.*than rows"),
    ],
)
def test_a_bad_view_is_refused_naming_the_key(tmp_path, text, key):
    from unocli.errors import ConfigError

    with pytest.raises(ConfigError, match=key):
        _exp(tmp_path, text)


def test_declared_views_draw_the_frame(tmp_path):
    """The differences table keeps the frame's numbers and shows the relative change (+2 / 40 = +5.0%, -0.25 / 40 =
    -0.6%) and verdicts; the forest keeps its table size only; a view of a quantity the frame lacks draws nothing."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "differences"\nname = "diffs"\nquantity = "turns"\ntitle = "Change from {base}"\n'
        '[[view]]\nkind = "forest"\nquantity = "turns"\noptions = { players = 4 }\n'
        '[[view]]\nkind = "wide"\nquantity = "turns"\n'
        '[[view]]\nkind = "wide"\nname = "none"\nquantity = "cards_drawn"\n',
    )
    setup = kinds.Setup(lambda what, intervals: f"{what}. {intervals}.", "official")
    table, chart, means = kinds.declared(exp.views, exp, _frame(), setup)
    assert table.name == "diffs" and table.title == "Change from official"
    assert list(table.data["diff"]) == [2.0, -0.25] and list(table.data["relative"]) == [0.05, -0.00625]
    shown = table.shown
    assert list(shown["relative"]) == ["+5.0%", "-0.6%"] and list(shown["verdict (margin 1 turns)"]) == ["larger", "equivalent"]
    assert "field" not in shown and list(shown["change [simultaneous 97.5% CI]"]) == [
        "+2.00 [+1.50, +2.50]",
        "-0.25 [-0.75, +0.25]",
    ]
    assert chart.name == "forest-turns" and "4 players" in chart.alt and "+/-1 turns" in chart.caption
    band = [p for p in chart.figure.axes[0].patches if p.get_label() == "equivalence band"]
    assert band and band[0].get_width() == pytest.approx(2.0)
    assert list(means.data["mean"]) == [40.0, 42.0, 40.0, 39.75] and list(means.shown["n"]) == ["100"] * 4


def test_a_change_from_a_baseline_of_zero_has_no_relative_size_and_no_warning(tmp_path):
    """A tiny run where the baseline's mean is 0 (no jump-ins, say): +0.5 / 0 is undefined, so the relative change
    is NaN, shown as n/a, where numpy's division printed two RuntimeWarnings on the user's terminal."""
    import warnings

    frame = _frame()
    frame.loc[frame["arm"] == "official", "mean"] = 0.0
    exp = _exp(tmp_path, '[[view]]\nkind = "differences"\nname = "diffs"\nquantity = "turns"\n')
    setup = kinds.Setup(lambda what, intervals: f"{what}. {intervals}.", "official")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (table,) = kinds.declared(exp.views, exp, frame, setup)
    assert table.data["relative"].isna().all() and list(table.shown["relative"]) == ["n/a", "n/a"]
    assert list(table.data["diff"]) == [2.0, -0.25]  # the change itself stands


def test_a_view_reads_the_frame_it_names(tmp_path):
    exp = _exp(tmp_path, '[[view]]\nkind = "wide"\nquantity = "turns"\nframe = "matches"\n')
    assert exp.views[0].frame == "matches"
    assert (
        kinds.refused(exp, ("wide",)) == "view[0].frame: this report has no frame 'matches'; its frames are: none but its first"
    )
    assert kinds.refused(exp, ("wide",), ("", "matches")) is None
    matches = _frame().assign(mean=7.0)
    setup = kinds.Setup(lambda what, intervals: what)
    (block,) = kinds.declared(exp.views, exp, {"": _frame(), "matches": matches}, setup)
    assert (block.data["mean"] == 7.0).all()


def test_a_verdicts_and_a_table_view_show_the_frame_cell_by_cell(tmp_path):
    """The verdicts view words each change (+2 beyond the margin: "lengthens"; -0.25 within it: "no change"), fills
    {level} and {margin}; a table view shows its frame column by column with the forms of report.fmt, data as is."""
    from unocli.report import fmt

    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "verdicts"\nquantity = "turns"\ntitle = "at {level}% and +/-{margin}"\n'
        'options = { words = ["lengthens", "shortens"] }\n'
        '[[view]]\nkind = "table"\nname = "t"\nframe = "turns"\ntitle = "T {base}"\n'
        'options = { note = "n.", columns = [["arm", "text", "arm"], ["mean [CI]", "ci", "mean", "low", "high"], '
        '["n", "count", "n"], ["q", "quantile", "q", "q", "q"]] }\n',
    )
    setup = kinds.Setup(lambda what, intervals: what, "official")
    frame = _frame()
    table = frame.assign(q=[1000, 7, 3, 1000])
    verdicts, shown = kinds.declared(exp.views, exp, {"": frame, "turns": table}, setup)
    assert verdicts.title == "at 97.50% and +/-1" and list(verdicts.shown[""]) == [
        "+2.0 [+1.5, +2.5] lengthens",
        "-0.2 [-0.8, +0.2] no change",
    ]
    assert list(verdicts.shown["holds under"]) == ["all fields (larger)", "all fields (equivalent)"]
    assert shown.title == "T official" and shown.note == "n." and shown.data is table
    assert list(shown.shown["mean [CI]"]) == [
        fmt.ci(m, lo, hi) for m, lo, hi in zip(frame["mean"], frame["low"], frame["high"], strict=False)
    ]
    assert list(shown.shown["q"]) == [">=1000 [>=1000, >=1000]", "7 [7, 7]", "3 [3, 3]", ">=1000 [>=1000, >=1000]"]


def test_a_verdicts_view_of_a_frame_of_effects_words_each_cell_with_its_form_and_verdict(tmp_path):
    """With cell and verdict the frame is read as it is: each cell the form (a share's change in pp) then the word of
    its verdict ("raises" beyond the margin, the verdict's own word within it); the data gains those words."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "verdicts"\nname = "v"\nquantity = "win_first"\nframe = "turns"\n'
        'title = "at {level}% and +/-{margin:win_share_pp} pp"\noptions = { arm = "rule", cell = ["pp_ci:1", "d", "lo", '
        '"hi"], verdict = "said", words = ["raises", "lowers"] }\n',
    )
    frame = pd.DataFrame(
        {"field": ["a", "b", "a", "b"], "players": 4, "rule": ["r", "r", "s", "s"], "n": [100, 100, 100, 90]}
        | {"d": [0.02, -0.001, -0.03, 0.0], "lo": [0.01, -0.004, -0.05, -0.01], "hi": [0.03, 0.002, -0.02, 0.01]}
        | {"said": ["larger", "negligible", "larger", "undecided"], "sim_level": 0.975}
    )
    (table,) = kinds.declared(exp.views, exp, {"turns": frame}, kinds.Setup(lambda what, intervals: what))
    assert table.name == "v" and table.title == "at 97.50% and +/-0.50 pp"
    assert list(table.shown.columns) == ["players", "rule", "a", "b", "n", "holds under"]
    assert list(table.shown["a"]) == ["+2.0 pp [+1.0, +3.0] raises", "-3.0 pp [-5.0, -2.0] lowers"]
    assert list(table.shown["b"]) == ["-0.1 pp [-0.4, +0.2] negligible", "+0.0 pp [-1.0, +1.0] undecided"]
    assert list(table.shown["n"]) == ["100 each", "a 100; b 90"]
    untested = "(the fields' difference is not tested)"
    assert list(table.shown["holds under"]) == [f"raises: a; negligible: b {untested}", f"lowers: a; undecided: b {untested}"]
    assert list(table.data["verdict"]) == ["raises", "negligible", "lowers", "undecided"]
    assert table.data.drop(columns="verdict").equals(frame)


def test_a_view_naming_a_column_its_frame_lacks_is_refused_naming_the_key(tmp_path):
    """A column the file names that the frame has not: one sentence naming the view and the frame's columns."""
    from unocli.errors import ConfigError

    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "table"\nname = "t"\nframe = "turns"\n'
        'options = { columns = [["n", "count", "n"], ["typo", "count", "nn"]] }\n',
    )
    setup = kinds.Setup(lambda what, intervals: what, "official")
    with pytest.raises(ConfigError, match=r"key 'view\[0\]' \(t\): no column 'nn' in its frame 'turns' \(its columns: .*\bn\b"):
        kinds.declared(exp.views, exp, {"": _frame(), "turns": _frame()}, setup)


def test_a_table_view_writes_counts_a_share_with_its_n_bounds_and_a_column_some_rows_leave_blank(tmp_path):
    """The forms counts ("4,000 (3,990)"), share_ci_count (a share, its interval and its n), pp_bounds (a
    simultaneous interval in pp, blank on the baseline's row) and optional (blank where missing, never "nan")."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "table"\nname = "t"\nframe = "turns"\ntitle = "for {who}"\n'
        'options = { columns = [["n (finished)", "counts", "n", "done"], '
        '["share (n)", "share_ci_count:1", "s", "s_low", "s_high", "k"], '
        '["simultaneous", "pp_bounds:2", "lo", "hi"], ["verdict", "optional", "verdict"]] }\n',
    )
    frame = pd.DataFrame(
        {
            "n": [4000, 300],
            "done": [3990, 299],
            "s": [0.25, 0.5],
            "s_low": [0.2, 0.45],
            "s_high": [0.3, 0.55],
            "k": [1234, 12],
            "lo": [np.nan, -0.0123],
            "hi": [np.nan, 0.0456],
            "verdict": [np.nan, "undecided"],
        }
    )
    setup = kinds.Setup(lambda what, intervals: what, "official", words={"who": "basic"})
    (table,) = kinds.declared(exp.views, exp, {"turns": frame}, setup)
    assert table.title == "for basic" and table.data is frame
    assert list(table.shown["n (finished)"]) == ["4,000 (3,990)", "300 (299)"]
    assert list(table.shown["share (n)"]) == ["25.0% [20.0%, 30.0%] (1,234)", "50.0% [45.0%, 55.0%] (12)"]
    assert list(table.shown["simultaneous"]) == ["", "[-1.23, +4.56]"]
    assert list(table.shown["verdict"]) == ["", "undecided"]


def test_a_table_view_shows_text_the_report_wrote_but_leaves_it_out_of_its_csv(tmp_path):
    """shown_only: a column of text the report computed for the table is shown, and its CSV holds only the numbers
    (the frame's other columns, in their order)."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "table"\nname = "t"\ntitle = "T"\n'
        'options = { columns = [["rules", "text", "rules"], ["ratio", "text", "ratio_text"]], shown_only = ["ratio_text"] }\n',
    )
    frame = pd.DataFrame({"rules": ["a", "b"], "ratio": [1.5, 0.25], "ratio_text": ["x1.50", "x0.25"], "n": [3, 4]})
    (table,) = kinds.declared(exp.views, exp, frame, kinds.Setup(lambda what, intervals: what, "official"))
    assert table.shown.to_dict("list") == {"rules": ["a", "b"], "ratio": ["x1.50", "x0.25"]}
    assert table.data.to_dict("list") == {"rules": ["a", "b"], "ratio": [1.5, 0.25], "n": [3, 4]}
    assert "ratio_text" in frame  # the report's frame itself is left as it was


def test_distribution_views_read_the_histograms_of_one_field(tmp_path):
    """An ECDF of every arm at one size (4 played), of the baseline at the sizes asked for (7 not played: dropped),
    a missing field falls back to the first played; the caption is the report's, for that one field."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "ecdf"\nname = "e"\nquantity = "turns"\ntitle = "at {players}"\n'
        'options = { field = "basic", players = 4, xlabel = "x" }\n'
        '[[view]]\nkind = "histogram"\nname = "h"\nquantity = "turns"\ntitle = "h {base}"\n'
        'options = { field = "basic", players = [4, 7], xlabel = "x" }\n',
    )
    hist = np.zeros(50, np.int64)
    hist[10:20] = 10
    hists = {("random", p, a): hist for p in (2, 4) for a in ("official", "rule")}
    said = []
    setup = kinds.Setup(lambda *a: said.append(a) or "cap", "official", hists=hists, counts={2: 100, 4: 100})
    ecdf, histogram = kinds.declared(exp.views, exp, None, setup)
    assert (ecdf.name, ecdf.caption, histogram.name) == ("e", "cap", "h")
    assert said[0][0] == "at 4" and said[0][2:] == ("random", True)
    assert said[1][0] == "h official" and said[1][2:] == ("random", False)
    legend = [t.get_text() for t in histogram.figure.axes[0].get_legend().get_texts()]
    assert legend == ["4 players"] and [t.get_text() for t in ecdf.figure.axes[0].get_legend().get_texts()] == [
        "official",
        "rule",
    ]


def test_a_title_names_the_target_score_of_the_rules_played(tmp_path):
    """``{target}`` in a view's title or the file's description is the first arm's target score (here set to 200 or
    300), never a number written in."""
    exp = _exp(tmp_path, '[[view]]\nkind = "wide"\nquantity = "turns"\ntitle = "Matches to {target} points"\n')
    played = replace(exp, arms=tuple(replace(a, table=a.table.with_set("target_score", 200)) for a in exp.arms))
    setup = kinds.Setup(lambda what, intervals: what, "official")
    (block,) = kinds.declared(played.views, played, _frame(), setup)
    assert block.title == "Matches to 200 points"
    (block,) = kinds.declared(exp.views, exp, _frame(), setup)
    assert block.title == "Matches to 500 points"
    from unocli.report.experiment import load_experiment

    path = tmp_path / "d.toml"
    path.write_text('analysis = "game-length"\ndescription = "To {target}."\n[arms.a]\nset = { target_score = 300 }\n')
    assert load_experiment(path).description == "To 300."  # the file's description too


def test_a_table_view_writes_each_form_with_its_decimals_and_fills_level_and_margin(tmp_path):
    """Shares, p-values, a pair of fields, pp and plain intervals at the decimals a form names (``FORM:D``); the
    title's {level} is the frame's simultaneous level, {margin} the experiment's margin the view names; a report
    view places the report's own block of its name, and nothing when the report drew none."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "table"\nname = "t"\ntitle = "{level}% over {rows} against +/-{margin:win_share_pp} pp, {mine}"\n'
        'options = { columns = [["s", "share:1", "s"], ["s (+/-{margin:turns})", "share", "s"], '
        '["p", "pvalue", "p"], ["fields", "pair", "a", "b"], ["d", "pp_ci:2", "d", "lo", "hi"], '
        '["x", "interval:3", "x", "lo", "hi"], ["c", "share_ci:1", "s", "lo", "hi"], ["sc", "signed_ci:1", "x", "x", "x"], '
        '["sp", "signed_percent:1", "s"], ["r", "round:2", "x"]] }\n'
        '[[view]]\nkind = "report"\nname = "mine"\n[[view]]\nkind = "report"\nname = "absent"\n',
    )
    frame = pd.DataFrame(
        {"s": [0.25, 0.5], "p": [0.5, 1e-9], "a": ["random", "basic"], "b": ["basic", "strong"]}
        | {"d": [0.0123, -0.004], "lo": [0.01, -0.0061], "hi": [0.0145, -0.002], "x": [1.23456, 0.9], "sim_level": 0.99}
    )
    mine = views.TableBlock("mine", "mine", frame, frame)
    setup = kinds.Setup(lambda what, intervals: what, "official", blocks={"mine": mine}, words={"mine": "my words"})
    table, placed = kinds.declared(exp.views, exp, frame, setup)
    assert table.title == "99.00% over 2 against +/-0.50 pp, my words" and placed is mine
    shown = table.shown
    assert list(shown["s"]) == ["25.0%", "50.0%"] and list(shown["s (+/-1)"]) == ["25.0%", "50.0%"]
    assert list(shown["fields"]) == ["random minus basic", "basic minus strong"]
    assert list(shown["p"]) == [views.fmt.pvalue(0.5), views.fmt.pvalue(1e-9)]
    assert list(shown["d"]) == ["+1.23 pp [+1.00, +1.45]", "-0.40 pp [-0.61, -0.20]"]
    assert list(shown["x"]) == ["1.235 [0.010, 0.015]", "0.900 [-0.006, -0.002]"]
    assert list(shown["c"]) == ["25.0% [1.0%, 1.5%]", "50.0% [-0.6%, -0.2%]"]
    assert list(shown["sc"]) == ["+1.2 [+1.2, +1.2]", "+0.9 [+0.9, +0.9]"] and list(shown["sp"]) == ["+25.0%", "+50.0%"]
    assert list(shown["r"]) == [1.23, 0.9]


def test_a_table_view_one_row_per_label_bottom_up_its_shown_only_columns_out_of_the_csv(tmp_path):
    """``label`` alone: one row per label, read from its first row; with ``by`` each value a column; ``reverse``:
    the last label first; ``shown_only`` columns are shown, never written to the CSV; ``csv = false``: the table in
    Markdown alone, its note in italics; ``fixed`` writes a plain number at its decimals."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "table"\nname = "grid"\ntitle = "G"\noptions = { label = ["rate"], by = "c", reverse = true, '
        'shown_only = ["cell"], columns = [["rate", "g", "rate"], ["c={value}", "text", "cell"], ["x", "fixed", "x"], '
        '["x3", "fixed:3", "x"]] }\n'
        '[[view]]\nkind = "table"\nname = "first"\noptions = { label = ["rate"], columns = [["rate", "g", "rate"], '
        '["first cell", "text", "cell"]] }\n'
        '[[view]]\nkind = "table"\nname = "words"\ntitle = "Ends"\noptions = { label = ["rate"], by = "c", csv = false, '
        'note = "{rows} rows.", columns = [["rate", "g", "rate"], ["c={value}", "text", "cell"]] }\n',
    )
    frame = pd.DataFrame(
        {"rate": [0.0, 0.0, 0.5, 0.5], "c": ["0", "1", "0", "1"], "cell": ["a", "b", "c", "d"], "x": [1.004, 2, 3.4567, 4]}
    )
    grid, first, words = kinds.declared(exp.views, exp, frame, kinds.Setup(lambda what, intervals: what))
    assert grid.shown.to_dict("list") == {
        "rate": ["0.5", "0"],
        "c=0": ["c", "a"],
        "c=1": ["d", "b"],
        "x": ["3.46", "1.00"],
        "x3": ["3.457", "1.004"],
    }
    assert list(grid.data.columns) == ["rate", "c", "x"] and len(grid.data) == 4
    assert first.shown.to_dict("list") == {"rate": ["0", "0.5"], "first cell": ["a", "c"]} and first.data is frame
    assert words == "**Ends**\n\n| rate | c=0 | c=1 |\n|---|---|---|\n| 0 | a | b |\n| 0.5 | c | d |\n\n*4 rows.*"


def test_a_sizes_view_draws_a_tables_columns_by_table_size(tmp_path):
    """One line per field through its points (2 and 4 players), the dotted hline and the dashed reference column
    (its value at each size) with their labels; the caption is the report's, from the view's own words, each of
    them filled ({base} in the intervals and the alt text too, as every chart view fills its words)."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "sizes"\nname = "s"\ntitle = "T {base}"\n'
        'options = { columns = ["x", "lo", "hi"], ylabel = "y", caption = "what", intervals = "bars {base}", hline = 1.0, '
        'hline_label = "one", reference = "ref", reference_label = "fair", alt = "a {base}" }\n',
    )
    frame = pd.DataFrame(
        {"players": [2, 2, 4, 4], "field": ["a", "b", "a", "b"], "x": [1.1, 1.2, 0.9, 0.8], "ref": [0.5, 0.5, 0.7, 0.7]}
    ).assign(lo=lambda f: f["x"] - 0.1, hi=lambda f: f["x"] + 0.1)
    said = []
    setup = kinds.Setup(lambda what, intervals: said.append((what, intervals)) or "cap", "official")
    (chart,) = kinds.declared(exp.views, exp, frame, setup)
    assert (chart.name, chart.alt, chart.caption, said) == ("s", "a official", "cap", [("what", "bars official")])
    ax = chart.figure.axes[0]
    drawn = {line.get_label(): list(line.get_ydata()) for line in ax.lines}
    points = {c.get_label(): list(c.lines[0].get_ydata()) for c in ax.containers}
    assert drawn["fair"] == [0.5, 0.7] and drawn["one"] == [1.0, 1.0]
    assert points == {"a": [1.1, 0.9], "b": [1.2, 0.8]}
    assert ax.get_title(loc="left") == "T official" and "one" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_a_sizes_view_draws_the_fair_share_and_fills_its_ylabel(tmp_path):
    """``fair = true`` draws the fair share 1/n at each size played (1/2, 1/4) dashed; ``{base}`` in the ylabel is the
    report's baseline; ``by`` picks the column whose values are the lines."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "sizes"\nname = "s"\ntitle = "T"\n'
        'options = { by = "arm", columns = ["x", "lo", "hi"], ylabel = "vs {base}", caption = "what", '
        'intervals = "bars", fair = true, percent = true }\n',
    )
    frame = pd.DataFrame({"players": [2, 4], "arm": ["r", "r"], "x": [0.6, 0.3]})
    frame = frame.assign(lo=frame["x"] - 0.1, hi=frame["x"] + 0.1)
    (chart,) = kinds.declared(exp.views, exp, frame, kinds.Setup(lambda what, intervals: what, "official"))
    ax = chart.figure.axes[0]
    drawn = {line.get_label(): list(line.get_ydata()) for line in ax.lines}
    assert drawn["fair share 1/n"] == pytest.approx([0.5, 0.25]) and ax.get_ylabel() == "vs official"
    assert {c.get_label(): list(c.lines[0].get_ydata()) for c in ax.containers} == {"r": [0.6, 0.3]}


def test_a_dots_view_draws_one_table_size_one_marker_per_field(tmp_path):
    """At 4 players (2 is in the frame too, and a size the frame lacks falls back to the middle of its sizes, as
    every kind of one table size does): one row per arm,
    one marker per field, the points times ``scale``; the caption gets the view's n and policies with {n},
    {series} and {players} filled."""
    dots = (
        'kind = "dots"\ntitle = "at {players}"\noptions = { y = "arm", columns = ["x", "lo", "hi"], scale = 100.0, '
        'xlabel = "pp", caption = "c {players}", intervals = "i", n = "{n} deals", policies = "{series}", '
        'labels = { b = "b ({who})" }, '
    )
    exp = _exp(tmp_path, f'[[view]]\nname = "d4"\n{dots}players = 4 }}\n[[view]]\nname = "d7"\n{dots}players = 7 }}\n')
    frame = pd.DataFrame(
        {
            "players": [2, 2, 4, 4, 4, 4],
            "field": ["a", "a", "a", "a", "b", "b"],
            "arm": ["off", "on", "off", "on", "off", "on"],
            "n": [50, 50, 300, 300, 300, 300],
            "x": [0.9, 0.8, 0.01, 0.02, 0.03, 0.04],
        }
    )
    frame = frame.assign(lo=frame["x"] - 0.005, hi=frame["x"] + 0.005)
    said = []
    setup = kinds.Setup(lambda what, intervals, **kw: said.append((what, intervals, kw)) or "cap", "official")
    setup = replace(setup, words={"who": "w"})
    at4, at7 = kinds.declared(exp.views, exp, frame, setup)
    ax = at4.figure.axes[0]
    points = {c.get_label(): [round(x, 9) for x in c.lines[0].get_xdata()] for c in ax.containers}
    assert points == {"a": [1.0, 2.0], "b (w)": [3.0, 4.0]}
    assert [t.get_text() for t in ax.get_yticklabels()] == ["off", "on"]
    assert (
        said[0] == ("c 4", "i", {"n": "300 deals", "policies": "a, b (w)"}) and at4.figure.axes[0].get_title(loc="left") == "at 4"
    )
    assert said[1][0] == "c 4" and said[1][2]["n"] == "300 deals"  # 7 not in the frame: the middle of 2 and 4
    assert [[round(x, 9) for x in c.lines[0].get_xdata()] for c in at7.figure.axes[0].containers] == [[1.0, 2.0], [3.0, 4.0]]


def test_a_dots_view_of_every_table_size_one_marker_per_size(tmp_path):
    """``players = "all"``: one marker per table size, named by the ``{value}`` label; ``zero = false`` draws no
    dotted line at 0 (the view with it on does); a ``times`` column of a table view reads "n x players"."""
    dots = (
        'kind = "dots"\ntitle = "t"\noptions = { y = "arm", by = "players", columns = ["x", "lo", "hi"], '
        'players = "all", labels = "{value} players", xlabel = "x", caption = "c", intervals = "i"'
    )
    table = 'kind = "table"\ntitle = "t"\noptions = { columns = [["n", "times", "n", "players"]] }\n'
    exp = _exp(
        tmp_path,
        f'[[view]]\nname = "off"\n{dots}, zero = false }}\n[[view]]\nname = "on"\n{dots} }}\n[[view]]\nname = "n"\n{table}',
    )
    frame = pd.DataFrame({"players": [2, 2, 4, 4], "arm": ["a", "b", "a", "b"], "n": [1500, 1500, 30, 30]})
    frame = frame.assign(x=[0.1, 0.2, 0.3, 0.4], lo=0.0, hi=0.5)
    off, on, n = kinds.declared(exp.views, exp, frame, kinds.Setup(lambda what, intervals: what, "official"))
    ax = off.figure.axes[0]
    points = {c.get_label(): [round(x, 9) for x in c.lines[0].get_xdata()] for c in ax.containers}
    assert points == {"2 players": [0.1, 0.2], "4 players": [0.3, 0.4]}

    def dotted(chart: Chart) -> list[list[float]]:  # the line at 0 is the one dotted line
        return [list(line.get_xdata()) for line in chart.figure.axes[0].lines if line.get_linestyle() == ":"]

    assert dotted(off) == [] and dotted(on) == [[0, 0]]
    assert list(n.shown["n"]) == ["1,500 x 2", "1,500 x 2", "30 x 4", "30 x 4"]


def test_a_curves_view_draws_a_column_over_x_at_one_table_size(tmp_path):
    """At 4 players (the 2-player rows ignored): one line per arm through its shares over k, a share of 0 left out
    on the log scale (with its bounds), the x ticks the values of k; the caption gets the view's n with {n} filled."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "curves"\nname = "c"\ntitle = "at {players}"\n'
        'options = { players = 4, x = "k", by = "arm", columns = ["s", "lo", "hi"], log = true, xlabel = "k", '
        'ylabel = "share", caption = "c", intervals = "i", n = "{n} rounds" }\n',
    )
    frame = pd.DataFrame(
        {
            "players": [2, 2, 4, 4, 4, 4],
            "arm": ["off", "off", "off", "off", "on", "on"],
            "k": [1, 2, 1, 2, 1, 2],
            "n": [10, 10, 400, 400, 400, 400],
            "s": [0.5, 0.4, 0.9, 0.0, 0.95, 0.3],
        }
    )
    frame = frame.assign(lo=frame["s"] / 2, hi=frame["s"] + 0.01)
    said = []
    setup = kinds.Setup(lambda what, intervals, **kw: said.append((what, intervals, kw)) or "cap", "official")
    (chart,) = kinds.declared(exp.views, exp, frame, setup)
    ax = chart.figure.axes[0]
    assert said == [("c", "i", {"n": "400 rounds"})] and ax.get_yscale() == "log" and chart.caption == "cap"
    drawn = {line.get_label(): list(line.get_ydata()) for line in ax.lines if line.get_label() in ("off", "on")}
    assert drawn["on"] == pytest.approx([0.95, 0.3]) and drawn["off"][0] == pytest.approx(0.9) and np.isnan(drawn["off"][1])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2"] and ax.get_title(loc="left") == "at 4"


def test_a_bars_view_draws_one_table_size_and_a_csv_view_only_names_its_file(tmp_path):
    """Bars of the asked size only (4 players: four seats, two fields), their heights the frame's shares, the fair
    share 1/4 dotted, {players} and {last} filled; a size the frame lacks (7) draws the middle of its sizes (3 of
    2, 3 and 4, as every kind of one table size does, saying so in its words); a csv view shows rows and file."""
    bars = (
        'kind = "bars"\ntitle = "at {players}"\noptions = { x = "seat", columns = ["share", "lo", "hi"], '
        'xlabel = "seat (dealer {last})", ylabel = "y", caption = "c {players}", intervals = "i {players}", fair = true, '
    )
    exp = _exp(
        tmp_path,
        f'[[view]]\nname = "b4"\n{bars}players = 4 }}\n[[view]]\nname = "b7"\n{bars}players = 7 }}\n'
        '[[view]]\nkind = "csv"\nname = "every-seat"\ntitle = "All (in the CSV)"\n',
    )
    rows = [(p, f, s, (s + 1) / 10 + (f == "b") / 100) for p in (2, 3, 4) for f in ("a", "b") for s in range(p)]
    frame = pd.DataFrame(rows, columns=["players", "field", "seat", "share"]).assign(lo=lambda f: f["share"] - 0.01)
    frame = frame.assign(hi=frame["share"] + 0.01)
    said = []
    setup = kinds.Setup(lambda what, intervals: said.append((what, intervals)) or "cap", "official")
    chart, middle, table = kinds.declared(exp.views, exp, frame, setup)

    def heights(chart):
        ax = chart.figure.axes[0]
        return {c.get_label(): [round(b.get_height(), 6) for b in c] for c in ax.containers if c.get_label() in "ab"}

    ax = chart.figure.axes[0]
    assert heights(chart) == {"a": [0.1, 0.2, 0.3, 0.4], "b": [0.11, 0.21, 0.31, 0.41]}
    assert [line.get_ydata()[0] for line in ax.lines if line.get_label() == "fair share 1/n"] == [0.25]
    assert ax.get_title(loc="left") == "at 4" and ax.get_xlabel() == "seat (dealer 3)"
    assert heights(middle) == {"a": [0.1, 0.2, 0.3], "b": [0.11, 0.21, 0.31]}
    assert middle.figure.axes[0].get_title(loc="left") == "at 3" and said == [("c 4", "i 4"), ("c 3", "i 3")]
    assert table.name == "every-seat" and table.data is frame
    assert table.shown.to_dict("records") == [{"rows": 18, "file": "every-seat.csv"}]


def test_a_forest_takes_its_words_from_the_file_and_a_size_not_played_falls_back(tmp_path):
    """The caption, intervals and x label of the file ({players}, {level} filled); 7 players is not played, so the
    middle size (4) is drawn."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "forest"\nquantity = "turns"\ntitle = "T"\noptions = { players = 7, xlabel = "x", '
        'caption = "from {base} at {players}", intervals = "at {level}%" }\n',
    )
    setup = kinds.Setup(lambda what, intervals: f"{what}. {intervals}.", "official")
    (chart,) = kinds.declared(exp.views, exp, _frame(), setup)
    assert chart.caption == "from official at 4. at 97.50%." and chart.alt == "T, 4 players"
    assert chart.figure.axes[0].get_xlabel() == "x"


def test_a_heatmap_view_keeps_one_field_names_the_arm_and_lists_the_arms_in_the_frames_order(tmp_path):
    """Of two fields only `b` is drawn (its changes, not `a`'s); the rows are the arms top down as the frame has
    them (zeta before alpha, not the alphabet's order), the axis named by the arm option; {field} fills the title."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "heatmap"\nquantity = "turns"\ntitle = "T ({field})"\n'
        'options = { field = "b", arm = "rule", caption = "c {field}", intervals = "at {level}%" }\n',
    )
    base = _frame()
    rule = base[base["arm"] == "rule"]
    alpha = rule.assign(arm="alpha", difference=rule["difference"] * 3)
    one = pd.concat([base[base["arm"] == "official"], rule.assign(arm="zeta"), alpha], ignore_index=True)
    frame = pd.concat([one.assign(field="a", difference=9.0), one.assign(field="b")], ignore_index=True)
    said = []
    setup = kinds.Setup(lambda *a: said.append(a) or "cap", "official")
    (chart,) = kinds.declared(exp.views, exp, frame, setup)
    ax = chart.figure.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]  # bottom up: zeta is the top row
    assert labels == ["alpha", "zeta"] and ax.get_ylabel() == "rule"
    assert sorted(t.get_text().split("\n")[0] for t in ax.texts) == ["+2.0", "+6.0", "-0.2", "-0.8"]
    assert ax.get_title(loc="left") == "T (b)" and said == [("c b", "at 97.50%", "b")]


def test_a_heatmap_view_of_a_frame_of_effects_draws_its_columns_as_they_are(tmp_path):
    """With value and verdict the frame is drawn as it is (no differences taken): rows and cols any two of its
    columns (bluff rate bottom up, challenge rate across), each cell its value times scale and its verdict; the
    colour bar's unit, the caption's n and policies and {level} filled from the file and the report's words."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "heatmap"\nname = "h"\ntitle = "T"\n'
        'options = { value = "gain", verdict = "word", rows = "b", cols = "c", scale = 10, unit = "u {who}", '
        'caption = "c at {level}%", intervals = "i", n = "{deals} deals", policies = "p {who}" }\n',
    )
    gains = pd.DataFrame(
        {"b": [1, 1, 2, 2], "c": [0, 1, 0, 1], "gain": [0.1, -0.2, 0.35, 0.0], "word": ["larger", "negligible"] * 2}
    ).assign(sim_level=0.9875)
    said = []
    setup = kinds.Setup(lambda *a, **k: said.append((a, k)) or "cap", words={"who": "w", "deals": "7"})
    (chart,) = kinds.declared(exp.views, exp, gains, setup)
    ax = chart.figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1", "2"] and ax.get_ylabel() == "b"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1"] and ax.get_xlabel() == "c"
    assert sorted(t.get_text() for t in ax.texts) == ["+0.0\nnegligible", "+1.0\nlarger", "+3.5\nlarger", "-2.0\nnegligible"]
    assert chart.figure.axes[1].get_ylabel() == "u w"  # the colour bar
    assert said == [(("c at 98.75%", "i"), {"n": "7 deals", "policies": "p w"})]
    assert chart.name == "h" and chart.alt == "T" and ax.get_title(loc="left") == "T"


def test_a_heatmap_view_whose_frame_does_not_fit_is_refused_in_one_sentence(tmp_path):
    """Two fields drawn over arm x players (no field option) put two rows in a cell; a frame of effects lacking the
    column the view names: each a ConfigError naming the file and the view (pandas raised a ValueError and a
    KeyError of its own wording before)."""
    from unocli.errors import ConfigError

    exp = _exp(tmp_path, '[[view]]\nkind = "heatmap"\nname = "h"\nquantity = "turns"\n')
    two = pd.concat([_frame().assign(field="a"), _frame().assign(field="b")], ignore_index=True)
    crowded = r"\(h\): more than one row .* cell of arm x players: keep one per cell with its option field$"
    with pytest.raises(ConfigError, match=crowded):
        kinds.declared(exp.views, exp, two, kinds.Setup(lambda *a, **k: "cap", "official"))
    effects_view = 'options = { value = "x", verdict = "v", rows = "a", cols = "b" }\n'
    exp = _exp(tmp_path, '[[view]]\nkind = "heatmap"\nname = "h"\n' + effects_view)
    effects = pd.DataFrame({"a": [1], "b": [2], "v": ["larger"], "sim_level": [0.95]})
    with pytest.raises(ConfigError, match=r"\(h\): no column 'x' in its frame"):
        kinds.declared(exp.views, exp, effects, kinds.Setup(lambda *a, **k: "cap"))


def test_a_panels_view_draws_each_panel_of_one_table_size_with_its_margin(tmp_path):
    """One row per (rule, field), rules kept together in the frame's order; a turns panel with the +/-1 turn band
    and a share panel whose band is the 0.5 pp margin as a share; 4 players only; the words filled."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "panels"\nname = "p"\ntitle = "T {players}"\noptions = { label = ["rule", "field"], '
        'panels = [["turns", "dt", "dt_lo", "dt_hi", "turns"], ["first", "df", "df_lo", "df_hi", "win_share_pp", "pp"]], '
        'caption = "c {base} +/-{margin:turns}", intervals = "at {level}%" }\n',
    )
    rows = [(p, r, f, d) for p in (2, 4) for f in ("x", "y") for r, d in (("zeta", 1.0), ("alpha", -2.0))]
    frame = pd.DataFrame(rows, columns=["players", "rule", "field", "dt"]).assign(sim_level=0.99)
    frame = frame.assign(dt=frame["dt"] * frame["players"], dt_lo=lambda f: f["dt"] - 0.5, dt_hi=lambda f: f["dt"] + 0.5)
    frame = frame.assign(df=0.001, df_lo=-0.001, df_hi=0.003)
    said = []
    setup = kinds.Setup(lambda what, intervals: said.append((what, intervals)) or "cap", "official")
    (chart,) = kinds.declared(exp.views, exp, frame, setup)
    turns, first = chart.figure.axes[:2]
    labels = [t.get_text() for t in turns.get_yticklabels()]
    assert labels == ["zeta, x", "zeta, y", "alpha, x", "alpha, y"]  # zeta first, as in the frame, not as the alphabet
    points = sorted(x for c in turns.containers for x in c.lines[0].get_xdata())
    assert points == [-8.0, -8.0, 4.0, 4.0]  # 4 players: 1 x 4 and -2 x 4
    bands = {round(p.get_width(), 6) for ax in (turns, first) for p in ax.patches if p.get_label() == "equivalence band"}
    assert bands == {2.0, 0.01}  # +/-1 turn; +/-0.5 pp, drawn as a share
    assert said == [("c official +/-1", "at 99.00%")]


def test_a_panels_view_by_a_column_draws_one_panel_per_value_from_its_own_rows(tmp_path):
    """A long frame, one row per (row, who): with by = "who" each panel shows its value's rows, in the panels' order
    (b before a), matched by row; the rows in the frame's order; x labels, n and policies filled ({players},
    {level} with the first level given, the report's words); a view at 4 players leaves the 2-player rows out."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "panels"\nname = "p"\ntitle = "T"\noptions = { label = ["row"], by = "who", '
        'panels = [["b", "B at {players}", "d", "lo", "hi", "turns"], ["a", "A {mine}", "d", "lo", "hi", "turns"]], '
        'caption = "c", intervals = "at {level}%", n = "{mine} deals", policies = "every seat {mine}" }\n',
    )
    rows = [(p, r, w, d) for p in (2, 4) for r in ("zeta", "alpha") for w, d in (("a", 1.0), ("b", 3.0))]
    frame = pd.DataFrame(rows, columns=["players", "row", "who", "d"]).iloc[::-1]  # alpha first, b's rows before a's
    frame = frame.assign(d=frame["d"] * frame["players"] + (frame["row"] == "alpha"), lo=lambda f: f["d"] - 0.5)
    frame = frame.assign(hi=lambda f: f["d"] + 0.5, sim_level=[None, *[0.99] * 7])  # no level in its 1st row
    said = []
    setup = kinds.Setup(lambda *a, **k: said.append((a, k)) or "cap", "official", words={"mine": "basic"})
    (chart,) = kinds.declared(exp.views, exp, frame, setup)
    b, a = chart.figure.axes[:2]
    assert [t.get_text() for t in b.get_yticklabels()] == ["alpha", "zeta"]  # the frame's order, not b's or a's
    assert (b.get_xlabel(), a.get_xlabel()) == ("B at 4", "A basic")
    ys = {ax: {round(y): x for c in ax.containers for x, y in zip(*c.lines[0].get_data(), strict=True)} for ax in (a, b)}
    assert ys[b] == {1: 13.0, 0: 12.0} and ys[a] == {1: 5.0, 0: 4.0}  # zeta 3 x 4 for b, 1 x 4 for a; alpha 1 more
    assert said == [(("c", "at 99.00%"), {"n": "basic deals", "policies": "every seat basic"})]


def test_a_panels_view_by_a_column_leaves_out_a_panel_whose_value_no_row_has(tmp_path):
    """The bluff decision's best-response panel when its rate is one of the listed rates (that column, never a copy):
    a panel whose value of by no row has is not drawn, the others are; with no panel left, nothing is drawn."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "panels"\nname = "p"\ntitle = "T"\noptions = { label = ["row"], by = "who", '
        'panels = [["a", "A", "d", "lo", "hi", "turns"], ["gone", "G", "d", "lo", "hi", "turns"], '
        '["b", "B", "d", "lo", "hi", "turns"]], caption = "c", intervals = "i" }\n',
    )
    frame = pd.DataFrame({"players": 4, "row": ["x", "x"], "who": ["a", "b"], "d": [1.0, 2.0], "lo": 0.0, "hi": 3.0})
    (chart,) = kinds.declared(exp.views, exp, frame, kinds.Setup(lambda *a, **k: "cap"))
    assert [ax.get_xlabel() for ax in chart.figure.axes] == ["A", "B"]
    assert kinds.declared(exp.views, exp, frame.assign(who=["c", "d"]), kinds.Setup(lambda *a, **k: "cap")) == []


def test_a_panels_view_by_a_column_refuses_two_rows_of_one_label_and_value(tmp_path):
    from unocli.errors import ConfigError

    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "panels"\nname = "p"\noptions = { label = ["row"], by = "who", '
        'panels = [["a", "A", "d", "lo", "hi", "turns"]], caption = "c", intervals = "i" }\n',
    )
    frame = pd.DataFrame({"players": 4, "row": ["x", "x"], "who": "a", "d": [1.0, 2.0], "lo": 0.0, "hi": 3.0})
    said = r"v\.toml', key 'view\[0\]' \(p\): two rows of its frame have the same row and who: keep one"
    with pytest.raises(ConfigError, match=said):
        kinds.declared(exp.views, exp, frame, kinds.Setup(lambda *a, **k: "cap"))


def test_a_panel_whose_margin_names_no_option_of_the_report_is_refused(tmp_path):
    from unocli.errors import ConfigError

    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "panels"\nname = "p"\noptions = { label = ["row"], '
        'panels = [["A", "d", "lo", "hi", "options.nowhere"]], caption = "c", intervals = "i" }\n',
    )
    frame = pd.DataFrame({"players": 4, "row": ["x"], "d": [1.0], "lo": 0.0, "hi": 3.0})
    with pytest.raises(ConfigError, match=r"margin 'options\.nowhere' names no option"):
        kinds.declared(exp.views, exp, frame, kinds.Setup(lambda *a, **k: "cap"))


@pytest.mark.parametrize(
    ("panels", "by"),
    [('[["b", "d", "lo", "hi", "turns"]]', ', by = "who"'), ('[["b", "B", "d", "lo", "hi", "turns"]]', "")],
)
def test_a_panels_view_opens_each_panel_with_its_value_of_by_and_only_with_by(tmp_path, panels, by):
    from unocli.errors import ConfigError

    with pytest.raises(ConfigError, match=r"view\[0\]\.options\.panels.*with by"):
        _exp(
            tmp_path,
            f'[[view]]\nkind = "panels"\noptions = {{ label = ["row"]{by}, panels = {panels}, caption = "c", '
            'intervals = "i" }\n',
        )


def test_a_table_view_with_by_shows_a_long_frame_wide_and_writes_it_long_under_its_file(tmp_path):
    """One row per label, in the frame's order; a {value} column per value of by (a heading of its own from labels),
    the others from the label's first row; the word alone where a change has no interval; the CSV is the frame."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "table"\nname = "t-table"\ntitle = "by {who}"\n'
        'options = { file = "t", label = ["k"], by = "c", labels = { best = "best c={who}" }, columns = '
        '[["k", "text", "k"], ["n", "count", "n"], ["c={value}", "pp_column_ci_word:1", "x", "lo", "hi", "w"]] }\n',
    )
    frame = pd.DataFrame(
        {"k": ["b", "a", "b", "a"], "c": ["0", "0", "best", "best"], "n": [1000, 20, 1000, 20]}
        | {"x": [1.25, 3.0, -0.5, 2.0], "lo": [0.5, np.nan, -1.0, np.nan], "hi": [2.0, np.nan, 0.0, np.nan]}
        | {"w": ["pays", "too few", "undecided", "too few"]}
    )
    setup = kinds.Setup(lambda what, intervals: what, words={"who": "0.25"})
    (table,) = kinds.declared(exp.views, exp, frame, setup)
    assert table.name == "t" and table.title == "by 0.25" and table.data is frame
    assert list(table.shown.columns) == ["k", "n", "c=0", "best c=0.25"]
    assert list(table.shown["k"]) == ["b", "a"] and list(table.shown["n"]) == ["1,000", "20"]
    assert list(table.shown["c=0"]) == ["+1.2 pp [+0.5, +2.0] pays", "too few"]
    assert list(table.shown["best c=0.25"]) == ["-0.5 pp [-1.0, +0.0] undecided", "too few"]


def test_a_table_view_says_yes_or_no_and_a_dash_for_a_best_response_that_is_the_current_one(tmp_path):
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "table"\nname = "t"\noptions = { columns = [["switches", "yes_no", "s"], '
        '["gain", "pp_column_ci_unless_same", "x", "lo", "hi", "best", "now"]] }\n',
    )
    frame = pd.DataFrame({"s": [True, False], "x": [1.5, 0.0], "lo": [0.5, 0.0], "hi": [2.5, 0.0]})
    frame = frame.assign(best=["always", "never"], now=["never", "never"])
    (table,) = kinds.declared(exp.views, exp, frame, kinds.Setup(lambda what, intervals: what))
    assert list(table.shown["switches"]) == ["yes", "no"] and list(table.shown["gain"]) == ["+1.50 pp [+0.50, +2.50]", "-"]


def test_a_table_view_with_label_alone_shows_each_labels_first_row_and_shown_only_columns_stay_out_of_its_csv(tmp_path):
    """label without by: one row per label, in the frame's order, from its first row; formed writes each
    {FORM[:D] column ...} of its template as that form writes the row; the CSV is the frame without shown_only."""
    exp = _exp(
        tmp_path,
        '[[view]]\nkind = "table"\nname = "t"\noptions = { label = ["k"], shown_only = ["w"], columns = [["k", "text", "k"], '
        '["share", "formed", "{share_ci:1 x lo hi} {text w} of {count n}"]] }\n',
    )
    frame = pd.DataFrame({"k": ["b", "a", "b"], "x": [0.5, 0.25, 0.9], "lo": [0.4, 0.2, 0.8], "hi": [0.6, 0.3, 1.0]})
    frame = frame.assign(n=[1000, 20, 5], w=["above", "below", "x"])
    (table,) = kinds.declared(exp.views, exp, frame, kinds.Setup(lambda what, intervals: what))
    assert list(table.shown["k"]) == ["b", "a"]
    assert list(table.shown["share"]) == ["50.0% [40.0%, 60.0%] above of 1,000", "25.0% [20.0%, 30.0%] below of 20"]
    assert list(table.data.columns) == ["k", "x", "lo", "hi", "n"] and table.data.equals(frame.drop(columns="w"))


def test_a_table_view_drops_a_column_blank_in_every_row_only_when_asked(tmp_path):
    """drop_blank: a column with no cell written (a figure the run did not measure) is left out; one blank in some
    rows only stays; without the option every column is shown."""
    columns = '[["a", "text", "a"], ["b", "text", "b"], ["c", "text", "c"]]'
    frame = pd.DataFrame({"a": ["x", "y"], "b": ["", ""], "c": ["", "z"]})
    for option, shown in (("drop_blank = true, ", ["a", "c"]), ("", ["a", "b", "c"])):
        exp = _exp(tmp_path, f'[[view]]\nkind = "table"\nname = "t"\noptions = {{ {option}columns = {columns} }}\n')
        (table,) = kinds.declared(exp.views, exp, frame, kinds.Setup(lambda what, intervals: what))
        assert list(table.shown.columns) == shown and table.data is frame
