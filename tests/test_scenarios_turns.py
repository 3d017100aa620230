"""Scenario tests for docs/rules.md §3 (a turn), §4 (effects), §5 (challenge), §6 (Uno), §7 (going out,
scoring, matches, empty piles) and §11.2-§11.7, §11.13."""

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
    Rules,
    ScriptedDecider,
    cards,
    discard,
    events,
    hand,
    names,
    pile,
    plays,
    policies,
    position,
    step,
    steps,
)

from unocli.reference.engine import play_match


def legal(rnd, seat=0) -> list[str]:
    """The legal plays of ``seat`` as sorted short names."""
    return names(rnd.legal_cards(seat))


def assert_turns_identity(rnd):
    """§9: turns = cards_played + passes."""
    s = rnd.stats
    assert s.turns == s.cards_played + s.passes


# ================================================================ §3 legal plays


def test_s3_current_colour_is_top_colour_or_declared_colour():
    """§3: "The current colour is set by the top card of the discard pile: its own colour, or, for a Wild or a Wild Draw Four, the
    colour its player named." """
    rnd = position(["R1 B2", "G1"], "G5 Y7")
    assert rnd.colour == YELLOW
    rnd = position(["W G3", "B2 B3"], "R7", "G1", decider=ScriptedDecider(choose_card=["W"], colour=["B"]))
    assert step(rnd)
    assert discard(rnd)[-1] == "W"
    assert rnd.colour == BLUE


@pytest.mark.parametrize(
    ("top", "held", "expected"),
    [
        ("R5", "R9 G5 B7 Y+2 W", "R9 G5 W"),  # colour, number, Wild
        ("GS", "RS G1 B2 YR", "RS G1"),  # symbol Skip, colour
        ("Y+2", "B+2 Y3 R3 BS", "B+2 Y3"),  # symbol Draw Two, colour
        ("BR", "GR R0 B0 YS", "GR B0"),  # symbol Reverse, colour
        ("R0", "G0 B1 Y9", "G0"),  # number 0
    ],
)
def test_s3_legal_by_colour_number_symbol_or_wild(top, held, expected):
    """§3: a held card is a legal play when it is "a coloured card whose colour is the current colour, or whose rank
    equals the rank of a coloured top card (a number on the same number, a Skip, Reverse or Draw Two on the same
    symbol); ... a Wild, at any time"."""
    rnd = position([held, "B1"], top)
    assert legal(rnd) == cards(expected)


@pytest.mark.parametrize(
    ("top", "declared", "held", "expected"),
    [
        ("W", "G", "G2 B+2 R5 W", "G2 W"),
        ("W+4", "R", "RS B4 W", "RS W"),
        ("W+4", "B", "R4 G4 Y4", ""),
        ("W", "Y", "W+4 B1", "W+4"),  # no yellow held: the +4 is legal (§3)
        ("W", "Y", "W+4 Y1", "Y1"),  # yellow held: the +4 is not legal
    ],
)
def test_s11_2_wild_on_top_matched_only_by_declared_colour_or_wild(top, declared, held, expected):
    """§11.2: "On a coloured top card, a card matches by colour or by the same rank (number or symbol). On a Wild or Wild Draw
    Four, only the named colour matches, besides the Wilds themselves (the Wild Draw Four still subject to §3)." """
    rnd = position([held, "B1"], top, colour=declared)
    assert legal(rnd) == (cards(expected) if expected else [])


@pytest.mark.parametrize(
    ("top", "held", "plus4_legal"),
    [
        ("R5", "R1 W+4", False),  # holds red
        ("R5", "G5 W+4", True),  # G5 matches only by number: does not count
        ("RS", "BS W+4", True),  # BS matches only by symbol: does not count
        ("R5", "W W+4", True),  # Wilds do not count
        ("R5", "W+4 W+4", True),  # another +4 is not a card of the colour
        ("R5", "B1 Y2 R+2 W+4", False),  # any red card, an action card too
    ],
)
def test_s3_wild_draw_four_only_without_a_card_of_current_colour(top, held, plus4_legal):
    """§3: a Wild Draw Four is legal "only if none of the player's other cards has the current colour. Cards that
    would match only by rank, and Wilds, do not count here." """
    rnd = position([held, "B1"], top)
    assert ("W+4" in legal(rnd)) is plus4_legal
    assert rnd.can_bluff(0) is (not plus4_legal)


def test_s3_must_play_when_holding_a_legal_play():
    """§3: "A player holding one or more legal plays has to play one of them. ... Choosing to draw while holding a legal play is
    not part of the game unocli models." """
    dec = ScriptedDecider()
    rnd = position(["B1 R2 G3", "Y1 Y2"], "R5", "R7 R8", decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "R2", "hand")]
    assert rnd.stats.cards_drawn == 0
    assert pile(rnd) == ["R7", "R8"]
    assert dec.called("play_drawn") == []


def test_s3_bluff_is_an_illegal_wild_draw_four():
    """§3: "Under `wild_draw_four = "restricted"` a player may instead put down an illegal Wild Draw Four; such a play is a bluff
    (§5)." §9: bluffs and plus4_played count it."""
    dec = ScriptedDecider(bluff=[True], colour=["G"], respond=["accept"])
    rnd = position(["R1 W+4 G3", "Y1 Y2", "B1 B2"], "R5", "Y3 Y4 Y5 Y6", decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "W+4", "hand")]
    assert events(rnd, Kind.PLAY)[0].flag is True
    s = rnd.stats
    assert (s.bluffs, s.plus4_played, s.cards_played) == (1, 1, 1)
    assert hand(rnd, 1) == cards("Y1 Y2 Y3 Y4 Y5 Y6")
    assert rnd.colour == GREEN
    assert rnd.current == 2


def test_s3_no_legal_play_draws_one_and_may_play_it():
    """§3: "A player without a legal play, who does not bluff, draws one card. A drawn card that is playable may go down
    at once" """
    rnd = position(["B1 G2", "Y1 Y2", "Y3 Y4"], "R5", "R7 Y9")
    assert step(rnd)
    assert plays(rnd) == [(0, "R7", "drawn")]
    assert hand(rnd, 0) == cards("B1 G2")
    assert pile(rnd) == ["Y9"]
    s = rnd.stats
    assert (s.cards_drawn, s.cards_played, s.passes, s.turns) == (1, 1, 0, 1)
    assert rnd.current == 1


def test_s3_drawn_legal_card_may_be_kept():
    """§3: the player *may* play a legal drawn card; keeping it ends the turn as a pass (§9 passes)."""
    dec = ScriptedDecider(play_drawn=[False])
    rnd = position(["B1 G2", "Y1 Y2", "Y3 Y4"], "R5", "R7 Y9", decider=dec)
    assert step(rnd)
    assert plays(rnd) == []
    assert hand(rnd, 0) == cards("B1 G2 R7")
    s = rnd.stats
    assert (s.cards_drawn, s.cards_played, s.passes, s.turns) == (1, 0, 1, 1)
    assert rnd.current == 1


def test_s3_drawn_card_not_legal_turn_ends():
    """§3: "otherwise, or if the player keeps the card, the turn is over" — only one card is drawn (draw_until_playable off)."""
    rnd = position(["B1 G2", "Y1 Y2", "Y3 Y4"], "R5", "Y9 R7")
    assert step(rnd)
    assert hand(rnd, 0) == cards("B1 G2 Y9")
    assert pile(rnd) == ["R7"]
    s = rnd.stats
    assert (s.cards_drawn, s.passes, s.turns, s.cards_played) == (1, 1, 1, 0)
    assert rnd.current == 1
    assert events(rnd, Kind.PASS)[0].seat == 0


def test_s11_4_after_drawing_only_the_drawn_card_may_be_played():
    """§11.4: "Once a player has drawn on a turn, the drawn card is the only candidate for play; a held card that the draw
    happened to make playable stays in the hand." Under no_action_finish a lone red Skip is not playable; once B9 is drawn it
    would be, but the turn ends because B9 is not a legal play."""
    rnd = position(["RS", "Y1 Y2", "Y3 Y4"], "R5", "B9 R7", no_action_finish=True)
    assert rnd.legal_cards(0) == []
    assert step(rnd)
    assert plays(rnd) == []
    assert hand(rnd, 0) == cards("RS B9")
    assert rnd.stats.passes == 1
    assert rnd.current == 1


def test_s11_3_drawn_plus4_judged_on_hand_including_it_legal():
    """§11.3: "A Wild Draw Four that was just drawn is judged with the drawn card in the hand": with no red card held it is legal,
    so playing it is no bluff."""
    dec = ScriptedDecider(colour=["B"], respond=["challenge"])
    rnd = position(["B1 G2", "Y1 Y2", "Y3 Y4"], "R5", "W+4 G1 G2 G3 G4 G5 G6", decider=dec)
    assert step(rnd)
    assert plays(rnd) == [(0, "W+4", "drawn")]
    s = rnd.stats
    assert (s.bluffs, s.challenges, s.challenges_won) == (0, 1, 0)
    assert hand(rnd, 1) == cards("Y1 Y2 G1 G2 G3 G4 G5 G6")  # honest +4 challenged: 4 + 2
    assert rnd.current == 2


def test_s3_drawn_plus4_bluff_allowed():
    """§3: "A drawn card that is playable may go down at once, and a drawn Wild Draw Four that is not legal may be played as a
    bluff"; §11.3: the drawn +4 is judged with the hand including it. The lone red Skip (unplayable under no_action_finish) still
    makes the drawn +4 a bluff, and the challenge catches it."""
    dec = ScriptedDecider(bluff=[True], colour=["G"], respond=["challenge"])
    rnd = position(["RS", "Y1 Y2", "Y3 Y4"], "R5", "W+4 B1 B2 B3 B4", decider=dec, no_action_finish=True)
    assert step(rnd)
    assert plays(rnd) == [(0, "W+4", "drawn")]
    assert dec.called("bluff") == [(0, None)]
    s = rnd.stats
    assert (s.bluffs, s.challenges, s.challenges_won, s.cards_drawn) == (1, 1, 1, 5)
    assert hand(rnd, 0) == cards("RS B1 B2 B3 B4")
    assert hand(rnd, 1) == cards("Y1 Y2")
    assert rnd.current == 1
    assert rnd.colour == GREEN


def test_s11_3_restriction_counts_current_colour_card_even_if_unplayable():
    """§11.3: "The test counts every held card of the current colour, even one that could not be played at that moment" (so under
    no_action_finish a lone Skip of the current colour still makes the +4 a bluff)."""
    dec = ScriptedDecider(bluff=[True], colour=["B"], respond=["challenge"])
    rnd = position(["RS W+4", "Y1 Y2", "Y3 Y4"], "R5", "G1 G2 G3 G4", decider=dec, no_action_finish=True)
    assert legal(rnd) == ["RS"]
    assert rnd.can_bluff(0)
    assert step(rnd)
    s = rnd.stats
    assert (s.bluffs, s.challenges_won) == (1, 1)
    assert hand(rnd, 0) == cards("RS G1 G2 G3 G4")
    assert rnd.current == 1


# ================================================================ §4 effects


def test_s4_skip_next_player_loses_turn():
    """§4, Skip: "the next player misses a turn"."""
    rnd = position(["RS G1", "Y1", "Y2", "Y3"], "R5")
    assert step(rnd)
    assert events(rnd, Kind.SKIP)[0].seat == 1
    assert rnd.current == 2
    assert rnd.colour == RED


def test_s4_skip_in_direction_minus_one():
    """§4: "The next player is always the following seat in the direction of play currently in force." """
    rnd = position(["RS G1", "Y1", "Y2", "Y3"], "R5", direction=-1)
    assert step(rnd)
    assert events(rnd, Kind.SKIP)[0].seat == 3
    assert rnd.current == 2


def test_s4_reverse_flips_direction():
    """§4, Reverse: "the direction of play is flipped"."""
    rnd = position(["RR G1", "Y1", "Y2", "Y3"], "R5", current=0)
    assert step(rnd)
    assert rnd.direction == -1
    assert rnd.current == 3
    rnd = position(["Y1", "RR G1", "Y2", "Y3"], "R5", current=1, direction=-1)
    assert step(rnd)
    assert rnd.direction == 1
    assert rnd.current == 2


def test_s11_13_two_player_reverse_same_player_plays_again():
    """§4 / §11.13: "In a two-player game a Reverse changes the direction, and the player who played it takes another turn." """
    rnd = position(["RR G1 R3", "Y1 Y2"], "R5", decider=ScriptedDecider(choose_card=["RR"]))
    assert step(rnd)
    assert rnd.direction == -1
    assert rnd.current == 0
    assert step(rnd)
    assert plays(rnd) == [(0, "RR", "hand"), (0, "R3", "hand")]
    assert rnd.current == 1


def test_s4_two_player_skip_same_player_plays_again():
    """§4, Skip: "the next player misses a turn" — with 2 players the player who skipped plays again."""
    rnd = position(["RS G1 R3", "Y1 Y2"], "R5", decider=ScriptedDecider(choose_card=["RS"]))
    assert step(rnd)
    assert rnd.current == 0


def test_s4_draw_two_next_player_draws_two_and_loses_turn():
    """§4, Draw Two: "the next player takes 2 cards and misses a turn"."""
    rnd = position(["R+2 G1", "Y1", "Y2", "Y3"], "R5", "B7 B8 B9", direction=-1)
    assert step(rnd)
    assert hand(rnd, 3) == cards("Y3 B7 B8")
    assert hand(rnd, 1) == cards("Y1")
    assert rnd.current == 2
    s = rnd.stats
    assert (s.cards_drawn, s.turns, s.max_stack) == (2, 1, 1)
    assert_turns_identity(rnd)


def test_s4_wild_player_declares_colour():
    """§4, Wild: "the player names a colour"."""
    dec = ScriptedDecider(choose_card=["W"], colour=["Y"])
    rnd = position(["W G1", "B1", "B2"], "R5", decider=dec)
    assert step(rnd)
    assert rnd.colour == YELLOW
    assert dec.called("colour") == [(0, None)]
    assert rnd.current == 1
    assert events(rnd, Kind.COLOUR)[0].value == YELLOW


def test_s4_wild_draw_four_victim_draws_four_and_loses_turn():
    """§4, Wild Draw Four: "the player names a colour; the next player, called the victim, takes 4 cards and misses a turn, unless
    the victim challenges (§5)". §5, not challenged: "as in §4: the victim draws 4 and misses the turn, bluff or not"."""
    dec = ScriptedDecider(colour=["B"], respond=["accept"])
    rnd = position(["W+4 G1", "Y1", "Y2"], "R5", "G5 G6 G7 G8 G9", decider=dec)
    assert step(rnd)
    assert hand(rnd, 1) == cards("Y1 G5 G6 G7 G8")
    assert rnd.colour == BLUE
    assert rnd.current == 2
    s = rnd.stats
    assert (s.plus4_played, s.bluffs, s.challenges, s.cards_drawn, s.max_stack) == (1, 0, 0, 4, 1)


# ================================================================ §5 the Wild Draw Four challenge


def test_s5_bluff_challenged_offender_draws_four_victim_plays_next():
    """§5, challenged, and it was a bluff: "the player of the +4 draws the penalty (4) in place of the victim; the victim draws
    nothing, keeps the turn and plays next, on the named colour". "Whatever happens, the colour the player of the +4 named remains
    the current colour." """
    dec = ScriptedDecider(bluff=[True], colour=["G"], respond=["challenge"])
    rnd = position(["R1 W+4 G3", "Y1 G7 R2", "B1 B2"], "R5", "Y3 Y4 Y5 Y6 Y7 Y8", decider=dec)
    assert step(rnd)
    assert hand(rnd, 0) == cards("R1 G3 Y3 Y4 Y5 Y6")
    assert hand(rnd, 1) == cards("Y1 G7 R2")
    assert rnd.current == 1
    assert rnd.colour == GREEN
    s = rnd.stats
    assert (s.bluffs, s.challenges, s.challenges_won, s.cards_drawn) == (1, 1, 1, 4)
    (ch,) = events(rnd, Kind.CHALLENGE)
    assert (ch.seat, ch.target, ch.flag) == (1, 0, True)
    assert step(rnd)
    assert plays(rnd)[-1] == (1, "G7", "hand")  # matching the declared colour, not red


def test_s5_bluff_judged_on_colour_in_force_before_the_plus4():
    """§5: "A Wild Draw Four was a bluff exactly when its player, at the moment of playing it, had in hand some other card of the
    colour that was current just before it" — here the declared colour of a Wild on top (yellow)."""
    dec = ScriptedDecider(bluff=[True], colour=["R"], respond=["challenge"])
    rnd = position(["Y2 W+4 R3", "B1", "B2"], "G4 W", "G1 G2 G3 G5", colour="Y", decider=dec)
    assert step(rnd)
    assert rnd.stats.challenges_won == 1
    assert hand(rnd, 0) == cards("Y2 R3 G1 G2 G3 G5")
    assert rnd.colour == RED


def test_s5_honest_challenged_victim_draws_six_and_loses_turn():
    """§5, challenged, and it was not a bluff: "the victim draws the penalty and 2 more (6) and misses the turn". The declared
    colour stands. G5 matches only by number, so the +4 is honest."""
    dec = ScriptedDecider(choose_card=["W+4"], colour=["B"], respond=["challenge"])
    rnd = position(["G5 W+4", "Y1", "Y2"], "R5", "G1 G2 G3 G4 G6 G7 G8", decider=dec)
    assert step(rnd)
    assert hand(rnd, 1) == cards("Y1 G1 G2 G3 G4 G6 G7")
    assert hand(rnd, 0) == cards("G5")
    assert rnd.current == 2
    assert rnd.colour == BLUE
    s = rnd.stats
    assert (s.bluffs, s.challenges, s.challenges_won, s.cards_drawn) == (0, 1, 0, 6)
    (ch,) = events(rnd, Kind.CHALLENGE)
    assert (ch.seat, ch.target, ch.flag) == (1, 0, False)


def test_s5_bluff_unchallenged_victim_draws_four():
    """§5, not challenged: "as in §4: the victim draws 4 and misses the turn, bluff or not" — a bluff that is not
    challenged costs the victim 4 and the turn."""
    dec = ScriptedDecider(bluff=[True], colour=["Y"], respond=["accept"])
    rnd = position(["R1 W+4", "B1", "B2"], "R5", "G1 G2 G3 G4", decider=dec)
    assert step(rnd)
    assert hand(rnd, 1) == cards("B1 G1 G2 G3 G4")
    assert hand(rnd, 0) == cards("R1")
    assert rnd.current == 2
    assert rnd.colour == YELLOW
    s = rnd.stats
    assert (s.bluffs, s.challenges, s.challenges_won) == (1, 0, 0)


def test_s5_only_the_victim_may_challenge():
    """§5: "The right to challenge belongs to the victim alone" — only the next seat (here in direction -1) is asked."""
    dec = ScriptedDecider(colour=["B"], respond=["accept"])
    rnd = position(["W+4 G1", "Y1", "Y2", "Y3"], "R5", "G5 G6 G7 G8", direction=-1, decider=dec)
    assert step(rnd)
    assert [seat for seat, _ in dec.called("respond")] == [3]
    assert dec.called("respond")[0][1] == ([], True)
    assert hand(rnd, 3) == cards("Y3 G5 G6 G7 G8")
    assert rnd.current == 2


# ================================================================ §6 Uno


def test_s6_uno_called_no_penalty():
    """§6: "Whenever a play leaves its player with exactly one card, that player has to call" Uno."""
    rnd = position(["R1 G2", "Y1", "Y2"], "R5", "B1 B2")
    assert step(rnd)
    assert [e.seat for e in events(rnd, Kind.UNO)] == [0]
    assert hand(rnd, 0) == cards("G2")
    assert (rnd.stats.uno_forgotten, rnd.stats.uno_caught) == (0, 0)


def test_s6_uno_forgotten_and_caught_settled_before_effects():
    """§6: "the player is caught and draws `uno_penalty` cards (2 officially). The call, and any penalty, are
    settled immediately after the card is played and before the card's effects." The offender draws first, then
    the Draw Two victim."""
    pols = [DET.replace(forget_uno=1.0), DET, DET]
    rnd = position(["R+2 G2", "Y1", "Y2"], "R5", "B1 B2 B3 B4", pols=pols)
    assert step(rnd)
    assert hand(rnd, 0) == cards("G2 B1 B2")
    assert hand(rnd, 1) == cards("Y1 B3 B4")
    s = rnd.stats
    assert (s.uno_forgotten, s.uno_caught, s.cards_drawn) == (1, 1, 4)
    assert [(e.seat, e.how) for e in events(rnd, Kind.DRAW)] == [(0, "uno"), (1, "penalty")]


def test_s6_uno_penalty_is_a_rule_field():
    """§6 / §8: a caught player draws `uno_penalty` cards."""
    pols = [DET.replace(forget_uno=1.0), DET]
    rnd = position(["R1 G2", "Y1"], "R5", "B1 B2 B3 B4", pols=pols, uno_penalty=3)
    assert step(rnd)
    assert hand(rnd, 0) == cards("G2 B1 B2 B3")


def test_s6_uno_forgotten_not_caught():
    """§6: every opponent "may notice it with their own `catch_uno` chance; if at least one does, the player is
    caught"; nobody does here."""
    pols = [DET.replace(forget_uno=1.0)] + [DET.replace(catch_uno=0.0)] * 2
    rnd = position(["R1 G2", "Y1", "Y2"], "R5", "B1 B2", pols=pols)
    assert step(rnd)
    assert hand(rnd, 0) == cards("G2")
    s = rnd.stats
    assert (s.uno_forgotten, s.uno_caught, s.cards_drawn) == (1, 0, 0)
    assert events(rnd, Kind.UNO_FORGOTTEN)[0].seat == 0


def test_s6_uno_each_opponent_notices_independently():
    """§6: "every opponent, independently, may notice it with their own `catch_uno` chance; if at least one does,
    the player is caught": seat 1 never notices, seat 2 always does."""
    pols = [DET.replace(forget_uno=1.0), DET.replace(catch_uno=0.0), DET.replace(catch_uno=1.0)]
    rnd = position(["R1 G2", "Y1", "Y2"], "R5", "B1 B2", pols=pols)
    assert step(rnd)
    assert hand(rnd, 0) == cards("G2 B1 B2")
    assert rnd.stats.uno_caught == 1
    assert events(rnd, Kind.UNO_CAUGHT)[0].target == 2


def test_s6_uno_on_a_just_drawn_card():
    """§6: the call is due after a play "from the hand, a card just drawn, ..." that leaves one card."""
    pols = [DET.replace(forget_uno=1.0), DET, DET]
    rnd = position(["B1", "Y1", "Y2"], "R5", "R7 G1 G2", pols=pols)
    assert step(rnd)
    assert plays(rnd) == [(0, "R7", "drawn")]
    assert hand(rnd, 0) == cards("B1 G1 G2")
    assert rnd.stats.uno_caught == 1


def test_s6_no_uno_when_two_or_more_left():
    """§6: only a play leaving *exactly one* card obliges a call."""
    pols = [DET.replace(forget_uno=1.0)] * 2
    rnd = position(["R1 G2 G3", "Y1"], "R5", "B1 B2", pols=pols)
    assert step(rnd)
    assert events(rnd, Kind.UNO) == [] and events(rnd, Kind.UNO_FORGOTTEN) == []
    assert rnd.stats.uno_forgotten == 0


# ================================================================ §7 going out and scoring


def test_s7_going_out_wins_and_scores_other_hands():
    """§7: "A player wins the round by holding no cards once the effects of the last card played have been carried out." "The
    winner of a round scores the §1 values of all cards still held by the other players." Numbers face value, actions 20, Wilds
    50."""
    rnd = position(["R1", "W W+4 RS B+2 GR Y9 G0", "R5 B7"], "R3")
    stats = rnd.run()
    assert stats.outcome is Outcome.WON
    assert stats.winner == 0
    assert stats.winner_points == 50 + 50 + 20 + 20 + 20 + 9 + 0 + 5 + 7
    assert stats.cards_left == [0, 7, 2]
    assert (stats.cards_played, stats.turns) == (1, 1)


def test_s7_going_out_on_draw_two_next_player_still_draws():
    """§7: "A Draw Two or Wild Draw Four played as the last card still hits the next player, and the cards drawn count towards the
    score." """
    rnd = position(["R+2", "Y1", "Y2"], "R3", "B9 G8 B1")
    stats = rnd.run()
    assert stats.winner == 0
    assert hand(rnd, 1) == cards("Y1 B9 G8")
    assert stats.winner_points == 1 + 9 + 8 + 2
    assert stats.cards_drawn == 2
    assert stats.max_stack == 1


def test_s7_going_out_on_plus4_unchallenged():
    """§7: a final Wild Draw Four makes the next player draw 4, counted in the score."""
    dec = ScriptedDecider(respond=["accept"])
    rnd = position(["W+4", "Y1", "Y2"], "R3", "B9 G8 B1 B2 B3", decider=dec)
    stats = rnd.run()
    assert stats.winner == 0
    assert hand(rnd, 1) == cards("Y1 B9 G8 B1 B2")
    assert stats.winner_points == 1 + 9 + 8 + 1 + 2 + 2
    assert stats.plus4_played == 1


def test_s7_final_plus4_challenged_honest_victim_draws_six():
    """§7: "A last Wild Draw Four may be challenged"; "By §5 a last Wild Draw Four can never be a bluff, since its player holds no
    other card, so in play such a challenge always fails and the victim draws 6." The 6 cards count in the score."""
    dec = ScriptedDecider(respond=["challenge"])
    rnd = position(["W+4", "Y1", "Y2"], "R3", "B1 B2 B3 B4 B5 B6 B7", decider=dec)
    stats = rnd.run()
    assert stats.outcome is Outcome.WON and stats.winner == 0
    assert hand(rnd, 1) == cards("Y1 B1 B2 B3 B4 B5 B6")
    assert (stats.challenges, stats.challenges_won, stats.bluffs) == (1, 0, 0)
    assert stats.winner_points == 1 + (1 + 2 + 3 + 4 + 5 + 6) + 2


class _ForcedBluffDecider(ScriptedDecider):
    """Marks the +4 just played as a bluff when its colour is declared (before its effects).

    Under §5 a final +4 is never a bluff (no other card is held), so §7's "a challenge that succeeds makes its
    player draw 4" cannot arise in play; this exercises the engine's handling of it anyway.
    """

    def colour(self, rnd, seat):
        rnd.plus4.bluff = True
        return super().colour(rnd, seat)


def test_s7_final_plus4_bluff_challenged_round_goes_on():
    """§7: "A last Wild Draw Four may be challenged; a challenge that succeeds makes its player draw 4, and the round continues."
    (Victim plays next, §5; the declared colour stands.)"""
    dec = _ForcedBluffDecider(colour=["G"], respond=["challenge"])
    rnd = position(["W+4", "Y1 G2", "Y2"], "R3", "B1 B2 B3 B4 B5", decider=dec)
    assert step(rnd)
    assert hand(rnd, 0) == cards("B1 B2 B3 B4")
    assert hand(rnd, 1) == cards("Y1 G2")
    assert rnd.current == 1
    assert rnd.colour == GREEN
    assert events(rnd, Kind.END) == []
    assert rnd.stats.challenges_won == 1


def test_s7_final_skip_or_wild_ends_the_round_at_once():
    """§7: "A player wins the round by holding no cards once the effects of the last card played have been carried out." """
    for last in ("RS", "RR", "W"):
        rnd = position([last, "Y1", "Y2"], "R3", "B1")
        stats = rnd.run()
        assert (stats.outcome, stats.winner, stats.winner_points) == (Outcome.WON, 0, 3)


@pytest.mark.parametrize("seed", [1, 2])
def test_s7_match_ends_when_a_total_reaches_target_score(seed):
    """§7: "A match is a series of rounds that ends as soon as one player's running total reaches `target_score` (500 officially);
    that player wins the match." """
    rules = Rules(players=3, target_score=200)
    match, rounds = play_match(rules, policies(3), seed=seed, index=0)
    assert match.outcome is Outcome.WON
    totals = [0, 0, 0]
    for k, rnd in enumerate(rounds):
        s = rnd.stats
        if s.outcome is Outcome.WON:
            totals[s.winner] += s.winner_points
        reached = [t >= 200 for t in totals]
        if k < len(rounds) - 1:
            assert not any(reached)
    assert totals == match.scores
    assert match.winner == rounds[-1].stats.winner
    assert totals[match.winner] >= 200


# ================================================================ §7 / §11.5 empty draw pile


def test_s11_5_reshuffle_is_lazy():
    """§11.5: "The discard pile is turned into a draw pile only when a card has to be drawn and the draw pile is empty, never
    earlier." """
    rnd = position(["R1 R2", "R3 R4"], "B5 G5 R5", "")
    assert steps(rnd, 2)
    assert rnd.stats.reshuffles == 0
    assert discard(rnd) == ["B5", "G5", "R5", "R2", "R4"]
    assert pile(rnd) == []


def test_s7_reshuffle_discard_except_top_becomes_draw_pile():
    """§7: "When someone has to draw from an empty draw pile, all cards of the discard pile except the top one are shuffled to
    form a new draw pile" """
    rnd = position(["B1 B2", "Y1 Y2"], "G7 G8 Y9 R5", "")
    assert step(rnd)
    assert rnd.stats.reshuffles == 1
    assert discard(rnd) == ["R5"]
    assert sorted(pile(rnd) + hand(rnd, 0)) == sorted("G7 G8 Y9 B1 B2".split())
    assert len(hand(rnd, 0)) == 3
    assert rnd.stats.passes == 1  # none of G7, G8, Y9 is legal on R5


def test_s11_5_penalty_drawn_one_at_a_time_reshuffles_midway():
    """§11.5: "Penalties are drawn card by card, so a reshuffle can happen in the middle of one." """
    rnd = position(["R+2 B1", "Y1", "Y2"], "G7 B3 R3", "G1")
    assert step(rnd)
    assert rnd.stats.reshuffles == 1
    h = hand(rnd, 1)
    assert len(h) == 3 and "G1" in h and "Y1" in h
    assert discard(rnd) == ["R+2"]
    assert rnd.stats.cards_drawn == 2
    assert sorted([c for c in h if c not in ("G1", "Y1")] + pile(rnd)) == sorted(["G7", "B3", "R3"])
    assert [e.value for e in events(rnd, Kind.RESHUFFLE)] == [3]


def test_s11_5_draws_what_there_is_and_counts_one_reshuffle():
    """§7: "If there is nothing left to draw, a player who has to draw takes whatever is available, possibly nothing." §11.5:
    "When the discard pile consists of the top card alone, nothing is drawn and the `reshuffles` counter does not move." An honest
    +4 challenged costs 6, but only 2 cards exist."""
    dec = ScriptedDecider(colour=["B"], respond=["challenge"])
    rnd = position(["W+4 G1", "Y1", "Y2"], "R5", "G9", decider=dec)
    assert step(rnd)
    assert hand(rnd, 1) == cards("Y1 G9 R5")
    assert rnd.stats.cards_drawn == 2
    assert rnd.stats.reshuffles == 1
    assert discard(rnd) == ["W+4"]
    assert rnd.current == 2


def test_s7_reshuffle_keeps_the_declared_colour_of_the_top_wild():
    """§7: "colours named for Wilds among them no longer matter" — among the shuffled cards; the top card stays,
    and so does the colour declared for it."""
    rnd = position(["R1 R2", "Y1 Y2"], "W G4 W", "", colour="B")
    assert step(rnd)
    assert rnd.stats.reshuffles == 1
    assert discard(rnd) == ["W"]
    assert rnd.colour == BLUE


# ================================================================ §7 / §11.6 blocked, §11.7 capped


def test_s11_6_blocked_after_n_dead_passes():
    """§7: "When n consecutive turns are passes on which no card was played and none could be drawn, the round ends blocked:
    nobody wins, nobody scores (§11.6)." §11.6: "A turn on which the player has no legal play and plays no card (not even one just
    drawn, §3) is a pass, whether or not a card could be drawn." """
    rnd = position(["B1 B2", "G1 G2"], "R5", "")
    stats = rnd.run()
    assert stats.outcome is Outcome.BLOCKED
    assert (stats.winner, stats.winner_points) == (-1, 0)
    assert (stats.passes, stats.turns, stats.cards_drawn, stats.reshuffles) == (2, 2, 0, 0)
    assert stats.cards_left == [2, 2]


def test_s11_6_a_pass_that_drew_a_card_resets_the_count():
    """§11.6: "The round is blocked after n consecutive passes without a card drawn; playing any card, or a pass on which at least
    one card was drawn, starts that count again from zero." """
    rnd = position(["B1 B2", "G1 G2"], "R5", "Y9")
    stats = rnd.run()
    assert stats.outcome is Outcome.BLOCKED
    assert (stats.passes, stats.cards_drawn) == (3, 1)
    assert [e.seat for e in events(rnd, Kind.PASS)] == [0, 1, 0]
    assert hand(rnd, 0) == cards("B1 B2 Y9")


def test_s11_6_a_card_played_resets_the_count():
    """§11.6: "playing any card ... starts that count again from zero." Two dead passes, a Draw Two, then two dead passes in a row
    again: with 3 players the round is not yet blocked."""
    rnd = position(["G1 G2", "Y1 Y2", "B+2 R9"], "W", "", colour="B")
    assert steps(rnd, 2)  # seats 0 and 1: dead passes
    assert step(rnd)  # seat 2 plays B+2; seat 0 draws the one card there is (the Wild) and is skipped
    assert hand(rnd, 0) == cards("G1 G2 W")
    assert step(rnd)  # seat 1: dead pass
    assert step(rnd)  # seat 2: dead pass (R9 does not match B+2)
    assert events(rnd, Kind.END) == []  # not blocked: the Draw Two reset the count
    assert rnd.stats.passes == 4
    assert step(rnd)  # seat 0 plays the Wild
    assert plays(rnd)[-1] == (0, "W", "hand")


def test_s11_7_capped_at_max_turns():
    """§7: "A round that reaches `max_turns` turns (10 000 by default) ends capped, again with no winner and no points (§11.7)."
    §11.7: "Before each turn and before each decision on a pending penalty, the engine checks whether `turns >= max_turns`; if so
    the round ends capped" """
    rnd = position(["R1 R2 R3 R4", "R5 R6 R7 R8"], "R9", "", max_turns=3)
    stats = rnd.run()
    assert stats.outcome is Outcome.CAPPED
    assert (stats.winner, stats.winner_points, stats.turns, stats.cards_played) == (-1, 0, 3, 3)
    assert stats.cards_left == [2, 3]


def test_s11_7_card_that_wins_on_the_capping_turn_wins():
    """§11.7: "A card that empties its player's hand on the turn that reaches `max_turns` still wins." """
    rnd = position(["R1 R2", "R3 G5 G6"], "R9", "", max_turns=3)
    stats = rnd.run()
    assert plays(rnd) == [(0, "R2", "hand"), (1, "R3", "hand"), (0, "R1", "hand")]
    assert stats.turns == 3
    assert (stats.outcome, stats.winner, stats.winner_points) == (Outcome.WON, 0, 5 + 6)


def test_s11_7_capped_counts_passes_as_turns():
    """§11.7 / §9: passes are turns, so they count towards max_turns."""
    rnd = position(["B1", "B2"], "R5", "G1 G2 G3 G4 G5", max_turns=2)
    stats = rnd.run()
    assert stats.outcome is Outcome.CAPPED
    assert (stats.passes, stats.turns, stats.cards_drawn) == (2, 2, 2)


def test_s9_turns_is_cards_played_plus_passes_over_a_round():
    """§9 `turns`: "`cards_played + passes`; a skipped player and a penalty draw take no turn"."""
    rnd = position(["R+2 RS G1", "Y1 Y2", "B1 R6"], "R5", "Y3 Y4 Y5 G9")
    assert step(rnd)  # seat 0: R+2 (seat 1 draws 2, skipped)
    assert rnd.stats.turns == 1
    stats = rnd.run()
    assert_turns_identity(rnd)
    assert stats.turns == stats.cards_played + stats.passes
