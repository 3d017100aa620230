"""The skill report's ladder section (``analysis.skill_ladder``, laid out by ``analyses.skill``) on a tiny run:
three measures per rule set and table size with intervals, paired changes with verdicts, and a twin rule set that
changes nothing, exactly."""

from __future__ import annotations

import math

import pytest

from unocli.report.analyses import Context, skill
from unocli.report.experiment import load_experiment
from unocli.report.model import TableBlock
from unocli.run.backends import LocalBackend
from unocli.study.stats import classify

TOML = """
analysis = "skill"
seed = 23
games = 200
players = [2, 4]
baseline = "official"
[arms.official]
rules = "official"
[arms.twin]
rules = "official"
[arms.stacking]
rules = "stacking"
[options]
player = "basic"
fields = ["random"]
match_games = 20
ladder_policies = ["random", "basic", "smart"]
ladder_lone = ["search:budget=2", "peek:budget=2"]
ladder_games = 600
ladder_lone_games = 100
ladder_match_games = 100
"""


@pytest.fixture(scope="module")
def result(tmp_path_factory) -> skill.SkillResult:
    path = tmp_path_factory.mktemp("skillm") / "skill.toml"
    path.write_text(TOML, encoding="utf-8")
    return skill.compute(load_experiment(path), Context(backend=LocalBackend(), log=lambda _: None))


def test_every_cell_has_the_three_measures_with_intervals(result) -> None:
    c = result.ladder.cells
    assert len(c) == 2 * 3  # table sizes x rule sets
    for key in ("relative_skill", "share_round", "share_match", "lead_round", "lead_match"):
        assert (c[f"{key}_low"] <= c[key]).all() and (c[key] <= c[f"{key}_high"]).all(), key
    assert (c["n_round"] == 600).all() and (c["n_lone"] == 100).all() and (c["n_match"] == 100).all()
    # the bound is never the best player, and the relative skill is a fraction of the bound's gain
    assert (c["best"] != c["bound"]).all() and ((c["relative_skill"] > 0) & (c["relative_skill"] < 1)).all()


def test_a_twin_rule_set_changes_nothing_exactly(result) -> None:
    ch = result.ladder.changes
    twin = ch[ch["rules"] == "twin"]
    assert len(twin) == 2 * 5 and twin["paired"].all()
    assert (twin["ratio"] == 1.0).all() and (twin["verdict"] == "equivalent").all() and (twin["p_holm"] == 1.0).all()


def test_verdicts_agree_with_their_simultaneous_interval_and_margin(result) -> None:
    ch = result.ladder.changes
    log_margin = math.log(ch["margin_ratio"].iloc[0])
    for r in ch.itertuples():
        assert r.verdict == classify(math.log(r.sim_low), math.log(r.sim_high), log_margin)
        assert r.sim_low <= r.ratio_low <= r.ratio <= r.ratio_high <= r.sim_high
        assert r.p_holm >= r.p - 1e-12  # Holm never lowers a p-value
    assert ch["sim_level"].iloc[0] == pytest.approx(1 - 0.05 / len(ch))


def test_the_report_shows_the_measures_table_and_the_changes(result) -> None:
    section = skill.render(result)
    names = [b.name for b in section.blocks if isinstance(b, TableBlock)]
    assert "skill-measures" in names and "skill-measures-vs-baseline" in names
    text = " ".join(b for b in section.blocks if isinstance(b, str))
    assert "relative skill" in text and "skill share" in text


def test_a_ladder_without_random_is_refused(tmp_path) -> None:
    from unocli.errors import ConfigError

    path = tmp_path / "x.toml"
    path.write_text(TOML.replace('ladder_policies = ["random", "basic", "smart"]', 'ladder_policies = ["basic", "smart"]'))
    with pytest.raises(ConfigError, match="must include 'random'"):
        load_experiment(path)
