"""Policy knobs against their definitions (issue 16 item 3).

Each test builds a position in the reference engine (the oracle the kernel is
checked against game by game), lets the knob under test make one decision, and
compares it with the decision the knob's description calls for. The
descriptions are the help texts in unocli/game/policies.py and the fuller
wording of docs/rules.md §13; each test quotes the text its expectation comes
from. Expected values are worked out from that text by hand, never read off
the engine. Other players are the deterministic :data:`scenario_helpers.DET`;
decisions that are not under test are scripted with a ScriptedDecider.
"""

from __future__ import annotations

import pytest
from scenario_helpers import BLUE, DET, GREEN, Kind, ScriptedDecider, cards, events, hand, plays, position, steps

# ================================================================ colour = next_lacks
#
# policies.py: "next_lacks (the colour the next player last could not match, if held; else most held)".
# docs/rules.md §13: the lacked colour "is the current colour at that player's most recent turn on which they
# had no legal play and did not bluff (so had to draw); it is forgotten once that player plays a card of that
# colour, and it travels with the hand when hands are rotated or exchanged."
#
# The positions below have three players: seat 0 (the knob under test) plays a Wild, and seat 1, the next player,
# is the one whose lacked colour counts. Seat 0 holds three greens and one blue besides the Wild, so `most_held`
# names green and a remembered blue is a different answer.


def _wild_colour(rnd, k: int) -> int:
    """Play ``k`` steps; the last is seat 0 playing its Wild. Returns the colour it named."""
    assert steps(rnd, k)
    assert plays(rnd)[-1] == (0, "W", "hand")
    return rnd.colour


@pytest.mark.parametrize(("knob", "expected"), [("next_lacks", BLUE), ("most_held", GREEN)])
def test_next_lacks_names_the_colour_the_next_player_could_not_match(knob, expected):
    """Seat 1 cannot match blue (B5) and draws; seat 2 plays B7; seat 0 plays its Wild.

    next_lacks: seat 1 last could not match blue, and seat 0 holds a blue card -> blue.
    most_held: three greens against one blue -> green.
    """
    dec = ScriptedDecider(choose_card={0: ["W"]})
    pols = [DET.replace(colour=knob), DET, DET]
    rnd = position(["W G1 G2 G3 B1", "R1 R2", "B7 G4"], "B5", "Y9 Y8 Y7", current=1, pols=pols, decider=dec)
    assert _wild_colour(rnd, 3) == expected


def test_next_lacks_falls_back_to_most_held_when_the_lacked_colour_is_not_held():
    """ "..., if held; else most held": seat 1 lacks blue, seat 0 holds no blue -> green (held most)."""
    pols = [DET.replace(colour="next_lacks"), DET, DET]
    rnd = position(["W G1 G2 G3 Y1", "R1 R2", "B7 G4"], "B5", "Y9 Y8 Y7", current=1, pols=pols)
    assert _wild_colour(rnd, 3) == GREEN


@pytest.mark.parametrize(("kept", "expected"), [("B2", GREEN), ("R3", BLUE)])
def test_next_lacks_memory_is_cleared_when_that_player_plays_that_colour(kept, expected):
    """ "it is forgotten once that player plays a card of that colour".

    1. seat 1 cannot match B5: it lacks blue, draws ``kept`` and keeps it (play_drawn 0);
    2. seat 2 plays B9;  3. seat 0 plays B3 (scripted);
    4. seat 1 plays ``kept``: B2 is blue, so blue is forgotten; R3 (on B3 by number) is red, so blue is kept;
    5. seat 2 plays B8 on B2, or cannot match R3 and draws Y8;
    6. seat 0 plays its Wild: blue forgotten -> most held, green; blue remembered and held (B1) -> blue.
    """
    dec = ScriptedDecider(choose_card={0: ["B3", "W"]})
    pols = [DET.replace(colour="next_lacks"), DET.replace(play_drawn=0.0), DET]
    hands = ["W G1 G2 G3 B1 B3", "R1 R2 R4", "B9 B8 G7 G6"]
    rnd = position(hands, "B5", f"{kept} Y8 Y7 Y6", current=1, pols=pols, decider=dec)
    assert steps(rnd, 3)
    assert plays(rnd) == [(2, "B9", "hand"), (0, "B3", "hand")]
    assert kept in hand(rnd, 1)
    assert steps(rnd, 1)
    assert plays(rnd)[-1] == (1, kept, "hand")
    assert _wild_colour(rnd, 2) == expected


def test_next_lacks_memory_is_cleared_by_a_drawn_card_played_at_once():
    """Seat 1 cannot match B5 and draws B2, which it plays at once (play_drawn 1): it has played blue, so blue is
    forgotten; seat 2 plays B9, and seat 0's Wild names the colour it holds most, green."""
    dec = ScriptedDecider(choose_card={0: ["W"]})
    pols = [DET.replace(colour="next_lacks"), DET, DET]
    rnd = position(["W G1 G2 G3 B1", "R1 R2 R4", "B9 G7 G6"], "B5", "B2 Y8 Y7", current=1, pols=pols, decider=dec)
    assert steps(rnd, 1)
    assert plays(rnd) == [(1, "B2", "drawn")]
    assert _wild_colour(rnd, 3) == GREEN


def test_next_lacks_memory_travels_with_the_hand_in_a_swap():
    """ "it travels with the hand when hands are rotated or exchanged" (seven_o).

    1. seat 2 cannot match B5: its hand lacks blue; it draws Y9 and passes;
    2. seat 0 plays B8;  3. seat 1 plays B7 and swaps with the next player, seat 2 (swap_target next):
       seat 1 now holds the hand that lacks blue;
    4. seat 2 (now holding Y5 Y6) cannot match blue, draws Y8;
    5. seat 0 plays its Wild: its next player, seat 1, holds the hand that lacked blue, and seat 0 holds B1 -> blue.
    """
    dec = ScriptedDecider(choose_card={0: ["B8", "W"]})
    pols = [DET.replace(colour="next_lacks"), DET, DET]
    hands = ["B8 W G1 G2 G3 B1", "B7 Y5 Y6", "R1 R2 R3"]
    rnd = position(hands, "B5", "Y9 Y8 Y7", current=2, seven_o=True, pols=pols, decider=dec)
    assert steps(rnd, 3)
    assert rnd.stats.swaps == 1 and hand(rnd, 1) == cards("R1 R2 R3 Y9")
    assert _wild_colour(rnd, 2) == BLUE


# ================================================================ swap_target
#
# policies.py: "whom a 7 swaps with: random, fewest, most or next (cards)"; docs/rules.md §13: "opponent a 7
# exchanges hands with: uniform; fewest cards; most cards; the next player".


@pytest.mark.parametrize(
    ("target", "direction", "partner"),
    [
        ("fewest", 1, 2),  # opponents hold 3, 1 and 5 cards
        ("most", 1, 3),
        ("next", 1, 1),
        ("next", -1, 3),  # the next player in the direction of play
        ("fewest", -1, 2),
        ("most", -1, 3),
    ],
)
def test_swap_target_picks_the_opponent_its_name_says(target, direction, partner):
    hands = ["R7 G5 G6", "Y1 Y2 Y3", "G1", "B1 B2 B3 B4 B5"]
    before = [cards(h) for h in hands]
    pols = [DET.replace(swap_target=target), DET, DET, DET]
    rnd = position(hands, "R5", seven_o=True, direction=direction, pols=pols)
    assert steps(rnd, 1)
    assert [(e.seat, e.target) for e in events(rnd, Kind.SWAP)] == [(0, partner)]
    assert hand(rnd, 0) == before[partner]
    assert hand(rnd, partner) == cards("G5 G6")


def test_swap_target_fewest_counts_opponents_only():
    """Seat 0 is left with 1 card, fewer than anyone: "fewest" still means the opponent with fewest (seat 2, 2)."""
    pols = [DET.replace(swap_target="fewest"), DET, DET, DET]
    rnd = position(["R7 G5", "Y1 Y2 Y3", "G1 G2", "B1 B2 B3 B4 B5"], "R5", seven_o=True, pols=pols)
    assert steps(rnd, 1)
    assert [(e.seat, e.target) for e in events(rnd, Kind.SWAP)] == [(0, 2)]
    assert hand(rnd, 0) == cards("G1 G2")


# ================================================================ attack / attack_at
#
# policies.py: attack is the "preference used instead of 'play' when the next player holds at most attack_at
# cards"; attack_at is the "hand size of the next player at or below which 'attack' applies (0: never)".
# Seat 0 plays numbers highest first (play = high) but a Draw Two first when attacking (attack = draw_two).


@pytest.mark.parametrize(
    ("attack_at", "next_holds", "expected"),
    [
        (2, 1, "R+2"),  # below the threshold
        (2, 2, "R+2"),  # at it: "at most"
        (2, 3, "R9"),  # above it: the 'play' order
        (0, 1, "R9"),  # 0: never
        (108, 7, "R+2"),
    ],
)
def test_attack_applies_when_the_next_player_holds_at_most_attack_at(attack_at, next_holds, expected):
    nxt = " ".join(f"Y{v}" for v in range(1, next_holds + 1))
    pols = [DET.replace(play="high", attack="draw_two", attack_at=attack_at), DET, DET]
    rnd = position(["R9 R+2 G3 G4", nxt, "B1 B2 B3 B4 B5 B6"], "R5", pols=pols)
    assert steps(rnd, 1)
    assert plays(rnd) == [(0, expected, "hand")]


def test_attack_looks_at_the_next_player_in_the_direction_of_play():
    """Seat 1 holds 1 card, seat 2 holds 6. Clockwise the next player is seat 1 (attack: R+2); after a Reverse
    (direction -1) it is seat 2 (the 'play' order: R9)."""
    pols = [DET.replace(play="high", attack="draw_two", attack_at=2), DET, DET]
    hands = ["R9 R+2 G3 G4", "Y1", "B1 B2 B3 B4 B5 B6"]
    for direction, expected in ((1, "R+2"), (-1, "R9")):
        rnd = position(hands, "R5", direction=direction, pols=pols)
        assert steps(rnd, 1)
        assert plays(rnd) == [(0, expected, "hand")], direction


# ================================================================ informed challenges
#
# policies.py: challenge_if_hand: "always challenge when the +4's player held at least this many cards (0: off)";
# docs/rules.md §13: "... held at least this many cards before playing it". challenge_if_own_colour: "always
# challenge when the +4's player's own last play showed the colour under the +4" (so also when it played the very
# card under the +4). The victim's `challenge` probability is 0, so any challenge comes from the knob under test.
# Seat 0 holds no red on R5: its +4 is honest. tests/test_situational_knobs.py has the other informed rules.


@pytest.mark.parametrize(
    ("threshold", "challenges"),
    [
        (3, 1),
        (4, 1),  # seat 0 held exactly 4 cards (W+4 G1 G2 G3) before playing the +4: "at least"
        (5, 0),
        (0, 0),  # 0: off
    ],
)
def test_challenge_if_hand(threshold, challenges):
    pols = [DET, DET.replace(challenge=0.0, challenge_if_hand=threshold), DET]
    rnd = position(["W+4 G1 G2 G3", "Y1 Y2 Y3", "B1 B2"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols)
    assert steps(rnd, 1)
    assert plays(rnd) == [(0, "W+4", "hand")]
    assert [(e.seat, e.target) for e in events(rnd, Kind.CHALLENGE)] == [(1, 0)] * challenges
    assert rnd.stats.challenges == challenges
    # An honest +4 challenged costs the challenger 6 cards, accepted 4.
    assert len(hand(rnd, 1)) == 3 + (6 if challenges else 4)


def test_challenge_if_own_colour_when_the_offender_played_the_card_under_it():
    """Two players: seat 0 plays RS (seat 1 is skipped), then W+4 on its own RS: seat 1 challenges."""
    pols = [DET, DET.replace(challenge=0.0, challenge_if_own_colour=True)]
    rnd = position(["RS W+4 G1 G2", "Y1 Y2 Y3"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols)
    assert steps(rnd, 2)
    assert plays(rnd) == [(0, "RS", "hand"), (0, "W+4", "hand")]
    assert [(e.seat, e.target) for e in events(rnd, Kind.CHALLENGE)] == [(1, 0)]


@pytest.mark.parametrize("own_colour", [True, False])
def test_challenge_if_own_colour_not_when_someone_else_played_it(own_colour):
    """Seat 1 plays R6, then seat 0 plays W+4 on it: seat 0 has played nothing yet, so its last play showed no
    colour and the knob does not apply (and `challenge` 0 never challenges)."""
    pols = [DET, DET.replace(challenge=0.0, challenge_if_own_colour=own_colour)]
    rnd = position(["W+4 G1 G2", "R6 Y1 Y2"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", current=1, pols=pols)
    assert steps(rnd, 2)
    assert plays(rnd) == [(1, "R6", "hand"), (0, "W+4", "hand")]
    assert events(rnd, Kind.CHALLENGE) == []
