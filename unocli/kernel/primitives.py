"""Kernel primitives: random draws, hand bookkeeping, drawing, legality and decisions.

The small ``@njit`` functions ``step.py`` builds a round from; each mirrors a
reference-engine method or decision of the same name (see step.py for the
state layout and why these are compiled without numba's runtime).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.game.rng import bounded, register_numba, uniform01
from unocli.kernel.bits import _bit, _lowest_bit
from unocli.kernel.encode import (
    CARDS_DRAWN,
    CHOICE_KNOBS,
    CHOICE_PLAY,
    COL_NEXT_LACKS,
    COL_RANDOM,
    COLOUR_BITS,
    COLOURED_COPIES,
    DECK,
    DECK_SIZE,
    DRAW_TWO,
    DROP_COLOUR,
    DROP_DRAWS,
    DROP_OTHER_COLOURS,
    FAULT_PLUS4_ANYTIME,
    FAULT_STACK_COLOUR,
    I_AIM_LACKED,
    I_ATTACK_AT,
    I_BLUFF_NEXT_MAX,
    I_BLUFF_NEXT_MIN,
    I_BLUFF_OWN_MAX,
    I_BLUFF_OWN_MIN,
    I_CHAL_HAND,
    I_CHAL_OWN,
    I_COLOUR,
    I_KEEP_DRAWS,
    I_MATCH,
    I_RANDOM_PLAY,
    I_RESPOND,
    I_STACK_FROM,
    I_SWAP,
    I_TRUST_IF_LACKED,
    I_TRUST_IF_SEEN,
    KEY_PRIO,
    KEY_TIE,
    MATCH_ANY,
    MATCH_NUMBER,
    N_COLOURS,
    N_RANKS,
    N_TYPES,
    NO_CARD,
    NO_COLOUR,
    NO_KEY,
    ONLY_COLOUR,
    P_BLUFF,
    P_CHALLENGE,
    P_STACK,
    PRIO_ATTACK,
    PRIO_PLAY,
    R_FAULT,
    R_NAF,
    R_STACKING,
    R_WD4,
    RANK_BITS,
    RESHUFFLES,
    RESP_UNIFORM,
    RESPOND_ACCEPT,
    RESPOND_CHALLENGE,
    REVERSE,
    SKIP,
    SKIPS,
    ST_ANY,
    ST_OFF,
    ST_PLUS2,
    ST_PROGRESSIVE,
    SW_FEWEST,
    SW_NEXT,
    SW_RANDOM,
    WD4_BIT,
    WD4_FREE,
    WD4_RESTRICTED,
    WILD,
    WILD_BIT,
    WILD_DRAW_FOUR,
)

register_numba()  # the rng functions compile into the kernel; registered here, not when unocli.game.rng loads

# ---------------------------------------------------------------- random


@njit(cache=True, inline="always", _nrt=False)
def _below(rs, n):
    """Uniform in [0, n); no draw for n == 1 (Stream.below)."""
    if n <= 1:
        return 0
    v, a, b, c, d = bounded(rs[0], rs[1], rs[2], rs[3], np.uint64(n))
    rs[0] = a
    rs[1] = b
    rs[2] = c
    rs[3] = d
    return np.int64(v)


@njit(cache=True, inline="always", _nrt=False)
def _chance(rs, p):
    """True with probability p; no draw for p in {0, 1} (Stream.chance)."""
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    u, a, b, c, d = uniform01(rs[0], rs[1], rs[2], rs[3])
    rs[0] = a
    rs[1] = b
    rs[2] = c
    rs[3] = d
    return u < p


@njit(cache=True, _nrt=False)
def _shuffle(rs, arr, start, length):
    """Fisher-Yates on arr[start:start+length] (Stream.shuffle).

    The generator state stays in local variables for the whole loop: written
    back to ``rs`` once, not after each of the ~108 draws.
    """
    s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
    for i in range(length - 1, 0, -1):
        j, s0, s1, s2, s3 = bounded(s0, s1, s2, s3, np.uint64(i + 1))
        k = start + np.int64(j)
        t = arr[start + i]
        arr[start + i] = arr[k]
        arr[k] = t
    rs[0] = s0
    rs[1] = s1
    rs[2] = s2
    rs[3] = s3


@njit(cache=True, inline="always", _nrt=False)
def shuffle_deck(g, deal_rs):
    """The deck in its canonical order, shuffled into ``g.pile`` by the round's deal stream (``step.deal``,
    ``plain.plain_deal``; ``lanes.shuffle_block`` makes the same decks eight streams at a time)."""
    for i in range(DECK_SIZE):
        g.pile[i] = DECK[i]
    _shuffle(deal_rs, g.pile, np.int64(0), np.int64(DECK_SIZE))


@njit(cache=True, _nrt=False)
def _start_card(g, deal_rs, pos):
    """The start card at ``g.pile[pos]`` (§2): a +4 goes back and the rest of the pile is shuffled.

    If only +4s are left (hands that take nearly the whole deck), the +4
    stays and acts as a Wild. Shared by ``step.deal`` and ``plain.plain_deal``.
    """
    while g.pile[pos] == WILD_DRAW_FOUR:
        other = False
        for i in range(pos, DECK_SIZE):
            if g.pile[i] != WILD_DRAW_FOUR:
                other = True
                break
        if not other:
            break
        _shuffle(deal_rs, g.pile, pos, DECK_SIZE - pos)
    return np.int64(g.pile[pos])


@njit(cache=True, inline="always", _nrt=False)
def _start_seat(g, first, n, rank):
    """Who plays first after a coloured start card of ``rank`` (§2), and the skip it counts.

    A Draw Two (its two cards drawn by the caller) and a Skip skip the first
    player; a Reverse turns play to the dealer, and with two players skips.
    """
    if rank == DRAW_TWO or rank == SKIP:
        g.row[SKIPS] += 1
        g.current = (first + 1) % n
    elif rank == REVERSE:
        g.direction = -1
        if n == 2:
            g.row[SKIPS] += 1
        g.current = (first - 1) % n


# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always", _nrt=False)
def _colour(c):
    """Colour of a coloured card type (c < WILD).

    Divided as unsigned: a card type is never negative, and a signed floor division
    costs a sign correction on every card played.
    """
    return np.int64(np.uint64(c) // np.uint64(N_RANKS))


@njit(cache=True, inline="always", _nrt=False)
def _rank(c):
    """Rank of a coloured card type (c < WILD), as unsigned (see ``_colour``)."""
    return np.int64(np.uint64(c) % np.uint64(N_RANKS))


@njit(cache=True, inline="always", _nrt=False)
def _is_d2(c):
    return c < WILD and _rank(c) == DRAW_TWO


@njit(cache=True, inline="always", _nrt=False)
def _is_action(c):
    """Skip, Reverse, Draw Two (the ranks from SKIP up) or a Wild."""
    return c >= WILD or _rank(c) >= SKIP


@njit(cache=True, inline="always", _nrt=False)
def _step_seat(seat, direction, n, k):
    """(seat + k * direction) mod n for 0 <= k < n, without a division (it was a hot spot)."""
    s = seat + k * direction
    if s >= n:
        s -= n
    elif s < 0:
        s += n
    return s


@njit(cache=True, inline="always", _nrt=False)
def _seat_after(g, seat, k):
    """The k-th seat after ``seat`` in the direction of play, 0 <= k < n."""
    return _step_seat(seat, g.direction, g.players, k)


@njit(cache=True, inline="always", _nrt=False)
def _add(g, seat, c):
    g.hands[seat, c] += 1
    g.hsize[seat] += 1
    g.held[seat] |= _bit(c)
    if c < WILD:
        g.ccount[seat, _colour(c)] += 1


@njit(cache=True, inline="always", _nrt=False)
def _remove(g, seat, c):
    g.hands[seat, c] -= 1
    g.hsize[seat] -= 1
    # no branch: whether the last card of a type went is a coin flip to the processor (the branch
    # was mispredicted often enough to cost a few percent of an official/``basic`` round)
    g.held[seat] &= ~(np.uint64(g.hands[seat, c] == 0) << np.uint64(c))
    if c < WILD:
        g.ccount[seat, _colour(c)] -= 1


@njit(cache=True, _nrt=False)
def _held_of(g, seat):
    """The mask of the types ``seat`` holds, from its counts (for code that writes ``g.hands`` directly: tests)."""
    m = np.uint64(0)
    for t in range(N_TYPES):
        if g.hands[seat, t] > 0:
            m |= _bit(t)
    return m


@njit(cache=True, inline="always", _nrt=False)
def _int(g, seat, knob):
    return g.ints[seat, knob]


@njit(cache=True, inline="always", _nrt=False)
def _last_card_rule(g, seat):
    """no_action_finish applies to ``seat`` now: it holds one card (§8, §11.12)."""
    return g.ru[R_NAF] != 0 and g.hsize[seat] == 1


# ---------------------------------------------------------------- drawing (§7, §11.5)


@njit(cache=True, _nrt=False)
def _refill(g, rs):
    """Shuffle the discard pile under the top card (in type order) into the empty draw pile."""
    if g.disc_n == 0:
        return False
    m = np.int64(0)  # not a literal 0: numba would compile _shuffle for that type too
    # the coloured types: as many copies as the deck holds at most, then m moves by the count
    # (the copies past it are overwritten by the next types or lie past the pile's end); a loop
    # per copy mispredicted its exit at almost every type
    for t in range(WILD):
        for i in range(COLOURED_COPIES):
            g.pile[min(m + i, DECK_SIZE - 1)] = t
        m += g.disc[t]
    for t in range(WILD, N_TYPES):
        for _ in range(g.disc[t]):
            g.pile[m] = t
            m += 1
    g.disc[:] = 0
    g.disc_n = 0
    if m == 1:  # a shuffle of one card draws nothing (step.play: the stuck test's one case)
        g.one_card = 1
    _shuffle(rs, g.pile, np.int64(0), m)
    g.pile_pos = 0
    g.pile_len = m
    g.row[RESHUFFLES] += 1
    return True


@njit(cache=True, inline="always", _nrt=False)
def _draw(g, rs, seat, k):
    """``seat`` draws up to k cards one at a time. Returns the last card drawn, or NO_CARD."""
    last = np.int64(NO_CARD)  # not the constant: a drawn card typed Literal[int](-1) compiled its callers twice
    for _ in range(k):
        if g.pile_pos == g.pile_len and not _refill(g, rs):
            break
        last = g.pile[g.pile_pos]
        g.pile_pos += 1
        _add(g, seat, last)
        g.row[CARDS_DRAWN] += 1
    return last


@njit(cache=True, _nrt=False)
def _draw_call(g, rs, seat, k):
    """_draw as a real call, for the rare paths (keeps the inlined code small)."""
    return _draw(g, rs, seat, k)


# ---------------------------------------------------------------- legality (§3)


@njit(cache=True, inline="always", _nrt=False)
def _is_legal(g, seat, c):
    if _last_card_rule(g, seat) and _is_action(c):
        return False
    if c == WILD:
        return True
    colour = g.colour
    if c == WILD_DRAW_FOUR:
        return g.ru[R_WD4] == WD4_FREE or g.ccount[seat, colour] == 0 or g.ru[R_FAULT] == FAULT_PLUS4_ANYTIME
    if _colour(c) == colour:
        return True
    top = g.top
    return top < WILD and _rank(c) == _rank(top)


@njit(cache=True, inline="always", _nrt=False)
def _can_bluff(g, seat):
    return (
        g.ru[R_WD4] == WD4_RESTRICTED
        and g.hands[seat, WILD_DRAW_FOUR] > 0
        and not _is_legal(g, seat, WILD_DRAW_FOUR)
        and not _last_card_rule(g, seat)
    )


@njit(cache=True, inline="always", _nrt=False)
def _legal_held(g, seat):
    """The mask of the legal types ``seat`` holds (not under the last-card rule): ``_legal_options``'s types.

    The current colour's types, the top's rank in every colour (none on a Wild), the Wild, and
    the +4 when it is legal.
    """
    held = g.held[seat]
    top = g.top
    ok = COLOUR_BITS[g.colour] | WILD_BIT
    if top < WILD:
        ok |= RANK_BITS[_rank(top)]
    legal = held & ok
    if (held & WD4_BIT) != 0 and _is_legal(g, seat, WILD_DRAW_FOUR):
        legal |= WD4_BIT
    return legal


@njit(cache=True, _nrt=False)
def _legal_options(g, seat):
    """Fill the options region with the legal cards held (duplicates included), in type order.

    The types come from the held-types mask (``_legal_held``), each written as often as it is
    held. A real call: inlined, its per-type fill loops became vector stores whose
    54 splat constants LLVM hoisted into ``play``'s entry and reloaded from
    the stack after every call in the round, whichever path a turn took.
    """
    m = 0
    if _last_card_rule(g, seat):
        # the last-card case: the one card held (its type is the mask's one bit), if legal
        t = np.int64(_lowest_bit(g.held[seat]))
        if _is_legal(g, seat, t):
            g.opts[0] = t
            return 1
        return 0
    # the legal types held, lowest first: type order, each as many times as it is held
    legal = _legal_held(g, seat)
    while legal != 0:
        t = np.int64(_lowest_bit(legal))
        legal &= legal - np.uint64(1)
        for _ in range(g.hands[seat, t]):
            g.opts[m] = t
            m += 1
    return m


@njit(cache=True, inline="always", _nrt=False)
def _count_legal(g, seat):
    """How many options _legal_options would list (not under the last-card rule), without listing them.

    The current colour's coloured cards are its colour count; from the other
    colours only the top's rank is legal.
    """
    colour = g.colour
    top = g.top
    m = np.int64(g.ccount[seat, colour]) + g.hands[seat, WILD]
    if top < WILD:
        # the top's rank in every colour, less the current colour's (counted above): no branch per colour
        rtop = _rank(top)
        for c in range(N_COLOURS):
            m += g.hands[seat, c * N_RANKS + rtop]
        m -= g.hands[seat, colour * N_RANKS + rtop]
    if g.hands[seat, WILD_DRAW_FOUR] > 0 and _is_legal(g, seat, WILD_DRAW_FOUR):
        m += g.hands[seat, WILD_DRAW_FOUR]
    return m


@njit(cache=True, inline="always", _nrt=False)
def _nth_legal(g, seat, k):
    """The option at index k (0 <= k < _count_legal) of the list _legal_options would make."""
    colour = g.colour
    top = g.top
    rtop = _rank(top) if top < WILD else -1
    for c in range(N_COLOURS):
        if c == colour:
            here = g.ccount[seat, c]
            if k < here:
                t = c * N_RANKS
                while True:
                    h = g.hands[seat, t]
                    if k < h:
                        return t
                    k -= h
                    t += 1
            k -= here
        elif rtop >= 0:
            t = c * N_RANKS + rtop
            h = g.hands[seat, t]
            if k < h:
                return t
            k -= h
    if k < g.hands[seat, WILD]:
        return WILD
    return WILD_DRAW_FOUR


@njit(cache=True, _nrt=False)
def _stackable_options(g, seat):
    """Fill the options region with the cards ``seat`` may stack (§8, §11.10), in type order.

    Only the Draw Twos (one type per colour, in colour order) and the +4 can be
    stacked, so only those five types are read, not all 54.
    """
    if _last_card_rule(g, seat):
        return 0
    mode = g.ru[R_STACKING]
    top = g.top
    m = 0
    if _is_d2(top) or (top == WILD_DRAW_FOUR and mode == ST_ANY):
        for c in range(N_COLOURS):
            t = c * N_RANKS + DRAW_TWO
            k = g.hands[seat, t]
            if k > 0 and (_is_d2(top) or c == g.colour or g.ru[R_FAULT] == FAULT_STACK_COLOUR):
                for _ in range(k):
                    g.opts[m] = t
                    m += 1
    k = g.hands[seat, WILD_DRAW_FOUR]
    if k > 0 and ((top == WILD_DRAW_FOUR and mode != ST_PLUS2) or (_is_d2(top) and (mode == ST_PROGRESSIVE or mode == ST_ANY))):
        for _ in range(k):
            g.opts[m] = WILD_DRAW_FOUR
            m += 1
    return m


# ---------------------------------------------------------------- decisions


@njit(cache=True, _nrt=False)
def _preferred(g, seat, m, table):
    """Lowest priority in ``table``; ties to the colour held most, then the lowest type (decisions._preferred)."""
    best = NO_CARD
    best_p = 0
    best_k = 0
    for i in range(m):
        c = g.opts[i]
        p = g.prio[seat, table, c]
        k = -g.ccount[seat, _colour(c)] if c < WILD else 0
        if best == NO_CARD or p < best_p or (p == best_p and (k < best_k or (k == best_k and c < best))):
            best = c
            best_p = p
            best_k = k
    return best


@njit(cache=True, _nrt=False)
def _wants_bluff(g, rs, seat):
    """Bluff a +4 now? Only in the policy's situations (decisions.PolicyDecider.bluff)."""
    p = g.probs[seat, P_BLUFF]
    if p <= 0.0:
        return False
    nxt = g.hsize[_seat_after(g, seat, 1)]
    own = g.hsize[seat]
    if nxt < _int(g, seat, I_BLUFF_NEXT_MIN) or nxt > _int(g, seat, I_BLUFF_NEXT_MAX):
        return False
    if own < _int(g, seat, I_BLUFF_OWN_MIN) or own > _int(g, seat, I_BLUFF_OWN_MAX):
        return False
    return _chance(rs, p)


@njit(cache=True, _nrt=False)
def _keep_only(g, m, mode, colour):
    """Compact the options in place, dropping: DROP_DRAWS Draw Twos and Wild Draw Fours; DROP_COLOUR the
    cards of ``colour``; DROP_OTHER_COLOURS the coloured cards of other colours; ONLY_COLOUR all but
    the cards of ``colour`` (Wilds too)."""
    j = 0
    for i in range(m):
        c = g.opts[i]
        if mode == DROP_DRAWS:
            drop = c == WILD_DRAW_FOUR or _is_d2(c)
        elif mode == ONLY_COLOUR:
            drop = c >= WILD or _colour(c) != colour
        elif c >= WILD:
            drop = False
        else:
            drop = (_colour(c) == colour) == (mode == DROP_COLOUR)
        if not drop:
            g.opts[j] = c
            j += 1
    return j


@njit(cache=True, _nrt=False)
def _count_colour(g, m, colour):
    """How many of the m options are coloured cards of ``colour``."""
    k = 0
    for i in range(m):
        c = g.opts[i]
        if c < WILD and _colour(c) == colour:
            k += 1
    return k


@njit(cache=True, _nrt=False)
def _filter_options(g, seat, m):
    """``keep_draws``, ``match``, then ``aim_lacked`` (decisions._keep_draws, _match, _aim_lacked): the options narrowed."""
    if _int(g, seat, I_KEEP_DRAWS) != 0 and g.ru[R_STACKING] != ST_OFF:
        rest = 0
        for i in range(m):
            if g.opts[i] != WILD_DRAW_FOUR and not _is_d2(g.opts[i]):
                rest += 1
        if 0 < rest < m:
            m = _keep_only(g, m, np.int64(DROP_DRAWS), np.int64(NO_COLOUR))
    pref = _int(g, seat, I_MATCH)
    if pref != MATCH_ANY:
        same = _count_colour(g, m, g.colour)
        other = 0
        for i in range(m):
            if g.opts[i] < WILD:
                other += 1
        other -= same
        if same > 0 and other > 0:
            m = _keep_only(g, m, np.int64(DROP_COLOUR if pref == MATCH_NUMBER else DROP_OTHER_COLOURS), g.colour)
    if _int(g, seat, I_AIM_LACKED) != 0:
        lacked = g.lacks[_seat_after(g, seat, 1)]
        if lacked != NO_COLOUR and 0 < _count_colour(g, m, np.int64(lacked)) < m:
            m = _keep_only(g, m, np.int64(ONLY_COLOUR), np.int64(lacked))
    return m


@njit(cache=True, inline="always", _nrt=False)
def _best_legal(g, seat, table):
    """_preferred over the options _legal_options would list (not under the last-card rule), or NO_CARD.

    The same card without listing them: the options' order is a total order
    (priority, colour count, type), so duplicates and the listing order do not
    matter, and the least key over the legal types held is the card. The legal
    types held are a few set bits of one mask (``_legal_held``), walked lowest
    first: a hand holds about three of them, where reading the counts took the
    current colour's 13 types, the top's rank in the 4 colours and the Wilds.
    Inlined into the turn: as a real call it took a third of an official/``basic`` round.
    """
    legal = _legal_held(g, seat)
    if legal == 0:
        return np.int64(NO_CARD)
    s = np.uint64(seat)
    pt = np.uint64(table)
    best = NO_KEY
    while legal != 0:
        u = _lowest_bit(legal)
        legal &= legal - np.uint64(1)
        t = np.int64(u)
        # the colour's count for a coloured card, 0 for a Wild (its colour index clamped to stay in the table)
        held = np.int64(g.ccount[s, np.uint64(min(t // N_RANKS, N_COLOURS - 1))]) if t < WILD else np.int64(0)
        k = np.int64(g.prio[s, pt, u]) * KEY_PRIO + (32 - held) * KEY_TIE + t
        best = min(best, k)
    return best & (KEY_TIE - 1)


@njit(cache=True, inline="always", _nrt=False)
def _filters(g, seat):
    """Does ``seat``'s card choice filter its options or draw (keep_draws with stacking, match, aim_lacked, random play)?"""
    return (
        (_int(g, seat, I_KEEP_DRAWS) != 0 and g.ru[R_STACKING] != ST_OFF)
        or _int(g, seat, I_MATCH) != MATCH_ANY
        or _int(g, seat, I_AIM_LACKED) != 0
        or _int(g, seat, I_RANDOM_PLAY) != 0
    )


@njit(cache=True, inline="always", _nrt=False)
def _choice_table(g, seat):
    """The priority table _choose_card would take on all the legal cards, or -1 if it filters or draws.

    PRIO_ATTACK when the attack applies (before any filter), else PRIO_PLAY
    when no option filter is on and the choice is not uniform.
    """
    attack_at = _int(g, seat, I_ATTACK_AT)
    if attack_at > 0 and g.hsize[_seat_after(g, seat, 1)] <= attack_at:
        return PRIO_ATTACK
    if _filters(g, seat):
        return -1
    return PRIO_PLAY


@njit(cache=True, _nrt=False)
def _choice_code(g, seat):
    """CHOICE_PLAY when ``_choice_table`` is PRIO_PLAY at every turn for ``seat``'s knobs and rules, else CHOICE_KNOBS.

    Read from the same knobs ``_choice_table`` reads, once, when a workspace is loaded: the attack
    never applies (attack_at 0) and ``_filters`` is off.
    """
    if _int(g, seat, I_ATTACK_AT) > 0 or _filters(g, seat):
        return np.int64(CHOICE_KNOBS)
    return np.int64(CHOICE_PLAY)


@njit(cache=True, inline="always", _nrt=False)
def _choose_card(g, rs, seat, m):
    """One of the m options (decisions.PolicyDecider.choose_card)."""
    attack_at = _int(g, seat, I_ATTACK_AT)
    if attack_at > 0 and g.hsize[_seat_after(g, seat, 1)] <= attack_at:
        return _preferred(g, seat, m, np.int64(PRIO_ATTACK))
    if _int(g, seat, I_KEEP_DRAWS) != 0 or _int(g, seat, I_MATCH) != MATCH_ANY or _int(g, seat, I_AIM_LACKED) != 0:
        m = _filter_options(g, seat, m)
    if _int(g, seat, I_RANDOM_PLAY) != 0:
        return g.opts[_below(rs, m)]
    return _preferred(g, seat, m, np.int64(PRIO_PLAY))


@njit(cache=True, _nrt=False)
def _choose_colour(g, rs, seat):
    """Colour declared for a Wild (decisions.PolicyDecider.colour).

    A colour a search chose with the card (``g.force_colour``, kernel/search.py) is declared
    once, drawing nothing.
    """
    if g.force_colour != NO_COLOUR:
        forced = g.force_colour
        g.force_colour = NO_COLOUR
        return forced
    mode = _int(g, seat, I_COLOUR)
    if mode == COL_RANDOM:
        return _below(rs, N_COLOURS)
    if mode == COL_NEXT_LACKS:
        lacked = g.lacks[_seat_after(g, seat, 1)]
        if lacked != NO_COLOUR and g.ccount[seat, lacked] > 0:
            return lacked
    best = 0
    for c in range(1, N_COLOURS):
        if g.ccount[seat, c] > g.ccount[seat, best]:
            best = c
    return best


@njit(cache=True, _nrt=False)
def _respond(g, rs, seat, m, challenge_open):
    """Facing a +2/+4 (decisions.PolicyDecider.respond): a card to stack, RESPOND_CHALLENGE or RESPOND_ACCEPT."""
    if _int(g, seat, I_RESPOND) == RESP_UNIFORM:
        # uniform over the m options, then a challenge (when open), then accepting
        k = _below(rs, m + (1 if challenge_open else 0) + 1)
        if k < m:
            return g.opts[k]
        if challenge_open and k == m:
            return RESPOND_CHALLENGE
        return RESPOND_ACCEPT
    if challenge_open and _wants_challenge(g, rs, seat):
        return RESPOND_CHALLENGE
    if m > 0 and g.pending >= _int(g, seat, I_STACK_FROM) and _chance(rs, g.probs[seat, P_STACK]):
        return _choose_card(g, rs, seat, m)
    return RESPOND_ACCEPT


@njit(cache=True, _nrt=False)
def _wants_challenge(g, rs, seat):
    """§13: the first informed rule that applies decides (decisions.PolicyDecider._wants_challenge)."""
    if _int(g, seat, I_TRUST_IF_LACKED) != 0 and g.p4_lacked != 0:
        return False
    hand_rule = _int(g, seat, I_CHAL_HAND)
    if hand_rule > 0 and g.p4_hand >= hand_rule:
        return True
    if _int(g, seat, I_CHAL_OWN) != 0 and g.p4_shown != 0:
        return True
    seen = _int(g, seat, I_TRUST_IF_SEEN)
    if seen > 0 and _in_sight(g, seat, g.p4_colour) >= seen:
        return False
    return _chance(rs, g.probs[seat, P_CHALLENGE])


@njit(cache=True, _nrt=False)
def _in_sight(g, seat, colour):
    """Cards of ``colour`` ``seat`` sees: in the discard pile under the top card and in its own hand."""
    if colour < 0:
        return 0
    n = g.ccount[seat, colour]
    for t in range(colour * N_RANKS, (colour + 1) * N_RANKS):
        n += g.disc[t]
    return n


@njit(cache=True, _nrt=False)
def _swap_target(g, rs, seat):
    n = g.players
    mode = _int(g, seat, I_SWAP)
    if mode == SW_RANDOM:
        return _seat_after(g, seat, 1 + _below(rs, n - 1))
    best = _seat_after(g, seat, 1)
    if mode == SW_NEXT:
        return best
    for k in range(2, n):
        o = _seat_after(g, seat, k)
        if mode == SW_FEWEST:
            if g.hsize[o] < g.hsize[best]:
                best = o
        elif g.hsize[o] > g.hsize[best]:
            best = o
    return best
