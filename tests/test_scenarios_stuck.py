"""Scenario tests for stuck rounds (§11.15), the ``skips`` counter and who deals and plays first (§9, §2).

Expected values are worked out by hand from the rule text in each docstring.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    DET,
    Kind,
    Outcome,
    Round,
    Rules,
    ScriptedDecider,
    deck_for,
    events,
    policies,
    position,
    step,
)

from unocli.game.policies import preset
from unocli.reference.engine import play_match, play_round

# ---------------------------------------------------------------- §11.15 stuck


def _draw_two_loop(max_turns: int = 10_000, **changes) -> Round:
    """Three players pass Draw Twos round for ever (worked through by hand).

    The draw pile is empty and the discard pile is the top card alone. Seat 0
    plays Y+2 on R+2; seat 1 must draw 2 but only the R+2 under it can be
    drawn (a reshuffle of one card: nothing random), and is skipped. Seat 2
    plays R+2; seat 0 draws the Y+2 back. Seat 1 plays the R+2 it drew; seat 2
    draws the other R+2 back. Now seat 0 is to play with Y+2 G5 against a red
    R+2, seat 1 holds G6, seat 2 holds R+2 B7: the position after the first
    play, apart from who played the top card, and from then on every third
    turn repeats it exactly. The green and blue numbers never become legal,
    so no hand ever shrinks for good.
    """
    return position(["Y+2 G5", "G6", "R+2 B7"], "R+2", "", pols=policies(3, **changes), max_turns=max_turns)


def test_s11_15_a_round_that_repeats_itself_ends_stuck():
    rnd = _draw_two_loop()
    stats = rnd.run()
    assert stats.outcome is Outcome.STUCK
    assert stats.winner == -1 and stats.winner_points == 0
    # Each seat's shown colour (§13: the colour in force after its last play) is part of the state.
    # Brent keeps the state before decisions 1, 3 and 7. Before decision 3 seat 1 has shown no colour
    # yet, so that state never comes back; before decision 7 every seat has played (shown Y, R, R), and
    # the state before decision 10 equals it (seat 0 to play, hands Y+2 G5 / G6 / R+2 B7, a red R+2
    # played by seat 1 on top): 9 plays.
    assert stats.turns == 9
    assert stats.skips == 9  # every play skipped its victim
    assert stats.cards_left == [2, 1, 2]
    assert events(rnd, Kind.END)[-1].how == "stuck"


def test_s11_15_the_same_loop_with_a_random_choice_in_it_is_never_stuck():
    """forget_uno = 0.5: each Uno call draws a random number, so the state never repeats with the
    play stream in the same place; the loop can (and here does not) end, and the round caps."""
    rnd = _draw_two_loop(forget_uno=0.5, catch_uno=0.0, max_turns=300)
    stats = rnd.run()
    assert stats.outcome is Outcome.CAPPED
    assert stats.turns == 300


def test_s11_15_the_cap_comes_first_when_reached_before_the_cycle_is_found():
    rnd = position(["Y+2 G5", "G6", "R+2 B7"], "R+2", "", pols=policies(3), max_turns=2)
    assert rnd.run().outcome is Outcome.CAPPED


def test_s11_15_a_scripted_decider_that_remembers_is_never_declared_stuck():
    rnd = position(["Y+2 G5", "G6", "R+2 B7"], "R+2", "", decider=ScriptedDecider(), max_turns=60)
    assert rnd.run().outcome is Outcome.CAPPED


def test_s11_15_the_reported_stuck_round_of_issue_11():
    """9 players, draw until playable, basic: game 988 of seed 20240501 locks into a Draw Two loop."""
    rules = Rules(players=9, draw_until_playable=True)
    rnd = play_round(rules, (preset("basic"),) * 9, 20240501, 988)
    assert rnd.stats.outcome is Outcome.STUCK
    assert rnd.stats.turns < 400


def test_s11_15_a_stuck_round_in_a_match_is_counted_and_the_match_goes_on():
    rules = Rules(players=9, draw_until_playable=True, target_score=100)
    match, rounds = play_match(rules, (preset("basic"),) * 9, 20240501, 988)
    assert rounds[0].stats.outcome is Outcome.STUCK
    assert len(rounds) > 1
    assert match.outcome is Outcome.WON


# ---------------------------------------------------------------- skips (§9)


@pytest.mark.parametrize(
    ("hands", "top", "expected"),
    [
        (["RS G1", "Y1", "Y2", "Y3"], "R5", 1),  # Skip: the next player loses the turn
        (["R+2 G1", "Y1", "Y2", "Y3"], "R5", 1),  # Draw Two: the victim loses the turn
        (["R7 G1", "Y1", "Y2", "Y3"], "R5", 0),  # a number card skips no one
        (["RR G1", "Y1", "Y2", "Y3"], "R5", 0),  # a Reverse at 4 players skips no one
        (["RR G1 R3", "Y1 Y2"], "R5", 1),  # a two-player Reverse: the other player loses the turn
    ],
)
def test_s9_skips_count_turns_lost(hands, top, expected):
    rnd = position(hands, top, "B7 B8 B9", decider=ScriptedDecider(choose_card=[hands[0].split()[0]]))
    assert step(rnd)
    assert rnd.stats.skips == expected


def test_s9_skips_after_a_wild_draw_four_accepted_or_challenged():
    """Accepted: the victim loses the turn (1). A failed challenge: the victim draws 6 and loses the
    turn (1). A caught bluff: the offender draws and the victim plays on (0)."""
    draw = "B1 B2 B3 B4 B5 B6 B7 B8"
    accept = position(["W+4 G1", "Y1", "Y2"], "R5", draw, decider=ScriptedDecider(respond=["accept"]))
    assert step(accept) and accept.stats.skips == 1
    honest = position(["W+4 G1", "Y1", "Y2"], "R5", draw, decider=ScriptedDecider(respond=["challenge"]))
    assert step(honest) and honest.stats.skips == 1
    bluff = position(["W+4 R1 G1", "Y1", "Y2"], "R5", draw, decider=ScriptedDecider(bluff=[True], respond=["challenge"]))
    assert step(bluff) and (bluff.stats.challenges_won, bluff.stats.skips) == (1, 0)


@pytest.mark.parametrize(
    ("hands", "respond", "drawn", "challenges"),
    [
        (["RS", "Y1", "Y2"], [], 0, 0),  # a last Skip
        (["RR", "Y1"], [], 0, 0),  # a last two-player Reverse
        (["R+2", "Y1", "Y2"], [], 2, 0),  # a last Draw Two: the victim draws 2 (§7)
        (["W+4", "Y1", "Y2"], ["accept"], 4, 0),  # a last Wild Draw Four accepted: the victim draws 4
        (["W+4", "Y1", "Y2"], ["challenge"], 6, 1),  # challenged: never a bluff with no other card (§7), 6 drawn
    ],
    ids=["skip", "reverse-2p", "draw-two", "plus4-accepted", "plus4-challenged"],
)
def test_s9_a_card_that_ends_the_round_skips_nobody(hands, respond, drawn, challenges):
    """§9 skips: "A card that ends the round skips nobody": seat 0 goes out on each of the four cards that would
    skip the next player, the round is won, no turn follows, so no turn is lost (skips 0). The victim of a last
    Draw Two or Wild Draw Four still draws its cards (§7). The same cards not played last skip once
    (test_s9_skips_count_turns_lost, test_s9_skips_after_a_wild_draw_four_accepted_or_challenged)."""
    rnd = position(hands, "R5", "B1 B2 B3 B4 B5 B6 B7 B8", decider=ScriptedDecider(respond=respond))
    assert not step(rnd)  # the round ended on seat 0's play
    assert (rnd.stats.outcome, rnd.stats.winner) == (Outcome.WON, 0)
    assert (rnd.stats.skips, rnd.stats.cards_drawn, rnd.stats.challenges) == (0, drawn, challenges)
    assert not events(rnd, Kind.SKIP)


def test_s9_skips_under_stacking_only_the_player_who_draws_loses_a_turn():
    rnd = position(
        ["R+2 G1", "Y+2 Y1", "G2 G3"],
        "R5",
        "B1 B2 B3 B4 B5 B6",
        stacking="plus2",
        decider=ScriptedDecider(respond=["Y+2", "accept"]),
    )
    assert step(rnd) and step(rnd)  # seat 0 plays R+2, seat 1 stacks Y+2
    assert rnd.stats.skips == 0
    assert step(rnd)  # seat 2 draws 4
    assert rnd.stats.skips == 1 and rnd.stats.cards_drawn == 4


# ---------------------------------------------------------------- dealer and first player (§2, §9)


@pytest.mark.parametrize(
    ("start", "players", "round_index", "dealer", "first_player", "skips"),
    [
        ("R5", 4, 0, 3, 0, 0),  # a number: the seat after the dealer plays first
        ("R5", 4, 2, 1, 2, 0),  # round 2 of a match: dealer (n - 1 + r) mod n
        ("RS", 4, 0, 3, 1, 1),  # a start Skip: the first player is skipped
        ("R+2", 4, 0, 3, 1, 1),  # a start Draw Two: draws 2 and is skipped
        ("RR", 4, 0, 3, 3, 0),  # a start Reverse: the dealer plays first
        ("RR", 2, 0, 1, 1, 1),  # with 2 players a start Reverse skips the first player
        ("W", 4, 1, 0, 1, 0),  # a start Wild: the first player declares and plays
    ],
)
def test_s2_dealer_and_first_player(start, players, round_index, dealer, first_player, skips):
    first = round_index % players
    hands = ["G1 G2", "G3 G4", "G5 G6", "G7 G8"][:players]
    ordered = hands[first:] + hands[:first]  # dealt from the first player on
    deck = deck_for(ordered, start, "B1 B2 B3 B4")
    rnd = Round.from_deck(Rules(players=players, hand_size=2), [DET] * players, deck, round_index=round_index)
    assert (rnd.stats.dealer, rnd.stats.first_player, rnd.stats.skips) == (dealer, first_player, skips)
    assert rnd.current == first_player


# ---------------------------------------------------------------- long jump-in chains (§11.9)


def test_s11_9_a_chain_of_hundreds_of_jump_ins_does_not_deepen_the_stack():
    """Found by hypothesis: 2 players holding 48 cards each, Draw Twos first, always jumping in.

    A Draw Two's victim draws two, jumps in with a twin, and so on: every jump-in is a turn and the
    window reopens from each jumper, so one decision can hold hundreds of plays. The reference engine
    once recursed per jump-in and overflowed Python's stack; the kernel loops.
    """
    rules = Rules(players=2, hand_size=48, jump_in=True, challenge=False, uno_penalty=0, max_turns=683, max_rounds=1)
    pol = DET.replace(play="draw_two>skip>reverse>high>wild>wild_draw_four", stack=1.0, jump_in=1.0, challenge=0.25)
    rnd = Round.deal(rules, (pol, pol), 0, 0, log=False)
    stats = rnd.run()
    assert stats.jump_ins > 100
    assert stats.turns <= rules.max_turns
