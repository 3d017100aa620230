"""Search facing a pending penalty under stacking: stack (a +4 with each colour), challenge or accept.

Positions worked out by hand, each asked of both engines (same options, totals and
choice), and the hidden-information test for this decision: whether the +4 was a
bluff is hidden, so moving the offender's cards (which decides it) leaves the search
unchanged.
"""

from __future__ import annotations

import dataclasses

from test_search import kernel_position, rest_of_deck

from unocli.game.cards import parse_card, parse_cards
from unocli.game.policies import parse_policy_spec
from unocli.game.rules import preset as rules_preset
from unocli.reference.engine import Plus4Info, Round
from unocli.reference.search import (
    ACCEPT_CODE,
    CHALLENGE_CODE,
    pending_choice,
    pending_options,
    pending_preference,
    score_options,
)

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
BUDGET = 16
ACCEPT, CHALLENGE = (ACCEPT_CODE, -1), (CHALLENGE_CODE, -1)


def facing(spec: str, hands: list[str], draw: str, top: str, colour: int, pending: int, plus4: Plus4Info | None = None) -> Round:
    """Seat 0 (``spec``) to respond to the penalty of ``top``, just played by seat 1 (stacking, 2 players)."""
    rules = rules_preset("stacking").replace(players=2)
    discard = [*rest_of_deck(*hands, draw, top), parse_card(top)]
    policies = [parse_policy_spec(spec), parse_policy_spec("basic")]
    rnd = Round.from_position(rules, policies, hands, discard=discard, draw=parse_cards(draw), colour=colour)
    rnd.pending, rnd.chain, rnd.top_player = pending, 1, 1
    if plus4 is not None:
        rnd.plus4 = plus4
    return rnd


def both_pending(rnd: Round) -> tuple[dict[tuple[int, int], int], tuple[int, int]]:
    """The reference engine's totals and choice for seat 0, after checking the kernel's are the same."""
    from unocli.kernel.search import pending_at

    challenge_open = rnd.top == parse_card("+4") and rnd.chain == 1 and rnd.plus4.challengeable
    stackable = rnd.stackable_cards(0)
    opts = pending_options(stackable, challenge_open)
    scored = score_options(rnd, 0, opts, "stacked")
    action, card, colour = pending_choice(rnd, 0, stackable, challenge_open)
    choice = (card, colour) if action == "stack" else CHALLENGE if action == "challenge" else ACCEPT
    ws, hs, ds, rs = kernel_position(rnd)
    before = rs.copy()
    kernel_card = pending_at(ws, hs, ds, rs, 0)
    k = len(opts)
    kopts = [(int(ws["sopt_card"][0][i]), int(ws["sopt_colour"][0][i])) for i in range(k)]
    assert kopts == opts
    assert [int(x) for x in ws["sopt_score"][0][:k]] == [s for _, s in scored], "kernel and reference score differently"
    assert kernel_card == (card if action == "stack" else -1)
    if action != "stack":  # the kernel played the response out: its play stream moved by the penalty's draws only
        return dict(scored), choice
    assert (before == rs).all(), "the search drew from the game's play stream"
    return dict(scored), choice


def test_stacking_the_last_card_wins_and_overrules_knobs_that_accept() -> None:
    """Seat 0's one card R+2 stacks on Y+2: its hand is empty, it wins (§7): every rollout. stack=0 would accept."""
    rnd = facing(f"search:budget={BUDGET},stack=0", ["R+2", "G5 B6"], "G1 G2 G3 G4", "Y+2", YELLOW, 2)
    r2 = parse_card("R+2")
    assert pending_options(rnd.stackable_cards(0), False) == [(r2, -1), ACCEPT]
    assert pending_preference(rnd, 0, rnd.stackable_cards(0), False) == ACCEPT
    score, choice = both_pending(rnd)
    assert score[(r2, -1)] == BUDGET
    assert choice == (r2, -1)


BLUFF = Plus4Info(offender=1, bluff=True, hand_before=2, colour_before=RED, challengeable=True)


def test_challenging_a_plus4_that_must_be_a_bluff() -> None:
    """Seat 1 played +4 naming green on red and holds one card; every unseen card is red, so in every re-deal it
    held red: a bluff. By hand: challenged, seat 1 draws 4 and seat 0 plays G5 on green and goes out: every rollout
    wins. challenge=0 knobs would accept; the search overrules them."""
    rnd = facing(f"search:budget={BUDGET},challenge=0", ["G5", "R7"], "R1 R2 R4 R6 R8 R9", "+4", GREEN, 4, BLUFF)
    assert pending_preference(rnd, 0, [], True) == ACCEPT
    score, choice = both_pending(rnd)
    assert list(score) == [CHALLENGE, ACCEPT]
    assert score[CHALLENGE] == BUDGET
    assert choice == CHALLENGE


# Seat 1 holds one card after a +4 on red; the unseen cards are R7 and six greens: whether it bluffed depends on
# which card it holds, which seat 0 cannot see.
BLUFFED = (["G5 B+2", "R7"], "G1 G2 G4 G6 G8 G9")
HONEST = (["G5 B+2", "G1"], "R7 G2 G4 G6 G8 G9")


def test_whether_the_plus4_was_a_bluff_stays_hidden() -> None:
    """Moving R7 between seat 1's hand and the pile changes the truth (a bluff, or not), not what seat 0 saw:
    the search's totals and choice are the same; the re-deal decides the bluff from the hand it deals."""
    results = []
    for hands, draw in (BLUFFED, HONEST):
        truth = dataclasses.replace(BLUFF, bluff=parse_card("R7") in parse_cards(hands[1]))
        results.append(both_pending(facing(f"search:budget={BUDGET}", hands, draw, "+4", GREEN, 4, truth)))
    assert results[0] == results[1]
    assert list(results[0][0]) == [CHALLENGE, ACCEPT]  # B+2 does not stack on a +4 (progressive stacking)
