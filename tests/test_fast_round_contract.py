"""The fast round's shape is an allow-list over every rule field and knob (kernel/encode.py).

kernel/plain.py plays a round only for the official shape with uniform seats; a rule field or
knob the allow-list forgot would be played wrong there without a word. These tests check that the
allow-list names every field, that the kernel sends a table off the shape in any one field to the
general round, and that a new field is refused until the allow-list names it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from unocli.game.policies import ColourChoice, MatchPreference, Objective, Policy, Respond, SearchMode, SwapTarget
from unocli.game.rules import Rules, Stacking, WildDrawFour
from unocli.kernel.encode import (
    ANY,
    FAST_KNOBS,
    FAST_RULES,
    UNIFORM_KNOBS,
    encode_policies,
    encode_rules,
    fast_round_tables,
)

# One value off the default for every field, written here by hand (not read from the allow-list),
# with whether the fast round may play it: the rules of kernel/plain.py's module docstring (the
# official rules' play with uniform players), independent of FAST_RULES / FAST_KNOBS.
RULE_CHANGES: dict[str, tuple[Any, bool]] = {
    "players": (2, True),
    "hand_size": (5, True),
    "stacking": (Stacking.PLUS2, False),
    "seven_o": (True, False),
    "jump_in": (True, False),
    "draw_until_playable": (True, False),
    "no_action_finish": (True, False),
    "wild_draw_four": (WildDrawFour.FREE, True),
    "challenge": (False, True),
    "uno_penalty": (4, True),
    "target_score": (200, True),
    "max_turns": (50, True),
    "max_rounds": (3, True),
}
# knob: (the seat it starts from, the value, fast?); attack_at counts only with an attack order
KNOB_CHANGES: dict[str, tuple[dict[str, Any], Any, bool]] = {
    "play": ({}, "draw_two>skip", False),
    "attack": ({}, "draw_two>skip", True),  # with attack_at 0 it never applies
    "attack_at": ({"attack": "draw_two>skip"}, 2, False),
    "colour": ({}, ColourChoice.MOST_HELD, False),
    "bluff": ({}, 0.25, False),
    "bluff_next_min": ({}, 2, True),
    "bluff_next_max": ({}, 5, True),
    "bluff_own_min": ({}, 2, True),
    "bluff_own_max": ({}, 5, True),
    "respond": ({}, Respond.KNOBS, False),
    "challenge": ({}, 0.9, True),
    "trust_if_lacked": ({}, True, True),
    "challenge_if_hand": ({}, 3, True),
    "challenge_if_own_colour": ({}, True, True),
    "trust_if_seen": ({}, 4, True),
    "forget_uno": ({}, 0.3, True),
    "catch_uno": ({}, 0.5, True),
    "stack": ({}, 0.5, True),
    "stack_from": ({}, 4, True),
    "keep_draws": ({}, True, False),
    "aim_lacked": ({}, True, False),
    "match": ({}, MatchPreference.NUMBER, False),
    "jump_in": ({}, 0.9, True),
    "swap_target": ({}, SwapTarget.FEWEST, True),
    "play_drawn": ({}, 0.5, True),
    "search": ({}, SearchMode.ON, False),
    "budget": ({}, 8, True),
    "objective": ({}, Objective.MATCH, True),  # a search's only, as budget: a seat without search plays the same
}


def _names(cls: type) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)]


def test_every_rule_field_and_knob_is_in_the_allow_list() -> None:
    assert list(FAST_RULES) == _names(Rules)
    assert list(FAST_KNOBS) == _names(Policy)
    assert UNIFORM_KNOBS <= set(FAST_KNOBS)


def test_the_hand_written_changes_cover_every_field() -> None:
    """A new field fails here until this file says whether the fast round plays it."""
    assert sorted(RULE_CHANGES) == sorted(_names(Rules))
    assert sorted(KNOB_CHANGES) == sorted(_names(Policy))


def test_the_allow_list_agrees_with_the_hand_written_changes() -> None:
    for name, (value, fast) in RULE_CHANGES.items():
        allowed = FAST_RULES[name]
        assert fast == (allowed is ANY or value in allowed), name
    for name, (_, value, fast) in KNOB_CHANGES.items():
        allowed = FAST_KNOBS[name]
        assert fast == (allowed is ANY or value in allowed), name


@pytest.fixture(scope="module")
def takes_fast_round():
    """Ask the kernel: does a table of these rules and seats take kernel/plain.py's round?"""
    from unocli.kernel.batch import new_workspace
    from unocli.kernel.plain import plain_shape

    def probe(rules: Rules, policies: tuple[Policy, ...], fault: int = 0) -> bool:
        probs, ints, prio = encode_policies(policies)
        ws = new_workspace(np.append(encode_rules(rules), np.int64(fault)), probs, ints, prio)
        return bool(plain_shape(ws[0]))

    return probe


def test_the_official_shape_takes_the_fast_round(takes_fast_round) -> None:
    assert takes_fast_round(Rules(), (Policy(),) * 4)


def test_an_injected_fault_never_takes_the_fast_round(takes_fast_round) -> None:
    assert not takes_fast_round(Rules(), (Policy(),) * 4, fault=1)


@pytest.mark.parametrize("name", sorted(RULE_CHANGES))
def test_one_rule_field_off_the_shape(takes_fast_round, name: str) -> None:
    value, fast = RULE_CHANGES[name]
    rules = Rules().replace(**{name: value})
    assert takes_fast_round(rules, (Policy(),) * rules.players) is fast


@pytest.mark.parametrize("name", sorted(KNOB_CHANGES))
@pytest.mark.parametrize("seat", [0, 3])
def test_one_knob_of_one_seat_off_the_shape(takes_fast_round, name: str, seat: int) -> None:
    base, value, fast = KNOB_CHANGES[name]
    start = Policy().replace(**base)
    assert takes_fast_round(Rules(), (start,) * 4), "the starting seat must be in the shape"
    seats = [start] * 4
    seats[seat] = start.replace(**{name: value})
    assert takes_fast_round(Rules(), tuple(seats)) is fast


def _with_extra_field(cls: type) -> type:
    """A temporary copy of ``cls`` with one more field, the way a new rule or knob would be added."""
    return dataclasses.make_dataclass(
        f"New{cls.__name__}", [("new_field", bool, dataclasses.field(default=False))], bases=(cls,), frozen=True
    )


def test_a_new_rule_field_missing_from_the_allow_list_is_refused() -> None:
    with pytest.raises(TypeError, match="new_field"):
        fast_round_tables(rules_cls=_with_extra_field(Rules))
    # once named it is accepted (ANY: the kernel has no slot for it yet, so it cannot be restricted)
    fast_round_tables(rules_cls=_with_extra_field(Rules), rules={**FAST_RULES, "new_field": ANY})
    with pytest.raises(TypeError, match="no slot"):
        fast_round_tables(rules_cls=_with_extra_field(Rules), rules={**FAST_RULES, "new_field": (False,)})


def test_a_new_knob_missing_from_the_allow_list_is_refused() -> None:
    with pytest.raises(TypeError, match="new_field"):
        fast_round_tables(policy_cls=_with_extra_field(Policy))


def test_an_allow_list_entry_that_is_no_field_is_refused() -> None:
    with pytest.raises(TypeError, match="gone"):
        fast_round_tables(rules={**FAST_RULES, "gone": ANY})


def test_the_kernel_tables_match_the_allow_list() -> None:
    """The restricted slots are exactly the restricted fields (the fault slot besides), in their encoded codes."""
    tables = fast_round_tables()
    slots, codes = tables["rules"]
    restricted = [n for n, v in FAST_RULES.items() if v is not ANY]
    assert len(slots) == len(restricted) + 1
    # stacking off, seven_o/jump_in/draw_until_playable/no_action_finish false, no fault: all code 0
    assert codes.tolist() == [[0]] * len(slots)
    n_knobs = sum(len(tables[k][0]) for k in ("uniform_ints", "ints", "probs"))
    assert n_knobs == sum(v is not ANY for v in FAST_KNOBS.values())
    assert len(tables["uniform_ints"][0]) == len(UNIFORM_KNOBS)
