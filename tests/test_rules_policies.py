"""Rule sets and policies: validation, presets, TOML files, specs and priority tables."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from unocli.errors import ConfigError
from unocli.game.cards import BLUE, DRAW_TWO, GREEN, N_TYPES, RED, REVERSE, SKIP, WILD, WILD_DRAW_FOUR, YELLOW, card_type
from unocli.game.policies import (
    POLICY_FIELDS,
    CardClass,
    ColourChoice,
    Policy,
    Respond,
    SwapTarget,
    describe_knobs,
    load_policies_file,
    parse_order,
    parse_policy_spec,
    priority_table,
    resolve_policies,
)
from unocli.game.policies import PRESETS as POLICY_PRESETS
from unocli.game.policies import preset as policy_preset
from unocli.game.rules import (
    PRESETS,
    RULE_FIELDS,
    Rules,
    Stacking,
    WildDrawFour,
    describe_fields,
    load_rules_file,
    parse_assignment,
    preset,
    resolve_rules,
)
from unocli.kernel.encode import INT_KNOBS, PROB_KNOBS, encode_policies, encode_rules

# ---------------------------------------------------------------- Rules


def test_defaults_are_the_official_rules():
    r = Rules()
    assert (r.players, r.hand_size, r.uno_penalty, r.target_score, r.max_turns) == (4, 7, 2, 500, 10_000)
    assert r.stacking is Stacking.OFF and not r.stacking_on
    assert r.wild_draw_four is WildDrawFour.RESTRICTED and r.challenge
    assert not (r.seven_o or r.jump_in or r.draw_until_playable or r.no_action_finish)
    assert preset("official") == r


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().players = 5  # type: ignore[misc]


def test_string_values_are_coerced():
    r = Rules(players="3", hand_size=" 1_0 ", stacking="Progressive", seven_o="yes", challenge="off", wild_draw_four="FREE")
    assert (r.players, r.hand_size) == (3, 10)
    assert r.stacking is Stacking.PROGRESSIVE
    assert r.seven_o is True and r.challenge is False
    assert r.wild_draw_four is WildDrawFour.FREE
    assert Rules(players=np.int64(5)).players == 5


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"players": 1}, ["players", "between 2 and 10", "1"]),
        ({"players": 11}, ["players", "between 2 and 10", "11"]),
        ({"players": "many"}, ["players", "whole number"]),
        ({"players": True}, ["players", "whole number"]),
        ({"players": 4.5}, ["players", "whole number"]),
        ({"hand_size": 0}, ["hand_size", "between 1 and 107"]),
        ({"uno_penalty": -1}, ["uno_penalty", "between 0 and 50"]),
        ({"target_score": 0}, ["target_score", "between 1"]),
        ({"max_turns": 0}, ["max_turns", "between 1"]),
        ({"max_rounds": 0}, ["max_rounds", "between 1"]),
        ({"seven_o": "maybe"}, ["seven_o", "true or false"]),
        ({"challenge": 2}, ["challenge", "true or false"]),
        ({"stacking": "sometimes"}, ["stacking", "off, plus2, same, progressive, any"]),
        ({"wild_draw_four": "never"}, ["wild_draw_four", "restricted, free"]),
    ],
)
def test_invalid_fields_name_the_field_and_what_is_allowed(changes, expected):
    with pytest.raises(ConfigError) as info:
        Rules(**changes)
    message = str(info.value)
    assert "\n" not in message
    for text in expected:
        assert text in message


def test_hand_size_limit_is_players_times_hand_plus_start_card():
    assert Rules(players=10, hand_size=10).hand_size == 10  # 101 cards
    assert Rules(players=2, hand_size=53).hand_size == 53  # 107 cards
    with pytest.raises(ConfigError, match=r"hand_size 11 is too large for 10 players.*at most 10"):
        Rules(players=10, hand_size=11)
    with pytest.raises(ConfigError, match=r"hand_size at most 53"):
        Rules(players=2, hand_size=54)


def test_replace_validates_and_rejects_unknown_fields():
    assert Rules().replace(stacking="any").stacking is Stacking.ANY
    with pytest.raises(ConfigError, match="unknown rule field 'colour'; the fields are: players"):
        Rules().replace(colour="red")
    with pytest.raises(ConfigError, match="players"):
        Rules().replace(players=12)


def test_to_dict_round_trips():
    r = preset("party").replace(hand_size=5)
    d = r.to_dict()
    assert list(d) == list(RULE_FIELDS)
    assert d["stacking"] == "progressive" and isinstance(d["stacking"], str)
    assert Rules(**d) == r


def test_to_array_layout():
    r = Rules(stacking="same", wild_draw_four="free", seven_o=True, players=6)
    a = encode_rules(r)
    assert a.dtype == np.int64 and len(a) == len(RULE_FIELDS)
    idx = {name: i for i, name in enumerate(RULE_FIELDS)}
    assert a[idx["stacking"]] == list(Stacking).index(Stacking.SAME)
    assert a[idx["wild_draw_four"]] == 1
    assert a[idx["seven_o"]] == 1 and a[idx["jump_in"]] == 0
    assert a[idx["players"]] == 6 and a[idx["max_turns"]] == 10_000


def test_describe_fields_covers_every_field():
    described = describe_fields()
    assert [name for name, _ in described] == list(RULE_FIELDS)
    assert all(meaning.strip() for _, meaning in described)


# ---------------------------------------------------------------- presets


def test_every_preset_builds_and_has_a_description():
    for name, (description, _) in PRESETS.items():
        assert description.strip()
        assert isinstance(preset(name), Rules)


def test_party_preset():
    r = preset("party")
    assert r.stacking is Stacking.PROGRESSIVE
    assert r.seven_o and r.jump_in and r.draw_until_playable and r.no_action_finish
    assert r.wild_draw_four is WildDrawFour.RESTRICTED and r.challenge
    assert (r.players, r.hand_size, r.target_score) == (4, 7, 500)


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        ("stack-plus2", "stacking", Stacking.PLUS2),
        ("stack-same", "stacking", Stacking.SAME),
        ("stacking", "stacking", Stacking.PROGRESSIVE),
        ("stack-any", "stacking", Stacking.ANY),
        ("seven-o", "seven_o", True),
        ("jump-in", "jump_in", True),
        ("draw-until-playable", "draw_until_playable", True),
        ("no-action-finish", "no_action_finish", True),
        ("free-plus4", "wild_draw_four", WildDrawFour.FREE),
        ("no-challenge", "challenge", False),
    ],
)
def test_single_rule_presets_change_one_field(name, field, value):
    r, official = preset(name), Rules()
    assert getattr(r, field) == value
    diff = [f for f in RULE_FIELDS if getattr(r, f) != getattr(official, f)]
    assert diff == [field]


def test_unknown_preset_lists_the_presets():
    with pytest.raises(ConfigError, match="unknown rules preset 'house'; the presets are: official, "):
        preset("house")


# ---------------------------------------------------------------- resolve_rules and TOML


def test_resolve_rules_preset_sets_and_players():
    r = resolve_rules("seven-o", ["stacking=plus2", " hand_size = 5 "], players=3)
    assert r.seven_o and r.stacking is Stacking.PLUS2 and r.hand_size == 5 and r.players == 3
    assert resolve_rules() == Rules()
    assert resolve_rules("party", (), None) == preset("party")


def test_resolve_rules_errors():
    with pytest.raises(ConfigError, match="unknown rule field 'bogus'"):
        resolve_rules("official", ["bogus=1"])
    with pytest.raises(ConfigError, match="--set takes FIELD=VALUE, not 'stacking'"):
        resolve_rules("official", ["stacking"])
    with pytest.raises(ConfigError, match="unknown rules preset 'nope'"):
        resolve_rules("nope")
    with pytest.raises(ConfigError, match="'players' must be between 2 and 10"):
        resolve_rules("official", (), players=0)


def test_parse_assignment():
    assert parse_assignment("a=b=c") == ("a", "b=c")
    assert parse_assignment(" x = 1 ") == ("x", "1")
    for bad in ("novalue", "=3", ""):
        with pytest.raises(ConfigError):
            parse_assignment(bad)


def test_toml_base_preset_plus_overrides(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "jump-in"\nstacking = "same"\nhand_size = 8\nchallenge = false\n')
    r = load_rules_file(path)
    assert r.jump_in and r.stacking is Stacking.SAME and r.hand_size == 8 and not r.challenge
    assert resolve_rules(str(path), ["hand_size=6"], players=5) == r.replace(hand_size=6, players=5)


def test_toml_rules_table_and_default_base(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('title = "ignored outside the table"\n[rules]\nseven_o = true\nmax_turns = 500\n')
    r = load_rules_file(path)
    assert r == Rules(seven_o=True, max_turns=500)


def test_toml_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("stacking = \n")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        load_rules_file(bad)
    with pytest.raises(ConfigError, match="does not exist"):
        load_rules_file(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="does not exist"):
        resolve_rules(str(tmp_path / "missing.toml"))
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('stacking = "lots"\n')
    with pytest.raises(ConfigError, match=r"wrong\.toml.*'stacking' must be one of"):
        load_rules_file(wrong)
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("speed = 3\n")
    with pytest.raises(ConfigError, match=r"unknown\.toml.*unknown rule field 'speed'"):
        load_rules_file(unknown)
    base = tmp_path / "base.toml"
    base.write_text("base = 3\n")
    with pytest.raises(ConfigError, match="'base' must name a preset"):
        load_rules_file(base)


# ---------------------------------------------------------------- Policy


def test_default_policy_is_random():
    p = Policy()
    assert p == policy_preset("random")
    assert p.play == "random" and p.play_order is None
    assert p.bluff == 0.0 and p.catch_uno == 1.0 and p.play_drawn == 1.0 and p.jump_in == 0.5
    assert p.respond is Respond.UNIFORM and p.colour is ColourChoice.RANDOM and p.swap_target is SwapTarget.RANDOM
    assert p.priorities() == [0] * N_TYPES


def test_basic_preset():
    p = policy_preset("basic")
    assert p.play == "draw_two>skip>reverse>high>wild>wild_draw_four"
    assert p.colour is ColourChoice.MOST_HELD and p.respond is Respond.KNOBS
    assert p.swap_target is SwapTarget.FEWEST
    for name, (description, _) in POLICY_PRESETS.items():
        assert description.strip() and isinstance(policy_preset(name), Policy)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"bluff": 1.5}, ["bluff", "probability between 0 and 1"]),
        ({"catch_uno": -0.1}, ["catch_uno", "between 0 and 1"]),
        ({"jump_in": "often"}, ["jump_in", "between 0 and 1"]),
        ({"stack": True}, ["stack", "between 0 and 1"]),
        ({"attack_at": -1}, ["attack_at", "between 0 and 108"]),
        ({"challenge_if_hand": "x"}, ["challenge_if_hand", "whole number"]),
        ({"challenge_if_own_colour": "perhaps"}, ["challenge_if_own_colour", "true or false"]),
        ({"colour": "purple"}, ["colour", "random, most_held, next_lacks"]),
        ({"respond": "panic"}, ["respond", "uniform, knobs"]),
        ({"swap_target": "richest"}, ["swap_target", "random, fewest, most, next"]),
        ({"play": "big>small"}, ["unknown card class 'big'", "high, low, skip"]),
    ],
)
def test_invalid_knobs(changes, expected):
    with pytest.raises(ConfigError) as info:
        Policy(**changes)
    for text in expected:
        assert text in str(info.value)


def test_knob_coercion():
    p = Policy(bluff="0.25", attack_at="3", challenge_if_own_colour="yes", colour="Next_Lacks", play="Skip, Wild")
    assert p.bluff == 0.25 and p.attack_at == 3 and p.challenge_if_own_colour is True
    assert p.colour is ColourChoice.NEXT_LACKS
    assert p.play == "skip>wild>high>reverse>draw_two>wild_draw_four"
    assert Policy(play=["wild", "low"]).play == "wild>low>skip>reverse>draw_two>wild_draw_four"
    assert Policy(play="").play == "random"
    assert Policy(attack="").attack == ""


def test_parse_order():
    assert parse_order("wild_draw_four") == (
        CardClass.WILD_DRAW_FOUR,
        CardClass.HIGH,
        CardClass.SKIP,
        CardClass.REVERSE,
        CardClass.DRAW_TWO,
        CardClass.WILD,
    )
    assert CardClass.HIGH not in parse_order("low>skip")
    with pytest.raises(ConfigError, match="appears twice"):
        parse_order("skip>skip")
    with pytest.raises(ConfigError, match="'high' or 'low', not both"):
        parse_order("high>low")


def test_policy_spec_parsing():
    assert parse_policy_spec("basic") == policy_preset("basic")
    p = parse_policy_spec(" basic : bluff=0.3, challenge = 0.5 ,colour=random")
    assert p == policy_preset("basic").replace(bluff=0.3, challenge=0.5, colour="random")
    assert parse_policy_spec("random:") == Policy()
    with pytest.raises(ConfigError, match="unknown policy 'genius'; the policies are: random, basic"):
        parse_policy_spec("genius")
    with pytest.raises(ConfigError, match="unknown policy knob 'nerve'; the knobs are: play"):
        parse_policy_spec("basic:nerve=1")
    with pytest.raises(ConfigError, match="knob=value, not 'bluff'"):
        parse_policy_spec("basic:bluff")


def test_resolve_policies():
    pols = resolve_policies(3, "basic", ["1=random:bluff=0.2"])
    assert pols == (policy_preset("basic"), Policy(bluff=0.2), policy_preset("basic"))
    assert resolve_policies(2) == (Policy(), Policy())
    with pytest.raises(ConfigError, match="seat 3 is not at the table: seats are 0 to 2"):
        resolve_policies(3, "random", ["3=basic"])
    with pytest.raises(ConfigError, match="seat -1 is not at the table"):
        resolve_policies(3, "random", ["-1=basic"])
    with pytest.raises(ConfigError, match="--seat needs a seat number, not 'a'"):
        resolve_policies(3, "random", ["a=basic"])
    with pytest.raises(ConfigError, match="--seat takes SEAT=POLICY"):
        resolve_policies(3, "random", ["basic"])


def test_policy_replace_and_describe():
    with pytest.raises(ConfigError, match="unknown policy knob 'x'"):
        Policy().replace(x=1)
    assert [name for name, _ in describe_knobs()] == list(POLICY_FIELDS)
    assert all(text.strip() for _, text in describe_knobs())
    d = policy_preset("basic").to_dict()
    assert Policy(**d) == policy_preset("basic") and d["colour"] == "most_held"


def test_load_policies_file(tmp_path):
    path = tmp_path / "pols.toml"
    path.write_text(
        '[bluffer]\nbase = "basic"\nbluff = 0.8\ndescription = "bluffs a lot"\n'
        '[careful]\nbase = "bluffer"\nbluff = 0.0\nchallenge = 1.0\n'
        "[plain]\nforget_uno = 0.1\n"
    )
    pols = load_policies_file(path)
    assert pols["bluffer"] == policy_preset("basic").replace(bluff=0.8)
    assert pols["careful"] == pols["bluffer"].replace(bluff=0.0, challenge=1.0)
    assert pols["plain"] == Policy(forget_uno=0.1)
    bad = tmp_path / "bad.toml"
    bad.write_text("[x]\nbluff = 3\n")
    with pytest.raises(ConfigError, match=r"bad\.toml.*policy 'x'.*'bluff'"):
        load_policies_file(bad)
    flat = tmp_path / "flat.toml"
    flat.write_text("bluff = 0.1\n")
    with pytest.raises(ConfigError, match="must be a table"):
        load_policies_file(flat)
    with pytest.raises(ConfigError, match="does not exist"):
        load_policies_file(tmp_path / "none.toml")


# ---------------------------------------------------------------- priority tables


def test_priority_table_of_the_dump_order():
    table = priority_table(parse_order("draw_two>skip>reverse>high>wild>wild_draw_four"))
    assert len(table) == N_TYPES
    for colour in (RED, YELLOW, GREEN, BLUE):
        assert table[card_type(colour, DRAW_TWO)] == 0
        assert table[card_type(colour, SKIP)] == 16
        assert table[card_type(colour, REVERSE)] == 32
        for v in range(10):
            assert table[card_type(colour, v)] == 48 + 9 - v  # high numbers first
    assert table[WILD] == 64 and table[WILD_DRAW_FOUR] == 80
    assert table[card_type(RED, 9)] < table[card_type(RED, 0)] < table[WILD]


def test_priority_table_low_numbers_first():
    table = priority_table(parse_order("low>wild"))
    assert table[card_type(GREEN, 0)] == 0 and table[card_type(GREEN, 9)] == 9
    assert table[WILD] == 16
    assert table[card_type(GREEN, SKIP)] == 32  # unlisted classes follow in default order
    assert table[WILD_DRAW_FOUR] == 16 * 5


def test_priorities_for_play_and_attack():
    p = Policy(play="high", attack="draw_two>wild_draw_four", attack_at=2)
    assert p.priorities(False) == priority_table(parse_order("high"))
    assert p.priorities(True) == priority_table(parse_order("draw_two>wild_draw_four"))
    assert Policy(play="skip").priorities(True) == priority_table(parse_order("skip"))  # no attack: play order


def test_policies_to_arrays():
    pols = (Policy(), policy_preset("basic").replace(attack="wild", attack_at=3, bluff=0.4))
    probs, ints, prio = encode_policies(pols)
    assert probs.shape == (2, len(PROB_KNOBS)) and ints.shape == (2, len(INT_KNOBS)) and prio.shape == (2, 2, N_TYPES)
    assert probs[1, PROB_KNOBS.index("bluff")] == 0.4
    assert ints[0, INT_KNOBS.index("random_play")] == 1 and ints[1, INT_KNOBS.index("random_play")] == 0
    assert ints[1, INT_KNOBS.index("attack_at")] == 3
    assert ints[1, INT_KNOBS.index("colour")] == list(ColourChoice).index(ColourChoice.MOST_HELD)
    assert list(prio[1, 1]) == pols[1].priorities(True)
    assert not prio[0].any()


# ---------------------------------------------------------------- the shared attribute machinery (game/attributes.py)


def test_rule_field_order_is_the_kernel_encoding():
    """The kernel encodes a rule set in RULE_FIELDS order: reordering fields changes every compiled constant."""
    assert RULE_FIELDS == (
        "players",
        "hand_size",
        "stacking",
        "seven_o",
        "jump_in",
        "draw_until_playable",
        "no_action_finish",
        "wild_draw_four",
        "challenge",
        "uno_penalty",
        "target_score",
        "max_turns",
        "max_rounds",
    )
    assert POLICY_FIELDS[:3] == ("play", "attack", "attack_at") and len(POLICY_FIELDS) == 28


@pytest.mark.parametrize(
    ("cls", "name"),
    [(Rules, "seven_o"), (Rules, "challenge"), (Policy, "challenge_if_own_colour")],
)
def test_booleans_read_the_same_in_rules_and_policies(cls, name):
    for value, expected in [(True, True), ("Yes", True), (" on ", True), (1, True), (np.bool_(True), True)]:
        assert getattr(cls(**{name: value}), name) is expected
    for value, expected in [(False, False), ("no", False), ("OFF", False), (0, False), ("0", False)]:
        assert getattr(cls(**{name: value}), name) is expected
    for bad in (2, "maybe", 0.5, None):
        with pytest.raises(ConfigError, match=rf"'{name}' must be true or false, not "):
            cls(**{name: bad})


@pytest.mark.parametrize(("cls", "name", "lo", "hi"), [(Rules, "uno_penalty", 0, 50), (Policy, "attack_at", 0, 108)])
def test_whole_numbers_read_the_same_in_rules_and_policies(cls, name, lo, hi):
    assert getattr(cls(**{name: " 1_0 "}), name) == 10
    assert getattr(cls(**{name: np.int64(hi)}), name) == hi
    for bad in (3.0, "3.5", True, "ten", None):
        with pytest.raises(ConfigError, match=rf"'{name}' must be a whole number between {lo} and {hi}, not "):
            cls(**{name: bad})
    with pytest.raises(ConfigError, match=rf"'{name}' must be between {lo} and {hi}, not {hi + 1}$"):
        cls(**{name: str(hi + 1)})


def test_probabilities():
    assert Policy(bluff=1).bluff == 1.0 and Policy(bluff=" 0.25 ").bluff == 0.25
    for bad in (float("nan"), -0.0001, "1.5", False, None):
        with pytest.raises(ConfigError, match="'bluff' must be a probability between 0 and 1"):
            Policy(bluff=bad)


def test_attack_cannot_be_random():
    """'random' is a play preference, not an attack order: attack is an order or empty."""
    assert Policy(play="RANDOM").play == "random"
    with pytest.raises(ConfigError, match="unknown card class 'random'"):
        Policy(attack="random")


def test_presets_registries():
    assert PRESETS.build("party") == preset("party")
    assert POLICY_PRESETS.build("smart") == policy_preset("smart")
    with pytest.raises(ConfigError, match="unknown policy 'x'; the policies are: random, basic, "):
        POLICY_PRESETS.build("x")
