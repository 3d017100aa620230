"""Scenario tests for the §9 quantities ``first_to_one`` and ``max_draw`` (reference engine).

Each expected value is worked out by hand from docs/rules.md; the kernel is
held to the same values game by game by tests/test_differential.py, which
compares every row field, these two included.
"""

from __future__ import annotations

from scenario_helpers import DET, ScriptedDecider, cards, hand, position, steps

from unocli.game.counters import Outcome

# ================================================================ first_to_one


def test_first_to_one_is_the_first_seat_left_with_one_card_even_when_another_wins():
    """Seat 0 plays R9 and holds B1 (first to one card); seat 1 plays R8 and holds R7 (second, not recorded);
    seat 0 cannot answer R8 (B1, then a drawn Y1), and seat 1 wins with R7: a comeback."""
    rnd = position(["R9 B1", "R8 R7"], "R5", "Y1 Y2 Y3")
    stats = rnd.run()
    assert stats.outcome is Outcome.WON
    assert stats.winner == 1
    assert stats.first_to_one == 0
    assert stats.as_row()["first_to_one"] == 0


def test_first_to_one_is_the_winner_when_nobody_catches_up():
    """Seat 0 plays R9 (one card left, first) then R8 and wins; seat 1 never gets below two cards."""
    rnd = position(["R9 R8", "G1 G2 G3"], "R5", "Y1 Y2 Y3")
    stats = rnd.run()
    assert (stats.winner, stats.first_to_one) == (0, 0)


def test_first_to_one_is_minus_one_when_nobody_reached_one_card():
    """max_turns = 1: seat 0 plays R3 and keeps two cards; the round is capped before anyone holds one."""
    rnd = position(["R1 R2 R3", "G1 G2 G3"], "R5", "Y1 Y2", max_turns=1)
    stats = rnd.run()
    assert stats.outcome is Outcome.CAPPED
    assert stats.first_to_one == -1


def test_first_to_one_counts_only_a_players_own_play_not_a_swap():
    """seven_o: seat 0 plays R7 from three cards (two left) and swaps with the next seat's single G1. Seat 0 now
    holds one card, but not by its own play; seat 1 was dealt one card. Nobody has been left with one card by a
    play yet."""
    rnd = position(["R7 B1 B2", "G1"], "R5", "Y1 Y2", seven_o=True, pols=[DET.replace(swap_target="next")] * 2)
    assert steps(rnd, 1)
    assert hand(rnd, 0) == ["G1"]
    assert rnd.stats.first_to_one == -1


def test_first_to_one_counts_a_stacked_answer():
    """§11.10: a stacked card is a card played. Seat 0 plays R+2 from three cards; seat 1 answers with B+2 from
    two and is left with one card: the first to one is seat 1."""
    dec = ScriptedDecider(respond={1: ["B+2"], 2: ["accept"]})
    rnd = position(["R+2 G1 G2", "B+2 Y1", "Y2 Y3 Y4"], "R5", "B1 B2 B3 B4 B5", stacking="plus2", decider=dec)
    assert steps(rnd, 3)
    assert rnd.stats.first_to_one == 1


# ================================================================ max_draw


def test_max_draw_is_a_whole_stacked_penalty():
    """§8: a +2 chain of three cards (2, 4, 6 pending) ends with seat 3 drawing all 6 at once."""
    dec = ScriptedDecider(respond={1: ["B+2"], 2: ["G+2"]})
    rnd = position(["R+2 G1", "B+2 Y1", "G+2 Y2", "Y3 W+4"], "R5", "B1 B2 B3 B4 B5 B6 B7", stacking="plus2", decider=dec)
    assert steps(rnd, 4)
    assert (rnd.stats.cards_drawn, rnd.stats.max_draw) == (6, 6)


def test_max_draw_counts_a_failed_challenge_penalty_plus_two():
    """§5: an honest +4 challenged costs the victim 4 + 2 = 6 cards at once."""
    dec = ScriptedDecider(colour=["B"], respond=["challenge"])
    rnd = position(["W+4 G1", "Y1 W+4", "Y2"], "R5", "B1 B2 B3 B4 B5 B6 B7", stacking="same", decider=dec)
    assert steps(rnd, 2)
    assert rnd.stats.max_draw == 6


def test_max_draw_counts_an_uno_penalty():
    """§6: seat 0 plays R2, forgets Uno, is caught and draws uno_penalty = 2 cards."""
    dec = ScriptedDecider(forget_uno=[True])
    rnd = position(["R1 R2", "G1 G2 G3"], "R5", "B1 B2 B3 B4", decider=dec)
    assert steps(rnd, 1)
    assert hand(rnd, 0) == cards("R1 B1 B2")
    assert (rnd.stats.uno_caught, rnd.stats.max_draw) == (1, 2)


def test_max_draw_leaves_out_draws_on_a_turn():
    """draw_until_playable: seat 0 draws G1, G2 and R9 on its turn (3 cards drawn) and plays R9; no penalty, so
    max_draw stays 0."""
    rnd = position(["B1 B2", "G5 G6"], "R5", "Y1 Y2 R9 Y3", draw_until_playable=True)
    assert steps(rnd, 1)
    assert (rnd.stats.cards_drawn, rnd.stats.max_draw) == (3, 0)


def test_max_draw_is_what_the_piles_held():
    """§11.5: seat 0's R+2 with an empty draw pile: the discard under the +2 (R5) is reshuffled and drawn, and
    then nothing is left: seat 1 draws 1 card, not 2."""
    rnd = position(["R+2 G1", "Y1 Y2"], "R5", "")
    assert steps(rnd, 1)
    assert (rnd.stats.cards_drawn, rnd.stats.max_draw) == (1, 1)


def test_max_draw_is_the_largest_not_the_sum():
    """Stacking off: seat 0's R+2 (seat 1 draws 2 and is skipped), then seat 2's G+2 (seat 0 draws 2): 4 cards
    drawn as penalties, 2 at most at once."""
    rnd = position(["R+2 G1 G2", "Y1 Y2 Y3", "G+2 B4 Y5"], "R5", "B1 B2 B3 B4 B5 B6")
    assert steps(rnd, 2)
    assert rnd.current == 1
    assert rnd.stats.cards_drawn == 4
    assert rnd.stats.max_draw == 2
