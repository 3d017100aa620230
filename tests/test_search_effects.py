"""Search of the decisions made inside a card's effects: a +4's response, a jump-in, a 7's target (docs/search.md).

Positions worked out by hand, each asked of both engines (the same options, totals and
choice), each overruling knobs that would choose otherwise; the hidden-information test for
each decision (exchanging hidden cards leaves the search unchanged, while ``peek`` feels
them); and the decisions in real steps of the reference engine.
"""

from __future__ import annotations

from collections import Counter

import pytest
from test_search import both, kernel_position, position, rest_of_deck

from unocli.game.cards import parse_card, parse_cards
from unocli.game.rules import preset as rules_preset
from unocli.reference.engine import Plus4Info, Round
from unocli.reference.search import (
    ACCEPT_CODE,
    CHALLENGE_CODE,
    DECIDE_JUMP,
    DECIDE_P4,
    DECIDE_SWAP,
    JUMP_IN,
    PLUS4,
    SWAP,
    jump_choice,
    jump_options,
    pending_preference,
    plus4_choice,
    score_options,
    swap_choice,
    swap_options,
)

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
BUDGET = 16
CHALLENGE, ACCEPT = (CHALLENGE_CODE, -1), (ACCEPT_CODE, -1)


def both_effect(rnd: Round, seat: int, kind: int) -> tuple[dict[tuple[int, int], int], tuple[int, int]]:
    """The reference engine's totals and choice for the decision ``kind`` of ``seat``, after checking the kernel's.

    ``seat``: the +4's victim (DECIDE_P4), the seat offered the jump-in window, the 7's player.
    """
    from unocli.kernel.search import effect_at

    if kind == DECIDE_P4:
        opts, how = [CHALLENGE, ACCEPT], PLUS4
        choice = CHALLENGE if plus4_choice(rnd, seat) == "challenge" else ACCEPT
        kseat = rnd.plus4.offender  # the kernel asks the +4's player's step (its victim answers)
    elif kind == DECIDE_JUMP:
        opts, how = jump_options(rnd), JUMP_IN
        choice = opts[0] if jump_choice(rnd, seat) else opts[1]
        kseat = seat
    else:
        opts, how = swap_options(rnd, seat), SWAP
        choice = (swap_choice(rnd, seat), -1)
        kseat = seat
    scored = score_options(rnd, seat, opts, how, kind)
    ws, hs, ds, rs = kernel_position(rnd)
    before = rs.copy()
    chosen, k = effect_at(ws, hs, ds, rs, kseat, kind)
    kopts = [(int(ws["sopt_card"][0][i]), int(ws["sopt_colour"][0][i])) for i in range(k)]
    assert kopts == opts
    assert [int(x) for x in ws["sopt_score"][0][:k]] == [s for _, s in scored], "kernel and reference score differently"
    assert kopts[chosen] == choice
    assert (before == rs).all(), "the search drew from the game's play stream"
    return dict(scored), choice


# ---------------------------------------------------------------- the +4's response, stacking off


def after_plus4(spec: str, hands: list[str], draw: str, colour: int, bluff: bool, rules_name: str = "official") -> Round:
    """Seat 1 has just played a +4 on red naming ``colour`` (its effects up to the victim's response); seat 0
    (``spec``) is its victim."""
    rules = rules_preset(rules_name).replace(players=2)
    discard = [*rest_of_deck(*hands, draw, "R3 +4"), parse_card("R3"), parse_card("+4")]
    rnd = position(rules, [spec, "basic"], hands, discard, draw, colour=colour, current=1)
    rnd.top_player = 1
    rnd.stats.turns = 1
    rnd.plus4 = Plus4Info(offender=1, bluff=bluff, hand_before=rnd.hand_size(1) + 1, colour_before=RED, challengeable=True)
    return rnd


def test_challenging_a_plus4_that_must_be_a_bluff_overrules_knobs_that_accept() -> None:
    """Official rules (no stacking): seat 1 played +4 on red naming red and holds one card; every unseen card is
    red, so in every re-deal it held red: a bluff. By hand: challenged, seat 1 draws 4 and seat 0 keeps its turn
    and plays R5: every rollout wins; accepted, seat 0 draws 4 and loses its turn, and seat 1's red card goes out:
    none. challenge=0 knobs would accept: the search overrules them."""
    rnd = after_plus4(f"search:budget={BUDGET},challenge=0", ["R5", "R7"], "R1 R2 R4 R6 R8 R9", RED, bluff=True)
    assert pending_preference(rnd, 0, [], True) == ACCEPT
    score, choice = both_effect(rnd, 0, DECIDE_P4)
    assert score == {CHALLENGE: BUDGET, ACCEPT: 0}
    assert choice == CHALLENGE


def test_accepting_when_the_challenge_cannot_win() -> None:
    """A +4 that was its player's last card was never a bluff (its hand held nothing else): by hand, challenging
    costs 6 cards and accepting 4, and the round is lost either way. Under the match objective the offender's points
    decide: accepting gives it fewer (4 drawn cards against 6), in every rollout; challenge=1 knobs challenge."""
    rnd = after_plus4(f"search:budget={BUDGET},challenge=1,objective=match", ["G5", ""], "R1 R2 R4 R6 R8 R9", GREEN, bluff=False)
    score, choice = both_effect(rnd, 0, DECIDE_P4)
    assert score[CHALLENGE] < score[ACCEPT] < 0
    assert choice == ACCEPT


# Seat 1 holds one card after a +4 on red; the unseen cards are R7 and six greens: whether it bluffed depends on
# which card it holds, which seat 0 cannot see.
BLUFFED = (["G5 B6", "R7"], "G1 G2 G4 G6 G8 G9")
HONEST = (["G5 B6", "G1"], "R7 G2 G4 G6 G8 G9")


@pytest.mark.parametrize("mode", ["search", "peek"])
def test_whether_the_plus4_was_a_bluff_stays_hidden_without_stacking(mode: str) -> None:
    """Moving R7 between seat 1's hand and the pile changes the truth (a bluff, or not), not what seat 0 saw: the
    search's totals are the same; ``peek``'s change (so the test can fail)."""
    results = []
    for hands, draw in (BLUFFED, HONEST):
        truth = parse_card("R7") in parse_cards(hands[1])
        results.append(both_effect(after_plus4(f"{mode}:budget={BUDGET}", hands, draw, GREEN, truth), 0, DECIDE_P4))
    if mode == "search":
        assert results[0] == results[1]
    else:
        assert results[0][0] != results[1][0]


def test_a_search_step_challenges_the_plus4() -> None:
    """The response in a real step of the reference engine: seat 1 bluffs a +4 naming red (the colour it holds most:
    R7) and seat 0, searching, challenges it (the position of the first test, reached by play)."""
    rules = rules_preset("official").replace(players=2)
    hands = ["R5", "+4 R7"]
    draw = "R1 R2 R4 R6 R8 R9"
    discard = [*rest_of_deck(*hands, draw, "R3"), parse_card("R3")]
    rnd = position(rules, [f"search:budget={BUDGET},challenge=0", "basic"], hands, discard, draw, current=1)
    rnd.decider.bluff = lambda _rnd, _seat: True  # type: ignore[method-assign]
    assert rnd.step()
    assert rnd.stats.challenges == 1 and rnd.stats.challenges_won == 1
    assert rnd.hand_size(1) == 5 and rnd.current == 0


# ---------------------------------------------------------------- jump-in


def window(spec: str, hands: list[str], draw: str) -> Round:
    """Jump-in rules, 3 players: seat 0 has just played R5 (seat 1 to play); seat 2 (``spec``) holds the twin."""
    rules = rules_preset("jump-in").replace(players=3)
    discard = [*rest_of_deck(*hands, draw, "R3 R5"), parse_card("R3"), parse_card("R5")]
    rnd = position(rules, ["basic", "basic", spec], hands, discard, draw, current=1)
    rnd.top_player = 0
    rnd.stats.turns = 1
    return rnd


# every unseen card is a red number but a 5: seat 1 follows any red card with its one card and goes out
JUMP_HANDS = ["R1 R2 R4", "R9", "R5"]
JUMP_DRAW = "R1 R2 R4 R6 R8"


def test_jumping_in_with_the_last_card_overrules_knobs_that_do_not() -> None:
    """By hand: seat 2 jumps in with its one card R5 and goes out: every rollout wins. Not jumping, seat 1 (one red
    card in every re-deal) follows R5 and goes out: none. jump_in=0 knobs would not jump: the search overrules."""
    rnd = window(f"search:budget={BUDGET},jump_in=0", JUMP_HANDS, JUMP_DRAW)
    score, choice = both_effect(rnd, 2, DECIDE_JUMP)
    r5 = (parse_card("R5"), -1)
    assert score == {r5: BUDGET, (-1, -1): 0}
    assert choice == r5


def test_not_jumping_in_overrules_knobs_that_jump() -> None:
    """Seat 2 holds R5 RS; seat 0 one card and seat 1 three, every unseen card a red number without a twin in play
    (one of each of 1, 2, 3, 4, 6, 8, 9). By hand: jumping in, seat 2 hands the turn to seat 0, whose red card goes
    out: no rollout wins. Not jumping, seat 1 plays a red number (nobody holds its twin), seat 2 plays RS (basic
    dumps the 20 points first) and skips seat 0, seat 1 plays again, and seat 2's R5 goes out: every rollout wins.
    jump_in=1 knobs would jump: the search overrules them."""
    rnd = window(f"search:budget={BUDGET},jump_in=1", ["R9", "R1 R2 R3", "R5 RS"], "R4 R6 R8")
    score, choice = both_effect(rnd, 2, DECIDE_JUMP)
    r5 = (parse_card("R5"), -1)
    assert score == {r5: 0, (-1, -1): BUDGET}
    assert choice == (-1, -1)


def test_a_search_step_jumps_in() -> None:
    """The jump-in in a real step of the reference engine: seat 0 plays R5, seat 2 (searching) jumps in and wins."""
    rules = rules_preset("jump-in").replace(players=3)
    hands = ["R5 R1 R2 R4", "R9", "R5"]
    discard = [*rest_of_deck(*hands, JUMP_DRAW, "R3"), parse_card("R3")]
    rnd = position(rules, ["basic", "basic", f"search:budget={BUDGET},jump_in=0"], hands, discard, JUMP_DRAW)
    rnd.decider.choose_card = lambda _rnd, _seat, _legal: parse_card("R5")  # type: ignore[method-assign]
    assert not rnd.step()
    assert rnd.stats.jump_ins == 1 and rnd.stats.winner == 2


# ---------------------------------------------------------------- the 7's target


def after_seven(spec: str, hands: list[str], draw: str) -> Round:
    """Seven-o rules, 3 players: seat 0 (``spec``) has just played R7 (its effects up to the swap)."""
    rules = rules_preset("seven-o").replace(players=3)
    discard = [*rest_of_deck(*hands, draw, "R3 R7"), parse_card("R3"), parse_card("R7")]
    rnd = position(rules, [spec, "basic", "basic"], hands, discard, draw)
    rnd.top_player = 0
    rnd.stats.turns = 1
    return rnd


# seat 1 holds 1 card, seat 2 six; every unseen card is a red number, no 0 (a rotation) and no 7 (a swap)
SEVEN_HANDS = ["G1 G2 G4 G6", "R9", "R1 R2 R4 R5 R6 R8"]
SEVEN_DRAW = "R1 R2 R3 R4 R5 R6 R8 R9"


def test_swapping_with_the_short_hand_overrules_knobs_that_take_the_long_one() -> None:
    """By hand: swapped with seat 1, seat 0 holds one red card; seat 1 (four greens, none a 7, on R7) draws a red and
    plays it, seat 2 plays red, and seat 0's red card goes out: every rollout wins. Swapped with seat 2, seat 1 plays its
    one red card on red and goes out: none. swap_target=most would take seat 2: the search overrules it."""
    rnd = after_seven(f"search:budget={BUDGET},swap_target=most", SEVEN_HANDS, SEVEN_DRAW)
    score, choice = both_effect(rnd, 0, DECIDE_SWAP)
    assert score == {(1, -1): BUDGET, (2, -1): 0}
    assert choice == (1, -1)


def test_a_search_step_swaps_with_the_short_hand() -> None:
    """The target in a real step of the reference engine: seat 0 plays R7 and swaps with seat 1."""
    rules = rules_preset("seven-o").replace(players=3)
    hands = ["R7 G1 G2 G4 G6", "R9", "R1 R2 R4 R5 R6 R8"]  # R7 its one legal card: not searched
    discard = [*rest_of_deck(*hands, SEVEN_DRAW, "R3"), parse_card("R3")]
    rnd = position(rules, [f"search:budget={BUDGET},swap_target=most", "basic", "basic"], hands, discard, SEVEN_DRAW)
    rnd.step()
    assert rnd.stats.swaps == 1 and rnd.hands[0] == Counter(parse_cards("R9"))


# ---------------------------------------------------------------- hidden information, each decision

# (builder, the deciding seat, kind, hands, draw, the exchanged hands and draw): each exchange moves hidden cards
# between two opponents or between an opponent and the draw pile, keeping every hand's size
HIDDEN = {
    "plus4-hand-and-pile": (
        lambda spec, h, d: after_plus4(spec, h, d, GREEN, parse_card("R7") in parse_cards(h[1])),
        0,
        DECIDE_P4,
        ["G5 B6 Y2", "R7 G3"],
        "G1 G2 G4 G6 G8 G9 B1",
        (["G5 B6 Y2", "G1 G3"], "R7 G2 G4 G6 G8 G9 B1"),
    ),
    "jump-opponents": (
        window,
        2,
        DECIDE_JUMP,
        ["G1 B2 B3 Y4", "G9 Y7", "R5 G7"],
        "G2 G4 G6 G8 Y3",
        (["G1 B2 G9 Y4", "B3 Y7", "R5 G7"], "G2 G4 G6 G8 Y3"),
    ),
    "jump-hand-and-pile": (
        window,
        2,
        DECIDE_JUMP,
        ["G1 B2 B3 Y4", "G9 Y7", "R5 G7"],
        "G2 G4 G6 G8 Y3",
        (["G1 B2 B3 Y4", "G9 G2", "R5 G7"], "Y7 G4 G6 G8 Y3"),
    ),
    "swap-opponents": (
        after_seven,
        0,
        DECIDE_SWAP,
        ["G1 G2 G3 Y4", "R9 B2 Y5", "R1 B4 Y6 G8"],
        "R3 R4 B5 R6 B8 Y9 G9",
        (["G1 G2 G3 Y4", "R9 R1 Y5", "B2 B4 Y6 G8"], "R3 R4 B5 R6 B8 Y9 G9"),
    ),
    "swap-pile-order": (
        after_seven,
        0,
        DECIDE_SWAP,
        ["G1 G2 G3 Y4", "R9 B2 Y5", "R1 B4 Y6 G8"],
        "R3 R4 B5 R6 B8 Y9 G9",
        (["G1 G2 G3 Y4", "R9 B2 Y5", "R1 B4 Y6 G8"], "G9 Y9 B8 R6 B5 R4 R3"),
    ),
}


def _hidden(name: str, mode: str, exchanged: bool) -> tuple[dict[tuple[int, int], int], tuple[int, int]]:
    build, seat, kind, hands, draw, (hands2, draw2) = HIDDEN[name]
    if exchanged:
        mine = slice(seat, seat + 1)
        assert hands2[mine] == hands[mine]  # the searcher's own hand is not touched
        others = [h for s, h in enumerate(hands) if s != seat]
        others2 = [h for s, h in enumerate(hands2) if s != seat]
        assert Counter(parse_cards(" ".join([*others, draw]))) == Counter(parse_cards(" ".join([*others2, draw2])))
        assert [len(parse_cards(h)) for h in hands] == [len(parse_cards(h)) for h in hands2]
        hands, draw = hands2, draw2
    return both_effect(build(f"{mode}:budget={BUDGET}", hands, draw), seat, kind)


@pytest.mark.parametrize("name", list(HIDDEN))
def test_the_effects_decisions_never_look_at_hidden_cards(name: str) -> None:
    before = _hidden(name, "search", False)
    assert len(before[0]) >= 2  # a real decision
    assert _hidden(name, "search", True) == before


def test_peek_does_look_so_the_exchanges_are_felt() -> None:
    """The same exchanges change what ``peek`` (the true state) sees, for each decision: the test above could fail."""
    changed = {HIDDEN[name][2] for name in HIDDEN if _hidden(name, "peek", False)[0] != _hidden(name, "peek", True)[0]}
    assert changed == {DECIDE_P4, DECIDE_JUMP, DECIDE_SWAP}


# ---------------------------------------------------------------- the match objective


def _points_position(spec: str) -> Round:
    """Official, 2 players: seat 0 (``spec``) holds R+2 R5 on R3; seat 1 one card; every unseen card a green
    number, no 3 and no 5 (none follows red, none follows a 3 or a 5)."""
    rules = rules_preset("official").replace(players=2)
    hands, draw = ["R+2 R5", "G1"], "G2 G4 G6 G7 G8 G9"
    return position(rules, [spec, "basic"], hands, [*rest_of_deck(*hands, draw, "R3"), parse_card("R3")], draw)


def test_the_match_objective_counts_points_where_the_round_objective_ties() -> None:
    """By hand, in every re-deal: R+2 first, seat 1 draws 2 and is skipped, and R5 goes out with seat 1 holding 3
    cards; R5 first, seat 1 draws one (nothing follows) and passes, and the last R+2 still makes it draw 2 (§7):
    4 cards, the same 3 and one more (no unseen card is worth 0). Both win every rollout: the round objective ties
    and follows the knobs (play=draw_two: R+2 first); the match objective counts the points and plays R5."""
    r2, r5 = (parse_card("R+2"), -1), (parse_card("R5"), -1)
    rnd = _points_position(f"search:budget={BUDGET},play=draw_two")
    scored, choice = both(rnd, 0)
    assert dict(scored) == {r2: BUDGET, r5: BUDGET} and choice == r2
    rnd = _points_position(f"search:budget={BUDGET},play=draw_two,objective=match")
    scored, choice = both(rnd, 0)
    score = dict(scored)
    assert score[r5] > score[r2] >= BUDGET * (1 + 2 + 4)  # at least the three smallest unseen cards a rollout
    assert choice == r5


def test_points_past_the_target_count_for_nothing() -> None:
    """With 495 of 500 points, any win reaches the target: both options are worth 5 a rollout, a tie to the knobs."""
    r2, r5 = (parse_card("R+2"), -1), (parse_card("R5"), -1)
    rnd = _points_position(f"search:budget={BUDGET},play=draw_two,objective=match")
    rnd.match_scores = [495, 0]
    scored, choice = both(rnd, 0)
    assert dict(scored) == {r2: 5 * BUDGET, r5: 5 * BUDGET}
    assert choice == r2
