"""Scenario tests written for the mutants of the reference engine that the other tests let live.

`mutation/run.sh engine` (README "Mutation testing") mutates unocli/reference/engine.py and
decisions.py; each test below pins a behaviour one or more of its survivors changed. As in the
other scenario tests, every expected value is worked out by hand from docs/rules.md (the section is
named in the docstring) or from the documented meaning of a method or knob, never copied from the
engine's output. mutation/SURVIVORS.md lists the mutants that are left and why they cannot matter.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    DET,
    RED,
    Kind,
    Outcome,
    Round,
    Rules,
    hand,
    pile,
    plays,
    policies,
    position,
)

from unocli.game.cards import parse_cards
from unocli.game.policies import preset
from unocli.reference.engine import play_match, play_round

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


# ---------------------------------------------------------------- matches (§7, §2, §12.4)


def test_a_match_total_is_the_sum_of_the_points_of_the_rounds_a_seat_won():
    """§7: "The winner of a round scores the §1 values of all cards still held by the other players", and
    a match keeps each seat's running total from 0; rounds not won score nothing. With an unreachable
    target the match plays all its ``max_rounds`` rounds and ends capped (§12.2); every total must be
    exactly the sum of that seat's round points, so a seat that wins twice must hold both."""
    rules = Rules(players=3, target_score=1_000_000, max_rounds=5)
    won_twice = False
    for index in range(3):
        match, rounds = play_match(rules, policies(3), 11, index)
        assert match.outcome is Outcome.CAPPED and match.winner == -1 and len(rounds) == 5
        expected, wins = [0, 0, 0], [0, 0, 0]
        for stats in match.rounds:
            if stats.outcome is Outcome.WON:
                expected[stats.winner] += stats.winner_points
                wins[stats.winner] += 1
        assert match.scores == expected
        assert [rnd.stats for rnd in rounds] == match.rounds
        won_twice = won_twice or max(wins) >= 2
    assert won_twice, "pick seeds where some seat wins two rounds, or the test cannot tell = from +="


def test_round_zero_of_a_match_is_the_single_round_game():
    """§2: "A game of a single round is round 0"; §12.4: each round is dealt from the deal stream of
    (seed, game index, round) and one play stream per game serves all decisions, so a match's first
    round is the very round ``play_round`` plays for the same seed and game index (random policies:
    every choice draws from the play stream, so a different stream would show)."""
    rules = Rules(players=4, target_score=1_000_000, max_rounds=1)
    pols = [preset("random")] * 4
    for index in range(3):
        match, _ = play_match(rules, pols, 5, index)
        single = play_round(rules, pols, 5, index)
        assert match.rounds[0] == single.stats


def test_a_match_keeps_no_play_by_play_unless_asked():
    """``play_match(..., log=False)`` by default, like ``play_round``: the rounds carry no events; with
    ``log=True`` every round's events start with its deal (§11.14)."""
    rules = Rules(players=2, target_score=1)
    _, quiet = play_match(rules, policies(2), 2, 0)
    assert all(rnd.events == [] for rnd in quiet)
    _, logged = play_match(rules, policies(2), 2, 0, log=True)
    assert all(rnd.events[0].kind is Kind.DEAL for rnd in logged)


# ---------------------------------------------------------------- card preference and colours (§13)


def test_card_preference_ties_go_to_the_colour_held_most_red_included():
    """§13: "Remaining ties go to the card whose colour the player holds most, then to the first card in
    card-type order". Both 9s are legal on Y9 and equal under play = high; the colour held most decides,
    whichever of the two comes first in type order (red is colour 0, green 2)."""
    rnd = position(["R9 G9 R3 R4", "B1 B2"], "Y9")
    rnd.step()
    assert plays(rnd) == [(0, "R9", "hand")]
    rnd = position(["G9 R9 G3 G4", "B1 B2"], "Y9")
    rnd.step()
    assert plays(rnd) == [(0, "G9", "hand")]


def test_most_held_counts_red_cards():
    """§13 colours: most_held names the colour held most after the Wild leaves the hand: two reds
    against one green names red (colour 0)."""
    rnd = position(["W R1 R2 G3", "B1 B2"], "B5", "Y1 Y2")
    rnd.step()
    assert plays(rnd) == [(0, "W", "hand")] and rnd.colour == RED


# ---------------------------------------------------------------- challenging a +4 with respond = knobs (§13)


def _plus4_against(victim_policy, hands=("W+4 G1 G2", "B3 B4")):
    """Seat 0 holds no red on a red R5, so its W+4 is an honest play (§3) made with 3 cards in hand;
    seat 1, the victim, answers by ``victim_policy`` (respond = knobs, challenge = 0 in DET)."""
    return position(list(hands), "R5", "Y1 Y2 Y3 Y4 Y5 Y6 Y7", pols=[DET, victim_policy])


@pytest.mark.parametrize(("at", "challenged"), [(0, False), (2, True), (3, True), (4, False)])
def test_challenge_if_hand_is_at_least_that_many_cards(at, challenged):
    """§13 challenge_if_hand: "always challenge when the player of the +4 held at least this many cards
    before playing it; 0 off". The +4's player held 3 cards: 2 and 3 challenge, 4 and 0 (off) do not
    (challenge = 0 otherwise). An honest +4 challenged costs the victim 6 cards (§5), else 4."""
    rnd = _plus4_against(DET.replace(challenge_if_hand=at))
    rnd.step()
    assert rnd.stats.challenges == int(challenged)
    assert rnd.hand_size(1) == 2 + (6 if challenged else 4)


@pytest.mark.parametrize("own_colour", [False, True])
def test_challenge_if_own_colour_only_when_set(own_colour):
    """§13 challenge_if_own_colour: "always challenge when the card under the +4 had been played by the
    same player". Two players: seat 0 plays RR, so plays again (§11.13), then its W+4 (no red left, an
    honest play) on its own Reverse. The victim challenges exactly when the knob is on (challenge = 0)."""
    rnd = position(["RR W+4 G1", "B3 B4"], "R5", "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
                   pols=[DET, DET.replace(challenge_if_own_colour=own_colour)])
    rnd.step()
    rnd.step()
    assert [p[1] for p in plays(rnd)] == ["RR", "W+4"]
    assert rnd.stats.challenges == int(own_colour)
