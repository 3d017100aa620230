"""The situational knobs (issue 12) against their definitions.

Like tests/test_policy_definitions.py: each test builds a position in the
reference engine, lets the knob under test make one decision, and compares it
with the decision the knob's help text (unocli/game/policies.py) and
docs/rules.md §13 call for. Expected decisions are worked out by hand from that
text. The kernel is held to the same decisions game by game by the
"situational" table of tests/test_differential.py and by the hypothesis
differential test, whose policies draw every one of these knobs.

Other players are the deterministic :data:`scenario_helpers.DET`, which never
draws a random number, so every decision here is forced.
"""

from __future__ import annotations

import pytest
from scenario_helpers import DET, Kind, events, hand, plays, position, steps

from unocli.errors import ConfigError
from unocli.game.policies import Policy
from unocli.game.rng import PURPOSE_PLAY, Stream

# ================================================================ bluff by situation
#
# "bluff: probability of playing a +4 as a bluff when holding the current colour, in the situations
# bluff_next_min..bluff_next_max and bluff_own_min..bluff_own_max"; "bluff only when the next player holds at
# least/most this many cards"; "bluff only when holding at least/most this many cards (the +4 included)".
# Seat 0 holds red on R5, so its +4 is a bluff; with bluff = 1 it bluffs whenever the situation allows, else it
# plays its red card.


@pytest.mark.parametrize(("next_hand", "bluffs"), [(1, True), (2, False)])
def test_bluff_only_when_the_next_player_holds_few_cards(next_hand, bluffs):
    pols = [DET.replace(bluff=1.0, bluff_next_max=1), DET, DET]
    nxt = " ".join(["Y1", "Y2", "Y3"][:next_hand])
    rnd = position(["W+4 R1 G1", nxt, "B1 B2"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols)
    assert steps(rnd, 1)
    assert plays(rnd)[0] == ((0, "W+4", "hand") if bluffs else (0, "R1", "hand"))
    assert rnd.stats.bluffs == int(bluffs)


@pytest.mark.parametrize(("next_hand", "bluffs"), [(2, False), (3, True), (4, True), (5, False)])
def test_bluff_next_range_is_inclusive_at_both_ends(next_hand, bluffs):
    pols = [DET.replace(bluff=1.0, bluff_next_min=3, bluff_next_max=4), DET]
    nxt = " ".join(["Y1", "Y2", "Y3", "Y4", "Y5"][:next_hand])
    rnd = position(["W+4 R1 G1", nxt], "R5", "Y6 Y7 Y8 Y9", pols=pols)
    assert steps(rnd, 1)
    assert rnd.stats.bluffs == int(bluffs)


@pytest.mark.parametrize(
    ("own", "bluffs"), [("W+4 R1", False), ("W+4 R1 G1", True), ("W+4 R1 G1 G2", True), ("W+4 R1 G1 G2 G3", False)]
)
def test_bluff_only_with_an_own_hand_in_range(own, bluffs):
    """bluff_own 3..4 counts the +4 itself: hands of 2 and 5 cards never bluff, 3 and 4 do."""
    pols = [DET.replace(bluff=1.0, bluff_own_min=3, bluff_own_max=4), DET]
    rnd = position([own, "Y1 Y2 Y3"], "R5", "Y6 Y7 Y8 Y9", pols=pols)
    assert steps(rnd, 1)
    assert rnd.stats.bluffs == int(bluffs)


def test_bluff_range_that_no_hand_fits_is_refused():
    with pytest.raises(ConfigError, match="bluff_next_min"):
        Policy(bluff_next_min=3, bluff_next_max=2)
    with pytest.raises(ConfigError, match="bluff_own_min"):
        Policy(bluff_own_min=5, bluff_own_max=4)


def test_bluffs_at_reads_both_ranges_and_the_rate():
    pol = Policy(bluff=0.5, bluff_next_max=2, bluff_own_min=4)
    assert pol.bluffs_at(2, 4) and pol.bluffs_at(1, 9)
    assert not pol.bluffs_at(3, 4) and not pol.bluffs_at(2, 3)
    assert not Policy(bluff=0.0).bluffs_at(1, 5)


# ================================================================ informed challenges
#
# The victim (seat 1) never challenges by chance unless a test says so (challenge 0 or 1), so a challenge comes
# from the rule under test. docs/rules.md §13 gives the order: trust_if_lacked, challenge_if_hand,
# challenge_if_own_colour, trust_if_seen, then `challenge`.


def _challenged(rnd, k: int) -> bool:
    assert steps(rnd, k)
    assert plays(rnd)[-1][1] == "W+4"
    return bool(events(rnd, Kind.CHALLENGE))


@pytest.mark.parametrize(("last", "challenged"), [("R7", True), ("Y7", False)])
def test_challenge_if_own_colour_reads_the_offenders_last_play(last, challenged):
    """§13 `challenge_if_own_colour`: "always challenge when the last card the player of the +4 played before it
    showed the colour under the +4: was of that colour".

    Seat 0 plays ``last`` on the 5/7 cards, seats 1 and 2 turn the colour to red (R7, R9), then seat 0, holding
    no red, plays W+4 on red. Its last play was R7 (red: challenge) or Y7 (yellow: no challenge).
    """
    pols = [DET, DET.replace(challenge=0.0, challenge_if_own_colour=True), DET]
    top = "R5" if last == "R7" else "Y5"
    rnd = position([f"{last} W+4 G1 G2", "R7 B1 B2", "R9 B3 B4"], top, "Y1 Y2 Y3 Y4 Y5 Y6 Y8", pols=pols)
    assert _challenged(rnd, 4) == challenged
    assert plays(rnd)[:3] == [(0, last, "hand"), (1, "R7", "hand"), (2, "R9", "hand")]


def test_challenge_if_own_colour_counts_a_colour_declared_with_a_wild():
    """§13 `challenge_if_own_colour`: "or was a Wild for which that colour was named": seat 0 plays W (on R5,
    holding no red, its order puts the Wild before the +4) and names green, its most held colour; seats 1 and 2
    play green; seat 0, holding green, bluffs the W+4 (bluff 1). Seat 1 challenges and catches it: seat 0 draws 4."""
    pols = [DET.replace(bluff=1.0), DET.replace(challenge=0.0, challenge_if_own_colour=True), DET]
    rnd = position(["W W+4 G1 G2", "G7 B1 B2", "G8 B3 B4"], "R5", "Y1 Y2 Y3 Y4 Y5 Y6", pols=pols)
    assert _challenged(rnd, 4)
    assert plays(rnd) == [(0, "W", "hand"), (1, "G7", "hand"), (2, "G8", "hand"), (0, "W+4", "hand")]
    assert rnd.stats.challenges_won == 1 and len(hand(rnd, 0)) == 2 + 4


@pytest.mark.parametrize(("trust", "challenged"), [(True, False), (False, True)])
def test_trust_if_lacked(trust, challenged):
    """§13: "never challenge when the player of the +4 was seen failing to match the colour under it": seat 0 holds
    no red on R5, draws W+4 and plays it; seat 1 would always challenge (challenge 1) but trusts it."""
    pols = [DET, DET.replace(challenge=1.0, trust_if_lacked=trust), DET]
    rnd = position(["G1 G2", "Y1 Y2 Y3", "B1 B2"], "R5", "W+4 Y4 Y5 Y6 Y7 Y8 Y9", pols=pols)
    assert _challenged(rnd, 1) == challenged
    assert plays(rnd) == [(0, "W+4", "drawn")]


def test_trust_if_lacked_comes_before_challenge_if_hand():
    pols = [DET, DET.replace(challenge=0.0, trust_if_lacked=True, challenge_if_hand=1), DET]
    rnd = position(["G1 G2", "Y1 Y2 Y3", "B1 B2"], "R5", "W+4 Y4 Y5 Y6 Y7 Y8 Y9", pols=pols)
    assert not _challenged(rnd, 1)


def test_lacked_colour_is_remembered_on_later_turns():
    """Seat 0 fails to match red and keeps the W+4 it draws (play_drawn 0); seats 1 and 2 play red; seat 0 plays
    the W+4 from its hand on red. It has not played red since: seat 1 (challenge 1) trusts it."""
    pols = [DET.replace(play_drawn=0.0), DET.replace(challenge=1.0, trust_if_lacked=True), DET]
    rnd = position(["G1 G2", "R4 Y1 Y2", "R6 B1 B2"], "R5", "W+4 Y4 Y5 Y6 Y7 Y8 Y9", pols=pols)
    assert not _challenged(rnd, 4)
    assert [p[:2] for p in plays(rnd)] == [(1, "R4"), (2, "R6"), (0, "W+4")]


@pytest.mark.parametrize(("threshold", "challenged"), [(5, False), (6, True), (0, True)])
def test_trust_if_seen_counts_the_discard_pile_and_the_own_hand(threshold, challenged):
    """§13: "never challenge when at least this many cards of the colour under the +4 are in sight: in the discard
    pile under the +4, or in one's own hand". Under the +4: R1 R2 R5 (3 reds); seat 1 holds R7 R8 (2): 5 in sight."""
    pols = [DET, DET.replace(challenge=1.0, trust_if_seen=threshold), DET]
    rnd = position(["W+4 G1", "R7 R8 Y1", "B1 B2"], "R1 R2 G3 R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols)
    assert _challenged(rnd, 1) == challenged


@pytest.mark.parametrize("colour", ["R", "Y", "G", "B"])
def test_challenge_if_own_colour_needs_a_play_to_have_shown_a_colour(colour):
    """Before its first play a player has shown no colour (docs/rules.md §13: the shown colour is that of its
    last play), so a +4 as its first play is not challenged by the rule, whatever the colour under it. Seat 0,
    holding no card of the top's colour, plays W+4 at once; seat 1 challenges only by the rule (challenge 0)."""
    others = "".join(c for c in "RYGB" if c != colour)
    pols = [DET, DET.replace(challenge=0.0, challenge_if_own_colour=True), DET]
    hand0 = f"W+4 {others[0]}1 {others[1]}2"
    rnd = position(
        [hand0, f"{others[2]}1 {others[2]}2", f"{others[2]}3 {others[2]}4"], f"{colour}5", "Y1 Y2 Y3 Y4 Y5 Y6", pols=pols
    )
    assert not _challenged(rnd, 1)


def test_challenge_if_own_colour_comes_before_trust_if_seen():
    pols = [DET, DET.replace(challenge=0.0, challenge_if_own_colour=True, trust_if_seen=1), DET]
    rnd = position(["R7 W+4 G1 G2", "R8 B1 B2", "R9 B3 B4"], "R5", "Y1 Y2 Y3 Y4 Y5 Y6", pols=pols)
    assert _challenged(rnd, 4)


# ================================================================ stack or absorb by the pending size
#
# "stack only when the pending penalty is at least this many cards; below it, draw (0: always)".


@pytest.mark.parametrize(("stack_from", "stacked"), [(0, True), (2, True), (3, False)])
def test_stack_from(stack_from, stacked):
    pols = [DET, DET.replace(stack=1.0, stack_from=stack_from), DET]
    rnd = position(["R+2 G1 G2", "Y+2 Y1 Y2", "B1 B2 B3"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols, stacking="plus2")
    assert steps(rnd, 2)
    assert plays(rnd)[:2] == ([(0, "R+2", "hand"), (1, "Y+2", "stacked")] if stacked else [(0, "R+2", "hand")])
    if not stacked:
        assert len(hand(rnd, 1)) == 3 + 2


def test_stack_from_reads_the_whole_pending_stack():
    """Seat 1 stacks a 2-card penalty (its stack_from 2); seat 2 (stack_from 4) then faces 4 and stacks too."""
    pols = [DET, DET.replace(stack=1.0, stack_from=2), DET.replace(stack=1.0, stack_from=4)]
    rnd = position(["R+2 G1 G2", "Y+2 Y1 Y2", "B+2 B1 B2"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols, stacking="plus2")
    assert steps(rnd, 3)
    assert [p[1:] for p in plays(rnd)] == [("R+2", "hand"), ("Y+2", "stacked"), ("B+2", "stacked")]


# ================================================================ keep draw cards for defence
#
# "when stacking is on, play Draw Twos and Wild Draw Fours only when nothing else plays (unless attacking)".
# Seat 0's play order puts Draw Twos first, so without the knob it plays R+2.


@pytest.mark.parametrize(
    ("stacking", "keep", "played"),
    [("plus2", True, "R1"), ("plus2", False, "R+2"), ("off", True, "R+2"), ("any", True, "R1")],
)
def test_keep_draws(stacking, keep, played):
    pols = [DET.replace(play="draw_two>high", keep_draws=keep), DET, DET]
    rnd = position(["R+2 R1 G1", "Y1 Y2 Y3", "B1 B2"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols, stacking=stacking)
    assert steps(rnd, 1)
    assert plays(rnd)[0][1] == played


def test_keep_draws_plays_a_draw_card_when_nothing_else_plays():
    pols = [DET.replace(play="high>draw_two", keep_draws=True), DET, DET]
    rnd = position(["R+2 G1 G2", "Y1 Y2 Y3", "B1 B2"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols, stacking="plus2")
    assert steps(rnd, 1)
    assert plays(rnd)[0][1] == "R+2"


def test_keep_draws_gives_way_to_an_attack():
    """The next player holds 1 card and seat 0 attacks at 1 with Draw Twos first: the attack order applies."""
    pols = [DET.replace(play="high", attack="draw_two>high", attack_at=1, keep_draws=True), DET, DET]
    rnd = position(["R+2 R1 G1", "Y1", "B1 B2"], "R5", "Y4 Y5 Y6 Y7 Y8 Y9", pols=pols, stacking="plus2")
    assert steps(rnd, 1)
    assert plays(rnd)[0][1] == "R+2"


def test_keep_draws_with_random_play_never_picks_a_draw_card_while_another_plays():
    pols = [Policy(keep_draws=True), DET, DET]
    for seed_draw in range(20):
        rnd = position(
            ["R+2 R+2 R1 W+4 G1", "Y1 Y2 Y3", "B1 B2"],
            "R5",
            "Y4 Y5 Y6 Y7 Y8 Y9",
            pols=pols,
            stacking="plus2",
            rng=Stream(seed_draw, 0, PURPOSE_PLAY),
        )
        assert steps(rnd, 1)
        assert plays(rnd)[0][1] == "R1"


# ================================================================ match by colour or by number
#
# "when the top card can be matched both by colour and by its number or symbol in another colour: any (the play
# order decides), colour (keep the colour) or number (change it); Wilds are neither". On R5, seat 0 holding R1 and
# G5 can do both; its play order `high` alone plays G5 (5 beats 1).


@pytest.mark.parametrize(("match", "played"), [("any", "G5"), ("colour", "R1"), ("number", "G5")])
def test_match_preference(match, played):
    pols = [DET.replace(match=match), DET]
    rnd = position(["R1 G5 B1", "Y1 Y2"], "R5", "Y4 Y5 Y6", pols=pols)
    assert steps(rnd, 1)
    assert plays(rnd)[0][1] == played


@pytest.mark.parametrize(("match", "played"), [("any", "R9"), ("colour", "R9"), ("number", "G5")])
def test_match_number_changes_the_colour(match, played):
    pols = [DET.replace(match=match), DET]
    rnd = position(["R9 G5 B1", "Y1 Y2"], "R5", "Y4 Y5 Y6", pols=pols)
    assert steps(rnd, 1)
    assert plays(rnd)[0][1] == played


@pytest.mark.parametrize(("match", "played"), [("any", "B1"), ("colour", "B1"), ("number", "R5")])
def test_match_counts_a_red_twin_as_the_other_kind(match, played):
    """Red is a colour like the others (colour index 0): on B5, R5 is the number match in another colour.
    Seat 0 holds B1 and R5 with play order `low`, which alone plays B1."""
    pols = [DET.replace(play="low", match=match), DET]
    rnd = position(["B1 R5 G9", "Y1 Y2"], "B5", "Y4 Y5 Y6", pols=pols)
    assert steps(rnd, 1)
    assert plays(rnd)[0][1] == played


def test_match_leaves_wilds_to_the_play_order():
    """ "Wilds are neither": with Wilds first in the order, the Wild is played whatever the match preference."""
    for match in ("colour", "number"):
        pols = [DET.replace(play="wild>high", match=match), DET]
        rnd = position(["R9 G5 W", "Y1 Y2"], "R5", "Y4 Y5 Y6", pols=pols)
        assert steps(rnd, 1)
        assert plays(rnd)[0][1] == "W"


def test_match_does_nothing_when_only_one_kind_is_legal():
    pols = [DET.replace(match="colour"), DET]
    rnd = position(["G5 B1", "Y1 Y2"], "R5", "Y4 Y5 Y6", pols=pols)
    assert steps(rnd, 1)
    assert plays(rnd)[0][1] == "G5"


# ================================================================ aim at the colour the next player lacks
#
# "play a card of the colour the next player last failed to match (see colour=next_lacks) when one is legal
# (after keep_draws and match; not when attacking)".


@pytest.mark.parametrize(("aim", "played"), [(False, "B4"), (True, "Y1")])
def test_aim_lacked_plays_the_colour_the_next_player_could_not_match(aim, played):
    """Seat 1 holds only reds on Y2: it lacks yellow and draws G1; seat 2 plays Y4. Seat 0 holds Y1 and B4 on Y4:
    its order `high` alone plays B4 (4 beats 1); aiming at seat 1's lacked yellow plays Y1."""
    pols = [DET.replace(aim_lacked=aim), DET, DET]
    rnd = position(["Y1 B4 G7", "R1 R3", "Y4 B1"], "Y2", "G1 G2 G3", current=1, pols=pols)
    assert steps(rnd, 3)
    assert plays(rnd) == [(2, "Y4", "hand"), (0, played, "hand")]


def test_aim_lacked_aims_at_red_too():
    """A lacked red (colour index 0) is aimed at like any colour: seat 1 lacks red; on R4 seat 0's order
    `high` alone plays B4, aiming at red plays R1."""
    for aim, played in ((False, "B4"), (True, "R1")):
        pols = [DET.replace(aim_lacked=aim), DET]
        rnd = position(["R1 B4 G7", "Y1 Y3"], "R4", "G1 G2 G3", pols=pols)
        rnd.lacks = [-1, 0]
        assert steps(rnd, 1)
        assert plays(rnd)[0][1] == played


def test_aim_lacked_without_a_lacked_colour_changes_nothing():
    pols = [DET.replace(aim_lacked=True), DET]
    rnd = position(["Y1 B4 G7", "R1 R3"], "Y4", "G1 G2 G3", pols=pols)
    assert steps(rnd, 1)
    assert plays(rnd)[0][1] == "B4"
