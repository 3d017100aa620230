"""§11.6: a round of unocli's 108-card deck can never end blocked (docs/rules.md gives the argument).

A pass on which nothing is drawn needs nothing left to draw: the draw pile empty and the discard pile the
top card alone, so every other card is in a hand. At least 18 of the 19 number cards of the current colour
are then held, and a number card of the current colour is a legal play in any hand (§3; §11.12 forbids only
action cards and Wilds as a last card). The n passes in a row that block a round move no card, so they are
the turns of all n seats, one of which holds a legal play and cannot pass. These tests check the premises with
the reference engine's own legality on every such position a property test draws, and that the engines' blocked
check is therefore a safeguard (a position of fewer cards, as the scenario tests build, still reaches it).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from scenario_helpers import Outcome, Rules, policies

from unocli.game.cards import N_COLOURS, canonical_deck, colour_of, is_number, is_wild
from unocli.game.rules import WildDrawFour
from unocli.reference.engine import Round


@st.composite
def dry_positions(draw: st.DrawFn) -> tuple[Rules, list[list[int]], int, int]:
    """Every card of the deck in a hand but the top card, with nothing left to draw: (rules, hands, top, colour)."""
    n = draw(st.integers(2, 10))
    deck = draw(st.permutations(canonical_deck()))
    top, held = deck[0], list(deck[1:])
    cuts = sorted(draw(st.lists(st.integers(1, len(held) - 1), min_size=n - 1, max_size=n - 1, unique=True)))
    hands = [held[a:b] for a, b in zip([0, *cuts], [*cuts, len(held)], strict=True)]  # every hand holds a card
    colour = draw(st.integers(0, N_COLOURS - 1)) if is_wild(top) else colour_of(top)
    rules = Rules(
        players=n,
        no_action_finish=draw(st.booleans()),
        wild_draw_four=draw(st.sampled_from(list(WildDrawFour))),
    )
    return rules, hands, top, colour


@settings(max_examples=300, deadline=None)
@given(dry_positions())
def test_with_nothing_left_to_draw_some_seat_has_a_legal_play(position) -> None:
    rules, hands, top, colour = position
    rnd = Round.from_position(rules, policies(rules.players), hands, discard=[top], draw=[], colour=colour)
    held = [c for h in hands for c in h if is_number(c) and colour_of(c) == colour]
    assert len(held) >= 18  # 19 number cards a colour (one 0, two of each 1-9), one of them at most on top
    for seat, hand in enumerate(hands):  # each holder of one can play it, whatever its hand size or the rules
        for card in hand:
            if is_number(card) and colour_of(card) == colour:
                assert rnd.is_legal(seat, card), (seat, card, len(hand), rules)
    assert any(rnd.legal_cards(s) for s in range(rules.players))


def test_a_position_of_fewer_cards_still_blocks_so_the_check_stays_a_safeguard() -> None:
    """Two players each holding only a card the top card does not take, nothing to draw: two passes, blocked."""
    rnd = Round.from_position(Rules(players=2), policies(2), ["Y5", "B7"], discard="R3", draw=[])
    while rnd.step():
        pass
    assert rnd.stats.outcome is Outcome.BLOCKED and rnd.stats.passes == 2
