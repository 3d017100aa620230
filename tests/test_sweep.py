"""Sweeps: grid axes, a tidy table with intervals, and the sweep command's files."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from click.testing import CliRunner

from unocli.cli.main import cli
from unocli.errors import ConfigError
from unocli.study.arm import TableSpec
from unocli.study.sweep import parse_axis, parse_grid_option, parse_values, sweep


def test_parse_values():
    assert parse_values("0:1:0.25") == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert parse_values("0:1:0.1")[3] == 0.3  # no 0.30000000000000004
    assert parse_values("2:10:2") == (2, 4, 6, 8, 10)
    assert parse_values("off, plus2,same") == ("off", "plus2", "same")
    assert parse_values([0, 0.5]) == (0, 0.5)
    assert parse_values("1:0:0.1") == ()
    with pytest.raises(ConfigError, match="positive step"):
        parse_values("0:1:0")


@pytest.mark.parametrize(
    ("text", "kind", "target", "seats"),
    [
        ("bluff=0,1", "knob", "bluff", "all"),
        ("challenge=0,0.5", "knob", "challenge", "all"),
        ("rule.challenge=true,false", "rule", "challenge", "all"),
        ("stacking=off,plus2", "rule", "stacking", "all"),
        ("players=2:4:1", "players", "players", "all"),
        ("rules=official,party", "rules", "rules", "all"),
        ("bluff@0=0,1", "knob", "bluff", "0"),
        ("challenge@opponents=0,1", "knob", "challenge", "opponents"),
        ("policy@1-2=basic,smart", "policy", "policy", "1-2"),
    ],
)
def test_axis_kinds(text, kind, target, seats):
    axis = parse_grid_option(text)
    assert (axis.kind, axis.target, axis.seats) == (kind, target, seats)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("bluff=", "empty"),
        ("blurf=0,1", "unknown grid axis"),
        ("rule.blurf=0,1", "unknown rule field"),
        ("policy.blurf=0,1", "unknown policy knob"),
        ("bluff=0,1.5", "probability"),
        ("jump_in=true,false", "rule.jump_in"),
        ("stacking@0=off", "only policy knobs"),
        ("bluff@x=0,1", "seats must be"),
        ("nothing", "NAME=VALUES"),
    ],
)
def test_bad_axes(text, words):
    with pytest.raises(ConfigError, match=words):
        parse_grid_option(text)


def test_seat_targeted_knobs_change_only_those_seats():
    table = TableSpec(policy="basic")
    table = parse_axis("bluff@0", [0.5]).apply(table, 0.5)
    table = parse_axis("challenge@opponents", [0.9]).apply(table, 0.9)
    arm = table.build(players=4)
    assert arm.policies[0].bluff == 0.5 and arm.policies[0].challenge == 0.25
    assert all(p.bluff == 0 and p.challenge == 0.9 for p in arm.policies[1:])
    assert "bluff=0.5" in arm.labels[0] and "challenge=0.9" in arm.labels[1]


def test_sweep_table_is_tidy_with_intervals():
    axes = [parse_axis("uno_penalty", [2, 10]), parse_axis("forget_uno", [0.0, 0.5])]
    result = sweep(TableSpec(policy="basic"), axes, games=300, seed=4, metrics=["cards_drawn", "win_0"])
    t = result.table()
    assert len(t) == 4 * 3  # cells x metrics (turns, cards_drawn, win_0)
    for col in (
        "uno_penalty",
        "forget_uno",
        "players",
        "metric",
        "n",
        "mean",
        "ci_low",
        "ci_high",
        "diff",
        "diff_low",
        "diff_high",
        "p_holm",
    ):
        assert col in t.columns
    assert (t["n"] == 300).all()
    drawn = t[t["metric"] == "cards_drawn"].set_index(["uno_penalty", "forget_uno"])
    # nobody forgets: the penalty cannot matter, the cells play identical games
    assert drawn.loc[(10, 0.0), "diff"] == 0 and drawn.loc[(10, 0.0), "diff_high"] == 0
    assert math.isnan(drawn.loc[(2, 0.0), "diff"])  # the first cell is the reference
    assert drawn.loc[(10, 0.5), "mean"] > drawn.loc[(2, 0.5), "mean"]


def test_sweep_over_players_groups_cells_by_table_size():
    result = sweep(TableSpec(), [parse_axis("players", [2, 3])], games=200, seed=1)
    assert set(result.groups) == {2, 3}
    t = result.table()
    assert set(t["players"]) == {2, 3}


def test_a_sweep_counts_every_cell_s_games():
    """2 bluff values x 2 table sizes x 200 games: 800 games, each cell's n summed over the table (a hand count)."""
    result = sweep(TableSpec(), [parse_axis("bluff@0", [0, 1]), parse_axis("players", [2, 3])], games=200, seed=1)
    t = result.table()
    assert result.games == 800 == int(t[t["metric"] == "turns"]["n"].sum())


def test_a_sweep_report_of_two_axes_at_two_sizes_says_why_it_has_no_chart(tmp_path):
    from unocli.report.analyses import Context, generic_sweep
    from unocli.report.experiment import load_experiment
    from unocli.run.backends import LocalBackend

    path = tmp_path / "g.toml"
    path.write_text('games = 20\nplayers = [2, 3]\n[grid]\n"bluff@0" = [0, 1]\n"challenge@1" = [0, 1]\n', encoding="utf-8")
    exp = load_experiment(path)
    section = generic_sweep.render(generic_sweep.compute(exp, Context(LocalBackend(), lambda _: None, 1)))
    assert "8 cells x 3 metrics; 160 games in all." in section.findings[0]  # 2 x 2 values x 2 sizes x 20 games
    assert section.findings[1].startswith("No chart: a line shows one axis and a heatmap two at one table size")
    assert "this grid has 2 axes at 2 table sizes" in section.findings[1]


def test_sweep_target_error():
    result = sweep(TableSpec(), [parse_axis("stacking", ["off", "plus2"])], games=200, seed=2, target_error=3.0, metric="turns")
    info = result.targets[4]
    assert info.reached and info.half_width <= 3.0
    t = result.table()
    turns = t[t["metric"] == "turns"]
    assert ((turns["ci_high"] - turns["ci_low"]) / 2 <= 3.0).all()


@pytest.mark.parametrize(
    "grids", [["--grid", "uno_penalty=2,10"], ["--grid", "bluff@0=0,1", "--grid", "challenge@opponents=0,1"]]
)
def test_sweep_command_writes_table_and_chart(tmp_path, grids):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["sweep", *grids, "--policy", "basic", "--games", "200", "--out", str(out), "--quiet"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    for name in ("sweep.csv", "sweep.parquet", "sweep.png", "sweep.svg"):
        assert (out / name).stat().st_size > 0
    csv = pd.read_csv(out / "sweep.csv")
    parquet = pd.read_parquet(out / "sweep.parquet")
    assert len(csv) == len(parquet) > 0
    assert {"n", "ci_low", "ci_high"} <= set(csv.columns)


def test_sweep_command_errors(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["sweep", "--grid", "bluff=", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "empty" in result.output
    result = runner.invoke(cli, ["sweep", "--grid", "bluff=0,1", "--target-error", "0", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "positive number" in result.output
    result = runner.invoke(cli, ["sweep", "--out", str(tmp_path)])
    assert result.exit_code != 0 and "--grid" in result.output


def test_the_rule_field_hint_is_given_only_for_a_bare_name_read_as_a_knob():
    """'challenge' is a policy knob and a rule field: a bad value of the bare name (read as the knob) hints at
    rule.challenge; an axis already written rule.X, or a name that is a rule field only, got the hint too."""
    with pytest.raises(ConfigError, match=r"\(for the rule field write rule\.challenge\)"):
        parse_axis("challenge", "0,7")
    for name in ("rule.stacking", "stacking"):
        with pytest.raises(ConfigError) as info:
            parse_axis(name, "off,bogus")
        assert "for the rule field" not in str(info.value)


@pytest.mark.parametrize("text", ["0,,1", "0,1,", ",0,1", "0, ,1"])
def test_a_list_with_an_empty_item_is_refused_at_its_axis(text) -> None:
    """'0,,1' used to be read as 0,1: a value the user left out vanished without a word."""
    with pytest.raises(ConfigError, match=r"grid axis 'bluff': values .* hold an empty item between commas"):
        parse_axis("bluff", text)
    assert parse_values("0, 0.5 ,1") == ("0", "0.5", "1")
    assert parse_values("basic") == ("basic",)
