"""Scenario tests written for the mutants of the reference engine that the other tests let live.

`mutation/run.sh engine` (README "Mutation testing") mutates unocli/reference/engine.py and
decisions.py; each test below pins a behaviour one or more of its survivors changed. As in the
other scenario tests, every expected value is worked out by hand from docs/rules.md (the section is
named in the docstring) or from the documented meaning of a method or knob, never copied from the
engine's output. mutation/SURVIVORS.md lists the mutants that are left and why they cannot matter.
"""

from __future__ import annotations

from scenario_helpers import (
    RED,
    Outcome,
    Round,
    Rules,
    hand,
    pile,
    policies,
    position,
)

from unocli.game.cards import parse_cards

# ---------------------------------------------------------------- scenario constructors and step()


def test_from_deck_takes_a_list_of_card_types_as_well_as_text():
    """``Round.from_deck``: the deck is "a scripted deck (top card first)", as text or as card types;
    both spellings deal the same round (§11.14: one card at a time, first player first)."""
    text = "R1 G1 R2 G2 B5 Y9 Y8"
    rules = Rules(players=2, hand_size=2)
    by_text = Round.from_deck(rules, policies(2), text)
    by_types = Round.from_deck(rules, policies(2), parse_cards(text))
    for rnd in (by_text, by_types):
        assert hand(rnd, 0) == ["R1", "R2"] and hand(rnd, 1) == ["G1", "G2"]
        assert rnd.discard == parse_cards("B5") and pile(rnd) == ["Y9", "Y8"]


def test_from_position_takes_card_types_as_well_as_text():
    """``Round.from_position``: hands, discard pile (top last) and draw pile (top first) are text or
    lists of card types."""
    rnd = position([parse_cards("R1 R1 G7"), "B2"], parse_cards("Y3 R5"), parse_cards("G9 B1"))
    assert hand(rnd, 0) == ["R1", "R1", "G7"] and hand(rnd, 1) == ["B2"]
    assert rnd.discard == parse_cards("Y3 R5") and pile(rnd) == ["G9", "B1"]
    assert rnd.colour == RED  # the top card's colour (§3)


def test_step_reports_false_once_the_round_is_over():
    """``Round.step``: "False once it is over". Seat 0 plays its last card, R1 on R5 (§3 colour), and
    wins (§7); the step that ends the round returns False."""
    rnd = position(["R1", "B2"], "R5")
    assert rnd.step() is False
    assert rnd.stats.outcome is Outcome.WON and rnd.stats.winner == 0
