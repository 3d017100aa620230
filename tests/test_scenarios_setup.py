"""Scenario tests for docs/rules.md §2 (set-up), §11.1 (the start card) and §11.14 (the deal)."""

from __future__ import annotations

from collections import Counter

import pytest
from scenario_helpers import (
    BLUE,
    DET,
    GREEN,
    YELLOW,
    Kind,
    Round,
    Rules,
    ScriptedDecider,
    cards,
    deck_for,
    discard,
    events,
    hand,
    pile,
    plays,
    policies,
    step,
)

from unocli.errors import ConfigError
from unocli.game.cards import DECK_SIZE, canonical_deck
from unocli.reference.engine import play_match, play_round


def deal(deck: str, n: int, hand_size: int, *, round_index: int = 0, decider=None, pols=None, **fields) -> Round:
    rules = Rules(players=n, hand_size=hand_size, **fields)
    return Round.from_deck(rules, pols or policies(n), deck, round_index=round_index, decider=decider)


# ---------------------------------------------------------------- players and hand size


@pytest.mark.parametrize("n", [2, 3, 10])
def test_s2_two_to_ten_players_accepted(n):
    """§2: "A game seats 2 to 10 players in seats numbered 0 to n-1." """
    assert Rules(players=n).players == n


@pytest.mark.parametrize("n", [0, 1, 11])
def test_s2_fewer_than_two_or_more_than_ten_players_refused(n):
    """§2: "2 to 10 players" — anything else is not a valid rule set."""
    with pytest.raises(ConfigError, match="players"):
        Rules(players=n)


@pytest.mark.parametrize(("n", "size"), [(10, 10), (2, 53), (4, 7), (3, 35)])
def test_s2_hand_size_fits_the_deck(n, size):
    """§2: "a rule set with n x `hand_size` + 1 > 108 is invalid" — the boundary cases (= 108) are valid."""
    assert n * size + 1 <= DECK_SIZE
    assert Rules(players=n, hand_size=size).hand_size == size


@pytest.mark.parametrize(("n", "size"), [(10, 11), (2, 54), (4, 27)])
def test_s2_hand_size_too_large_refused_with_clear_error(n, size):
    """§2: "a rule set with n x `hand_size` + 1 > 108 is invalid, and unocli refuses it with an error" (naming
    `hand_size`)."""
    assert n * size + 1 > DECK_SIZE
    with pytest.raises(ConfigError, match="hand_size"):
        Rules(players=n, hand_size=size)
    with pytest.raises(ConfigError, match="hand_size"):
        Rules(players=n).replace(hand_size=size)


def test_s2_hand_size_cards_each_from_a_shuffled_deck():
    """§2: "Every player is dealt `hand_size` cards"; §1: the deck is 108 cards, and every card stays in play."""
    rules = Rules(players=5, hand_size=3)
    rnd = Round.deal(rules, policies(5), seed=7, index=3)
    (deal_event,) = events(rnd, Kind.DEAL)
    assert [len(h) for h in deal_event.hands] == [3] * 5
    everything = Counter(rnd.draw_pile) + Counter(rnd.discard)
    for seat in range(5):
        everything += rnd.hands[seat]
    assert everything == Counter(canonical_deck())


# ---------------------------------------------------------------- deal order, dealer rotation


def test_s11_14_deal_one_card_at_a_time_first_player_first_then_start_card():
    """§11.14: "After shuffling, cards are dealt singly off the top of the deck, starting with the first player and continuing in
    direction +1; the card after the last dealt card is the start card." """
    rnd = deal("R1 R2 R3 R4 R5 R6 G1 G2 G3", n=3, hand_size=2)
    assert hand(rnd, 0) == cards("R1 R4")
    assert hand(rnd, 1) == cards("R2 R5")
    assert hand(rnd, 2) == cards("R3 R6")
    assert discard(rnd) == ["G1"]
    assert pile(rnd) == ["G2", "G3"]  # the rest, top first
    assert rnd.colour == GREEN
    assert (rnd.current, rnd.direction) == (0, 1)


def test_s2_single_round_is_round_0_seat_0_first():
    """§2: "A game of a single round is round 0, so seat 0 plays first." """
    rnd = deal(deck_for(["R1 R2", "G1 G2", "B1 B2"], "Y7", "Y8"), n=3, hand_size=2)
    assert rnd.current == 0
    for seed in range(6):
        rnd2 = play_round(Rules(players=3), policies(3), seed=seed, index=0, log=True)
        assert events(rnd2, Kind.DEAL)[0].seat == 0
        start = events(rnd2, Kind.START)[-1].cards[0]
        first_turn = next(e.seat for e in rnd2.events if e.kind in (Kind.PLAY, Kind.PASS))
        # Seat 0 takes the first turn unless the start card says otherwise (§2 start effects).
        if start >= 52 or start % 13 <= 9:
            assert first_turn == 0


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("r", [0, 1, 2, 3, 5])
def test_s2_dealer_rotation_round_r(n, r):
    """§2: "In round r the dealer is seat (n - 1 + r) mod n, and the first player is the seat that follows the dealer in direction
    +1, i.e. seat r mod n." The deal starts at the first player (§11.14)."""
    dealer = (n - 1 + r) % n
    first = (dealer + 1) % n
    hands = [" ".join(f"{c}{k}" for k in (1, 2)) for c in "RYGB"[:n]]  # dealt from the first player on
    rnd = deal(deck_for(hands, "R9", "B9"), n=n, hand_size=2, round_index=r)
    assert rnd.current == first
    assert hand(rnd, first) == cards(hands[0])
    assert hand(rnd, (first + 1) % n) == cards(hands[1])
    assert hand(rnd, dealer) == cards(hands[-1])  # the dealer is dealt last


def test_s2_dealer_rotation_in_a_match():
    """§2 / §7: in a match, round r is dealt and started by seat r mod n (the seat after dealer (n-1+r) mod n)."""
    rules = Rules(players=3, target_score=500)
    _, rounds = play_match(rules, policies(3), seed=5, index=2, log=True)
    assert len(rounds) >= 2
    for r, rnd in enumerate(rounds):
        assert rnd.round_index == r
        assert events(rnd, Kind.DEAL)[0].seat == (3 - 1 + r + 1) % 3


# ---------------------------------------------------------------- start card effects


def test_s2_start_number_card_no_effect_its_colour_is_current():
    """§2, number card: "nothing; its colour becomes the current colour"."""
    rnd = deal(deck_for(["R1", "G1", "Y1"], "B4", "Y2"), n=3, hand_size=1)
    assert rnd.colour == BLUE
    assert (rnd.current, rnd.direction) == (0, 1)
    assert rnd.stats.cards_drawn == 0
    assert hand(rnd, 0) == ["R1"]


def test_s2_start_wild_draw_four_returned_and_reshuffled():
    """§2, start card Wild Draw Four: "it goes back into the draw pile, which is shuffled before a fresh card is turned; repeated
    as often as necessary". §9 `reshuffles`: "returning a start +4 is not one"."""
    rnd = deal(deck_for(["R1", "Y1"], "W+4", "G5"), n=2, hand_size=1)
    # Only G5 can end up turned; the +4 is back in the draw pile.
    assert discard(rnd) == ["G5"]
    assert pile(rnd) == ["W+4"]
    assert rnd.colour == GREEN
    assert rnd.current == 0
    assert len(events(rnd, Kind.START_RETURN)) >= 1
    s = rnd.stats
    assert (s.reshuffles, s.cards_drawn, s.plus4_played, s.cards_played, s.turns) == (0, 0, 0, 0, 0)


def test_s11_14_start_wild_draw_four_repeat_as_needed():
    """§11.14: "A start Wild Draw Four goes back into the draw pile, which is shuffled, and the card now on top is turned instead"
    — repeated while a +4 turns up; no card is lost."""
    rnd = deal(deck_for(["R1", "Y1"], "W+4", "W+4 W+4 B2 R7 G8"), n=2, hand_size=1)
    assert discard(rnd)[0] in ("B2", "R7", "G8")
    assert sorted(pile(rnd) + discard(rnd)) == sorted("W+4 W+4 W+4 B2 R7 G8".split())
    returns = events(rnd, Kind.START_RETURN)
    assert len(returns) >= 1 and all(e.cards == (53,) for e in returns)
    assert rnd.stats.reshuffles == 0


def test_s2_start_wild_first_player_declares_then_plays():
    """§2, start card Wild: "the first player names the colour, then takes a normal turn". (Round 1 of 3 players: the first player
    is seat 1.)"""
    dec = ScriptedDecider(colour=["Y"])
    rnd = deal(deck_for(["Y3 R4", "B5 G6", "R7 G8"], "W", "B1"), n=3, hand_size=2, round_index=1, decider=dec)
    assert dec.called("colour") == [(1, None)]
    assert rnd.colour == YELLOW
    assert rnd.current == 1
    assert rnd.stats.cards_drawn == 0
    assert step(rnd)
    # Only Y3 matches the declared yellow (nothing matches a Wild by rank, §11.2).
    assert plays(rnd) == [(1, "Y3", "hand")]
    assert rnd.current == 2


def test_s2_start_draw_two_first_player_draws_two_and_loses_turn():
    """§2, start card Draw Two: "the first player takes 2 cards and misses the turn". §11.1: "The 2 cards a start Draw Two makes
    the first player draw do count in `cards_drawn`." """
    rnd = deal(deck_for(["R1", "Y1", "B1"], "G+2", "B7 B8 B9"), n=3, hand_size=1)
    assert hand(rnd, 0) == cards("R1 B7 B8")
    assert pile(rnd) == ["B9"]
    assert rnd.current == 1
    assert rnd.colour == GREEN
    s = rnd.stats
    assert (s.cards_drawn, s.cards_played, s.turns, s.passes, s.max_stack) == (2, 0, 0, 0, 0)


@pytest.mark.parametrize("mode", ["plus2", "same", "progressive", "any"])
def test_s2_start_draw_two_can_never_be_stacked_on(mode):
    """§2, start card Draw Two: "the first player takes 2 cards and misses the turn; no one may stack on this penalty"."""
    dec = ScriptedDecider()
    rnd = deal(
        deck_for(["R+2 W+4", "Y1 Y2"], "G+2", "B7 B8 B9"),
        n=2,
        hand_size=2,
        decider=dec,
        stacking=mode,
        pols=policies(2, stack=1.0),
    )
    assert hand(rnd, 0) == cards("R+2 W+4 B7 B8")
    assert rnd.pending == 0
    assert rnd.current == 1
    assert dec.called("respond") == []


def test_s2_start_skip_first_player_loses_turn():
    """§2, start card Skip: "the first player misses the turn". (Round 2 of 3 players: first player seat 2.)"""
    rnd = deal(deck_for(["R1", "Y1", "B1"], "GS", "B7"), n=3, hand_size=1, round_index=2)
    assert rnd.current == 0  # seat 2 is first and loses the turn
    assert rnd.direction == 1
    assert rnd.colour == GREEN
    assert rnd.stats.turns == 0


@pytest.mark.parametrize(("n", "r"), [(4, 0), (4, 1), (3, 2), (5, 3)])
def test_s2_start_reverse_dealer_plays_first(n, r):
    """§2, start card Reverse: "play runs in direction -1, so the dealer moves first"."""
    dealer = (n - 1 + r) % n
    hands = ["R1 R2"] + ["B3 B4"] * (n - 1)
    rnd = deal(deck_for(hands, "GR", "Y5 Y6 Y7 Y8"), n=n, hand_size=2, round_index=r)
    assert rnd.direction == -1
    assert rnd.current == dealer
    assert rnd.colour == GREEN
    # The dealer (no green, no Reverse) draws and passes; play then goes on in direction -1.
    assert step(rnd)
    assert rnd.current == (dealer - 1) % n


def test_s2_start_reverse_two_players_equals_skip_of_first():
    """§2, start card Reverse: "play runs in direction -1, so the dealer moves first (with 2 players this amounts to skipping the
    first player)"."""
    rnd = deal(deck_for(["R1 R2", "B3 B4"], "GR", "Y5"), n=2, hand_size=2)
    assert rnd.current == 1
    assert rnd.direction == -1
    rnd1 = deal(deck_for(["R1 R2", "B3 B4"], "GR", "Y5"), n=2, hand_size=2, round_index=1)
    assert rnd1.current == 0  # round 1: seat 1 first, seat 0 is the dealer


# ---------------------------------------------------------------- §11.1 the start card is not a played card


def test_s11_1_start_card_not_counted_as_played():
    """§11.1: "The card turned to start the discard pile ... does not count towards `cards_played`, `plus4_played` or
    `max_stack`." """
    rnd = deal(deck_for(["R1 R2", "Y1 Y2"], "B+2", "G1 G2 G3"), n=2, hand_size=2, stacking="progressive")
    s = rnd.stats
    assert (s.cards_played, s.plus4_played, s.max_stack, s.turns) == (0, 0, 0, 0)
    assert s.cards_drawn == 2


def test_s11_1_start_card_opens_no_jump_in():
    """§11.1: the start card "opens no jump-in": a seat holding its twin is not asked."""
    dec = ScriptedDecider()
    pols = [DET.replace(jump_in=1.0)] * 3
    rnd = deal(deck_for(["R1 R2", "G5 Y1", "G5 B2"], "G5", "G7"), n=3, hand_size=2, decider=dec, jump_in=True, pols=pols)
    assert dec.called("jump_in") == []
    assert rnd.current == 0
    assert rnd.stats.jump_ins == 0
    assert hand(rnd, 1) == cards("G5 Y1")


@pytest.mark.parametrize("start", ["G0", "G7"])
def test_s11_1_start_zero_or_seven_does_nothing_under_seven_o(start):
    """§11.1: "under `seven_o` a start 0 or 7 has no effect." """
    dec = ScriptedDecider()
    rnd = deal(deck_for(["R1 R2", "Y1 Y2", "B1 B2"], start, "G9"), n=3, hand_size=2, seven_o=True, decider=dec)
    assert hand(rnd, 0) == cards("R1 R2")
    assert hand(rnd, 1) == cards("Y1 Y2")
    assert hand(rnd, 2) == cards("B1 B2")
    assert (rnd.stats.rotations, rnd.stats.swaps) == (0, 0)
    assert dec.called("swap_target") == []
    assert rnd.current == 0


def test_s11_5_start_draw_two_draws_what_there_is():
    """§7: "If there is nothing left to draw, a player who has to draw takes whatever is available, possibly nothing." §11.5:
    "When the discard pile consists of the top card alone, nothing is drawn and the `reshuffles` counter does not move." (A start
    Draw Two with one card left in the draw pile.)"""
    rnd = deal(deck_for(["R1", "Y1"], "B+2", "G6"), n=2, hand_size=1)
    assert hand(rnd, 0) == cards("R1 G6")
    assert rnd.stats.cards_drawn == 1
    assert rnd.stats.reshuffles == 0
    assert discard(rnd) == ["B+2"]
    assert rnd.current == 1
