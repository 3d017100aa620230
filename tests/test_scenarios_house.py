"""Scenario tests for docs/rules.md §8 (house rules) and §11.8-§11.12."""

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
    ScriptedDecider,
    cards,
    events,
    hand,
    names,
    pile,
    plays,
    position,
    step,
    steps,
)


def offered(dec: ScriptedDecider, k: int = 0) -> tuple[int, list[str], bool]:
    """(seat, stackable cards, challenge open) of the k-th penalty decision."""
    seat, (stackable, challenge_open) = dec.called("respond")[k]
    return seat, stackable, challenge_open


# ================================================================ stacking


@pytest.mark.parametrize(
    ("mode", "first", "declared", "expected"),
    [
        ("off", "R+2", None, None),  # no decision at all: the victim draws at once
        ("plus2", "R+2", None, "R+2 B+2"),
        ("plus2", "W+4", "R", ""),
        ("same", "R+2", None, "R+2 B+2"),
        ("same", "W+4", "R", "W+4"),
        ("progressive", "R+2", None, "R+2 B+2 W+4"),
        ("progressive", "W+4", "R", "W+4"),
        ("any", "R+2", None, "R+2 B+2 W+4"),
        ("any", "W+4", "R", "R+2 W+4"),
        ("any", "W+4", "B", "B+2 W+4"),
        ("any", "W+4", "G", "W+4"),
    ],
)
def test_s8_stacking_variants_offer_the_right_cards(mode, first, declared, expected):
    """§8 `stacking`: `plus2`: +2 on +2; `same`: "+2 on +2, +4 on +4"; `progressive`: "as `same`, and +4 on +2"; `any`:
    "as `progressive`, and +2 on +4 if the +2 is of the colour named for the +4". §11.10: "+2 on +2" allows "a +2
    whatever its colour"; "+4 on +4" and "+4 on +2" allow "every +4"; "+2 on +4" (`any`) requires "a +2 of the named
    colour"."""
    colours = [declared] if declared else []
    dec = ScriptedDecider(choose_card=[first], colour=colours, respond=["accept"])
    top = "R5" if first == "R+2" else "B5"  # on B5 seat 0 holds no blue: its +4 is legal
    rnd = position(["R+2 W+4 G1", "B+2 R+2 W+4 Y3", "Y4"], top, "G2 G3 G4 G5 G6 G7", stacking=mode, decider=dec)
    assert step(rnd)
    if expected is None:
        assert dec.called("respond") == []
        assert hand(rnd, 1) == cards("B+2 R+2 W+4 Y3 G2 G3")
        assert rnd.current == 2
        return
    assert rnd.pending == (2 if first == "R+2" else 4)
    assert rnd.current == 1
    assert step(rnd)
    seat, stackable, challenge_open = offered(dec)
    assert seat == 1
    assert stackable == (cards(expected) if expected else [])
    assert challenge_open is (first == "W+4")  # a +4 played normally can be challenged
    # Declining to stack: the victim draws the whole pending penalty and loses the turn.
    n = 2 if first == "R+2" else 4
    assert hand(rnd, 1) == cards("B+2 R+2 W+4 Y3 " + " ".join("G2 G3 G4 G5 G6 G7".split()[:n]))
    assert rnd.pending == 0
    assert rnd.current == 2


def test_s8_stacking_chain_last_player_draws_whole_penalty():
    """§8: "The penalty then grows by that card's value (2 or 4) and moves on to the next player. The first player who cannot or
    will not stack takes the whole accumulated penalty and misses the turn." §11.10: "A stacked card counts as a card played and
    as a turn"; §9 max_stack counts the +2/+4 cards of the chain; §6 a stacked response leaving one card calls Uno."""
    dec = ScriptedDecider(respond={1: ["B+2"], 2: ["G+2"]})
    rnd = position(["R+2 G1", "B+2 Y1", "G+2 Y2", "Y3 W+4"], "R5", "B1 B2 B3 B4 B5 B6 B7", stacking="plus2", decider=dec)
    assert steps(rnd, 4)
    assert plays(rnd) == [(0, "R+2", "hand"), (1, "B+2", "stacked"), (2, "G+2", "stacked")]
    assert [e.value for e in events(rnd, Kind.PENDING)] == [2, 4, 6]
    assert [e.seat for e in events(rnd, Kind.PENDING)] == [1, 2, 3]  # whom the penalty passes to
    assert offered(dec, 2) == (3, [], False)  # W+4 cannot go on a +2 under "plus2"
    assert hand(rnd, 3) == cards("Y3 W+4 B1 B2 B3 B4 B5 B6")
    assert rnd.pending == 0
    assert rnd.current == 0
    assert rnd.colour == GREEN
    s = rnd.stats
    assert (s.cards_played, s.turns, s.max_stack, s.cards_drawn) == (3, 3, 3, 6)
    assert [e.seat for e in events(rnd, Kind.UNO)] == [0, 1, 2]


def test_s11_10_penalty_passes_to_next_seat_from_stacker():
    """§11.10: "the penalty moves to the seat after the stacker" — in direction -1 here."""
    dec = ScriptedDecider(respond={2: ["Y+2"]})
    rnd = position(["R+2 G1", "Y1", "Y+2 Y2"], "R5", "B1 B2 B3 B4", stacking="plus2", direction=-1, decider=dec)
    assert steps(rnd, 3)
    assert [seat for seat, _ in dec.called("respond")] == [2, 1]
    assert hand(rnd, 1) == cards("Y1 B1 B2 B3 B4")
    assert rnd.current == 0


def test_s8_stacked_plus4_ignores_restriction_declares_colour_not_challengeable():
    """§8: "A Wild Draw Four played as a stacked answer is exempt from the colour rule and is not open to challenge." §11.10: "a
    stacked +4 names a new colour". Seat 1 holds red (the current colour) and still stacks its +4: no bluff."""
    dec = ScriptedDecider(colour={0: ["R"], 1: ["B"]}, respond={1: ["W+4"], 2: ["accept"]})
    rnd = position(["W+4 G1", "R1 W+4 B2", "Y1 W+4", "G9"], "R5", "G1 G2 G3 G4 G5 G6 G7 G8 G9", stacking="same", decider=dec)
    assert steps(rnd, 3)
    assert offered(dec, 0) == (1, ["W+4"], True)
    assert offered(dec, 1) == (2, ["W+4"], False)  # the stacked +4 on top cannot be challenged
    assert rnd.colour == BLUE
    assert hand(rnd, 2) == cards("Y1 W+4 G1 G2 G3 G4 G5 G6 G7 G8")
    assert rnd.current == 3
    s = rnd.stats
    assert (s.plus4_played, s.bluffs, s.challenges, s.max_stack) == (2, 0, 0, 2)


def test_s8_plus4_on_plus2_not_challengeable():
    """§8: challenge is open "only against a +4 on top that was not itself played as a stacked answer"; "+4 on +2"
    under progressive is a stacked answer."""
    dec = ScriptedDecider(respond={1: ["W+4"]}, colour=["Y"])
    rnd = position(["R+2 G1", "W+4 R1", "B1"], "R5", "G1 G2 G3 G4 G5 G6 G7", stacking="progressive", decider=dec)
    assert steps(rnd, 3)
    assert offered(dec, 1) == (2, [], False)
    assert hand(rnd, 2) == cards("B1 G1 G2 G3 G4 G5 G6")
    assert rnd.colour == YELLOW
    assert rnd.current == 0


def test_s8_any_plus2_on_plus4_in_declared_colour():
    """§8 `any`: "as `progressive`, and +2 on +4 if the +2 is of the colour named for the +4"; the penalty grows to 6
    and passes on."""
    dec = ScriptedDecider(colour=["R"], respond={1: ["R+2"], 2: ["accept"]})
    rnd = position(["W+4 G1", "R+2 B+2 Y7", "Y1"], "B5", "G1 G2 G3 G4 G5 G6 G7", stacking="any", decider=dec)
    # Seat 0 holds no blue: its +4 is legal.
    assert steps(rnd, 3)
    assert plays(rnd)[1] == (1, "R+2", "stacked")
    assert hand(rnd, 2) == cards("Y1 G1 G2 G3 G4 G5 G6")
    assert rnd.colour == RED
    assert rnd.stats.max_stack == 2
    assert rnd.current == 0


@pytest.mark.parametrize("mode", ["plus2", "same", "progressive", "any"])
def test_s8_stacking_bluff_challenged_offender_draws_pending(mode):
    """§8: "As long as a penalty is pending, the targeted player has exactly three options: stack, accept (draw), or challenge,
    the last one only against a +4 on top that was not itself played as a stacked answer. If the challenge succeeds, the player of
    that +4 takes the whole pending penalty" The victim plays next (§5)."""
    dec = ScriptedDecider(bluff=[True], colour=["G"], respond=["challenge"])
    rnd = position(["R1 W+4 G1", "Y1 G4", "Y2"], "R5", "B1 B2 B3 B4 B5 B6", stacking=mode, decider=dec)
    assert steps(rnd, 2)
    assert hand(rnd, 0) == cards("R1 G1 B1 B2 B3 B4")
    assert hand(rnd, 1) == cards("Y1 G4")
    assert rnd.pending == 0
    assert rnd.current == 1
    assert rnd.colour == GREEN
    s = rnd.stats
    assert (s.bluffs, s.challenges, s.challenges_won, s.max_stack) == (1, 1, 1, 1)
    assert step(rnd)
    assert plays(rnd)[-1] == (1, "G4", "hand")


def test_s8_stacking_honest_challenged_victim_draws_pending_plus_two():
    """§8: "if it fails, the challenger takes the pending penalty plus 2" and loses the turn."""
    dec = ScriptedDecider(colour=["B"], respond=["challenge"])
    rnd = position(["W+4 G1", "Y1 W+4", "Y2"], "R5", "B1 B2 B3 B4 B5 B6 B7", stacking="same", decider=dec)
    assert steps(rnd, 2)
    assert offered(dec) == (1, ["W+4"], True)
    assert hand(rnd, 1) == cards("Y1 W+4 B1 B2 B3 B4 B5 B6")
    assert rnd.current == 2
    assert rnd.colour == BLUE
    s = rnd.stats
    assert (s.challenges, s.challenges_won, s.cards_drawn) == (1, 0, 6)


def test_s11_10_final_stacked_card_cannot_be_stacked_on():
    """§8: "Nobody may stack on a card that empties its player's hand." §11.10: "A +2 or +4 that empties its player's hand,
    stacked or not, cannot be stacked on: the next player must take the full pending total" """
    dec = ScriptedDecider(respond={1: ["B+2"]})
    rnd = position(["R+2 G1", "B+2", "Y1 G+2"], "R5", "B1 B2 B3 B4 B5", stacking="plus2", decider=dec)
    stats = rnd.run()
    assert (stats.outcome, stats.winner) == (Outcome.WON, 1)
    assert [seat for seat, _ in dec.called("respond")] == [1]  # seat 2 is offered nothing
    assert hand(rnd, 2) == cards("Y1 G+2 B1 B2 B3 B4")
    assert stats.max_stack == 2
    assert stats.winner_points == 1 + (1 + 20 + 1 + 2 + 3 + 4)


def test_s11_10_final_stacked_plus4_not_challengeable():
    """§11.10: a final stacked +4: the next player faces the whole pending total (no stack, no challenge)."""
    dec = ScriptedDecider(colour=["R", "G"], respond={1: ["W+4"]})
    rnd = position(["W+4 G1", "W+4", "Y1 W+4"], "B5", "B1 B2 B3 B4 B5 B6 B7 B8 B9", stacking="same", decider=dec)
    stats = rnd.run()
    assert stats.winner == 1
    assert [seat for seat, _ in dec.called("respond")] == [1]
    assert hand(rnd, 2) == cards("Y1 W+4 B1 B2 B3 B4 B5 B6 B7 B8")
    assert (stats.challenges, stats.max_stack, stats.plus4_played) == (0, 2, 2)


def test_s11_10_final_non_stacked_plus4_may_still_be_challenged():
    """§11.10: "a last +4 that was not a stacked answer may still be challenged" (and not stacked on, though the
    victim holds one)."""
    dec = ScriptedDecider(respond=["challenge"])
    rnd = position(["W+4", "Y1 W+4", "Y2"], "R5", "B1 B2 B3 B4 B5 B6 B7", stacking="same", decider=dec)
    stats = rnd.run()
    assert offered(dec) == (1, [], True)
    assert stats.winner == 0
    assert hand(rnd, 1) == cards("Y1 W+4 B1 B2 B3 B4 B5 B6")
    assert (stats.challenges, stats.challenges_won) == (1, 0)


def test_s11_10_final_normal_plus2_under_stacking_cannot_be_stacked_on():
    """§11.10: "A +2 or +4 that empties its player's hand, stacked or not, cannot be stacked on" — the victim holding a +2 just
    draws 2."""
    dec = ScriptedDecider()
    rnd = position(["R+2", "B+2 Y1", "Y2"], "R5", "G1 G2 G3", stacking="plus2", decider=dec)
    stats = rnd.run()
    assert (stats.outcome, stats.winner) == (Outcome.WON, 0)
    assert dec.called("respond") == []
    assert hand(rnd, 1) == cards("B+2 Y1 G1 G2")
    assert stats.winner_points == 20 + 1 + 1 + 2 + 2
    assert stats.max_stack == 1


def test_s11_7_no_pending_decision_once_capped():
    """§11.7: "Before each turn and before each decision on a pending penalty, the engine checks whether
    `turns >= max_turns`; if so the round ends capped." """
    dec = ScriptedDecider()
    rnd = position(["R+2 G1", "B+2 Y1", "Y2"], "R5", "B1 B2", stacking="plus2", max_turns=1, decider=dec)
    stats = rnd.run()
    assert stats.outcome is Outcome.CAPPED
    assert dec.called("respond") == []
    assert hand(rnd, 1) == cards("B+2 Y1")
    assert rnd.pending == 2


# ================================================================ jump-in


def test_s8_jump_in_candidates_asked_in_order_from_next_seat():
    """§8 `jump_in`: "The players are offered the chance in order of play, beginning with the seat after the player of the top
    card." """
    dec = ScriptedDecider()
    rnd = position(["R5 G1", "R5 Y1", "R5 Y2", "R5 Y3"], "R4", jump_in=True, decider=dec)
    assert step(rnd)
    assert dec.called("jump_in") == [(1, "R5"), (2, "R5"), (3, "R5")]
    assert rnd.current == 1
    dec = ScriptedDecider()
    rnd = position(["R5 G1", "R5 Y1", "R5 Y2", "R5 Y3"], "R4", jump_in=True, direction=-1, decider=dec)
    assert step(rnd)
    assert dec.called("jump_in") == [(3, "R5"), (2, "R5"), (1, "R5")]


def test_s11_9_after_reverse_candidates_follow_the_new_direction():
    """§11.9: candidates are asked "seat by seat, starting with the next seat, in the direction that holds once the
    top card's effects are done (after a Reverse, the new one)"."""
    dec = ScriptedDecider(choose_card=["RR"])
    rnd = position(["RR G1 R9", "RR Y1", "RR Y2", "RR Y3"], "R4", jump_in=True, decider=dec)
    assert step(rnd)
    assert rnd.direction == -1
    assert dec.called("jump_in") == [(3, "RR"), (2, "RR"), (1, "RR")]
    assert rnd.current == 3


def test_s11_9_jumped_in_reverse_flips_direction_again():
    """§8: "The jumped-in card acts as if its player had played it on their own turn, and play continues from that player." Seat
    0's Reverse makes the direction -1, seat 3 (first asked) jumps in with the twin: the direction is +1 again and the next seat
    after seat 3 is seat 0."""
    dec = ScriptedDecider(choose_card=["RR"], jump_in={3: [True]})
    rnd = position(["RR G1 R9", "RR Y1", "Y2", "RR Y3"], "R4", jump_in=True, decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "RR", "hand"), (3, "RR", "jump_in")]
    assert rnd.direction == 1
    assert rnd.current == 0
    # The window reopened from seat 3 in direction +1: seat 1 was asked next (seat 0 holds no twin now).
    assert [seat for seat, _ in dec.called("jump_in")] == [3, 1]


def test_s8_jump_in_only_identical_cards_never_wild():
    """§8: "any other player holding a twin of the top card (same colour, same rank; a Wild never qualifies) may
    play it out of turn." """
    dec = ScriptedDecider()
    pols = [DET.replace(jump_in=1.0)] * 4
    rnd = position(["R5 G1", "G5 R6", "R5 B1", "W Y9"], "R4", jump_in=True, pols=pols, decider=dec)
    assert step(rnd)
    assert dec.called("jump_in") == [(2, "R5")]
    assert plays(rnd) == [(0, "R5", "hand"), (2, "R5", "jump_in")]
    assert hand(rnd, 2) == cards("B1")
    assert [e.seat for e in events(rnd, Kind.UNO)] == [0, 2]  # §6: a jump-in leaving one card calls Uno
    assert rnd.current == 3  # play goes on from the jumper
    s = rnd.stats
    assert (s.jump_ins, s.cards_played, s.turns) == (1, 2, 2)
    dec = ScriptedDecider(choose_card=["W"], colour=["R"])
    rnd = position(["W G1", "W Y1", "W Y2"], "R4", jump_in=True, pols=pols[:3], decider=dec)
    assert step(rnd)
    assert dec.called("jump_in") == []
    assert rnd.stats.jump_ins == 0


def test_s8_jump_in_takes_effect_as_on_jumpers_turn_skipped_player_eligible():
    """§8: "The jumped-in card acts as if its player had played it on their own turn, and play continues from that player." §11.9:
    "Players who were skipped and victims of a penalty are candidates too." Seat 1 is skipped by seat 0's Skip, jumps in with the
    twin, and skips seat 2."""
    dec = ScriptedDecider(jump_in={1: [True]})
    rnd = position(["RS G1", "RS Y1", "Y2", "Y3"], "R4", jump_in=True, decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "RS", "hand"), (1, "RS", "jump_in")]
    assert [e.seat for e in events(rnd, Kind.SKIP)] == [1, 2]
    assert rnd.current == 3


def test_s8_jump_in_skip_from_a_later_seat():
    """§8: the jumper's Skip skips the seat after the jumper (not after the original player)."""
    dec = ScriptedDecider(jump_in={3: [True]})
    rnd = position(["RS G1", "Y1", "Y2", "RS Y3"], "R4", jump_in=True, decider=dec)
    assert step(rnd)
    assert [e.seat for e in events(rnd, Kind.SKIP)] == [1, 0]
    assert rnd.current == 1


def test_s11_9_jump_ins_chain_and_window_reopens_from_jumper():
    """§8: "A jump-in may itself be jumped in on." §11.9: "After a jump-in, the window opens again, counted from the jumper." """
    dec = ScriptedDecider(jump_in={1: [False], 2: [True], 3: [True]})
    rnd = position(["R5 G1", "R5 Y1", "R5 Y2", "R5 Y3"], "R4", jump_in=True, decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "R5", "hand"), (2, "R5", "jump_in"), (3, "R5", "jump_in")]
    # After seat 3 jumps in, the window reopens from seat 3: seat 0 (no twin), seat 1 (asked again).
    assert [seat for seat, _ in dec.called("jump_in")] == [1, 2, 3, 1]
    assert rnd.current == 0
    assert rnd.stats.jump_ins == 2


def test_s8_jump_in_going_out_wins():
    """§8 / §7: a jumper whose jump-in empties the hand wins the round."""
    pols = [DET.replace(jump_in=1.0)] * 3
    rnd = position(["R5 G1", "Y1", "R5"], "R4", jump_in=True, pols=pols)
    stats = rnd.run()
    assert (stats.outcome, stats.winner, stats.winner_points) == (Outcome.WON, 2, 1 + 1)


def test_s11_8_stacking_off_draw_two_victim_may_jump_in():
    """§11.8: "Without stacking, the 2 cards of a Draw Two ... belong to the card's effect and happen at once; after them the
    jump-in window opens, and the victim may jump in as well." §11.9: "Players who were skipped and victims of a penalty are
    candidates too." """
    dec = ScriptedDecider(jump_in={1: [True]})
    rnd = position(["R+2 G1", "R+2 Y1", "Y2", "Y3"], "R4", "B1 B2 B3 B4", jump_in=True, decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "R+2", "hand"), (1, "R+2", "jump_in")]
    assert hand(rnd, 1) == cards("Y1 B1 B2")
    assert hand(rnd, 2) == cards("Y2 B3 B4")
    assert rnd.current == 3


def test_s11_8_stacking_on_no_jump_in_window_on_penalties():
    """§11.8: "With stacking, a +2 or +4 that leaves its player with cards creates a pending penalty, and there is no jump-in
    window after such a card, after a stacked answer, or once the penalty has been drawn. Consequently, with stacking on, a Draw
    Two is never jumped on." """
    dec = ScriptedDecider(respond={1: ["R+2"], 2: ["accept"]})
    pols = [DET.replace(jump_in=1.0)] * 4
    rnd = position(
        ["R+2 G1", "R+2 Y1", "Y2 B9", "R+2 Y3"],
        "R4",
        "B1 B2 B3 B4",
        stacking="plus2",
        jump_in=True,
        pols=pols,
        decider=dec,
    )
    assert steps(rnd, 3)
    assert dec.called("jump_in") == []
    assert plays(rnd) == [(0, "R+2", "hand"), (1, "R+2", "stacked")]
    assert hand(rnd, 2) == cards("Y2 B9 B1 B2 B3 B4")
    assert hand(rnd, 3) == cards("R+2 Y3")
    assert rnd.current == 3
    assert rnd.stats.jump_ins == 0


def test_s11_8_stacking_on_window_opens_after_other_cards():
    """§8 jump_in: "After a played card's effects have been carried out, provided nothing is left pending" — with
    stacking on, a number card still opens the window."""
    dec = ScriptedDecider(jump_in={2: [True]})
    rnd = position(["R5 G1", "Y1", "R5 Y2"], "R4", stacking="progressive", jump_in=True, decider=dec)
    assert step(rnd)
    assert plays(rnd)[-1] == (2, "R5", "jump_in")
    assert rnd.current == 0


def test_s11_7_no_jump_in_offered_once_capped():
    """§11.7: "the engine checks whether `turns >= max_turns`; if so the round ends capped, and no jump-in is
    offered at that point." """
    dec = ScriptedDecider()
    pols = [DET.replace(jump_in=1.0)] * 2
    rnd = position(["R5 G1", "R5 Y1"], "R4", jump_in=True, max_turns=1, pols=pols, decider=dec)
    stats = rnd.run()
    assert dec.called("jump_in") == []
    assert (stats.outcome, stats.jump_ins, stats.turns) == (Outcome.CAPPED, 0, 1)


# ================================================================ seven_o


def test_s8_seven_o_zero_rotates_hands_in_direction_of_play():
    """§8 `seven_o`: "When a 0 is played, all players hand their cards on to the following player in the current direction." §6:
    "A hand that shrinks to one card through a rotation or swap (`seven_o`, §8) creates no obligation to call." """
    pols = [DET.replace(forget_uno=1.0)] * 3
    rnd = position(["R0 G1 G2", "Y1", "B1 B2 B3 B4"], "R5", seven_o=True, pols=pols)
    assert step(rnd)
    assert hand(rnd, 1) == cards("G1 G2")  # seat 0's remaining hand
    assert hand(rnd, 2) == cards("Y1")
    assert hand(rnd, 0) == cards("B1 B2 B3 B4")
    assert rnd.stats.rotations == 1
    assert rnd.stats.uno_forgotten == 0
    assert rnd.current == 1


def test_s8_seven_o_zero_rotates_backwards_in_direction_minus_one():
    """§8 `seven_o`: the hands pass "on to the following player in the current direction" (direction -1 here)."""
    rnd = position(["R0 G1 G2", "Y1", "B1 B2 B3 B4"], "R5", seven_o=True, direction=-1)
    assert step(rnd)
    assert hand(rnd, 2) == cards("G1 G2")
    assert hand(rnd, 1) == cards("B1 B2 B3 B4")
    assert hand(rnd, 0) == cards("Y1")
    assert rnd.current == 2


def test_s11_11_seven_swaps_with_chosen_opponent_compulsory():
    """§8 `seven_o`: "When a 7 is played, its player exchanges hands with an opponent of their choosing." §11.11:
    "The 7 exchange is compulsory." — even into a bigger hand."""
    dec = ScriptedDecider(swap_target=[2])
    rnd = position(["R7 G1", "Y1 Y2", "B1 B2 B3 B4"], "R5", seven_o=True, decider=dec)
    assert step(rnd)
    assert hand(rnd, 0) == cards("B1 B2 B3 B4")
    assert hand(rnd, 2) == cards("G1")
    assert hand(rnd, 1) == cards("Y1 Y2")
    assert dec.called("swap_target") == [(0, None)]
    assert rnd.stats.swaps == 1
    assert rnd.current == 1


@pytest.mark.parametrize("last", ["R0", "R7"])
def test_s8_seven_o_going_out_on_zero_or_seven_no_rotation_or_swap(last):
    """§8 `seven_o`: "A 0 or 7 that empties its player's hand ends the round, and no rotation or exchange takes place." """
    dec = ScriptedDecider()
    rnd = position([last, "Y1 Y2", "B1"], "R5", seven_o=True, decider=dec)
    stats = rnd.run()
    assert (stats.winner, stats.winner_points) == (0, 1 + 2 + 1)
    assert (stats.rotations, stats.swaps) == (0, 0)
    assert hand(rnd, 1) == cards("Y1 Y2")
    assert dec.called("swap_target") == []


def test_s8_seven_o_uno_settled_before_swap_receiver_needs_no_call():
    """§6: "The call, and any penalty, are settled immediately after the card is played and before the card's effects." "A hand
    that shrinks to one card through a rotation or swap (`seven_o`, §8) creates no obligation to call." Seat 0 forgets Uno on its
    7 and draws 2 before swapping; seat 1 receives that hand."""
    pols = [DET.replace(forget_uno=1.0)] * 3
    rnd = position(["R7 G5", "B1 B2 B3", "Y1"], "R5", "Y8 Y9", seven_o=True, pols=pols)
    assert step(rnd)
    assert hand(rnd, 1) == cards("G5 Y8 Y9")
    assert hand(rnd, 0) == cards("B1 B2 B3")
    assert (rnd.stats.uno_caught, rnd.stats.swaps) == (1, 1)


def test_s8_seven_o_swap_leaving_one_card_obliges_no_call():
    """§6: "A hand that shrinks to one card through a rotation or swap (`seven_o`, §8) creates no obligation to call." """
    pols = [DET, DET.replace(forget_uno=1.0), DET]
    rnd = position(["R7 G5", "B1 B2 B3", "Y1"], "R5", "Y8 Y9", seven_o=True, pols=pols)
    assert step(rnd)
    assert hand(rnd, 1) == cards("G5")
    assert [e.seat for e in events(rnd, Kind.UNO)] == [0]
    assert (rnd.stats.uno_forgotten, rnd.stats.uno_caught) == (0, 0)


def test_s11_11_jumped_in_seven_swaps_too():
    """§11.11: "A 7 played by jumping in also exchanges hands." """
    dec = ScriptedDecider(swap_target={0: [1], 2: [0]}, jump_in={2: [True]})
    rnd = position(["R7 G1 G2", "Y1 Y2", "R7 B1 B2 B3"], "R5", seven_o=True, jump_in=True, decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "R7", "hand"), (2, "R7", "jump_in")]
    assert hand(rnd, 1) == cards("G1 G2")
    assert hand(rnd, 0) == cards("B1 B2 B3")
    assert hand(rnd, 2) == cards("Y1 Y2")
    assert rnd.stats.swaps == 2
    assert rnd.current == 0


def test_s11_11_seven_and_zero_may_be_last_under_no_action_finish():
    """§11.11: "Since 0 and 7 are number cards, `no_action_finish` allows them as a last card." """
    for last in ("R0", "R7"):
        rnd = position([last, "Y1"], "R5", seven_o=True, no_action_finish=True)
        assert names(rnd.legal_cards(0)) == [last]
        assert rnd.run().winner == 0


# ================================================================ draw_until_playable


def test_s8_draw_until_playable_keeps_drawing_then_plays():
    """§3: "Under `draw_until_playable` the player instead goes on drawing, one card at a time, until they draw a playable card,
    which they may then play." """
    rnd = position(["B1", "Y1", "Y2"], "R5", "G2 Y3 R9 G4", draw_until_playable=True)
    assert step(rnd)
    assert plays(rnd) == [(0, "R9", "drawn")]
    assert hand(rnd, 0) == cards("B1 G2 Y3")
    assert pile(rnd) == ["G4"]
    s = rnd.stats
    assert (s.cards_drawn, s.passes, s.turns, s.cards_played) == (3, 0, 1, 1)


def test_s8_draw_until_playable_may_keep_the_playable_card():
    """§3: the player "may" play the playable card; keeping it makes the turn a pass."""
    dec = ScriptedDecider(play_drawn=[False])
    rnd = position(["B1", "Y1", "Y2"], "R5", "G2 Y3 R9 G4", draw_until_playable=True, decider=dec)
    assert step(rnd)
    assert hand(rnd, 0) == cards("B1 G2 Y3 R9")
    assert (rnd.stats.cards_drawn, rnd.stats.passes) == (3, 1)
    assert rnd.current == 1


def test_s11_4_drawn_bluff_plus4_does_not_stop_drawing():
    """§11.4: "Under `draw_until_playable`, drawing a Wild Draw Four that could only be played as a bluff does not end the
    drawing" The lone red Skip (unplayable as a last card under no_action_finish) makes the drawn +4 a bluff (§11.3)."""
    dec = ScriptedDecider(bluff=[True])
    rnd = position(["RS", "Y1", "Y2"], "R5", "W+4 G1 R3 G4", draw_until_playable=True, no_action_finish=True, decider=dec)
    assert step(rnd)
    assert dec.called("bluff") == []
    assert plays(rnd) == [(0, "R3", "drawn")]
    assert hand(rnd, 0) == cards("RS W+4 G1")
    assert (rnd.stats.cards_drawn, rnd.stats.bluffs) == (3, 0)


def test_s8_draw_until_playable_legal_plus4_stops_drawing():
    """§3 / §11.3: a drawn +4 judged on the hand including it is legal when no card of the current colour is
    held, so it stops the drawing."""
    dec = ScriptedDecider(colour=["B"], respond=["accept"])
    rnd = position(["B1", "Y1", "Y2"], "R5", "G2 W+4 R9 G4 G5 G6 G7", draw_until_playable=True, decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "W+4", "drawn")]
    assert hand(rnd, 0) == cards("B1 G2")
    assert hand(rnd, 1) == cards("Y1 R9 G4 G5 G6")
    assert rnd.stats.bluffs == 0


def test_s11_4_draw_until_playable_piles_run_dry_is_a_pass_that_drew():
    """§11.4: "if the draw and discard piles are exhausted first, the turn is a pass, and the cards drawn are still
    counted." It drew cards, so it
    does not count towards a block (§11.6): 2 players need 2 more dead passes."""
    rnd = position(["B1", "Y1"], "R5", "G2 G3", draw_until_playable=True)
    stats = rnd.run()
    assert hand(rnd, 0) == cards("B1 G2 G3")
    assert stats.outcome is Outcome.BLOCKED
    assert (stats.passes, stats.cards_drawn, stats.reshuffles) == (3, 2, 0)
    assert [e.seat for e in events(rnd, Kind.PASS)] == [0, 1, 0]


# ================================================================ no_action_finish


@pytest.mark.parametrize("last", ["RS", "RR", "R+2", "W", "W+4"])
def test_s11_12_no_action_finish_last_card_not_playable(last):
    """§8 `no_action_finish`: "An action card, Wild or Wild Draw Four may not be a player's last card: in that
    position it is not a legal play, and cannot be used to bluff, to stack or to jump in." §11.12: "a normal play"."""
    dec = ScriptedDecider(bluff=[True])
    rnd = position([last, "Y1", "Y2"], "R5", "G1", no_action_finish=True, decider=dec)
    assert rnd.legal_cards(0) == []
    assert not rnd.can_bluff(0)
    assert step(rnd)
    assert plays(rnd) == []
    assert hand(rnd, 0) == cards(f"{last} G1")
    assert rnd.stats.passes == 1
    assert dec.called("bluff") == []


def test_s8_no_action_finish_action_card_fine_when_not_last():
    """§8 `no_action_finish` restricts only the *last* card: with two cards a Skip is legal."""
    rnd = position(["RS G1", "Y1", "Y2"], "R5", no_action_finish=True)
    assert names(rnd.legal_cards(0)) == ["RS"]


def test_s11_12_no_action_finish_with_stacking():
    """§11.12: no_action_finish covers the last card "stacked": a lone +2 cannot be stacked; the victim draws."""
    dec = ScriptedDecider()
    rnd = position(
        ["R+2 G1", "B+2", "Y2"],
        "R5",
        "B1 B2",
        stacking="plus2",
        no_action_finish=True,
        decider=dec,
        pols=[DET.replace(stack=1.0)] * 3,
    )
    assert steps(rnd, 2)
    assert offered(dec) == (1, [], False)
    assert hand(rnd, 1) == cards("B+2 B1 B2")
    assert rnd.current == 2


def test_s11_12_no_action_finish_with_jump_in():
    """§11.12: no_action_finish covers the last card "jumped in": a lone twin Skip cannot jump in."""
    dec = ScriptedDecider()
    pols = [DET.replace(jump_in=1.0)] * 3
    rnd = position(["RS G1", "RS", "RS B1"], "R5", jump_in=True, no_action_finish=True, pols=pols, decider=dec)
    assert step(rnd)
    assert dec.called("jump_in") == [(2, "RS")]
    assert plays(rnd)[-1] == (2, "RS", "jump_in")
    assert hand(rnd, 1) == ["RS"]


# ================================================================ wild_draw_four, challenge


def test_s8_wild_draw_four_free_legal_anytime_no_bluff_no_challenge():
    """§8 `wild_draw_four`: "`"free"`: legal at any time, so bluffs do not exist and no challenge can happen." """
    dec = ScriptedDecider(choose_card=["W+4"], colour=["G"])
    rnd = position(["R1 W+4", "Y1", "Y2"], "R5", "B1 B2 B3 B4", wild_draw_four="free", decider=dec)
    assert names(rnd.legal_cards(0)) == cards("R1 W+4")
    assert not rnd.can_bluff(0)
    assert step(rnd)
    assert dec.called("bluff") == []
    assert offered(dec) == (1, [], False)
    assert hand(rnd, 1) == cards("Y1 B1 B2 B3 B4")
    assert (rnd.stats.bluffs, rnd.stats.challenges, rnd.stats.plus4_played) == (0, 0, 1)
    assert rnd.current == 2


def test_s8_wild_draw_four_free_with_stacking_no_challenge():
    """§8: under "free" no challenge is possible, also on a pending +4."""
    dec = ScriptedDecider(choose_card=["W+4"], colour=["G"])
    rnd = position(["R1 W+4", "Y1", "Y2"], "R5", "B1 B2 B3 B4", wild_draw_four="free", stacking="same", decider=dec)
    assert steps(rnd, 2)
    assert offered(dec) == (1, [], False)
    assert hand(rnd, 1) == cards("Y1 B1 B2 B3 B4")


@pytest.mark.parametrize("mode", ["off", "progressive"])
def test_s8_challenge_false_no_challenges(mode):
    """§8 `challenge`: "`false`: no challenges." A bluff still counts as one (§9) and the victim draws 4."""
    dec = ScriptedDecider(bluff=[True], colour=["Y"])
    rnd = position(["R1 W+4", "G1", "G2"], "R5", "B1 B2 B3 B4", challenge=False, stacking=mode, decider=dec)
    assert steps(rnd, 1 if mode == "off" else 2)
    assert offered(dec) == (1, [], False)
    assert hand(rnd, 1) == cards("G1 B1 B2 B3 B4")
    assert (rnd.stats.bluffs, rnd.stats.challenges) == (1, 0)
    assert rnd.colour == YELLOW
    assert rnd.current == 2


def test_s8_house_rules_all_off_by_default():
    """§8: "Every house rule is a field of the rule set and is off in the official rules." """
    from unocli.game.rules import Rules

    r = Rules()
    assert (r.stacking, r.seven_o, r.jump_in, r.draw_until_playable, r.no_action_finish) == (
        "off",
        False,
        False,
        False,
        False,
    )
    assert (r.wild_draw_four, r.challenge) == ("restricted", True)
    assert (r.hand_size, r.uno_penalty, r.target_score, r.max_turns) == (7, 2, 500, 10_000)
    assert RED == 0  # colour constants used above
