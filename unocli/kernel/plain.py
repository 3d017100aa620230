"""The plain round: ``step.play`` specialised to the official rules' shape and uniform players.

Most games unocli plays are the official rules (any table size, hand size,
+4 rule, challenge rule or Uno penalty) with players who pick uniformly among
their legal cards: the ``random`` field of every report, the balance check
and the speed yardstick. ``step.play`` reads every house rule and knob at every
turn and keeps its state in the workspace record; ``plain_play`` plays the
same round with none of that: the house rules are off, every seat plays
uniformly, never bluffs, names a random colour and answers a +4 with the
uniform respond. The play stream and the counters live in local variables,
so the hot loop keeps them in registers.

It is the same game, draw for draw: every random number is drawn in the
order ``step.play`` draws it, and the row it leaves is the same
(``tests/test_plain.py`` compares the two on many configurations, and the
differential test compares the kernel with the reference engine).

The stuck test (§11.15) is not run, and need not be: a round can only come
back to an earlier state with the play stream where it was, so with no
random number drawn in between. Without one, every decision of a plain round
strictly lowers (cards left in the draw pile, cards in hands, minus the
passes in a row that drew nothing), read in that order: a play takes a card
from a hand (a penalty it deals takes cards from the pile), a draw takes one
from the pile and a pass that draws nothing adds one to the passes in a row.
Only a reshuffle puts cards back into the draw pile, and a reshuffle of two
or more cards draws random numbers. The one exception, a reshuffle of a
single card, makes ``plain_play`` return False, and the caller plays the
round again with ``step.play``. It is rare: the discard pile must hold just
one card under the top card when the draw pile runs out (no game in 20,000
of the official rules with 4 players; 3% of them with 8 players and 13
cards each).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from unocli.game.rng import bounded, uniform01
from unocli.kernel.bits import _lowest_bit, _popcount
from unocli.kernel.encode import (
    CARDS_DRAWN,
    CARDS_LEFT,
    CARDS_PLAYED,
    CHALLENGE_EXTRA,
    CHALLENGES,
    CHOICE_UNIFORM,
    COLOUR_BITS,
    DEALER,
    DECK_SIZE,
    DRAW_TWO,
    DRAW_TWO_PENALTY,
    FAST_INT_CODES,
    FAST_INT_SLOTS,
    FAST_PROB_CODES,
    FAST_PROB_SLOTS,
    FAST_RULE_CODES,
    FAST_RULE_SLOTS,
    FIRST_PLAYER,
    FIRST_TO_ONE,
    MAX_DRAW,
    MAX_STACK,
    N_COLOURS,
    N_RANKS,
    NO_CARD,
    NO_SEAT,
    ONE_CARD_RESHUFFLE,
    OUTCOME,
    OUTCOME_BLOCKED,
    OUTCOME_CAPPED,
    OUTCOME_WON,
    P_CATCH,
    P_FORGET,
    P_PLAY_DRAWN,
    PASSES,
    PLUS4_PLAYED,
    POINT_PLANES,
    R_CHALLENGE,
    R_HAND_SIZE,
    R_MAX_TURNS,
    R_UNO_PENALTY,
    R_WD4,
    RANK_BITS,
    REVERSE,
    SKIP,
    SKIPS,
    TURNS,
    UNO_CAUGHT,
    UNO_FORGOTTEN,
    WD4_BIT,
    WD4_RESTRICTED,
    WILD,
    WILD_BIT,
    WILD_DRAW_FOUR,
    WILD_DRAW_FOUR_PENALTY,
    WINNER,
    WINNER_POINTS,
)
from unocli.kernel.primitives import _below as _below_rs
from unocli.kernel.primitives import _refill, _start_card, _start_seat, _step_seat, shuffle_deck


@njit(cache=True, inline="always", _nrt=False)
def in_shape(values, slots, codes):
    """Is ``values[slots[j]]`` one of ``codes[j]`` for every j? (encode.fast_round_tables)"""
    for j in range(slots.shape[0]):
        v = values[slots[j]]
        ok = False
        for c in range(codes.shape[1]):
            if v == codes[j, c]:
                ok = True
        if not ok:
            return False
    return True


@njit(cache=True, _nrt=False)
def plain_shape(g):
    """Can ``plain_play`` play the rounds of this workspace (its rules and every seat's policy)?

    The shape is encode.FAST_RULES and encode.FAST_KNOBS (the ``uniform`` flag holds UNIFORM_KNOBS).
    """
    if not in_shape(g.ru, FAST_RULE_SLOTS, FAST_RULE_CODES):
        return False
    for s in range(g.players):
        if (
            g.uniform[s] != CHOICE_UNIFORM
            or not in_shape(g.ints[s], FAST_INT_SLOTS, FAST_INT_CODES)
            or not in_shape(g.probs[s], FAST_PROB_SLOTS, FAST_PROB_CODES)
        ):
            return False
    return True


# ---------------------------------------------------------------- the play stream in registers


@njit(cache=True, inline="always", _nrt=False)
def _below(s0, s1, s2, s3, n):
    """Uniform in [0, n), no draw for n == 1 (primitives._below on local state)."""
    if n <= 1:
        return np.int64(0), s0, s1, s2, s3
    v, s0, s1, s2, s3 = bounded(s0, s1, s2, s3, np.uint64(n))
    return np.int64(v), s0, s1, s2, s3


@njit(cache=True, inline="always", _nrt=False)
def _chance(s0, s1, s2, s3, p):
    """True with probability p, no draw for p in {0, 1} (primitives._chance on local state)."""
    if p <= 0.0:
        return False, s0, s1, s2, s3
    if p >= 1.0:
        return True, s0, s1, s2, s3
    u, s0, s1, s2, s3 = uniform01(s0, s1, s2, s3)
    return u < p, s0, s1, s2, s3


@njit(cache=True, _nrt=False)
def _pile_card(g, rs):
    """The next card of the draw pile, reshuffling an empty one (primitives._draw's first half).

    Returns the card, NO_CARD when there is none, or ONE_CARD_RESHUFFLE when
    the reshuffle would be of one card (``plain_play`` hands the round back). A real call:
    the play stream is in ``rs`` here, written there by the caller.
    """
    if g.pile_pos == g.pile_len:
        if g.disc_n == 1:
            return np.int64(ONE_CARD_RESHUFFLE)
        if not _refill(g, rs):
            return np.int64(NO_CARD)
    c = np.int64(g.pile[np.uint64(g.pile_pos)])
    g.pile_pos += 1
    return c


# ---------------------------------------------------------------- bit-sliced hands
# ``g.bits[seat, i]`` has bit t set when the seat holds more than i cards of
# type t. The legal cards of a hand are then four masked words: their number
# (duplicates included) four population counts, the k-th of them one pdep
# (or, when a legal type is held twice, a walk over set bits reading each
# type's count from the words). ``g.hsize`` is kept too; the general round's
# count tables (``g.hands``, ``g.ccount``) are not used by a plain round.


def _target_features() -> str:
    """The CPU features numba compiles for (as numba's codegen reads them): the host's, unless configured."""
    from numba.core import config
    from numba.core.codegen import get_host_cpu_features

    return config.CPU_FEATURES if config.CPU_FEATURES is not None else get_host_cpu_features()


def _select_loop(x, k):
    """``_select`` without BMI2: clear the k lowest set bits, then take the lowest."""
    for _ in range(k):
        x &= x - np.uint64(1)
    return _lowest_bit(x)


@intrinsic
def _select(typingctx, x, k):
    """Index of the k-th lowest set bit of a uint64 (k counted from 0, below its number of set bits).

    With BMI2 it is one ``pdep`` of the bit 1 << k into x and a ``tzcnt``, no
    loop and no branch to mispredict; without, a loop of k steps. Chosen when
    the kernel compiles, for the CPU it compiles for (numba's cache is per CPU).
    """

    def codegen(context, builder, signature, args):
        if "+bmi2" not in _target_features().split(","):
            return context.compile_internal(builder, _select_loop, signature, args)
        i64 = ir.IntType(64)
        pdep = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64")
        one_hot = builder.call(pdep, [builder.shl(ir.Constant(i64, 1), args[1]), args[0]])
        return builder.cttz(one_hot, ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64, types.uint64), codegen


@njit(cache=True, inline="always", _nrt=False)
def _give(g, seat, c):
    """``seat`` takes a card of type c (primitives._add, bit-sliced; colour counts not kept)."""
    b = np.uint64(1) << np.uint64(c)
    u = np.uint64(seat)  # an unsigned index: no code for negative indices
    l0 = g.bits[u, 0]
    l1 = g.bits[u, 1]
    l2 = g.bits[u, 2]
    g.bits[u, 3] |= b & l2
    g.bits[u, 2] = l2 | (b & l1)
    g.bits[u, 1] = l1 | (b & l0)
    g.bits[u, 0] = l0 | b
    g.hsize[u] += 1


@njit(cache=True, inline="always", _nrt=False)
def _take(g, seat, c):
    """``seat`` gives up a card of type c (primitives._remove, bit-sliced)."""
    b = np.uint64(1) << np.uint64(c)
    u = np.uint64(seat)  # an unsigned index: no code for negative indices
    l1 = g.bits[u, 1]
    l2 = g.bits[u, 2]
    l3 = g.bits[u, 3]
    g.bits[u, 0] &= ~(b & ~l1)
    g.bits[u, 1] = l1 & ~(b & ~l2)
    g.bits[u, 2] = l2 & ~(b & ~l3)
    g.bits[u, 3] = l3 & ~b
    g.hsize[u] -= 1


@njit(cache=True, inline="always", _nrt=False)
def _push(l0, l1, l2, l3, c):
    """The bit-sliced words of a hand with one more card of type c (``_give`` on words in registers)."""
    b = np.uint64(1) << np.uint64(c)
    return l0 | b, l1 | (b & l0), l2 | (b & l1), l3 | (b & l2)


@njit(cache=True, inline="always", _nrt=False)
def plain_deal(g, rs, deal_rs, round_index):
    """``step.deal`` for a plain round: the same shuffle, hands, start card and draws; the hands as bit slices only.

    Fills what ``plain_play`` reads (the piles, the hands' bits and sizes,
    the row, the start card's effects) and draws from both streams exactly
    as ``step.deal`` does; the count tables of the general round
    (``hands``, ``ccount``, ``lacks``, ``shown``) are not touched.
    """
    shuffle_deck(g, deal_rs)
    plain_deal_shuffled(g, rs, deal_rs, round_index)


@njit(cache=True, _nrt=False)
def plain_deal_shuffled(g, rs, deal_rs, round_index):
    """:func:`plain_deal` from its shuffle on (``step.deal_shuffled``'s twin)."""
    n = g.players
    g.disc[:] = 0
    g.row[:] = 0
    g.row[FIRST_TO_ONE] = NO_SEAT
    hand = g.ru[R_HAND_SIZE]
    dealt = hand * n
    first = round_index % n
    # card i of the pile goes to seat first + i (mod n): each seat's words built in registers, stored once
    for s in range(n):
        l0 = np.uint64(0)
        l1 = np.uint64(0)
        l2 = np.uint64(0)
        l3 = np.uint64(0)
        i = s - first
        if i < 0:
            i += n
        while i < dealt:
            l0, l1, l2, l3 = _push(l0, l1, l2, l3, g.pile[i])
            i += n
        g.bits[s, 0] = l0
        g.bits[s, 1] = l1
        g.bits[s, 2] = l2
        g.bits[s, 3] = l3
        g.hsize[s] = hand
    pos = dealt
    start = _start_card(g, deal_rs, pos)
    g.pile_pos = pos + 1
    g.pile_len = DECK_SIZE
    g.disc_n = 0
    g.top = start
    g.direction = 1
    g.current = first
    g.dead = 0
    g.row[DEALER] = (first - 1) % n
    if start >= WILD:
        g.colour = _below_rs(rs, N_COLOURS)  # every seat names a random colour
    else:
        g.colour = start // N_RANKS
        rank = start % N_RANKS
        if rank == DRAW_TWO:  # the first player draws two (the discard pile is empty: no reshuffle)
            _penalty_from_pile(g, first, min(np.int64(DRAW_TWO_PENALTY), g.pile_len - g.pile_pos))
        _start_seat(g, first, n, rank)
    g.row[FIRST_PLAYER] = g.current


@njit(cache=True, inline="always", _nrt=False)
def _nth(x0, l1, l2, l3, k):
    """The k-th legal card in type order, duplicates included (primitives._nth_legal).

    ``x0`` holds the legal types held; ``l1``..``l3`` the seat's other bit
    slices, which give each type's count.
    """
    x = x0
    while True:
        t = _lowest_bit(x)
        h = np.int64(1 + ((l1 >> t) & np.uint64(1)) + ((l2 >> t) & np.uint64(1)) + ((l3 >> t) & np.uint64(1)))
        if k < h:
            return np.int64(t)
        k -= h
        x &= x - np.uint64(1)


# ---------------------------------------------------------------- the round


@njit(cache=True, _nrt=False)
def plain_play(g, rs):
    """Play a dealt round of the plain shape to its end, as ``step.play`` would (see the module docstring).

    Parameters
    ----------
    g : encode.WORKSPACE record
        Dealt by ``step.deal``; its rules and players pass ``plain_shape``.
    rs : uint64[4]
        The play stream, advanced as ``step.play`` advances it.

    Returns
    -------
    bool
        True with the row filled; False when the round needs a one-card
        reshuffle, with ``g`` and ``rs`` part-way: the caller deals the
        round again and plays it with ``step.play``.
    """
    n = g.players
    max_turns = g.ru[R_MAX_TURNS]
    wd4_free = g.ru[R_WD4] != WD4_RESTRICTED
    challengeable = g.ru[R_CHALLENGE] != 0 and not wd4_free
    uno_penalty = g.ru[R_UNO_PENALTY]
    s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
    # the two counters every turn touches, in registers (a turn is a card played or a pass);
    # the others stay in g.row, which keeps the registers for the round's state
    played = g.row[CARDS_PLAYED]
    passes = g.row[PASSES]
    limit = max_turns - g.row[TURNS] + played + passes  # played + passes reaching it caps the round
    colour = g.colour
    top = g.top
    direction = g.direction
    current = g.current
    dead = g.dead
    outcome = OUTCOME_WON
    winner = NO_SEAT
    # the types that match the top card and colour, bar the Wild Draw Four (legal by the hand)
    match = COLOUR_BITS[np.uint64(colour)] | WILD_BIT
    if top < WILD:
        match |= RANK_BITS[np.uint64(top % N_RANKS)]
    while True:
        if played + passes >= limit:  # §11.7
            outcome = OUTCOME_CAPPED
            break
        seat = current
        u = np.uint64(seat)  # unsigned indices: numba adds no code for negative ones
        l0 = g.bits[u, 0]
        legal = match
        if wd4_free or (l0 & COLOUR_BITS[np.uint64(colour)]) == 0:
            legal |= WD4_BIT
        x0 = l0 & legal
        if x0 != 0:
            # uniform over the legal cards held, duplicates included (step._turn)
            l1 = g.bits[u, 1]
            l2 = g.bits[u, 2]
            l3 = g.bits[u, 3]
            m = np.int64(_popcount(x0) + _popcount(l1 & legal) + _popcount(l2 & legal) + _popcount(l3 & legal))
            k, s0, s1, s2, s3 = _below(s0, s1, s2, s3, m)
            if (l1 & legal) == 0:  # no legal type held twice (most turns): the k-th set bit of x0
                card = np.int64(_select(x0, np.uint64(k)))
            else:
                card = _nth(x0, l1, l2, l3, k)
        else:
            # §3: draw one; play it if it is legal and the player wants to, else pass
            if g.pile_pos < g.pile_len:
                card = np.int64(g.pile[np.uint64(g.pile_pos)])
                g.pile_pos += 1
            else:
                rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
                card = _pile_card(g, rs)
                s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
                if card == ONE_CARD_RESHUFFLE:
                    return False
            drew = card != NO_CARD
            if drew:
                _give(g, seat, card)
                g.row[CARDS_DRAWN] += 1
                # legal on the hand with it: the +4 as before (it is no card of the colour)
                if (legal >> np.uint64(card)) & np.uint64(1):
                    play, s0, s1, s2, s3 = _chance(s0, s1, s2, s3, g.probs[u, P_PLAY_DRAWN])
                    if not play:
                        card = NO_CARD
                else:
                    card = NO_CARD
            if card == NO_CARD:  # a pass
                passes += 1
                dead = 0 if drew else dead + 1
                if dead >= n:  # §11.6
                    outcome = OUTCOME_BLOCKED
                    break
                current = _step_seat(seat, direction, n, 1)
                continue
        # ---- play the card (§4, §6)
        hand_before = g.hsize[u]
        _take(g, seat, card)
        g.disc[np.uint64(top)] += 1
        g.disc_n += 1
        top = card
        played += 1
        dead = 0
        if hand_before == 2:
            if g.row[FIRST_TO_ONE] == NO_SEAT:  # §9 first_to_one
                g.row[FIRST_TO_ONE] = seat
            forgot, s0, s1, s2, s3 = _chance(s0, s1, s2, s3, g.probs[u, P_FORGET])
            if forgot:  # §6: the first opponent who notices catches it
                g.row[UNO_FORGOTTEN] += 1
                for j in range(1, n):
                    o = _step_seat(seat, direction, n, j)
                    caught, s0, s1, s2, s3 = _chance(s0, s1, s2, s3, g.probs[o, P_CATCH])
                    if caught:
                        g.row[UNO_CAUGHT] += 1
                        rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
                        got = _penalty(g, rs, seat, uno_penalty)
                        s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
                        if got < 0:
                            return False
                        break
        out = g.hsize[u] == 0
        nxt = _step_seat(seat, direction, n, 1)
        if card >= WILD:
            if card == WILD_DRAW_FOUR or not out:
                colour, s0, s1, s2, s3 = _below(s0, s1, s2, s3, N_COLOURS)
                match = COLOUR_BITS[np.uint64(colour)] | WILD_BIT
            if card == WILD_DRAW_FOUR:
                g.row[PLUS4_PLAYED] += 1
                if g.row[MAX_STACK] < 1:
                    g.row[MAX_STACK] = 1
                # the victim answers uniformly among challenging (when open) and accepting;
                # a uniform player never bluffs, so a challenge costs the victim 2 more
                total = np.int64(WILD_DRAW_FOUR_PENALTY)
                if challengeable:
                    k, s0, s1, s2, s3 = _below(s0, s1, s2, s3, 2)
                    if k == 0:
                        g.row[CHALLENGES] += 1
                        total += CHALLENGE_EXTRA
                if g.pile_len - g.pile_pos >= total:
                    _penalty_from_pile(g, nxt, total)
                else:
                    rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
                    got = _penalty(g, rs, nxt, total)
                    s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
                    if got < 0:
                        return False
                if out:  # the round is over: the victim loses no turn (docs/rules.md §9 skips)
                    winner = seat
                    break
                g.row[SKIPS] += 1  # the victim loses the turn
                current = _step_seat(nxt, direction, n, 1)
            else:
                if out:
                    winner = seat
                    break
                current = nxt
        else:
            colour = card // N_RANKS
            rank = card % N_RANKS
            match = COLOUR_BITS[np.uint64(colour)] | RANK_BITS[np.uint64(rank)] | WILD_BIT
            if rank == DRAW_TWO:
                if g.row[MAX_STACK] < 1:
                    g.row[MAX_STACK] = 1
                if g.pile_len - g.pile_pos >= DRAW_TWO_PENALTY:
                    _penalty_from_pile(g, nxt, np.int64(DRAW_TWO_PENALTY))
                else:
                    rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
                    got = _penalty(g, rs, nxt, np.int64(DRAW_TWO_PENALTY))
                    s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
                    if got < 0:
                        return False
                if out:
                    winner = seat
                    break
                g.row[SKIPS] += 1
                current = _step_seat(nxt, direction, n, 1)
            elif out:
                winner = seat
                break
            elif rank == SKIP:
                g.row[SKIPS] += 1
                current = _step_seat(nxt, direction, n, 1)
            elif rank == REVERSE:
                direction = -direction
                if n == 2:  # §11.13: the same player plays again
                    g.row[SKIPS] += 1
                    current = seat
                else:
                    current = _step_seat(seat, direction, n, 1)
            else:
                current = nxt
    rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
    g.row[TURNS] += played + passes - g.row[CARDS_PLAYED] - g.row[PASSES]
    g.row[CARDS_PLAYED] = played
    g.row[PASSES] = passes
    _plain_round_end(g, outcome, winner)
    return True


@njit(cache=True, _nrt=False)
def _plain_round_end(g, outcome, winner):
    """``step._round_end`` on bit-sliced hands: cards left, and the points held summed bit plane by bit plane."""
    pts = np.uint64(0)
    for s in range(g.players):
        g.row[CARDS_LEFT + s] = g.hsize[s]
        if outcome == OUTCOME_WON:
            for i in range(4):
                w = g.bits[s, i]
                for b in range(POINT_PLANES.shape[0]):
                    pts += _popcount(w & POINT_PLANES[b]) << np.uint64(b)
    g.row[OUTCOME] = outcome
    g.row[WINNER] = winner
    g.row[WINNER_POINTS] = np.int64(pts)


@njit(cache=True, inline="always", _nrt=False)
def _penalty_from_pile(g, seat, k):
    """``seat`` draws a penalty of k cards the draw pile holds (``_penalty`` without a reshuffle), inline."""
    pos = g.pile_pos
    for i in range(k):
        _give(g, seat, g.pile[np.uint64(pos + i)])
    g.pile_pos = pos + k
    g.row[CARDS_DRAWN] += k
    if k > g.row[MAX_DRAW]:
        g.row[MAX_DRAW] = k


@njit(cache=True, _nrt=False)
def _penalty(g, rs, seat, k):
    """``seat`` draws a penalty of k cards (step._penalty_draw): how many it got, or -1 for a one-card reshuffle.

    Counts them in the row's cards drawn and largest penalty, as ``_penalty_from_pile`` does.
    """
    got = np.int64(0)
    for _ in range(k):
        c = _pile_card(g, rs)
        if c == ONE_CARD_RESHUFFLE:
            return np.int64(-1)
        if c == NO_CARD:
            break
        _give(g, seat, c)
        got += 1
    g.row[CARDS_DRAWN] += got
    if got > g.row[MAX_DRAW]:
        g.row[MAX_DRAW] = got
    return got
