"""Search of a playable drawn card: play it (a Wild with each colour) or keep it (docs/search.md).

Positions worked out by hand, each asked of both engines, which must give the same
options, totals and choice; then the decision in a real turn.
"""

from __future__ import annotations

from collections import Counter

from test_search import _two_player, kernel_position

from unocli.game.cards import parse_card, parse_cards
from unocli.reference.engine import Round
from unocli.reference.search import drawn_choice, drawn_options, drawn_preference, score_options

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
BUDGET = 16
KEEP = (-1, -1)


def both_drawn(rnd: Round, seat: int, card: int) -> tuple[dict[tuple[int, int], int], tuple[int, int]]:
    """The reference engine's totals and choice for the drawn ``card``, after checking the kernel's are the same."""
    from unocli.kernel.search import drawn_at

    scored = score_options(rnd, seat, drawn_options(card))
    choice = drawn_choice(rnd, seat, card)
    ws, hs, ds, rs = kernel_position(rnd)
    before = rs.copy()
    chosen, k = drawn_at(ws, hs, ds, rs, seat, card)
    opts = [(int(ws["sopt_card"][0][i]), int(ws["sopt_colour"][0][i])) for i in range(k)]
    scores = [int(x) for x in ws["sopt_score"][0][:k]]
    assert list(zip(opts, scores, strict=True)) == scored, "kernel and reference score the options differently"
    assert opts[chosen] == choice
    assert (before == rs).all(), "the search drew from the game's play stream"
    return dict(scored), choice


# Seat 0 holds G5 and has just drawn a Wild (playable) on R3; seat 1 holds one card, and every unseen card
# is red and neither a 5 nor a 3 (R1 R2 R4 R6 R7 R8 R9).
WILD_HANDS = ["G5 W", "R7"]
WILD_DRAW = "R1 R2 R4 R6 R8 R9"


def test_a_drawn_wild_is_played_naming_the_colour_that_wins() -> None:
    """By hand, in every re-deal: the Wild named green leaves G5, which the opponent (red cards only, on green)
    cannot stop: it draws a red, passes, and G5 goes out: every rollout wins. Named red, the opponent's red card
    follows and wins at once: none. Kept, the opponent's red card follows R3 and wins: none. With play_drawn = 0
    the knobs keep it: the search overrules them."""
    rnd = _two_player(f"search:budget={BUDGET},play_drawn=0", WILD_HANDS, WILD_DRAW, "R3")
    wild = parse_card("W")
    assert drawn_options(wild) == [(wild, c) for c in (RED, YELLOW, GREEN, BLUE)] + [KEEP]
    assert drawn_preference(rnd, 0, wild) == KEEP
    score, choice = both_drawn(rnd, 0, wild)
    assert score[(wild, GREEN)] == BUDGET
    assert score[(wild, RED)] == 0 and score[KEEP] == 0
    assert choice == (wild, GREEN)


def test_keeping_a_drawn_card_can_be_the_better_option() -> None:
    """Seat 0 holds G5 and drew R9 on R3; the unseen cards are Y9 Y9 B9 B9 G9 (one is the opponent's last card).

    By hand: R9 played is followed by the opponent's 9, which wins: no rollout won. Kept, the opponent
    cannot follow R3 (no red, no 3) and draws; seat 0 wins the re-deals in which the opponent, holding G9,
    later shows it to G5, so some rollouts are won. basic plays a drawn card: the search overrules it.
    """
    rnd = _two_player(f"search:budget={BUDGET}", ["G5 R9", "Y9"], "B9 G9 Y9 B9", "R3")
    r9 = parse_card("R9")
    assert drawn_preference(rnd, 0, r9) == (r9, -1)
    score, choice = both_drawn(rnd, 0, r9)
    assert score[(r9, -1)] == 0
    assert score[KEEP] > 0
    assert choice == KEEP


def test_a_search_turn_plays_the_drawn_wild_with_its_colour() -> None:
    """The same Wild position in a real turn: seat 0, G5 on R3, draws the Wild and plays it naming green."""
    rnd = _two_player(f"search:budget={BUDGET},play_drawn=0", ["G5", "R7"], "W " + WILD_DRAW, "R3")
    rnd.step()
    assert rnd.top == parse_card("W") and rnd.colour == GREEN
    assert rnd.hands[0] == Counter(parse_cards("G5"))
