"""Search players (docs/search.md): what they may look at, and positions whose best move is known by hand.

Every position is built in the reference engine (``Round.from_position``) and
loaded into a kernel workspace field by field, so each test asks both engines
the same question and requires the same answer, option by option.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from unocli.game.cards import canonical_deck, parse_card, parse_cards
from unocli.game.policies import Policy, parse_policy_spec
from unocli.game.rules import Rules
from unocli.game.rules import preset as rules_preset
from unocli.reference.engine import Round
from unocli.reference.search import options, policy_option, search_choice, search_scores

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
BUDGET = 16


def kernel_position(rnd: Round) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kernel workspaces (game, rollout copy, determinisation) holding ``rnd``'s position, and its play stream."""
    from unocli.kernel.batch import new_workspace
    from unocli.kernel.encode import ROW_NAMES, encode_policies, encode_rules

    ru = np.append(encode_rules(rnd.rules), np.int64(0))
    probs, ints, prio = encode_policies(rnd.policies)
    ws, hs, ds = (new_workspace(ru, probs, ints, prio) for _ in range(3))
    for s in range(rnd.n):
        for t, k in rnd.hands[s].items():
            ws["hands"][0][s, t] = k
            if k > 0:
                ws["held"][0][s] |= np.uint64(1 << t)  # the held types, kept with the counts (encode.WORKSPACE)
        ws["hsize"][0][s] = rnd.hand_size(s)
        ws["ccount"][0][s] = rnd.colour_counts(s)
        ws["lacks"][0][s] = rnd.lacks[s]
        ws["shown"][0][s] = rnd.shown[s]
        if rnd.seen is not None:  # what the table has seen (reference search.Seen)
            ws["cap"][0][s] = rnd.seen.cap[s]
            ws["known_by"][0][s] = rnd.seen.known_by[s]
            for t, k in rnd.seen.known[s].items():
                ws["old_hands"][0][s, t] = k  # the shown hands' table (encode.WORKSPACE)
    for c in rnd.discard[:-1]:
        ws["disc"][0][c] += 1
    ws["disc_n"][0] = len(rnd.discard) - 1
    ws["pile"][0][: len(rnd.draw_pile)] = rnd.draw_pile
    ws["pile_pos"][0], ws["pile_len"][0] = 0, len(rnd.draw_pile)
    for field, value in (
        ("top", rnd.top),
        ("colour", rnd.colour),
        ("direction", rnd.direction),
        ("current", rnd.current),
        ("top_player", rnd.top_player),
        ("dead", rnd.dead_passes),
        ("pending", rnd.pending),
        ("chain", rnd.chain),
        ("round_index", rnd.round_index),
        ("p4_offender", rnd.plus4.offender),
        ("p4_bluff", int(rnd.plus4.bluff)),
        ("p4_hand", rnd.plus4.hand_before),
        ("p4_colour", rnd.plus4.colour_before),
        ("p4_shown", int(rnd.plus4.shown)),
        ("p4_lacked", int(rnd.plus4.lacked)),
        ("p4_challengeable", int(rnd.plus4.challengeable)),
    ):
        ws[field][0] = value
    ws["mscore"][0][: rnd.n] = rnd.match_scores  # a match's scores before the round (the match objective)
    ws["row"][0][ROW_NAMES.index("turns")] = rnd.stats.turns
    ws["row"][0][ROW_NAMES.index("first_to_one")] = -1
    rs = np.array([rnd.rng.s0, rnd.rng.s1, rnd.rng.s2, rnd.rng.s3], dtype=np.uint64)
    return ws, hs, ds, rs


def kernel_scores(rnd: Round, seat: int) -> tuple[list[tuple[int, int]], list[int], int, np.ndarray, np.ndarray]:
    """The kernel's options, their wins and its choice at ``rnd``'s position; also its play stream before and after."""
    from unocli.kernel.search import search_at

    ws, hs, ds, rs = kernel_position(rnd)
    before = rs.copy()
    chosen, k = search_at(ws, hs, ds, rs, seat)
    opts = [(int(ws["sopt_card"][0][i]), int(ws["sopt_colour"][0][i])) for i in range(k)]
    return opts, [int(x) for x in ws["sopt_score"][0][:k]], int(chosen), before, rs


def both(rnd: Round, seat: int) -> tuple[list[tuple[tuple[int, int], int]], tuple[int, int]]:
    """The reference engine's scored options and choice, after checking that the kernel's are the same."""
    legal = rnd.legal_cards(seat)
    scored = search_scores(rnd, seat, legal)
    choice = search_choice(rnd, seat, legal)
    opts, scores, chosen, before, after = kernel_scores(rnd, seat)
    assert list(zip(opts, scores, strict=True)) == scored, "kernel and reference score the options differently"
    assert opts[chosen] == choice
    assert (before == after).all(), "the search drew from the game's play stream"
    return scored, choice


def rest_of_deck(*parts: str) -> list[int]:
    """The deck less the cards named in ``parts``, in type order (a discard pile that leaves only them unseen)."""
    left = Counter(canonical_deck())
    for part in parts:
        left.subtract(parse_cards(part))
    assert all(k >= 0 for k in left.values())
    return sorted(left.elements())


def position(rules: Rules, specs: list[str], hands: list[str], discard: list[int], draw: str, **kw) -> Round:
    return Round.from_position(rules, [parse_policy_spec(s) for s in specs], hands, discard=discard, draw=parse_cards(draw), **kw)


# ---------------------------------------------------------------- what a search may look at

HIDDEN_HANDS = ["R5 R7 G7 Y2 W B+2", "Y5 G1 B3 R9", "G8 B7 Y+2 RS B1"]
HIDDEN_DRAW = "G2 Y9 B4 R2 GR Y0 B8 R1 G6"


def _hidden_round(spec: str, hands: list[str], draw: str) -> Round:
    rules = rules_preset("official").replace(players=3)
    seen = "R3 Y3 G3 YS"  # the discard pile, top last
    return Round.from_position(
        rules,
        [parse_policy_spec(spec), parse_policy_spec("basic"), parse_policy_spec("basic")],
        hands,
        discard=parse_cards(seen),
        draw=parse_cards(draw),
        colour=YELLOW,
    )


# Exchanges of hidden cards that keep every hand's size and the draw pile's length: two opponents
# swap a card, an opponent swaps a card with the draw pile, and the draw pile is reordered.
EXCHANGES = {
    "opponents": (["R5 R7 G7 Y2 W B+2", "Y+2 G1 B3 R9", "G8 B7 Y5 RS B1"], HIDDEN_DRAW),
    "hand-and-pile": (["R5 R7 G7 Y2 W B+2", "Y5 G1 B3 G2", "G8 B7 Y+2 RS B1"], "R9 Y9 B4 R2 GR Y0 B8 R1 G6"),
    "pile-order": (HIDDEN_HANDS, "G6 R1 B8 Y0 GR R2 B4 Y9 G2"),
}


@pytest.mark.parametrize("exchange", list(EXCHANGES))
def test_search_never_looks_at_hidden_cards(exchange: str) -> None:
    spec = f"search:budget={BUDGET}"
    scored, choice = both(_hidden_round(spec, HIDDEN_HANDS, HIDDEN_DRAW), 0)
    assert len(scored) >= 2  # a real decision
    hands, draw = EXCHANGES[exchange]
    assert Counter(parse_cards(" ".join(hands[1:]) + " " + draw)) == Counter(
        parse_cards(" ".join(HIDDEN_HANDS[1:]) + " " + HIDDEN_DRAW)
    )  # the same hidden cards, only moved
    again, choice_again = both(_hidden_round(spec, hands, draw), 0)
    assert again == scored and choice_again == choice


def test_peek_does_look_so_the_exchanges_are_felt() -> None:
    """The same exchanges change what ``peek`` (the true state) sees: the test above could fail."""
    spec = f"peek:budget={BUDGET}"
    scored, _ = both(_hidden_round(spec, HIDDEN_HANDS, HIDDEN_DRAW), 0)
    changed = [name for name, (hands, draw) in EXCHANGES.items() if both(_hidden_round(spec, hands, draw), 0)[0] != scored]
    assert changed, "peek scored every exchanged position alike"


# ---------------------------------------------------------------- positions known by hand


def _two_player(spec: str, hands: list[str], draw: str, top: str) -> Round:
    rules = rules_preset("official").replace(players=2)
    discard = [*rest_of_deck(*hands, draw, top), parse_card(top)]
    return position(rules, [spec, "basic"], hands, discard, draw)


@pytest.mark.parametrize("mode", ["search", "peek"])
def test_keeps_the_card_that_wins(mode: str) -> None:
    """Seat 0 holds R5 R7 on R3; the only unseen cards are G7, G1 and G2 (one in the opponent's hand).

    By hand: after R5 no unseen card follows (not red, not a 5), the opponent draws and passes, and
    R7 goes out: every rollout wins. After R7 an opponent holding or drawing G7 follows it, so R7
    wins only when G7 is neither the opponent's card nor the pile's top (and never when, as here,
    the opponent really holds G7). basic plays R7 (high numbers first).
    """
    rnd = _two_player(f"{mode}:budget={BUDGET}", ["R5 R7", "G7"], "G1 G2", "R3")
    scored, choice = both(rnd, 0)
    score = {card: s for (card, _), s in scored}
    assert score[parse_card("R5")] == BUDGET
    assert score[parse_card("R7")] < BUDGET
    if mode == "peek":
        assert score[parse_card("R7")] == 0
    assert choice == (parse_card("R5"), -1)
    assert policy_option(rnd, 0, rnd.legal_cards(0)) == (parse_card("R7"), -1)  # basic plays R7: search overrules it


@pytest.mark.parametrize("mode", ["search", "peek"])
def test_names_the_colour_nobody_else_holds(mode: str) -> None:
    """Seat 0 holds W B9 on R3 and every unseen card is red (R7 R1 R2).

    By hand: the Wild named blue stops the opponent (it draws a red and passes) and B9 goes out:
    every rollout wins; named red, the opponent's last card follows and wins every rollout.
    With ``colour = random`` the knobs name no colour without a draw, so ties go to the first
    option, red: a search that ignored its rollouts would name red.
    """
    rnd = _two_player(f"{mode}:budget={BUDGET},colour=random", ["W B9", "R7"], "R1 R2", "R3")
    scored, choice = both(rnd, 0)
    wild = parse_card("W")
    assert [opt for opt, _ in scored] == [(wild, c) for c in (RED, YELLOW, GREEN, BLUE)]
    score = dict(scored)
    assert score[(wild, BLUE)] == BUDGET
    assert score[(wild, RED)] == 0
    assert choice == (wild, BLUE)


def test_a_last_wild_is_one_option_and_a_last_wild_draw_four_four() -> None:
    """§12.9: a Wild that empties the hand names no colour; a last Wild Draw Four does."""
    rules = rules_preset("official").replace(players=2)
    pol = parse_policy_spec("search:budget=1")
    rnd = Round.from_position(rules, [pol, Policy()], ["W", "R7"], discard=parse_cards("R3"), draw=parse_cards("G1"))
    assert options(rnd, 0, rnd.legal_cards(0)) == [(parse_card("W"), -1)]
    rnd = Round.from_position(rules, [pol, Policy()], ["+4", "R7"], discard=parse_cards("R3"), draw=parse_cards("G1"))
    assert options(rnd, 0, rnd.legal_cards(0)) == [(parse_card("+4"), c) for c in range(4)]


def test_search_policies_always_call_uno() -> None:
    with pytest.raises(ValueError, match="always calls Uno"):
        parse_policy_spec("search:forget_uno=0.5")
    assert parse_policy_spec("peek").search == "peek" and parse_policy_spec("search").forget_uno == 0


def test_ties_go_to_the_knobs_own_choice() -> None:
    """R5 R6 on R3, every unseen card green and neither a 5 nor a 6: by hand, both options win every
    rollout (the opponent can never follow). basic plays R6 (high numbers first), card-type order R5."""
    rnd = _two_player(f"search:budget={BUDGET}", ["R5 R6", "G1"], "G2 G4", "R3")
    scored, choice = both(rnd, 0)
    assert [s for _, s in scored] == [BUDGET, BUDGET]
    assert choice == (parse_card("R6"), -1)


@pytest.mark.parametrize("spec", ["random:search=on", "random:search=peek"])
def test_a_searching_seat_never_takes_the_plain_round(spec: str) -> None:
    """kernel/plain.py plays uniform players without search: a searching seat whose other knobs are
    ``random`` (the plain round's shape) must still send the table to the general round."""
    from unocli.kernel.batch import new_workspace
    from unocli.kernel.encode import encode_policies, encode_rules
    from unocli.kernel.plain import plain_shape

    rules = rules_preset("official")

    def plain(policies: tuple[Policy, ...]) -> bool:
        probs, ints, prio = encode_policies(policies)
        return bool(plain_shape(new_workspace(np.append(encode_rules(rules), np.int64(0)), probs, ints, prio)[0]))

    assert plain((Policy(),) * 4)  # the shape itself is plain
    assert not plain((Policy(), parse_policy_spec(spec), Policy(), Policy()))
