"""Experiment files: the shipped ones load, and bad input is refused naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from unocli.errors import ConfigError
from unocli.report.experiment import load_experiment
from unocli.report.render import DEFAULT_SET, default_paths

ROOT = Path(__file__).resolve().parents[1]
SIMS = sorted(p for p in (ROOT / "sims").glob("*.toml") if p.name != "policies.toml")  # policies.toml is not an experiment

GOOD = """
title = "t"
analysis = "compare"
games = 100
players = [2, 4]
baseline = "a"
metrics = ["turns", "win_0"]

[base]
policy = "basic"

[arms.a]
rules = "official"

[arms.b]
set = { stacking = "plus2" }
"""


def write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("path", SIMS, ids=[p.stem for p in SIMS])
def test_shipped_experiments_load_full_and_quick(path):
    full = load_experiment(path)
    quick = load_experiment(path, quick=True)
    assert full.name == path.stem
    assert quick.quick and not full.quick
    assert quick.games <= full.games
    for n in full.players:
        arms = full.arms_for(n)
        assert arms and all(a.players == n for a in arms)


def test_default_set_is_shipped():
    assert [p.stem for p in default_paths()] == list(DEFAULT_SET)
    assert {p.stem for p in SIMS} >= set(DEFAULT_SET)


def test_good_file(tmp_path):
    exp = load_experiment(write(tmp_path, GOOD))
    assert exp.players == (2, 4)
    arms = exp.arms_for(4)
    assert [a.name for a in arms] == ["a", "b"]
    assert str(arms[1].rules.stacking) == "plus2"
    assert arms[0].policies[0].colour == "most_held"  # basic from [base]


def test_arm_rules_file_relative_to_experiment(tmp_path):
    (tmp_path / "house.toml").write_text('base = "seven-o"\nhand_size = 5\n', encoding="utf-8")
    exp = load_experiment(write(tmp_path, GOOD.replace('rules = "official"', 'rules = "house.toml"')))
    rules = exp.arms_for(4)[0].rules
    assert rules.seven_o and rules.hand_size == 5


BAD = [
    ("colour = 1\n" + GOOD, "colour", "unknown key"),
    (GOOD.replace('stacking = "plus2"', 'stackng = "plus2"'), "arms.b.set.stackng", "unknown rule field"),
    (GOOD.replace('stacking = "plus2"', 'stacking = "sideways"'), "arms.b.set.stacking", "must be one of"),
    (GOOD.replace('policy = "basic"', 'policy = "basic:bluf=0.3"'), "base.policy", "unknown policy knob"),
    (GOOD.replace('policy = "basic"', 'policy = "genius"'), "base.policy", "unknown policy"),
    (GOOD.replace('"win_0"]', '"wins"]'), "metrics", "unknown metric 'wins'"),
    (GOOD.replace('"win_0"]', '"turns"]'), "metrics", "names 'turns' twice"),
    # a table size set as a rule field was overridden by every size the file plays, without a word
    (GOOD.replace('stacking = "plus2"', "players = 6"), "arms.b.set.players", "the table sizes are the file's own key"),
    (GOOD.replace("games = 100", "games = 100\ntarget_error = 0"), "target_error", "positive number"),
    (GOOD.replace("games = 100", "games = 100\ntarget_error = -1.5"), "target_error", "positive number"),
    (GOOD.replace("games = 100", 'games = 100\ntarget_error = "small"'), "target_error", "positive number"),
    (GOOD.replace("games = 100", "games = 0"), "games", "whole number"),
    (GOOD.replace('analysis = "compare"', 'analysis = "magic"'), "analysis", "unknown analysis"),
    (GOOD.replace('baseline = "a"', 'baseline = "z"'), "baseline", "is not an arm"),
    (GOOD.replace("players = [2, 4]", "players = [1]"), "players", "from 2 to 10"),
    (GOOD + "\n[grid]\nbluff = []\n", "grid.bluff", "empty"),
    (GOOD + '\n[grid]\nbluff = "1:0:0.1"\n', "grid.bluff", "empty"),
    (GOOD + "\n[grid]\nblurf = [0, 1]\n", "grid.blurf", "unknown grid axis"),
    (GOOD + "\n[grid]\nbluff = [0, 2]\n", "grid.bluff", "probability"),
    (GOOD + "\n[options]\nfoo = 1\n", "options.foo", "unknown option"),
    (GOOD + "\n[quick]\nseed = 3\n", "quick.seed", "cannot be overridden"),
    # a bad [quick] override is named where it is (it was named as the file's own key: 'games', 'options.nope')
    (GOOD + '\n[quick]\nmetrics = ["wins"]\n', "quick.metrics", "unknown metric 'wins'"),
    (GOOD + "\n[quick]\ngames = -3\n", "quick.games", "whole number"),
    (GOOD.replace("[arms.b]", '[arms.b]\nseats = { 7 = "basic" }'), "arms.b", "seat 7"),
]


@pytest.mark.parametrize(("text", "key", "words"), BAD, ids=[b[1] + ":" + b[2] for b in BAD])
def test_bad_input_names_file_and_key(tmp_path, text, key, words):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_experiment(path)
    message = str(info.value)
    assert str(path) in message
    assert f"key {key!r}" in message
    assert words in message
    assert "\n" not in message


def test_analysis_specific_checks(tmp_path):
    text = 'analysis = "bluff"\nplayers = [4]\n[options]\nbluff_rates = [0.5, 1]\n'
    with pytest.raises(ConfigError, match=r"options\.bluff_rates.*honest twin"):
        load_experiment(write(tmp_path, text))
    text = 'analysis = "bluff"\nplayers = [4]\n[options]\nopponents = "random"\n'
    with pytest.raises(ConfigError, match="respond=knobs"):
        load_experiment(write(tmp_path, text))
    text = 'analysis = "stacking"\n[arms.off]\n'
    with pytest.raises(ConfigError, match="key 'arms'"):
        load_experiment(write(tmp_path, text))


def test_missing_and_invalid_files(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_experiment(tmp_path / "nope.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_experiment(write(tmp_path, "title = \n"))
