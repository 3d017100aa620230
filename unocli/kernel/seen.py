"""What a search player has seen of the hands, and the re-deal that keeps it (reference ``search.Seen``, ``determinise``).

``play_search`` (kernel/search_round.py) records, step by step, what the table sees of
the hands: each seat's colour bounds (``g.cap``) and the hands shown in a +4 challenge
(``g.old_hands`` with ``g.known_by``: encode.WORKSPACE). A search's re-deal
(``_determinise``) keeps them; ``_copy_state`` copies a round into a rollout's workspace.
docs/search.md, "What the re-deal uses", has the rules.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from unocli.kernel.encode import (
    COPIES,
    HOW_DRAWN,
    I_SEARCH,
    N_COLOURS,
    N_INTS,
    N_PRIO_TABLES,
    N_TYPES,
    NO_CAP,
    NO_CARD,
    NO_COLOUR,
    NO_SEAT,
    R_NAF,
    R_WD4,
    SEARCH_OFF,
    TURN_PASSED,
    WD4_RESTRICTED,
    WILD,
    WORKSPACE,
)
from unocli.kernel.primitives import _add, _choice_code, _colour, _shuffle

# ---------------------------------------------------------------- copies


def _span(first: str, last: str) -> tuple[int, int]:
    """The bytes of the workspace record from field ``first`` to the end of field ``last``."""
    end = WORKSPACE.fields[last]
    return WORKSPACE.fields[first][1], end[1] + end[0].itemsize


# What _copy_state copies, as two spans of the record: the state's scalars and the row, then the hands, colour
# memories and piles. Each is one copy of constant size (a few vector moves, where the field-by-field copy took
# about 85 ns). The second span also holds the plain round's bit-sliced hands (``bits``, which no search
# workspace reads): tests/test_seen_copy.py checks which fields the spans hold.
STATE_SPANS = (_span("direction", "row"), _span("hands", "pile"))


@intrinsic
def _copy_bytes(typingctx, dst, src, start, stop):
    """Copy bytes ``start .. stop`` of record ``src`` into record ``dst`` (records of one dtype; constants)."""

    def codegen(context, builder, signature, args):
        to = builder.gep(builder.bitcast(args[0], cgutils.voidptr_t), [args[2]])
        frm = builder.gep(builder.bitcast(args[1], cgutils.voidptr_t), [args[2]])
        cgutils.raw_memcpy(builder, to, frm, builder.sub(args[3], args[2]), 1)
        return context.get_dummy_value()

    return types.void(dst, src, start, stop), codegen


@njit(cache=True, _nrt=False)
def _copy_state(src, dst):
    """Copy the state of the round (not the policies, nor the stuck test's memory) from ``src`` to ``dst``."""
    _copy_bytes(dst, src, np.int64(STATE_SPANS[0][0]), np.int64(STATE_SPANS[0][1]))
    _copy_bytes(dst, src, np.int64(STATE_SPANS[1][0]), np.int64(STATE_SPANS[1][1]))
    dst.round_index = src.round_index
    dst.force_colour = NO_COLOUR


@njit(cache=True, _nrt=False)
def _load_rollout_policy(g, h, seat):
    """Every seat of ``h`` plays ``seat``'s knobs of ``g``, with search off (a rollout never searches)."""
    for s in range(g.players):
        for k in range(N_INTS):
            h.ints[s, k] = g.ints[seat, k]
        h.ints[s, I_SEARCH] = SEARCH_OFF
        for k in range(g.probs.shape[1]):
            h.probs[s, k] = g.probs[seat, k]
        for table in range(N_PRIO_TABLES):
            for t in range(N_TYPES):
                h.prio[s, table, t] = g.prio[seat, table, t]
        # not CHOICE_UNIFORM: the listing path, the same card and draws as counting (step._turn)
        h.uniform[s] = _choice_code(h, s)
    h.searching = 0


@njit(cache=True, _nrt=False)
def _determinise(g, d, seat, drs):
    """Re-deal in ``d`` what ``seat`` cannot see, keeping what ``g`` records it has seen (reference search.determinise).

    The unseen cards (the deck less ``seat``'s hand, the discard pile and the top
    card, and the opponents' cards ``seat`` was shown) are listed in type order and
    shuffled (Fisher-Yates, ``drs``). Each opponent in seat order keeps its shown
    cards and takes the first cards of the list its colour bounds (``g.cap``) allow,
    then, if too few, the first cards left; the rest become the draw pile, top
    first, in list order. A dealt card's slot in ``d.opts`` is marked NO_CARD. An
    opponent's last +4 was a bluff in ``d`` when its re-dealt hand holds the colour it
    was played on.
    """
    # the seats whose cards ``seat`` was shown: usually none, and then no type reads the shown hands
    shown_any = False
    for s in range(d.players):
        if s != seat and g.known_by[s] == seat:
            shown_any = True
    m = np.int64(0)
    top = d.top
    for t in range(N_TYPES):
        k = COPIES[t] - d.hands[seat, t] - d.disc[t] - (1 if top == t else 0)
        if shown_any:
            for s in range(d.players):
                if s != seat and g.known_by[s] == seat:
                    k -= g.old_hands[s, t]
        for _ in range(k):
            d.opts[m] = t
            m += 1
    _shuffle(drs, d.opts, np.int64(0), m)
    first = np.int64(0)  # every slot of the list before it is dealt: the scans start there
    for s in range(d.players):
        if s == seat:
            continue
        shown = g.known_by[s] == seat
        need = np.int64(d.hsize[s])
        d.hands[s, :] = 0
        d.ccount[s, :] = 0
        d.hsize[s] = 0
        d.held[s] = 0  # _add sets the bits of the re-dealt hand
        if shown:
            for t in range(N_TYPES):
                for _ in range(g.old_hands[s, t]):
                    _add(d, s, t)
                    need -= 1
        for bounded in range(2):
            for i in range(first, m):
                if need <= 0:
                    break
                t = np.int64(d.opts[i])
                if t < 0:
                    continue
                if bounded == 0 and t < WILD and d.ccount[s, _colour(t)] >= g.cap[s, _colour(t)]:
                    continue
                _add(d, s, t)
                d.opts[i] = NO_CARD
                need -= 1
        while first < m and d.opts[first] < 0:
            first += 1
    n = np.int64(0)
    for i in range(first, m):
        if d.opts[i] >= 0:
            d.pile[n] = d.opts[i]
            n += 1
    d.pile_pos = 0
    d.pile_len = n
    # whether an opponent's last +4 was a bluff is hidden too: it follows from the re-dealt hand (§5)
    o = d.p4_offender
    if o != NO_SEAT and o != seat:
        bluff = d.ru[R_WD4] == WD4_RESTRICTED and d.p4_colour >= 0 and d.ccount[o, d.p4_colour] > 0
        d.p4_bluff = 1 if bluff else 0


# ---------------------------------------------------------------- records


@njit(cache=True, _nrt=False)
def reset_seen(g):
    """Nothing seen yet (reference search.Seen.forget): no colour bounds, no shown hands."""
    for s in range(g.players):
        for c in range(N_COLOURS):
            g.cap[s, c] = NO_CAP
        g.known_by[s] = NO_SEAT


@njit(cache=True, _nrt=False)
def _seen_before(g):
    """Keep the hand sizes before a step of the round, for ``_seen_draws``."""
    for s in range(g.players):
        g.seen_hsize[s] = g.hsize[s]


@njit(cache=True, _nrt=False)
def _seen_draws(g, seat, played):
    """After a step in which ``seat`` played ``played`` cards: every seat's draws raise its colour bounds (Seen.drew)."""
    for s in range(g.players):
        k = g.hsize[s] - g.seen_hsize[s] + (played if s == seat else 0)
        if k > 0:
            for c in range(N_COLOURS):
                g.cap[s, c] = min(g.cap[s, c] + k, NO_CAP)


@njit(cache=True, _nrt=False)
def _seen_play(g, seat, card):
    """``seat`` put ``card`` down (Seen.played): one card of its colour fewer, one known card fewer."""
    if card < WILD:
        c = _colour(card)
        if g.cap[seat, c] < NO_CAP and g.cap[seat, c] > 0:
            g.cap[seat, c] -= 1
    if g.old_hands[seat, card] > 0:
        g.old_hands[seat, card] -= 1


@njit(cache=True, _nrt=False)
def _seen_turn(g, seat, colour, before, card, how):
    """After ``seat``'s turn began on ``colour`` with ``before`` cards (Seen.drew, then Seen.failed on a draw)."""
    _seen_draws(g, seat, np.int64(0))
    if card != TURN_PASSED and how != HOW_DRAWN:
        return  # a card from the hand (or the round blocked): nothing learnt
    if g.ru[R_NAF] != 0 and before == 1:
        return  # §11.12: its one card may have been an action card of the colour
    if how == HOW_DRAWN:
        bound = 1 if (card < WILD and _colour(card) == colour) else 0
    else:
        bound = 1 if g.hsize[seat] > before else 0
    if bound < g.cap[seat, colour]:
        g.cap[seat, colour] = bound


@njit(cache=True, _nrt=False)
def _seen_shown(g, offender, victim):
    """The victim of ``offender``'s +4 challenged it and saw its cards (Seen.challenged)."""
    for t in range(N_TYPES):
        g.old_hands[offender, t] = g.p4_cards[t]
    g.known_by[offender] = victim
