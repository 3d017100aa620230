"""Kernel primitives: random draws, hand bookkeeping, drawing, legality and decisions.

The small ``@njit`` functions ``step.py`` builds a round from; each mirrors a
reference-engine method or decision of the same name (see step.py for the
state layout and why these are compiled without numba's runtime).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.game.cards import CANONICAL_DECK
from unocli.game.rng import bounded, uniform01
from unocli.kernel.encode import (
    CARDS_DRAWN,
    COL_NEXT_LACKS,
    COL_RANDOM,
    FAULT_PLUS4_ANYTIME,
    FAULT_STACK_COLOUR,
    G_CCOUNT,
    G_DISC,
    G_HANDS,
    G_HSIZE,
    G_INTS,
    G_LACKS,
    G_OPTS,
    G_PILE,
    G_PRIO,
    G_ROW,
    G_RU,
    I_ATTACK_AT,
    I_CHAL_HAND,
    I_CHAL_OWN,
    I_COLOUR,
    I_RANDOM_PLAY,
    I_RESPOND,
    I_SWAP,
    N_INTS,
    P_CHALLENGE,
    P_STACK,
    R_FAULT,
    R_NAF,
    R_STACKING,
    R_WD4,
    RESHUFFLES,
    RESP_UNIFORM,
    S_COLOUR,
    S_DIR,
    S_DISC_N,
    S_N,
    S_P4_HAND,
    S_P4_UNDER,
    S_PILE_LEN,
    S_PILE_POS,
    S_TOP,
    ST_ANY,
    ST_PLUS2,
    ST_PROGRESSIVE,
    SW_FEWEST,
    SW_NEXT,
    SW_RANDOM,
    WD4_FREE,
    WD4_RESTRICTED,
)

W = 52
W4 = 53
DECK = CANONICAL_DECK.astype(np.int64)
POINTS = np.array([(t % 13 if t % 13 <= 9 else 20) if t < 52 else 50 for t in range(54)], dtype=np.int64)
NOT_PLAYED = -1  # _turn: the turn ended without a card
BLOCKED = -2  # _turn: the pass blocked the round


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


# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always", _nrt=False)
def _is_d2(c):
    return c < W and c % 13 == 12


@njit(cache=True, inline="always", _nrt=False)
def _is_action(c):
    return c >= W or c % 13 >= 10


@njit(cache=True, inline="always", _nrt=False)
def _seat_after(g, seat, k):
    """(seat + k * direction) mod n for 0 <= k < n, without a division (it was a hot spot)."""
    n = g[S_N]
    s = seat + k * g[S_DIR]
    if s >= n:
        s -= n
    elif s < 0:
        s += n
    return s


@njit(cache=True, inline="always", _nrt=False)
def _add(g, seat, c):
    g[G_HANDS + seat * 54 + c] += 1
    g[G_HSIZE + seat] += 1
    if c < W:
        g[G_CCOUNT + seat * 4 + c // 13] += 1


@njit(cache=True, inline="always", _nrt=False)
def _remove(g, seat, c):
    g[G_HANDS + seat * 54 + c] -= 1
    g[G_HSIZE + seat] -= 1
    if c < W:
        g[G_CCOUNT + seat * 4 + c // 13] -= 1


@njit(cache=True, inline="always", _nrt=False)
def _int(g, seat, knob):
    return g[G_INTS + seat * N_INTS + knob]


# ---------------------------------------------------------------- drawing (§7, §11.5)


@njit(cache=True, _nrt=False)
def _refill(g, rs):
    """Shuffle the discard pile under the top card (in type order) into the empty draw pile."""
    if g[S_DISC_N] == 0:
        return False
    m = 0
    for t in range(54):
        for _ in range(g[G_DISC + t]):
            g[G_PILE + m] = t
            m += 1
        g[G_DISC + t] = 0
    g[S_DISC_N] = 0
    _shuffle(rs, g, G_PILE, m)
    g[S_PILE_POS] = 0
    g[S_PILE_LEN] = m
    g[G_ROW + RESHUFFLES] += 1
    return True


@njit(cache=True, inline="always", _nrt=False)
def _draw(g, rs, seat, k):
    """``seat`` draws up to k cards one at a time. Returns the last card drawn, or -1."""
    last = -1
    for _ in range(k):
        if g[S_PILE_POS] == g[S_PILE_LEN] and not _refill(g, rs):
            break
        last = g[G_PILE + g[S_PILE_POS]]
        g[S_PILE_POS] += 1
        _add(g, seat, last)
        g[G_ROW + CARDS_DRAWN] += 1
    return last


@njit(cache=True, _nrt=False)
def _draw_call(g, rs, seat, k):
    """_draw as a real call, for the rare paths (keeps the inlined code small)."""
    return _draw(g, rs, seat, k)


# ---------------------------------------------------------------- legality (§3)


@njit(cache=True, inline="always", _nrt=False)
def _is_legal(g, seat, c):
    if g[G_RU + R_NAF] != 0 and g[G_HSIZE + seat] == 1 and _is_action(c):
        return False
    if c == W:
        return True
    colour = g[S_COLOUR]
    if c == W4:
        return g[G_RU + R_WD4] == WD4_FREE or g[G_CCOUNT + seat * 4 + colour] == 0 or g[G_RU + R_FAULT] == FAULT_PLUS4_ANYTIME
    if c // 13 == colour:
        return True
    top = g[S_TOP]
    return top < W and c % 13 == top % 13


@njit(cache=True, inline="always", _nrt=False)
def _can_bluff(g, seat):
    return (
        g[G_RU + R_WD4] == WD4_RESTRICTED
        and g[G_HANDS + seat * 54 + W4] > 0
        and not _is_legal(g, seat, W4)
        and not (g[G_RU + R_NAF] != 0 and g[G_HSIZE + seat] == 1)
    )


@njit(cache=True, inline="always", _nrt=False)
def _legal_options(g, seat):
    """Fill the options region with the legal cards held (duplicates included), in type order."""
    base = G_HANDS + seat * 54
    m = 0
    if g[G_RU + R_NAF] != 0 and g[G_HSIZE + seat] == 1:
        for t in range(54):  # the rare last-card case: check every type
            if g[base + t] > 0 and _is_legal(g, seat, t):
                g[G_OPTS + m] = t
                m += 1
        return m
    colour = g[S_COLOUR]
    top = g[S_TOP]
    rtop = top % 13 if top < W else -1
    # Legal coloured cards are the current colour's, plus the top's rank in
    # other colours; walking colours in order keeps the type order.
    for c in range(4):
        if c == colour:
            for t in range(c * 13, c * 13 + 13):
                for _ in range(g[base + t]):
                    g[G_OPTS + m] = t
                    m += 1
        elif rtop >= 0:
            t = c * 13 + rtop
            for _ in range(g[base + t]):
                g[G_OPTS + m] = t
                m += 1
    for _ in range(g[base + W]):
        g[G_OPTS + m] = W
        m += 1
    if g[base + W4] > 0 and _is_legal(g, seat, W4):
        for _ in range(g[base + W4]):
            g[G_OPTS + m] = W4
            m += 1
    return m


@njit(cache=True, _nrt=False)
def _stackable_options(g, seat):
    """Fill the options region with the cards ``seat`` may stack (§8, §11.10)."""
    if g[G_RU + R_NAF] != 0 and g[G_HSIZE + seat] == 1:
        return 0
    mode = g[G_RU + R_STACKING]
    top = g[S_TOP]
    base = G_HANDS + seat * 54
    m = 0
    for t in range(54):
        k = g[base + t]
        if k == 0:
            continue
        ok = False
        if _is_d2(t):
            ok = _is_d2(top) or (
                top == W4 and mode == ST_ANY and (t // 13 == g[S_COLOUR] or g[G_RU + R_FAULT] == FAULT_STACK_COLOUR)
            )
        elif t == W4:
            ok = (top == W4 and mode != ST_PLUS2) or (_is_d2(top) and (mode == ST_PROGRESSIVE or mode == ST_ANY))
        if ok:
            for _ in range(k):
                g[G_OPTS + m] = t
                m += 1
    return m


# ---------------------------------------------------------------- decisions


@njit(cache=True, _nrt=False)
def _preferred(g, seat, m, table):
    """Lowest priority; ties to the colour held most, then the lowest type (decisions._preferred)."""
    prio = G_PRIO + (seat * 2 + table) * 54
    best = -1
    best_p = 0
    best_k = 0
    for i in range(m):
        c = g[G_OPTS + i]
        p = g[prio + c]
        k = -g[G_CCOUNT + seat * 4 + c // 13] if c < W else 0
        if best < 0 or p < best_p or (p == best_p and (k < best_k or (k == best_k and c < best))):
            best = c
            best_p = p
            best_k = k
    return best


@njit(cache=True, inline="always", _nrt=False)
def _choose_card(g, rs, seat, m):
    """One of the m options (decisions.PolicyDecider.choose_card)."""
    attack_at = _int(g, seat, I_ATTACK_AT)
    if attack_at > 0 and g[G_HSIZE + _seat_after(g, seat, 1)] <= attack_at:
        return _preferred(g, seat, m, 1)
    if _int(g, seat, I_RANDOM_PLAY) != 0:
        return g[G_OPTS + _below(rs, m)]
    return _preferred(g, seat, m, 0)


@njit(cache=True, _nrt=False)
def _choose_colour(g, rs, seat):
    """Colour declared for a Wild (decisions.PolicyDecider.colour)."""
    mode = _int(g, seat, I_COLOUR)
    if mode == COL_RANDOM:
        return _below(rs, 4)
    cc = G_CCOUNT + seat * 4
    if mode == COL_NEXT_LACKS:
        lacked = g[G_LACKS + _seat_after(g, seat, 1)]
        if lacked >= 0 and g[cc + lacked] > 0:
            return lacked
    best = 0
    for c in range(1, 4):
        if g[cc + c] > g[cc + best]:
            best = c
    return best


@njit(cache=True, _nrt=False)
def _respond(g, pr, rs, seat, m, challenge_open):
    """Facing a +2/+4 (decisions.PolicyDecider.respond): a card to stack, -2 challenge, -1 accept."""
    if _int(g, seat, I_RESPOND) == RESP_UNIFORM:
        k = _below(rs, m + (1 if challenge_open else 0) + 1)
        if k < m:
            return g[G_OPTS + k]
        if challenge_open and k == m:
            return -2
        return -1
    if challenge_open:
        hand_rule = _int(g, seat, I_CHAL_HAND)
        if hand_rule > 0 and g[S_P4_HAND] >= hand_rule:
            return -2
        if _int(g, seat, I_CHAL_OWN) != 0 and g[S_P4_UNDER] != 0:
            return -2
        if _chance(rs, pr[seat, P_CHALLENGE]):
            return -2
    if m > 0 and _chance(rs, pr[seat, P_STACK]):
        return _choose_card(g, rs, seat, m)
    return -1


@njit(cache=True, _nrt=False)
def _swap_target(g, rs, seat):
    n = g[S_N]
    mode = _int(g, seat, I_SWAP)
    if mode == SW_RANDOM:
        return _seat_after(g, seat, 1 + _below(rs, n - 1))
    best = _seat_after(g, seat, 1)
    if mode == SW_NEXT:
        return best
    for k in range(2, n):
        o = _seat_after(g, seat, k)
        if mode == SW_FEWEST:
            if g[G_HSIZE + o] < g[G_HSIZE + best]:
                best = o
        elif g[G_HSIZE + o] > g[G_HSIZE + best]:
            best = o
    return best
