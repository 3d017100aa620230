"""Scenario tests written for the mutants of the reference engine that the other tests let live.

`mutation/run.sh engine` (the README's section on mutation testing) mutates unocli/reference/engine.py and
decisions.py; each test below pins a behaviour one or more of its survivors changed. As in the
other scenario tests, every expected value is worked out by hand from docs/rules.md (the section is
named in the docstring) or from the documented meaning of a method or knob, never copied from the
engine's output. mutation/SURVIVORS.md lists the mutants that are left and why they cannot matter.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    BLUE,
    DET,
    GREEN,
    RED,
    YELLOW,
    Kind,
    Outcome,
    Round,
    Rules,
    ScriptedDecider,
    cards,
    draws,
    events,
    hand,
    pile,
    plays,
    policies,
    position,
)

from unocli.game.cards import parse_cards
from unocli.game.policies import preset
from unocli.reference.decisions import PolicyDecider
from unocli.reference.engine import play_match, play_round

# ---------------------------------------------------------------- scenario constructors and step()


def test_from_deck_takes_a_list_of_card_types_as_well_as_text():
    """``Round.from_deck``: the deck is a scripted deck, top card first (its docstring), as text or as card types;
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
    """``Round.step`` returns False once the round is over (its docstring). Seat 0 plays its last card, R1 on R5 (§3 colour), and
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
        assert match.players == 3
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


def test_a_game_keeps_no_play_by_play_unless_asked():
    """``play_match`` and ``play_round`` take ``log=False`` by default: the rounds carry no events; with
    ``log=True`` every round's events start with its deal (§11.14)."""
    assert play_round(Rules(players=2), policies(2), 2, 0).events == []
    assert play_round(Rules(players=2), policies(2), 2, 0, log=True).events[0].kind is Kind.DEAL
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
    assert draws(rnd) == ([(1, 6, "challenge")] if challenged else [(1, 4, "penalty")])
    assert [e.seat for e in events(rnd, Kind.SKIP)] == [1]  # the victim misses the turn either way


@pytest.mark.parametrize("own_colour", [False, True])
def test_challenge_if_own_colour_only_when_set(own_colour):
    """§13 challenge_if_own_colour: "always challenge when the last card the player of the +4 played before it
    showed the colour under the +4: was of that colour". Two players: seat 0 plays RR, so plays again (§11.13),
    then its W+4 (no red left, an honest play) on its own Reverse. The victim challenges exactly when the knob is on
    (challenge = 0)."""
    rnd = position(
        ["RR W+4 G1", "B3 B4"], "R5", "Y1 Y2 Y3 Y4 Y5 Y6 Y7", pols=[DET, DET.replace(challenge_if_own_colour=own_colour)]
    )
    rnd.step()
    rnd.step()
    assert [p[1] for p in plays(rnd)] == ["RR", "W+4"]
    assert rnd.stats.challenges == int(own_colour)


# ---------------------------------------------------------------- a last +2/+4 (§7, §11.10)


def test_a_last_draw_two_hits_the_next_player_and_the_round_ends():
    """§7: "A Draw Two ... played as the last card still hits the next player, and the cards drawn count
    towards the score"; the round is over, so nobody is left to miss a turn (§9 skips: 0) and no
    decision is asked of the victim (stacking off, §11.8). The victim's draw is a "penalty" (events.Event:
    ``how`` says why cards were drawn). Without stacking a single +2 makes max_stack 1 (§9)."""
    dec = ScriptedDecider()
    rnd = position(["R+2", "B3 B4", "G5 G5"], "R5", "Y1 Y2 Y3", decider=dec)
    stats = rnd.run()
    assert stats.outcome is Outcome.WON and stats.winner == 0
    assert draws(rnd) == [(1, 2, "penalty")]
    assert dec.called("respond") == []
    assert stats.skips == 0 and stats.max_stack == 1
    assert stats.winner_points == 3 + 4 + 1 + 2 + 5 + 5  # B3 B4 + the drawn Y1 Y2, and both G5 (§1 values)
    assert stats.cards_left == [0, 4, 2]
    end = events(rnd, Kind.END)
    assert [(e.seat, e.value, e.how) for e in end] == [(0, 20, "won")]


def test_a_last_stacked_plus4_is_drawn_in_full_without_a_decision():
    """§8 / §11.10: a stacked +4 that empties its player's hand cannot be stacked on or challenged; "the
    next player must take the full pending total" (2 + 4), asked nothing. Chain of two cards: max_stack 2."""
    dec = ScriptedDecider(respond={1: ["W+4"]})
    rnd = position(["R+2 G9", "W+4", "B3"], "R5", "Y1 Y2 Y3 Y4 Y5 Y6 Y7", stacking="progressive", decider=dec)
    stats = rnd.run()
    assert stats.outcome is Outcome.WON and stats.winner == 1
    assert [seat for seat, _ in dec.called("respond")] == [1]
    assert draws(rnd) == [(2, 6, "penalty")]
    assert stats.skips == 0 and stats.max_stack == 2 and stats.challenges == 0


# ---------------------------------------------------------------- PolicyDecider.respond (§10, §12.4, §13)


class FakeRng:
    """A play stream that answers ``below`` from a script and records every call."""

    def __init__(self, below=(), chance=()):
        self.answers, self.chances, self.calls = list(below), list(chance), []

    def below(self, n):
        self.calls.append(("below", n))
        return self.answers.pop(0)

    def chance(self, p):
        self.calls.append(("chance", p))
        return self.chances.pop(0) if self.chances else p >= 1.0


def _respond(pol, stackable, challenge_open, rng):
    rnd = position(["B3 G+2 R+2 W+4", "B4"], "R+2", pols=[pol, DET])
    rnd.rng = rng
    return PolicyDecider().respond(rnd, 0, parse_cards(stackable), challenge_open)


@pytest.mark.parametrize(
    ("stackable", "challenge_open", "k", "expected"),
    [
        ("G+2 R+2", True, 0, ("stack", "G+2")),
        ("G+2 R+2", True, 1, ("stack", "R+2")),
        ("G+2 R+2", True, 2, ("challenge", -1)),
        ("G+2 R+2", True, 3, ("accept", -1)),
        ("G+2 R+2", False, 2, ("accept", -1)),
        ("", True, 0, ("challenge", -1)),
        ("", True, 1, ("accept", -1)),
        ("", False, 0, ("accept", -1)),
    ],
)
def test_uniform_respond_is_one_choice_over_stack_cards_challenge_accept(stackable, challenge_open, k, expected):
    """§10: facing a +2/+4 the random policy chooses uniformly over "each stackable card held, the
    challenge (when one is possible) and accepting"; §12.4: one uniform integer below k, the stackable
    cards first, then the challenge (if open), then accepting. ``respond`` returns ``(STACK, card)``,
    ``(CHALLENGE, -1)`` or ``(ACCEPT, -1)``."""
    rng = FakeRng(below=[k])
    action, card = _respond(preset("random"), stackable, challenge_open, rng)
    n = len(stackable.split()) + int(challenge_open) + 1
    assert rng.calls == [("below", n)]
    want_action, want_card = expected
    assert (action, card) == (want_action, parse_cards(want_card)[0] if isinstance(want_card, str) else want_card)


@pytest.mark.parametrize(
    ("changes", "stackable", "challenge_open", "expected"),
    [
        ({"challenge": 1.0}, "G+2", True, ("challenge", -1)),
        ({"challenge": 1.0}, "", False, ("accept", -1)),  # nothing to challenge: accept
        # by preference: both +2s tie, so do their colours (one card each), so the first in type order, red
        ({"challenge": 0.0, "stack": 1.0}, "G+2 R+2", True, ("stack", "R+2")),
        ({"challenge": 0.0, "stack": 1.0}, "", False, ("accept", -1)),  # stack = 1 but nothing to stack
        ({"challenge": 0.0, "stack": 0.0}, "G+2", False, ("accept", -1)),
    ],
)
def test_knobs_respond_challenges_then_stacks_then_accepts(changes, stackable, challenge_open, expected):
    """§13 "Responding with knobs": challenge (if open) by the challenge knobs, else stack with
    probability ``stack`` when holding stackable cards, else accept."""
    action, card = _respond(DET.replace(**changes), stackable, challenge_open, FakeRng())
    want_action, want_card = expected
    assert (action, card) == (want_action, parse_cards(want_card)[0] if isinstance(want_card, str) else want_card)


# ---------------------------------------------------------------- colours (§13)


@pytest.mark.parametrize(
    ("lacked", "expected"),
    [(RED, RED), (YELLOW, GREEN), (-1, GREEN), (BLUE, BLUE)],
)
def test_next_lacks_names_the_lacked_colour_only_if_held(lacked, expected):
    """§13 colours, next_lacks: "the colour the next player last failed to match, if held (else the
    colour held most)". Seat 0 plays its only legal card, W, on Y5 and keeps R1 G2 G3 B4: a lacked red
    or blue (held once) is named; a lacked yellow (not held) or none falls back to green, held most."""
    rnd = position(["W R1 G2 G3 B4", "B9 B8"], "Y5", pols=[DET.replace(colour="next_lacks"), DET])
    rnd.lacks = [-1, lacked]
    rnd.step()
    assert plays(rnd) == [(0, "W", "hand")] and rnd.colour == expected


def test_most_held_with_no_coloured_card_names_red():
    """§13: "ties go to the first colour in the order red, yellow, green, blue (so a hand with no
    coloured card names red)". Seat 0 plays a W on B5 and keeps only a W."""
    rnd = position(["W W", "B9 B8"], "B5")
    rnd.step()
    assert plays(rnd) == [(0, "W", "hand")] and rnd.colour == RED


# ---------------------------------------------------------------- challenges (§5) and their counters (§9)


def test_two_failed_challenges_count_twice_and_cost_the_victim_six_each():
    """§5: an honest +4 challenged: "the victim draws the penalty and 2 more (6) and misses the turn".
    Two players; seat 0 holds no yellow on Y5, plays W+4 (honest), names yellow again (scripted), so its second
    W+4 is honest too. Seat 1 challenges both: §9 challenges 2, challenges_won
    0, skips 2; each draw is a "challenge" draw; the challenge event names victim, offender, the truth
    (no bluff), the evidence shown (no card of the colour) and the colour in force before the +4."""
    dec = ScriptedDecider(colour=["Y", "Y"], respond=["challenge", "challenge"])
    rnd = position(["W+4 W+4 G1 G2", "B3 B4"], "Y5", " ".join(["B5"] * 6 + ["B6"] * 6), decider=dec)
    rnd.step()
    rnd.step()
    assert [p[1] for p in plays(rnd)] == ["W+4", "W+4"]
    assert draws(rnd) == [(1, 6, "challenge"), (1, 6, "challenge")]
    s = rnd.stats
    assert (s.challenges, s.challenges_won, s.skips, s.plus4_played, s.bluffs) == (2, 0, 2, 2, 0)
    first = events(rnd, Kind.CHALLENGE)[0]
    assert (first.seat, first.target, first.flag, first.cards, first.value) == (1, 0, False, (), YELLOW)


def test_two_caught_bluffs_count_twice_and_cost_the_offender_four_each():
    """§5: a bluff challenged: "the player of the +4 draws the penalty (4) in place of the victim; the
    victim draws nothing, keeps the turn and plays next". Seat 0 bluffs a W+4 holding R1 R2 on R5 (scripted
    bluff), names yellow; seat 1 challenges and wins, then plays Y9 (its highest yellow); seat 0, which drew
    Y3 among its 4 cards, bluffs again on yellow; seat 1 catches it again. §9: challenges 2, challenges_won
    2, bluffs 2; the evidence shown the first time is the offender's red cards."""
    dec = ScriptedDecider(bluff=[True, True], colour=["Y", "B"], respond=["challenge", "challenge"])
    rnd = position(["W+4 W+4 R1 R2", "Y9 Y8 B3"], "R5", "Y3 G1 G2 G3 G4 G5 G6 G7", decider=dec)
    for _ in range(3):
        rnd.step()
    assert plays(rnd) == [(0, "W+4", "hand"), (1, "Y9", "hand"), (0, "W+4", "hand")]
    assert draws(rnd) == [(0, 4, "challenge"), (0, 4, "challenge")]
    s = rnd.stats
    assert (s.challenges, s.challenges_won, s.bluffs) == (2, 2, 2)
    assert rnd.current == 1  # the victim keeps the turn
    first = events(rnd, Kind.CHALLENGE)[0]
    assert (first.seat, first.target, first.flag, first.cards, first.value) == (1, 0, True, tuple(parse_cards("R1 R2")), RED)


# ---------------------------------------------------------------- Uno (§6, §12.5)


def test_forgotten_uno_opponents_asked_in_order_until_one_notices():
    """§12.5: "The opponents are asked one at a time in the direction of play, starting with the seat
    after the player who forgot ... The first one who notices catches the player and nobody further is
    asked; the penalty is drawn once" (uno_penalty cards, drawn as "uno"). Seat 0 plays R9 from two cards
    and forgets; seat 1 does not notice, seat 2 does, seat 3 is not asked."""
    dec = ScriptedDecider(forget_uno=[True], catch_uno=[False, True, True])
    rnd = position(["R9 G1", "B1", "B2", "B3"], "R5", "Y1 Y2 Y3", decider=dec)
    rnd.step()
    assert dec.called("catch_uno") == [(1, 0), (2, 0)]  # (who is asked, whom they would catch)
    assert draws(rnd) == [(0, 2, "uno")]
    assert (rnd.stats.uno_forgotten, rnd.stats.uno_caught) == (1, 1)
    caught = events(rnd, Kind.UNO_CAUGHT)
    assert [(e.seat, e.target) for e in caught] == [(0, 2)]
    assert [e.seat for e in events(rnd, Kind.UNO_FORGOTTEN)] == [0] and events(rnd, Kind.UNO) == []


def test_two_forgotten_calls_count_twice():
    """§9 uno_forgotten / uno_caught count every forgotten call and every catch. Seat 0 forgets twice and
    is caught twice (uno_penalty 1, DET opponents always notice): R9 then R8 from two cards each time."""
    dec = ScriptedDecider(forget_uno=[True, True])
    rnd = position(["R9 G1", "B1 B2", "B3 B4"], "R5", "R8 Y3 Y4 Y5", uno_penalty=1, decider=dec)
    for _ in range(4):
        rnd.step()
    assert [p for p in plays(rnd) if p[0] == 0] == [(0, "R9", "hand"), (0, "R8", "hand")]
    assert (rnd.stats.uno_forgotten, rnd.stats.uno_caught) == (2, 2)


# ---------------------------------------------------------------- the deal (§2, §11.14)


def test_a_dealt_round_keeps_its_play_by_play_by_default_and_names_a_returned_start_plus4():
    """``Round.deal``/``from_deck`` keep the events (``log`` on) unless told not to; §11.14: "A start Wild
    Draw Four goes back into the draw pile, which is shuffled" (a START_RETURN event naming it)."""
    rules = Rules(players=2, hand_size=1)
    rnd = Round.from_deck(rules, policies(2), "R1 G1 W+4 B5 B6")
    assert [e.kind for e in rnd.events[:2]] == [Kind.DEAL, Kind.START_RETURN]
    assert events(rnd, Kind.START_RETURN)[0].cards == tuple(parse_cards("W+4"))
    assert rnd.top != parse_cards("W+4")[0]
    dealt = Round.deal(Rules(players=3), policies(3), 1, 0)
    assert dealt.events[0].kind is Kind.DEAL and dealt.events[0].seat == 0
    assert Round.deal(Rules(players=3), policies(3), 1, 0, log=False).events == []


@pytest.mark.parametrize(
    ("players", "start", "current", "direction", "skips", "after_start"),
    [
        (3, "R+2", 2, 1, 1, [(Kind.DRAW, 1, "start", 2), (Kind.SKIP, 1, "", 0)]),
        (3, "RS", 2, 1, 1, [(Kind.SKIP, 1, "", 0)]),
        (3, "RR", 0, -1, 0, [(Kind.REVERSE, 0, "", 0)]),
        (2, "RR", 0, -1, 1, [(Kind.REVERSE, 0, "", 0)]),
        (3, "W", 1, 1, 0, [(Kind.COLOUR, 1, "", GREEN)]),
        (3, "R5", 1, 1, 0, []),
    ],
)
def test_start_card_effects_in_round_one(players, start, current, direction, skips, after_start):
    """§2 in round r = 1: the dealer is seat (n - 1 + 1) mod n = 0 and seat 1 plays first. The start card
    acts on seat 1 (§2 table): a Draw Two makes it draw 2 ("start") and miss the turn, a Skip makes it
    miss the turn, a Reverse turns play to direction -1 so the dealer (seat 0) moves first (with 2 players
    that also skips seat 1, §9), a Wild lets seat 1 name a colour (most_held: its G1, so green), a number
    does nothing. §9: first_player is the seat that takes the first turn; dealer as above."""
    others = ["G1", "B2", "Y3"][:players]  # dealt from seat 1 on: seat 1 gets G1
    rules = Rules(players=players, hand_size=1)
    rnd = Round.from_deck(rules, policies(players), " ".join([*others, start, "B7 B8 B9"]), round_index=1)
    assert rnd.events[0].hands[1] == tuple(parse_cards("G1"))
    kinds = [(e.kind, e.seat, e.how, len(e.cards) if e.kind is Kind.DRAW else e.value) for e in rnd.events]
    assert kinds[0][:2] == (Kind.DEAL, 1) and kinds[1][:2] == (Kind.START, 1)
    assert kinds[2:] == after_start
    assert (rnd.current, rnd.direction, rnd.stats.skips) == (current, direction, skips)
    assert (rnd.stats.first_player, rnd.stats.dealer) == (current, 0)


# ---------------------------------------------------------------- seven_o (§8, §12.8, §13)


def test_rotations_and_swaps_are_counted_each_time():
    """§9 rotations / swaps count every 0 rotation and 7 exchange. Two players, seven_o: seat 0 plays R0
    (hands pass on), seat 1, now holding Y0 G5 G6, plays Y0 on R0 (same number): two rotations. Then the
    same with R7 and Y7 (DET swaps with the next player): two swaps."""
    rnd = position(["R0 Y0 G5 G6", "B5 B6"], "R3", seven_o=True)
    rnd.step()
    rnd.step()
    assert plays(rnd) == [(0, "R0", "hand"), (1, "Y0", "hand")]
    assert rnd.stats.rotations == 2 and hand(rnd, 0) == ["G5", "G6"] and hand(rnd, 1) == ["B5", "B6"]
    rnd = position(["R7 Y7 G5 G6", "B5 B6"], "R3", seven_o=True)
    rnd.step()
    rnd.step()
    assert plays(rnd) == [(0, "R7", "hand"), (1, "Y7", "hand")]
    assert rnd.stats.swaps == 2 and hand(rnd, 0) == ["G5", "G6"] and hand(rnd, 1) == ["B5", "B6"]
    assert [(e.seat, e.target) for e in events(rnd, Kind.SWAP)] == [(0, 1), (1, 0)]


def test_a_lacked_colour_travels_with_the_hand():
    """§13: a player's lacked colour "travels with the hand when hands are rotated or exchanged". Three
    players, seven_o. A 0 passes every hand to the next seat (direction +1), so seat 1's lacked blue goes
    to seat 2 and seat 2's yellow to seat 0. A 7 (swap with the next seat, DET) exchanges seat 0's and
    seat 1's lacked colours."""
    rnd = position(["R0 G5", "B5 B6", "Y5 Y6"], "R3", seven_o=True)
    rnd.lacks = [GREEN, BLUE, YELLOW]
    rnd.step()
    assert hand(rnd, 1) == ["G5"] and rnd.lacks == [YELLOW, GREEN, BLUE]
    rnd = position(["R7 G5", "B5 B6", "Y5 Y6"], "R3", seven_o=True)
    rnd.lacks = [GREEN, BLUE, YELLOW]
    rnd.step()
    assert hand(rnd, 0) == ["B5", "B6"] and rnd.lacks == [BLUE, GREEN, YELLOW]


def test_a_shown_colour_travels_with_the_hand():
    """§13: the shown colour (the colour in force right after a player's last play) "travels with the hand
    when hands are rotated or exchanged", like the lacked colour. Three players, seven_o, shown colours
    green, blue, yellow. Seat 0 plays R0: its shown colour becomes red, then every hand passes to the next
    seat (direction +1): seat 1 gets red, seat 2 blue, seat 0 yellow. With R7 instead seat 0 swaps with
    the next seat (DET): seat 1 gets red and seat 0 blue; seat 2 keeps yellow."""
    rnd = position(["R0 G5", "B5 B6", "Y5 Y6"], "R3", seven_o=True)
    rnd.shown = [GREEN, BLUE, YELLOW]
    rnd.step()
    assert hand(rnd, 1) == ["G5"] and rnd.shown == [YELLOW, RED, BLUE]
    rnd = position(["R7 G5", "B5 B6", "Y5 Y6"], "R3", seven_o=True)
    rnd.shown = [GREEN, BLUE, YELLOW]
    rnd.step()
    assert hand(rnd, 0) == ["B5", "B6"] and rnd.shown == [BLUE, RED, YELLOW]


@pytest.mark.parametrize(
    ("target", "direction", "k", "expected"),
    [
        ("next", 1, None, 1),
        ("next", -1, None, 3),
        ("fewest", 1, None, 2),  # seats 2 and 3 tie on 2 cards: the first from the next seat
        ("fewest", -1, None, 3),
        ("most", 1, None, 1),
        ("random", 1, 1, 2),  # opponents in order of play from the next seat: 1, 2, 3
        ("random", -1, 0, 3),
    ],
)
def test_swap_target_knob(target, direction, k, expected):
    """§13 swap_target: random (uniform over the opponents), fewest or most cards, or the next player;
    §12.8: ties go to the first such opponent in order of play from the next seat. Seat 0 plays R7; the
    opponents hold 3, 2 and 2 cards (seats 1, 2, 3)."""
    rng = FakeRng(below=[] if k is None else [k])
    rnd = position(
        ["R7 G5", "B5 B6 B7", "Y5 Y6", "G8 G9"],
        "R3",
        seven_o=True,
        direction=direction,
        pols=policies(4, swap_target=target),
        rng=rng,
    )
    assert PolicyDecider().swap_target(rnd, 0) == expected
    assert rng.calls == ([] if k is None else [("below", 3)])


# ---------------------------------------------------------------- stacking decisions (§8, §11.12)


@pytest.mark.parametrize(
    ("victim", "no_action_finish", "offered"),
    [
        ("B+2", False, ["B+2"]),  # a last +2 may be stacked (and wins) when no_action_finish is off
        ("B+2", True, []),  # §11.12: not as the last card
        ("B+2 Y1", True, ["B+2"]),  # with another card left it may
    ],
)
def test_stacking_offers_depend_on_the_victims_last_card(victim, no_action_finish, offered):
    """§8 stacking (plus2: +2 on +2) and §11.12: under no_action_finish a +2 cannot be a player's last
    card, so it is offered for stacking only when the victim would keep another card."""
    dec = ScriptedDecider(respond=["accept"])
    rnd = position(["R+2 G1", victim, "Y5"], "R5", "G2 G3 G4", stacking="plus2", no_action_finish=no_action_finish, decider=dec)
    rnd.step()
    rnd.step()
    assert dec.called("respond") == [(1, (offered, False))]


def test_no_challenge_is_open_on_a_draw_two_after_an_earlier_plus4():
    """§8: the challenge is an option "only against a +4 on top"; an earlier +4, long accepted, does not
    open one on a later +2. Seat 0's honest W+4 (no red on R5) is accepted by seat 1; seat 2 then plays
    G+2 on the named green and seat 0 faces +2 with no challenge open."""
    dec = ScriptedDecider(respond=["accept", "accept"])
    rnd = position(["W+4 G1 G2 G3", "B5 B6", "G+2 B1"], "R5", "Y1 Y2 Y3 Y4 Y5 Y6 Y7", stacking="plus2", decider=dec)
    for _ in range(4):
        rnd.step()
    assert plays(rnd) == [(0, "W+4", "hand"), (2, "G+2", "hand")]
    assert dec.called("respond") == [(1, ([], True)), (0, ([], False))]


# ---------------------------------------------------------------- attack preference (§13)


@pytest.mark.parametrize(
    ("attack_at", "next_hand", "expected"),
    [
        (1, "B1", "R+2"),  # the next player holds 1 card, at most attack_at: attack
        (2, "B1", "R+2"),
        (1, "B1 B2", "R9"),  # holds more than attack_at: play
        (0, "B1", "R9"),  # attack_at 0: never
    ],
)
def test_attack_preference_applies_at_or_below_attack_at(attack_at, next_hand, expected):
    """§13 attack / attack_at: the attack order is "used instead of play when the next player holds at most
    attack_at cards"; "0 never". play = high puts R9 first, attack = draw_two puts R+2 first."""
    pol = DET.replace(attack="draw_two", attack_at=attack_at)
    rnd = position(["R9 R+2 G1", next_hand, "Y5 Y6"], "R5", "G2 G3 G4", pols=[pol, DET, DET])
    rnd.step()
    assert plays(rnd)[0] == (0, expected, "hand")


# ---------------------------------------------------------------- empty draw pile (§7, §11.5)


def test_penalties_reshuffle_card_by_card_and_take_what_there_is():
    """§7 empty draw pile: the discard pile but its top card becomes the draw pile; "If there is nothing
    left to draw, a player who has to draw takes whatever is available". §11.5: a reshuffle can happen in
    the middle of a penalty, and none happens when the discard pile is the top card alone. Two players, no
    draw pile: each R+2 of seat 0 makes seat 1 draw 2, but only the one card under it can be drawn (one
    reshuffle each). §9: reshuffles 2, cards_drawn 2; the draw events record 2 asked, 1 drawn."""
    rnd = position(["R+2 R+2 G1", "B3"], "R5", "")
    rnd.step()
    rnd.step()
    assert plays(rnd) == [(0, "R+2", "hand"), (0, "R+2", "hand")]
    assert draws(rnd) == [(1, 1, "penalty"), (1, 1, "penalty")]
    assert [e.value for e in events(rnd, Kind.DRAW)] == [2, 2]
    assert [e.value for e in events(rnd, Kind.RESHUFFLE)] == [1, 1]
    assert (rnd.stats.reshuffles, rnd.stats.cards_drawn) == (2, 2)
    assert hand(rnd, 1) == cards("B3 R5 R+2")
    assert rnd.discard == parse_cards("R+2") and rnd.draw_pile == []


def test_accepting_a_pending_penalty_draws_it_and_clears_the_chain():
    """§8 stacking: "The first player who cannot or will not stack takes the whole accumulated penalty and
    misses the turn"; then nothing is pending and the chain is over (§11.15 counts both as state). Seat 1
    declines to stack (DET, stack = 0) on seat 0's R+2: it draws 2 as a "penalty", its turn is skipped, and
    seat 2 plays next. Challenged instead (a +4, honest): it draws 6 and the chain is over as well."""
    rnd = position(["R+2 G1", "B+2 B1", "Y5"], "R5", "G2 G3 G4 G5 G6 G7", stacking="plus2")
    rnd.step()
    rnd.step()
    assert draws(rnd) == [(1, 2, "penalty")]
    assert [e.seat for e in events(rnd, Kind.SKIP)] == [1]
    assert (rnd.pending, rnd.chain, rnd.current) == (0, 0, 2)
    dec = ScriptedDecider(respond=["challenge"])
    rnd = position(["W+4 G1", "B+2 B1", "Y5"], "R5", "G2 G3 G4 G5 G6 G7", stacking="same", decider=dec)
    rnd.step()
    rnd.step()
    assert draws(rnd) == [(1, 6, "challenge")]
    assert (rnd.pending, rnd.chain, rnd.current) == (0, 0, 2)


def test_a_dealt_round_asks_the_decider_it_is_given():
    """``Round.deal(..., decider=...)``: the round's choices are asked of that decider (scenario tests
    script choices this way); a full round of four players asks it for cards to play."""
    dec = ScriptedDecider()
    rnd = Round.deal(Rules(players=4), policies(4), 3, 0, decider=dec)
    rnd.run()
    assert dec.called("choose_card")


def test_a_round_reports_its_table_size_and_refuses_a_wrong_number_of_policies():
    """A round's statistics name its table size, and a table with one policy too few is refused in words."""
    rules = Rules(players=3)
    assert play_round(rules, [preset("basic")] * 3, seed=1, index=0).stats.players == 3
    with pytest.raises(ValueError, match=r"^2 policies for 3 players$"):
        play_round(rules, [preset("basic")] * 2, seed=1, index=0)


@pytest.mark.parametrize(("card", "victim_seat"), [("R+2", 1), ("RS", 1), ("RR", 0)])
def test_effect_events_name_their_seat(card, victim_seat):
    """§4 effects in the log: a Draw Two's and a Skip's SKIP event names the player who misses the turn (seat 1),
    a Reverse's REVERSE event the player who reversed (seat 0). Three players, stacking off."""
    rnd = position([f"{card} G1", "B1 B2", "Y1 Y2"], "R5", "Y3 Y4 Y5 Y6")
    rnd.step()
    kind = Kind.REVERSE if card == "RR" else Kind.SKIP
    assert [e.seat for e in events(rnd, kind)] == [victim_seat]


def test_a_lacked_red_is_forgotten_when_red_is_played():
    """§13: a lacked colour "is forgotten once that player plays a card of that colour", red (colour 0) like any
    other: seat 0 lacks red and plays R1 on R5; it then lacks nothing (-1), and a lacked blue stays."""
    for lacked, after in ((RED, -1), (BLUE, BLUE)):
        rnd = position(["R1 G1", "B1 B2", "Y1 Y2"], "R5", "Y3 Y4 Y5 Y6")
        rnd.lacks = [lacked, -1, -1]
        rnd.step()
        assert plays(rnd) == [(0, "R1", "hand")]
        assert rnd.lacks[0] == after


@pytest.mark.parametrize(("bluff", "played"), [(1.0, True), (0.0, False)])
def test_a_drawn_plus4_can_be_bluffed_when_the_last_card_is_an_action(bluff, played):
    """§3, §11.12: under no_action_finish seat 0's only card, R+2, cannot be its last play, so it draws; the drawn
    W+4 is not legal (it holds red) but may be played as a bluff (docs/rules.md §13 `bluff`)."""
    pols = [DET.replace(bluff=bluff), DET, DET]
    rnd = position(["R+2", "B1 B2", "Y1 Y2"], "R5", "W+4 Y3 Y4 Y5 Y6", no_action_finish=True, pols=pols)
    rnd.step()
    assert plays(rnd) == ([(0, "W+4", "drawn")] if played else [])
    assert rnd.stats.bluffs == int(played)


def test_a_player_never_jumps_in_on_its_own_card():
    """§11.9: the jump-in candidates are the players other than the one who played the top card. Seat 0 plays R5
    holding a second R5; nobody else holds one, so nobody is asked and seat 1 plays next."""
    dec = ScriptedDecider(jump_in=[True, True, True])
    rnd = position(["R5 R5 G1", "B5 Y1", "Y2 Y3"], "R4", jump_in=True, decider=dec)
    rnd.step()
    assert plays(rnd) == [(0, "R5", "hand")]
    assert dec.called("jump_in") == [] and rnd.current == 1


def test_two_player_reverses_each_count_a_skip():
    """§9 skips counts every two-player Reverse (§11.13: the other player loses the turn): seat 0 plays RR, plays
    again, plays GR; two skips."""
    pols = [DET.replace(play="reverse>high"), DET]
    rnd = position(["RR GR Y1 Y2", "B1 B2"], "R5", "Y3 Y4 Y5", pols=pols)
    rnd.step()
    rnd.step()
    assert plays(rnd) == [(0, "RR", "hand"), (0, "GR", "hand")]
    assert rnd.stats.skips == 2


@pytest.mark.parametrize("k", [0, 1, 2])
def test_the_random_play_order_draws_the_card_uniformly(k):
    """§13 play = random: the card is the k-th of the legal options (sorted, with multiplicity), k drawn with
    below(number of options). On R5, seat 0 holding R1 R2 G5 B7 has the options R1, R2, G5."""
    rng = FakeRng(below=[k])
    rnd = position(["R1 R2 G5 B7", "B1 B2"], "R5", "Y3 Y4 Y5", pols=[DET.replace(play="random"), DET], rng=rng)
    options = rnd.legal_cards(0)
    assert PolicyDecider().choose_card(rnd, 0, options) == options[k]
    assert sorted(options) == options and len(options) == 3 and rng.calls == [("below", 3)]
