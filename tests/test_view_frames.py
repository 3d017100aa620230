"""A declared view over a frame that does not fit it: one sentence naming the file and the view, never a traceback.

A view's options are checked when the file is loaded, but its frame exists only after the games are played: a
frame with two rows where a chart has room for one, text where it draws numbers, or a line lacking a point must
end in a :class:`~unocli.errors.ConfigError` (the CLI's one clear sentence), or in a chart that leaves the
missing point blank, never in pandas' or matplotlib's own exception (the CLI words that as an internal error).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unocli.errors import ConfigError
from unocli.report import forms, kinds
from unocli.report.experiment import View, load_experiment
from unocli.report.options import view_problem

pytest.importorskip("matplotlib")

HEAD = 'analysis = "game-length"\nplayers = [2, 4]\n[arms.official]\nrules = "official"\n[arms.rule]\nrules = "stacking"\n'
SERIES = 'columns = ["x", "lo", "hi"], caption = "c", intervals = "i"'
VIEWS = {
    "table": 'kind = "table"\noptions = { columns = [["a", "ci", "x", "lo", "hi"], ["b", "text", "y"]] }',
    "wide table": 'kind = "table"\noptions = { label = ["y"], by = "players", columns = [["a {value}", "ci", "x", "lo", "hi"]] }',
    "sizes": f'kind = "sizes"\noptions = {{ {SERIES}, by = "y", ylabel = "y", reference = "x" }}',
    "bars": f'kind = "bars"\noptions = {{ {SERIES}, players = 4, x = "y", xlabel = "x", ylabel = "y" }}',
    "dots": f'kind = "dots"\noptions = {{ {SERIES}, y = "y", xlabel = "x" }}',
    "curves": f'kind = "curves"\noptions = {{ {SERIES}, x = "players", by = "y", xlabel = "x", ylabel = "y", log = true }}',
    "panels": 'kind = "panels"\noptions = { label = ["y"], panels = [["a", "x", "lo", "hi", "turns"]], '
    'caption = "c", intervals = "i" }',
    "panels by": 'kind = "panels"\noptions = { label = ["y"], by = "field", panels = [["f", "a", "x", "lo", "hi", "turns"]], '
    'caption = "c", intervals = "i" }',
    "verdicts": 'kind = "verdicts"\nquantity = "turns"\n'
    'options = { cell = ["pp_ci", "x", "lo", "hi"], verdict = "v", arm = "y" }',
    "heatmap": 'kind = "heatmap"\noptions = { value = "x", verdict = "v", rows = "y", cols = "players" }',
}
GOOD = pd.DataFrame(
    {
        "players": [2, 2, 4, 4],
        "field": "f",
        "y": ["a", "b", "a", "b"],
        "n": 10,
        "x": [1.0, 2.0, 3.0, 4.0],
        "lo": 0.5,
        "hi": 5.0,
        "v": "larger",
        "sim_level": 0.95,
    }
)
FRAMES = {
    "fits": GOOD,
    "no rows": GOOD.iloc[0:0],
    "one row": GOOD.iloc[:1],
    "every row twice": pd.concat([GOOD, GOOD], ignore_index=True),
    "text for numbers": GOOD.assign(x="abc"),
    "text for table sizes": GOOD.assign(players="all"),
    "no point": GOOD.assign(x=np.nan),
    "a column missing": GOOD.drop(columns=["x"]),
}


def _draw(tmp_path, view: str, frame: pd.DataFrame) -> list:
    path = tmp_path / "v.toml"
    path.write_text(f'{HEAD}[[view]]\nname = "v"\n{view}\n', encoding="utf-8")
    exp = load_experiment(path)
    return kinds.declared(exp.views, exp, frame, kinds.Setup(lambda *a, **k: "cap", "official"))


@pytest.mark.parametrize(("kind", "shape"), list(itertools.product(VIEWS, FRAMES)))
def test_a_view_draws_its_frame_or_says_in_one_sentence_why_not(tmp_path, kind, shape):
    """Every kind of view of a report's frame against every misfit: a block (or nothing, for no rows), or a
    ConfigError naming the file and the view; 'fits' must draw."""
    try:
        blocks = _draw(tmp_path, VIEWS[kind], FRAMES[shape])
    except ConfigError as said:
        assert "v.toml', key 'view[0]' (v): " in str(said), said
        assert shape != "fits", said
        return
    left_out = shape == "no rows" or (kind, shape) == ("curves", "no point")  # a log scale with nothing above 0
    assert len(blocks) == (0 if left_out else 1)


@pytest.mark.parametrize(
    ("kind", "shape", "message"),
    [
        ("sizes", "every row twice", "two rows of its frame have the same y and players: keep one"),
        ("bars", "every row twice", "two rows of its frame have the same field and y"),
        ("wide table", "every row twice", "two rows of its frame have the same y and players"),
        ("heatmap", "every row twice", "more than one row of its frame falls in a cell of y x players"),
        ("dots", "text for numbers", "its frame's column 'x' must hold numbers"),
        ("curves", "text for numbers", "its frame's column 'x' must hold numbers"),
        ("bars", "text for table sizes", "its frame's column 'players' must hold numbers"),
        ("dots", "text for table sizes", "its frame's column 'players' must hold numbers"),
        ("verdicts", "text for numbers", "its frame's column 'x' must hold numbers"),
        ("table", "text for numbers", "its column 'a' cannot write a value of its frame"),
        ("panels", "a column missing", "no column 'x' in its frame"),
    ],
)
def test_the_sentence_says_what_does_not_fit(tmp_path, kind, shape, message):
    with pytest.raises(ConfigError, match=message):
        _draw(tmp_path, VIEWS[kind], FRAMES[shape])


@pytest.mark.parametrize("zero", [0, 0.0, np.float64(0.0), np.int64(0)])
def test_the_fair_form_refuses_a_table_size_of_0_whatever_its_type(tmp_path, zero):
    """1/n of a size 0 is refused in one sentence whether the 0 is Python's or numpy's, an integer or a float
    (numpy's 0.0 was written "inf%" without a word, Python's 0 refused)."""
    view = 'kind = "table"\noptions = { columns = [["fair", "fair", "players"]] }'
    frame = GOOD.assign(players=pd.Series([zero, 2, 4, 4], dtype=object))
    with pytest.raises(ConfigError, match="its column 'fair' cannot write a value of its frame"):
        _draw(tmp_path, view, frame)
    (table,) = _draw(tmp_path, view, GOOD)
    assert list(table.shown["fair"]) == ["50.0%", "50.0%", "25.0%", "25.0%"]  # 1/2 and 1/4, by hand


@pytest.mark.parametrize("kind", ["differences", "wide", "lines", "forest", "heatmap", "verdicts"])
def test_a_view_of_the_design_over_a_frame_whose_means_are_text_is_refused(tmp_path, kind):
    """A design kind pointed at a frame with the design's columns but text for a mean: one sentence (pandas' or
    the formatter's TypeError before)."""
    from test_views import _frame

    with pytest.raises(ConfigError, match=r"\(v\): its frame's column 'mean' must hold numbers"):
        _draw(tmp_path, f'kind = "{kind}"\nquantity = "turns"', _frame().assign(mean="x"))


def test_a_line_or_colour_lacking_a_point_leaves_it_blank_where_it_belongs(tmp_path):
    """Field g has no row for seat 'b' (bars) and none at 4 players (sizes): its bar sits over 'a' only and its
    line over 2 players only, where both used to fail (a shape mismatch); nothing is drawn at another's place."""
    frame = pd.concat([GOOD.assign(field="f"), GOOD.assign(field="g", x=GOOD["x"] * 10)], ignore_index=True)
    frame = frame[~((frame["field"] == "g") & (frame["y"] == "b"))]
    (bars,) = _draw(tmp_path, VIEWS["bars"].replace(", reference", ""), frame)
    ax = bars.figure.axes[0]
    heights = {c.get_label(): [b.get_height() for b in c] for c in ax.containers if c.get_label() in ("f", "g")}
    assert heights["f"] == [3.0, 4.0] and heights["g"][0] == 30.0 and np.isnan(heights["g"][1])
    sizes = frame[frame["y"] == "a"]
    sizes = sizes[~((sizes["field"] == "g") & (sizes["players"] == 4))]
    (chart,) = _draw(tmp_path, VIEWS["sizes"].replace(', reference = "x"', "").replace('by = "y"', 'by = "field"'), sizes)
    lines = {c.get_label(): c.lines[0] for c in chart.figure.axes[0].containers}
    assert list(lines["f"].get_ydata()) == [1.0, 3.0] and list(lines["g"].get_ydata()) == [10.0]
    # two lines at each size are set 0.12 apart, f left of g: g's one point is at 2 players
    assert list(lines["f"].get_xdata()) == pytest.approx([1.88, 3.88]) and list(lines["g"].get_xdata()) == pytest.approx([2.12])


def test_a_lines_view_of_two_fields_by_arm_is_refused_not_drawn_zigzag(tmp_path):
    """A design of two fields drawn one line per arm without a field option: two points per arm and table size,
    which one line would join in a zigzag (it did, without a word); with field = "b" it draws."""
    from test_views import _frame

    two = pd.concat([_frame().assign(field="a"), _frame().assign(field="b")], ignore_index=True)
    with pytest.raises(ConfigError, match=r"\(v\): two rows of its frame have the same arm and players"):
        _draw(tmp_path, 'kind = "lines"\nquantity = "turns"', two)
    (chart,) = _draw(tmp_path, 'kind = "lines"\nquantity = "turns"\noptions = { field = "b" }', two)
    assert len(chart.figure.axes[0].containers) == 2  # official and rule, one point per table size each


# ---------------------------------------------------------------- any options over any columns


MIXED = pd.DataFrame(
    {
        "players": [2, 2, 4, 4, 4, 4],
        "field": ["f", "g", "f", "g", "f", "g"],
        "arm": ["a", "a", "a", "a", "b", "b"],
        "x": [0.1, np.nan, 0.3, 0.0, -0.2, 0.25],
        "lo": [0.0, np.nan, 0.2, -0.1, -0.3, 0.2],
        "hi": [0.2, np.nan, 0.4, 0.1, -0.1, 0.3],
        "n": pd.array([10, 10, None, 20, 20, 20], dtype="Int64"),
        "blank": ["", "", "", "", "", ""],
        "maybe": [None, "x", None, "y", None, "z"],
        "flag": [True, False, True, False, True, False],
        "v": ["larger", "negligible", "unsized", "larger", "undecided", "equivalent"],
        "zero": 0.0,
        "sim_level": [np.nan] * 6,
    }
)


def _views() -> st.SearchStrategy:
    """Options of the kinds that draw any frame, naming any of MIXED's columns (what a user's file may ask)."""
    col = st.sampled_from(list(MIXED.columns))
    three = st.lists(col, min_size=3, max_size=3)
    size = st.sampled_from([2, 3, 4, 7])
    words = {"caption": st.just("c"), "intervals": st.just("i")}
    table_form = st.sampled_from([f for f in forms.ARITY if f not in ("format", "formed")])
    table = table_form.flatmap(
        lambda f: st.fixed_dictionaries(
            {"columns": st.lists(col, min_size=forms.ARITY[f], max_size=forms.ARITY[f]).map(lambda cs: [["h", f, *cs]])},
            optional={"label": st.lists(col, min_size=1, max_size=2, unique=True)},
        )
    )
    series = {"columns": three, "by": col, **words}
    return st.one_of(
        st.tuples(st.just("table"), table),
        st.tuples(st.just("sizes"), st.fixed_dictionaries({**series, "ylabel": st.just("y")}, optional={"reference": col})),
        st.tuples(
            st.just("bars"),
            st.fixed_dictionaries({**series, "players": size, "x": col, "xlabel": st.just("x"), "ylabel": st.just("y")}),
        ),
        st.tuples(
            st.just("dots"),
            st.fixed_dictionaries({**series, "y": col, "xlabel": st.just("x")}, optional={"players": size | st.just("all")}),
        ),
        st.tuples(
            st.just("curves"),
            st.fixed_dictionaries({**series, "x": col, "xlabel": st.just("x"), "ylabel": st.just("y"), "log": st.booleans()}),
        ),
        st.tuples(
            st.just("panels"),
            st.fixed_dictionaries(
                {"label": st.lists(col, min_size=1, max_size=2), "panels": three.map(lambda cs: [["a", *cs, "turns"]]), **words},
                optional={"players": size | st.just("all")},
            ),
        ),
        st.tuples(st.just("heatmap"), st.fixed_dictionaries({"value": col, "verdict": col, "rows": col, "cols": col})),
        st.tuples(st.just("verdicts"), st.fixed_dictionaries({"cell": three.map(lambda cs: ["pp_ci", *cs]), "verdict": col})),
    )


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """An experiment file with no views: what the drawn views are declared against."""
    path = tmp_path_factory.mktemp("plain") / "v.toml"
    path.write_text(HEAD, encoding="utf-8")
    return load_experiment(path)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(view=_views(), frame=st.sampled_from([MIXED, MIXED.assign(players=pd.Series(["all", 2, 4, 4, "all", 4], dtype=object))]))
def test_any_view_over_any_columns_draws_or_says_why_not(plain, view, frame):
    """Whatever columns a view's options name (numbers with gaps, nullable integers with NA, blank text, None, true
    or false, zeros, no simultaneous level, table sizes mixed with text), drawing it gives a block, nothing, or a
    ConfigError naming the view: never another exception, which the CLI would call an internal error. Found,
    before this test: a table of a frame whose sim_level is all NaN, a form reading a float as a quantity's name,
    bars whose x is also drawn, a panel naming one column thrice, NaN labels, a nullable NA in a verdict's point
    or a heatmap's value, 1/0 in the fair form, NaN x on a curve, text among table sizes."""
    kind, options = view
    if view_problem(kind, options):
        return  # the loader refuses it, naming the option
    v = View(kind, "v", "turns" if kind == "verdicts" else "", "T {players}", options)
    try:
        kinds.declared([v], plain, frame, kinds.Setup(lambda *a, **k: "cap", "official"))
    except ConfigError as said:
        assert "key 'view[0]' (v): " in str(said), said
    finally:
        import matplotlib.pyplot as plt

        plt.close("all")


# ---------------------------------------------------------------- a published figure's row ([published.ours])

ROW = "where = \"players == 2 and arm == 'rule'\""


@pytest.mark.parametrize(
    ("ours", "message"),
    [
        ('text = "{share_ci:1 nope low high}", ' + ROW, r"published\[0\]\.ours': no column 'nope' in its frame"),
        ('text = "x", n = "nope", ' + ROW, r"published\[0\]\.ours': no column 'nope'"),
        ('text = "x", n = "arm", ' + ROW, r"published\[0\]\.ours': a value of its row cannot be written so"),
        ('text = "x", interval = ["arm", "low"], ' + ROW, r"published\[0\]\.ours': a value of its row cannot be written"),
        ('text = "{count arm}", ' + ROW, r"published\[0\]\.ours': a value of its row cannot be written so"),
    ],
)
def test_a_published_figure_whose_row_does_not_fit_its_words_is_refused_in_one_sentence(tmp_path, ours, message):
    """unocli's figure beside a published one, read from a row of the design: a column the row lacks, or text where
    a count or interval is written (a KeyError or ValueError of pandas before)."""
    from test_views import _frame

    published = f'[[published]]\nsource = "s"\nfigure = "f"\nvalue = "1"\nreconciliation = "r"\nours = {{ {ours} }}\n'
    with pytest.raises(ConfigError, match=message):
        _draw(tmp_path, f'kind = "published"\n{published}', _frame())


@pytest.mark.parametrize(
    "text",
    [
        '[[published]]\nsource = "s"\nfigure = "f"\nvalue = "1"\nreconciliation = "r"\n'
        'ours = { text = "{bogus mean}", where = "players == 2" }\n[[view]]\nkind = "published"\n',
        '[[view]]\nkind = "table"\noptions = { columns = [["h", "formed", "{share_ci:1 mean low}"]] }\n',
    ],
)
def test_a_template_naming_no_form_of_its_columns_is_refused_when_the_file_is_loaded(tmp_path, text):
    """A template of forms ({FORM column ...}) whose form is unknown or reads another number of columns: refused
    before any game is played (it failed only when drawn, with a KeyError or a TypeError)."""
    path = tmp_path / "v.toml"
    path.write_text(HEAD + text, encoding="utf-8")
    with pytest.raises(ConfigError, match="names no column form of"):
        load_experiment(path)


# ---------------------------------------------------------------- random views over the shipped reports' own frames


@pytest.mark.slow
def test_random_views_over_the_frames_of_the_six_shipped_reports_draw_or_say_why_not(monkeypatch):
    """The six shipped reports are played quick, each handing its frames to the views; over every frame, random
    views of the kinds that draw any frame (their options naming that frame's own columns, seeded) must draw,
    draw nothing, or raise a ConfigError naming the view. Real frames hold what a synthetic one may miss (a
    column serving as label and value, nullable counts, every column a report writes); this fuzz found five of
    the failures the property test above pins down. About a minute and a half; run with -m slow."""
    import random

    from unocli.report.render import run_experiment

    seen = []
    drawn = kinds.declared

    def spy(views, exp, frame, setup):
        seen.append((exp, frame, setup))
        return drawn(views, exp, frame, setup)

    monkeypatch.setattr(kinds, "declared", spy)
    for name in ("game-length", "bluff", "stacking", "seat-advantage", "house-rules", "skill"):
        run_experiment(load_experiment(kinds.shipped_dir() / f"{name}.toml", quick=True))
    rng, tried, failures = random.Random(0), 0, []
    for exp, frame, setup in seen:
        for name, f in (frame if isinstance(frame, dict) else {"": frame}).items():
            if not isinstance(f, pd.DataFrame) or not len(f.columns):
                continue
            for kind, options in _random_views(rng, [str(c) for c in f.columns], 40):
                if view_problem(kind, options):
                    continue
                tried += 1
                v = View(kind, "v", "turns" if kind == "verdicts" else "", "T {players}", options, name)
                try:
                    drawn([v], exp, frame if isinstance(frame, dict) else {"": frame}, setup)
                except ConfigError:
                    pass
                except Exception as bad:  # any other exception is the failure this test looks for
                    failures.append(f"{exp.name}/{name or 'design'}: {kind} {options}: {type(bad).__name__}: {bad}")
                finally:
                    import matplotlib.pyplot as plt

                    plt.close("all")
    assert tried > 1500 and not failures, failures[:5]


def _random_views(rng, cols: list[str], count: int):
    """``count`` random (kind, options) of the kinds that draw any frame, naming the columns ``cols``."""
    for _ in range(count):
        c = lambda: rng.choice(cols)  # noqa: E731 (a short local helper)
        three = [c(), c(), c()]
        kind = rng.choice(["table", "table", "sizes", "bars", "dots", "curves", "panels", "heatmap", "verdicts"])
        words = {"caption": "c", "intervals": "i"}
        if kind == "table":
            form = rng.choice([f for f in forms.ARITY if f not in ("format", "formed")])
            options = {"columns": [["h", form, *[c() for _ in range(forms.ARITY[form])]]]}
            if rng.random() < 0.4:
                options["label"] = [c()]
                if rng.random() < 0.5:
                    options |= {"by": c(), "columns": [*options["columns"], ["x {value}", "text", c()]]}
        elif kind in ("sizes", "bars", "dots", "curves"):
            options = {"columns": three, "by": c(), "xlabel": "x", "ylabel": "y", **words}
            options |= {
                "sizes": {},
                "bars": {"players": rng.choice([2, 3, 4, 7]), "x": c()},
                "dots": {"y": c(), "players": rng.choice([2, 4, 7, "all"])},
                "curves": {"x": c(), "log": rng.random() < 0.5},
            }[kind]
            options.pop("xlabel") if kind == "sizes" else options.pop("ylabel") if kind == "dots" else None
        elif kind == "panels":
            options = {"label": [c()], "panels": [["a", *three, "turns"]], "players": rng.choice([2, 4, "all"]), **words}
            if rng.random() < 0.4:
                options |= {"by": c(), "panels": [["v", "a", *three, "turns"]]}
        elif kind == "heatmap":
            options = {"value": c(), "verdict": c(), "rows": c(), "cols": c()}
        else:
            options = {"cell": ["pp_ci", *three], "verdict": c()}
        yield kind, options


def test_a_lines_view_captions_its_own_sample_size_when_it_names_one(tmp_path):
    """A lines view may say its own n (a chart of matches under a report whose caption counts rounds): ``{n}`` is
    its rows' first sample size; without the option the report's own n stands (the caption gets no n)."""
    from test_views import _frame

    path = tmp_path / "v.toml"
    view = 'kind = "lines"\nquantity = "turns"\n'
    path.write_text(f'{HEAD}[[view]]\n{view}options = {{ n = "{{n}} matches each" }}\n[[view]]\nname = "b"\n{view}')
    exp = load_experiment(path)
    said = []
    kinds.declared(exp.views, exp, _frame(), kinds.Setup(lambda *a, **k: said.append(k) or "cap", "official"))
    assert said == [{"n": "100 matches each"}, {}]


@pytest.mark.parametrize(
    ("template", "said"),
    [("{mean:>99999999}", "wider than 999 characters"), ("{mean:.5000f}", "wider than 999"), ("{mean", "not a template")],
)
def test_a_format_column_asking_for_a_huge_field_is_refused_when_the_file_is_loaded(tmp_path, template, said):
    """One edit of a format column's template ({mean:>99999999}) wrote a 600 MB README and index.html after every
    game was played; a width or precision over 999, or a template Python cannot read, is refused at load."""
    path = tmp_path / "v.toml"
    path.write_text(HEAD + f'[[view]]\nkind = "table"\noptions = {{ columns = [["h", "format", "{template}"]] }}\n')
    with pytest.raises(ConfigError, match=said):
        load_experiment(path)
    path.write_text(HEAD + '[[view]]\nkind = "table"\noptions = { columns = [["h", "format", "{mean:>10.2f}"]] }\n')
    assert load_experiment(path).views[0].options["columns"][0][2] == "{mean:>10.2f}"
