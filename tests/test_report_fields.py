"""Fields of players: the game-length, seat-advantage and house-rules reports answer every question under each
field (every seat one policy), and a finding that holds under one field only is reported as such.

The planted effect: the Uno penalty raised from 2 to 10 cards changes nothing for players who never forget
to call Uno (``basic``: ``forget_uno = 0``), so under that field the two rule sets play bit-identical rounds
(exact zeros, "no change"), while under ``basic:forget_uno=0.5`` every caught player draws 8 more cards and
rounds get much longer (about +10 turns at 4 players; the paired interval at 300 rounds is a few turns wide).
Likewise 7-0 with ``swap_target = next`` is the plain 7-0 rule for a field whose own knob is ``next``, and not
for ``basic`` (whose knob is ``fewest``). Fixed seeds: a failure is a change in the code, not bad luck.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from unocli.errors import ConfigError
from unocli.report.analyses import Context, game_length, house_rules, stacking
from unocli.report.analyses.fields import (
    field_experiment,
    field_sizes,
    field_specs,
    on_field,
)
from unocli.report.experiment import load_experiment
from unocli.report.words import UNTESTED, agreement, between_text, scope, verdict_matrix
from unocli.run.backends import LocalBackend
from unocli.study.interaction import FieldInteraction

FORGETFUL = "basic:forget_uno=0.5,swap_target=next"

HOUSE = f"""
analysis = "house-rules"
games = 300
seed = 13
players = [4]
baseline = "official"
[base]
policy = "basic"
[arms.official]
rules = "official"
[arms.seven-o]
rules = "seven-o"
[arms.seven-o-next]
rules = "seven-o"
policy = "basic:swap_target=next"
[arms.penalty10]
set = {{ uno_penalty = 10 }}
[options]
fields = ["basic", "{FORGETFUL}"]
replicates = 40
skill_games = 0
"""

LENGTH = f"""
analysis = "game-length"
games = 300
seed = 5
players = [4]
baseline = "official"
[base]
policy = "basic"
[arms.official]
rules = "official"
[arms.penalty10]
set = {{ uno_penalty = 10 }}
[options]
fields = ["basic", "{FORGETFUL}"]
match_games = 5
"""


@pytest.fixture(scope="module")
def ctx() -> Context:
    return Context(backend=LocalBackend(), log=lambda _: None)


def _load(tmp_path: Path, text: str):
    path = tmp_path / "exp.toml"
    path.write_text(text, encoding="utf-8")
    return load_experiment(path)


def test_an_arm_keeps_its_knobs_on_top_of_each_field(tmp_path):
    assert on_field("basic", "strong") == "strong"
    assert on_field("basic:swap_target=next", "strong") == "strong:swap_target=next"
    assert on_field("basic:swap_target=next", "random:jump_in=0") == "random:jump_in=0,swap_target=next"
    # a knob both set is the arm's, named once (a spec naming a knob twice is refused)
    assert on_field("basic:swap_target=next", "basic:swap_target=random,bluff=0.5") == "basic:swap_target=next,bluff=0.5"
    exp = field_experiment(_load(tmp_path, HOUSE), "strong")
    policies = {a.name: a.table.policy for a in exp.arms}
    assert policies == {
        "official": "strong",
        "seven-o": "strong",
        "seven-o-next": "strong:swap_target=next",
        "penalty10": "strong",
    }
    assert exp.base.policy == "strong"


def test_agreement_lists_each_fields_verdict_without_claiming_the_fields_differ():
    same = agreement({"random": "lengthens", "basic": "lengthens", "strong": "lengthens"}, lambda f: f"+{len(f)}")
    assert same == "lengthens under all three fields (+6 random; +5 basic; +6 strong)"
    split = agreement({"random": "undecided", "basic": "lowers", "strong": "lowers"}, lambda f: "x")
    # differing labels are not a test of the difference between fields: the phrase says so (issue 30 item 2)
    assert split.startswith(
        "by field: undecided under random, lowers under basic and strong (the fields' difference is not tested) ("
    )
    effects = pd.DataFrame(
        {
            "players": [4, 4, 4, 4],
            "rule": ["a", "a", "b", "b"],
            "field": ["basic", "strong", "basic", "strong"],
            "n": [100, 100, 100, 90],
            "verdict": ["lengthens", "lengthens", "no change", "lengthens"],
        }
    )
    shown = verdict_matrix(effects, ("players", "rule"), ("basic", "strong"), lambda r: r["verdict"]).set_index("rule")
    assert shown.loc["a", "holds under"] == "all fields (lengthens)"
    assert shown.loc["b", "holds under"] == "no change: basic; lengthens: strong (the fields' difference is not tested)"
    assert shown.loc["a", "n"] == "100 each" and shown.loc["b", "n"] == "basic 100; strong 90"


def _inter(a: str, b: str, verdict: str) -> FieldInteraction:
    return FieldInteraction((4, "r"), a, b, 0.0, 0.1, 256, -0.1, 0.1, 0.99, 3, 1.0, verdict, 0.5, 1.0)


def test_only_an_interaction_beyond_the_margin_says_the_fields_differ():
    """Larger: the fields differ beyond the margin; unsized (0 excluded, the margin crossed): a difference of
    undecided size, never "cannot be told apart" (which the words said of it before); undecided or within the
    margin: cannot be told apart."""
    labels = {"random": "undecided", "basic": "lengthens"}
    within = [_inter("random", "basic", "equivalent")]
    assert scope(labels, within) == (
        "by field: undecided under random, lengthens under basic (the fields cannot be told apart: every difference "
        "between fields lies within the margin (interaction on common deals))"
    )
    assert scope(labels, [_inter("random", "basic", "unsized")]).endswith(
        "(a difference of undecided size between random and basic (interaction on common deals))"
    )
    mixed = [_inter("random", "basic", "undecided"), _inter("random", "tuned", "unsized"), _inter("basic", "tuned", "equivalent")]
    assert between_text(mixed) == "a difference of undecided size between random and tuned (interaction on common deals)"
    assert scope(labels, [_inter("random", "basic", "undecided")]).endswith(
        "(the fields cannot be told apart: the interactions on common deals are undecided)"
    )
    assert scope(labels, [_inter("random", "basic", "larger")]).endswith(
        "(the effect differs by more than the margin between random and basic (interaction on common deals))"
    )
    assert scope(labels) == "by field: undecided under random, lengthens under basic (the fields' difference is not tested)"
    same = {"random": "lengthens", "basic": "lengthens"}
    assert scope(same, within) == "lengthens under both fields"
    two = [_inter("random", "basic", "larger"), _inter("random", "tuned", "larger")]
    assert scope(same, two) == (
        "lengthens under both fields, by amounts that differ beyond the margin between random and basic, and between "
        "random and tuned"
    )


def test_house_rules_reports_a_rule_that_matters_under_one_field_only(tmp_path, ctx):
    result = house_rules.compute(_load(tmp_path, HOUSE), ctx)
    eff = result.effects.set_index(["field", "rule"])
    assert set(result.table["field"]) == {"basic", FORGETFUL} and (result.table["n"] == 300).all()
    quiet, loud = eff.loc[("basic", "penalty10")], eff.loc[(FORGETFUL, "penalty10")]
    for column in ("d_turns", "d_turns_low", "d_turns_high", "d_first", "d_dealer"):
        assert quiet[column] == 0.0, column
    assert quiet["turns_verdict"] == "equivalent" and quiet["first_verdict"] == "equivalent"
    assert loud["turns_sim_low"] > 1 and loud["turns_verdict"] == "larger"  # beyond the 1-turn margin
    assert house_rules.rule_verdicts(result, "penalty10", 4, "turns") == {"basic": "no change", FORGETFUL: "lengthens"}
    # the swap-target arm is the plain 7-0 rule only for the field whose own swap target is "next"
    assert (FORGETFUL, "seven-o", "seven-o-next") in result.identical
    assert ("basic", "seven-o", "seven-o-next") not in result.identical
    assert ("basic", "official", "penalty10") in result.identical
    section = house_rules.render(result)
    line = next(f for f in section.findings if f.startswith("penalty10 at 4 players"))
    # the labels differ, and the interaction (the effect under basic minus under the forgetful field, on the same
    # deals) lies beyond the 1-turn margin: only that lets the finding say the fields differ
    differs = f"the effect differs by more than the margin between basic and {FORGETFUL} (interaction on common deals)"
    assert f"length: by field: no change under basic, lengthens under {FORGETFUL} ({differs})" in line
    (inter,) = result.between["turns"][(4, "penalty10")]
    assert inter.verdict == "larger" and inter.high < -1 and (inter.field_a, inter.field_b) == ("basic", FORGETFUL)
    # the first player's share: labels differ (no change / undecided) but the interaction is undecided
    assert "first player's share: by field: no change under basic, undecided under" in line
    assert "(the fields cannot be told apart: the interactions on common deals are undecided)" in line
    turns_table = next(b for b in section.blocks if getattr(b, "name", "") == "house-rules-turns-by-field")
    row = turns_table.shown.set_index("rule").loc["penalty10"]
    assert row["holds under"] == f"no change: basic; lengthens: {FORGETFUL} ({differs})"
    assert "[" in row["basic"] and "[" in row[FORGETFUL] and row["n"] == "300 each"
    inter_table = next(b for b in section.blocks if getattr(b, "name", "") == "house-rules-fields-interaction")
    assert set(inter_table.data["family"]) == {3} and (inter_table.data["p_holm"] >= inter_table.data["p_raw"]).all()


def test_game_length_reports_a_rule_that_matters_under_one_field_only(tmp_path, ctx):
    result = game_length.compute(_load(tmp_path, LENGTH), ctx)
    assert list(result.turns["field"]) == ["basic", "basic", FORGETFUL, FORGETFUL]
    assert (result.turns["n"] == 300).all() and (result.turns["ci_low"] < result.turns["ci_high"]).all()
    diffs = result.diffs.set_index("field")
    assert (diffs.loc["basic", "diff"], diffs.loc["basic", "verdict"]) == (0.0, "equivalent")
    assert diffs.loc[FORGETFUL, "sim_low"] > 1 and diffs.loc[FORGETFUL, "verdict"] == "larger"
    section = game_length.render(result)
    assert any(f"penalty10 by field: no change under basic, lengthens under {FORGETFUL} (" in f for f in section.findings)
    assert "**Answer.**" in section.intro and "`basic`" in section.intro
    assert len(section.intro.split("\n\n")[0].split()) < 80  # the answer a reader can quote
    assert "penalty10 verdicts differ by field, but the fields cannot be told apart" in section.intro or (
        "penalty10's effect differs" in section.intro
    )
    # the answer names what its verdicts read: n, the family's level, the margin
    level = f"{100 * result.diffs['sim_level'].iloc[0]:.2f}"
    assert f"(n = 300 deals a rule set; simultaneous {level}% intervals, +/-1-turn margin)." in section.intro
    # whether the fields differ comes from their interaction on common deals, never "not tested": the effect under
    # basic is exactly 0, so the interaction (basic minus the forgetful field) is minus the forgetful field's effect
    (inter,) = result.between[(4, "penalty10")]
    assert (inter.field_a, inter.field_b, inter.family) == ("basic", FORGETFUL, 1)
    assert inter.diff == pytest.approx(-diffs.loc[FORGETFUL, "diff"], abs=1e-9)
    said = between_text([inter])
    assert UNTESTED not in " ".join(section.findings) + section.intro and said in " ".join(section.findings)
    table = next(b for b in section.blocks if getattr(b, "name", "") == "turns-field-interactions")
    assert table.data["interaction"].tolist() == [inter.diff] and table.data["verdict"].tolist() == [inter.verdict]
    # the answer where the fields' labels differ, by the interaction's verdict (planted): beyond the margin, 0
    # excluded but the margin crossed (it said "cannot be told apart" of this before), or undecided
    from dataclasses import replace

    for verdict, phrase in (
        ("larger", f"penalty10's effect differs by more than the margin between basic and {FORGETFUL}"),
        ("unsized", "penalty10's effect differs between fields by an amount of undecided size"),
        ("undecided", "penalty10 verdicts differ by field, but the fields cannot be told apart"),
    ):
        planted = replace(result, between={(4, "penalty10"): [replace(inter, verdict=verdict)]})
        intro = game_length.render(planted).intro
        assert phrase in intro and (verdict == "unsized") == ("undecided size" in intro), verdict


def test_seat_advantage_takes_its_policies_from_the_fields(tmp_path):
    text = """
analysis = "seat-advantage"
games = 10
[arms.basic]
policy = "basic"
"""
    with pytest.raises(ConfigError, match=r"options\.fields"):
        _load(tmp_path, text)
    with pytest.raises(ConfigError, match="twice"):
        _load(tmp_path, 'analysis = "seat-advantage"\n[options]\nfields = ["basic", "basic"]\n')


TUNED = Path(__file__).resolve().parents[1] / "sims" / "tuned" / "tuned.toml"
TEMPLATE = f"""
analysis = "house-rules"
games = 200
seed = 3
players = [2, 4]
baseline = "official"
policies = {str(TUNED)!r}
[arms.official]
rules = "official"
[arms.stacking]
rules = "stacking"
[arms.seven-o-next]
rules = "seven-o"
policy = "basic:swap_target=next"
[options]
fields = ["basic", "tuned-{{rules}}-{{players}}"]
replicates = 20
skill_games = 0
"""


def test_a_template_field_seats_each_arm_and_size_its_own_player_and_is_named_without_placeholders(tmp_path, ctx):
    exp = _load(tmp_path, TEMPLATE)
    assert field_specs(exp) == {"basic": "basic", "tuned": "tuned-{rules}-{players}"}
    tuned = field_experiment(exp, "tuned-{rules}-{players}")
    for p in (2, 4):
        official, stacking, seven = tuned.arms_for(p)
        assert set(official.labels) == {f"tuned-official-{p}"} and set(stacking.labels) == {f"tuned-stacking-{p}"}
        assert set(seven.labels) == {f"tuned-seven-o-{p}:swap_target=next"}  # the arm's knob on the field's player
    result = house_rules.compute(replace(exp, players=(2,)), ctx)
    assert set(result.table["field"]) == {"basic", "tuned"} and result.fields == ("basic", "tuned")
    intro = house_rules.render(result).intro
    assert "`tuned` is `tuned-{rules}-{players}`" in intro and "includes the change of player" in intro


def test_a_template_field_missing_at_a_table_size_is_refused_before_play(tmp_path):
    with pytest.raises(ConfigError, match=r"options\.fields.*tuned-official-3"):
        _load(tmp_path, TEMPLATE.replace("players = [2, 4]", "players = [2, 3]"))
    with pytest.raises(ConfigError, match="both be named 'tuned'"):
        _load(tmp_path, TEMPLATE.replace('"basic", "tuned-', '"tuned-{rules}", "tuned-'))


PARTIAL = f"""
analysis = "game-length"
games = 200
seed = 5
players = [2, 3]
baseline = "official"
policies = {str(TUNED)!r}
[base]
policy = "basic"
[arms.official]
rules = "official"
[arms.stacking]
rules = "stacking"
[options]
fields = ["basic", "tuned-{{rules}}-{{players}}"]
match_games = 5
"""


def test_a_template_field_plays_only_the_table_sizes_its_players_exist_for(tmp_path, ctx):
    exp = _load(tmp_path, PARTIAL)  # no tuned player for 3 players: game-length plays tuned at 2 only
    assert field_sizes(exp, "tuned-{rules}-{players}") == (2,) and field_sizes(exp, "basic") == (2, 3)
    result = game_length.compute(exp, ctx)
    t = result.turns
    assert sorted(zip(t["field"], t["players"], strict=True)) == [("basic", 2)] * 2 + [("basic", 3)] * 2 + [("tuned", 2)] * 2
    assert set(result.diffs["field"] + result.diffs["players"].astype(str)) == {"basic2", "basic3", "tuned2"}
    section = game_length.render(result)
    assert "`tuned` is played at 2 players only" in section.intro
    assert any(f.startswith("Every seat `tuned`") and "3 players" not in f for f in section.findings)
    # a template with players at no table size is refused, naming it
    with pytest.raises(ConfigError, match=r"options\.fields.*tuned-official-3"):
        _load(tmp_path, PARTIAL.replace("players = [2, 3]", "players = [3]"))


def test_stacking_template_field_seats_each_variant_its_own_player(tmp_path, ctx):
    text = PARTIAL.replace('analysis = "game-length"', 'analysis = "stacking"').replace(
        'baseline = "official"', 'baseline = "off"'
    )
    text = text.replace("[arms.official]", "[arms.off]").replace("[arms.stacking]", "[arms.any]")
    text = text.replace('rules = "stacking"', 'rules = "stack-any"').replace("match_games = 5\n", "")
    text += "versus_players = [2, 3]\nreplicates = 20\n"
    result = stacking.compute(_load(tmp_path, text), ctx)
    f = result.fields
    assert sorted(set(zip(f["field"], f["players"], strict=True))) == [("basic", 2), ("basic", 3), ("tuned", 2)]
    assert sorted(set(zip(result.strategy["field"], result.strategy["players"], strict=True))) == sorted(
        set(zip(f["field"], f["players"], strict=True))
    )
    assert result.main_field == "basic" and result.field_names == ("basic", "tuned")
    assert "`tuned` is played at 2 players only" in stacking.render(result).intro
