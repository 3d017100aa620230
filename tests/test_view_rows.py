"""A view's ``where`` (the rows of its frame it draws), the per-quantity forms, and compare files' declared views."""

from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from unocli.cli.main import cli
from unocli.errors import ConfigError
from unocli.report import kinds
from unocli.report.experiment import load_experiment

pytest.importorskip("matplotlib")

HEAD = 'analysis = "game-length"\nplayers = [2, 4]\n[arms.official]\nrules = "official"\n[arms.rule]\nrules = "stacking"\n'
SETUP = kinds.Setup(lambda what, intervals, **_: what, "official")


def _exp(tmp_path, text: str):
    path = tmp_path / "v.toml"
    path.write_text(HEAD + text, encoding="utf-8")
    return load_experiment(path)


def _frame() -> pd.DataFrame:
    """Two quantities written by hand: turns (a count) and win_0 (a share), the baseline's rows without a change."""
    return pd.DataFrame(
        {
            "players": [4, 4, 4, 4],
            "n": [100, 100, 100, 100],
            "arm": ["official", "rule", "official", "rule"],
            "quantity": ["turns", "turns", "win_0", "win_0"],
            "mean": [40.0, 42.5, 0.25, 0.2],
            "low": [39.0, 41.5, 0.2, 0.15],
            "high": [41.0, 43.5, 0.3, 0.25],
            "difference": [float("nan"), 2.5, float("nan"), -0.05],
            "sim_low": [float("nan"), 1.5, float("nan"), -0.08],
            "sim_high": [float("nan"), 3.5, float("nan"), -0.02],
        }
    )


def test_a_view_draws_only_the_rows_its_where_keeps_and_forms_follow_each_rows_quantity(tmp_path):
    """``where`` keeps the rows of one quantity, or those with a change; ``estimate`` writes a share's mean in %
    and a count's as is, ``difference`` a share's change in pp and a count's signed, blank on the baseline's row
    (the values written by hand from fmt's conventions)."""
    columns = '[["arm", "text", "arm"], ["mean", "estimate", "mean", "low", "high", "quantity"], '
    columns += '["change", "difference", "difference", "sim_low", "sim_high", "quantity"]]'
    exp = _exp(
        tmp_path,
        f'[[view]]\nkind = "table"\nname = "all"\noptions = {{ columns = {columns} }}\n'
        f'[[view]]\nkind = "table"\nname = "turns"\nwhere = "quantity == \'turns\'"\noptions = {{ columns = {columns} }}\n'
        f'[[view]]\nkind = "table"\nname = "changed"\nwhere = "difference == difference"\noptions = {{ columns = {columns} }}\n',
    )
    every, turns, changed = kinds.declared(exp.views, exp, _frame(), SETUP)
    assert list(every.shown["mean"]) == ["40.0 [39.0, 41.0]", "42.5 [41.5, 43.5]", "25.0% [20.0%, 30.0%]", "20.0% [15.0%, 25.0%]"]
    assert list(every.shown["change"]) == ["", "+2.5 [+1.5, +3.5]", "", "-5.0 pp [-8.0, -2.0]"]
    assert list(turns.shown["arm"]) == ["official", "rule"] and list(turns.data["quantity"]) == ["turns", "turns"]
    assert list(changed.shown["change"]) == ["+2.5 [+1.5, +3.5]", "-5.0 pp [-8.0, -2.0]"]


def test_a_where_pandas_cannot_read_is_refused_when_the_file_is_loaded_and_an_unknown_column_when_drawn(tmp_path):
    with pytest.raises(ConfigError, match=r"key 'view\[0\]\.where': is not a query pandas can read"):
        _exp(tmp_path, '[[view]]\nkind = "csv"\nname = "c"\nwhere = "players === 4"\n')
    with pytest.raises(ConfigError, match=r"key 'published\[0\]\.ours\.where': is not a query pandas can read"):
        _exp(
            tmp_path,
            '[[published]]\nsource = "s"\nfigure = "f"\nvalue = "1"\nreconciliation = "r"\n'
            '[published.ours]\nwhere = "players ==="\ntext = "x"\n',
        )
    exp = _exp(tmp_path, '[[view]]\nkind = "csv"\nname = "base"\nwhere = "arm == \'{base}\'"\n')  # words filled
    (base,) = kinds.declared(exp.views, exp, _frame(), SETUP)
    assert base.data["arm"].tolist() == ["official", "official"]
    exp = _exp(tmp_path, '[[view]]\nkind = "csv"\nname = "c"\nwhere = "seats == 4"\n')  # a name: known only when drawn
    with pytest.raises(ConfigError, match=r"key 'view\[0\]\.where': .*seats"):
        kinds.declared(exp.views, exp, _frame(), SETUP)


def test_a_dots_view_of_changes_of_a_share_labels_its_axis_in_pp(tmp_path):
    dots = 'kind = "dots"\ntitle = "t"\nwhere = "quantity == \'win_0\' and difference == difference"\n'
    dots += 'options = { y = "arm", columns = ["difference", "sim_low", "sim_high"], by = "players", percent = true, '
    dots += 'xlabel = "x", caption = "c", intervals = "i"'
    exp = _exp(tmp_path, f'[[view]]\nname = "pp"\n{dots}, change = true }}\n[[view]]\nname = "share"\n{dots} }}\n')
    pp, share = kinds.declared(exp.views, exp, _frame(), SETUP)
    assert pp.figure.axes[0].xaxis.get_major_formatter()(-0.05, 0) == "-5.0 pp"
    assert share.figure.axes[0].xaxis.get_major_formatter()(-0.05, 0) == "\u22125.0%"  # matplotlib's minus sign


COMPARE = """analysis = "compare"
games = 200
seed = 3
baseline = "penalty2"
metrics = ["cards_drawn", "win_0"]
[base]
policy = "basic:forget_uno=0.3"
[arms.penalty2]
rules = "official"
[arms.penalty10]
set = { uno_penalty = 10 }
"""


def test_a_compare_file_draws_its_default_views_or_the_ones_it_declares(tmp_path):
    """Without [[view]]: a chart of the differences per metric and the table of every arm and metric; with them,
    those views over the design's frame ("") or the comparison's, and the same CSV of the comparison either way."""
    plain, declared = tmp_path / "plain.toml", tmp_path / "declared.toml"
    plain.write_text(COMPARE, encoding="utf-8")
    declared.write_text(
        COMPARE + '[[view]]\nkind = "differences"\nquantity = "cards_drawn"\n'
        '[[view]]\nkind = "table"\nname = "comparison"\nframe = "comparison"\nwhere = "arm == \'penalty10\'"\n'
        'options = { columns = [["metric", "text", "quantity"], ["n", "count", "n"]] }\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    for path in (plain, declared):
        result = runner.invoke(cli, ["report", str(path), "--out", str(tmp_path / path.stem), "--quiet"])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "plain").glob("*.[cs][sv][vg]")) == [
        "comparison.csv",
        "diff-cards_drawn.svg",
        "diff-win_0.svg",
    ]
    text = (tmp_path / "declared" / "README.md").read_text(encoding="utf-8")
    assert "**Change in cards_drawn from penalty2, paired on the same deals**" in text
    assert "| metric | n |\n|---|---|\n| cards_drawn | 200 |\n| win_0 | 200 |" in text
    assert not list((tmp_path / "declared").glob("diff-*"))
    whole = pd.read_csv(tmp_path / "plain" / "comparison.csv")
    mine = whole[whole["arm"] == "penalty10"].reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, pd.read_csv(tmp_path / "declared" / "comparison.csv"), check_dtype=False)


def test_a_sweep_file_draws_the_views_it_declares_over_its_tidy_frame(tmp_path):
    """A sweep's one frame (a row per cell and metric) through a declared table, its own chart placed by a report
    view; without views it draws the chart and the full table (sweep.csv), with them only what they name."""
    path = tmp_path / "s.toml"
    path.write_text(
        'analysis = "sweep"\ngames = 100\nseed = 5\nmetric = "turns"\nmetrics = ["turns", "win_0"]\n'
        "[grid]\nuno_penalty = [2, 10]\n"
        '[[view]]\nkind = "table"\nname = "shares"\nwhere = "metric == \'win_0\'"\ntitle = "Seat 0\'s share"\n'
        'options = { columns = [["penalty", "text", "uno_penalty"], '
        '["won", "estimate", "mean", "ci_low", "ci_high", "metric"]] }\n'
        '[[view]]\nkind = "report"\nname = "sweep"\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["report", str(path), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 0, result.output
    data = pd.read_csv(tmp_path / "out" / "shares.csv")
    assert list(data["metric"]) == ["win_0", "win_0"] and list(data["uno_penalty"]) == [2, 10]
    text = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    won = [f"{100 * m:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%]" for m, lo, hi in data[["mean", "ci_low", "ci_high"]].to_numpy()]
    assert f"| penalty | won |\n|---|---|\n| 2 | {won[0]} |\n| 10 | {won[1]} |" in text
    assert (tmp_path / "out" / "sweep.svg").is_file() and not (tmp_path / "out" / "sweep.csv").exists()


def test_every_form_reads_as_many_columns_as_the_file_check_allows():
    """ARITY (what an experiment file's check accepts) is what each form takes: with that many columns it writes a
    row of a frame holding them, with one fewer it cannot be built."""
    from unocli.report.forms import ARITY, FORMS, at, column_of

    row = pd.Series({"a": 0.25, "b": 0.2, "c": 0.3, "d": "turns", "e": 0.1, "t": "{a}", "n": 4})
    for name, k in ARITY.items():
        names = ["t"] if name in ("format", "formed") else ["a", "b", "c", "d", "e"][:k]
        if name == "share_ci_count":
            names[-1] = "n"
        assert isinstance(at(column_of(name, names), row), str), name
        with pytest.raises(TypeError):
            FORMS[name](*names[: k - 1])
