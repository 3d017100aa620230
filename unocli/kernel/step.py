"""The numba round: arrays only, mirroring ``unocli/reference/engine.py``.

Every function here is the compiled twin of a reference-engine method of the
same name and draws random numbers in the same order, so both engines report
identical counters for every (rules, policies, seed, game index). Comments
point at docs/rules.md clauses; the reference engine has the prose.

State lives in three arrays (one set per thread, reused from game to game):

``g``   int64[G_SIZE]   everything mutable, in regions named in layout.py:
                        scalars (direction, current seat, colour, ...), the
                        counters row, rules, hands as per-type counts, hand
                        sizes, per-colour counts, the draw pile, the discard
                        pile as counts, policy integers and priority tables
``pr``  float64[n, 7]   policy probabilities
``rs``  uint64[4]       the play stream's xoshiro256** state

Why so few arrays, and why ``_nrt=False``: numba reference-counts every
array handed to a helper, and in an earlier version perf showed 40% of the
time in those atomic counts. Nothing here allocates, so these functions are
compiled without numba's runtime (no reference counting at all); the arrays
are owned by the batch layer. The hot path (a turn that plays a card) is
inlined into ``play`` at numba's IR level; rare events are real calls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.game.rng import stream_state
from unocli.kernel.encode import (
    BLUFFS,
    CARDS_LEFT,
    CARDS_PLAYED,
    CHALLENGES,
    CHALLENGES_WON,
    FAULT_REVERSE_2P,
    FAULT_SKIP,
    FAULT_UNO_PENALTY,
    G_CCOUNT,
    G_DISC,
    G_HANDS,
    G_HSIZE,
    G_LACKS,
    G_PILE,
    G_ROW,
    G_RU,
    G_TMP,
    HOW_DRAWN,
    HOW_HAND,
    HOW_JUMP,
    HOW_STACKED,
    JUMP_INS,
    MAX_STACK,
    NMAX,
    OUTCOME,
    P_BLUFF,
    P_CATCH,
    P_FORGET,
    P_JUMP,
    P_PLAY_DRAWN,
    PASSES,
    PLUS4_PLAYED,
    R_CHALLENGE,
    R_DUP,
    R_FAULT,
    R_HAND_SIZE,
    R_JUMP_IN,
    R_MAX_TURNS,
    R_NAF,
    R_SEVEN_O,
    R_STACKING,
    R_UNO_PENALTY,
    R_WD4,
    RES_DONE,
    RES_OPEN,
    RES_WON,
    ROTATIONS,
    ROW_WIDTH,
    S_CHAIN,
    S_COLOUR,
    S_CUR,
    S_DEAD,
    S_DIR,
    S_DISC_N,
    S_N,
    S_P4_BLUFF,
    S_P4_CHALLENGEABLE,
    S_P4_HAND,
    S_P4_OFFENDER,
    S_P4_UNDER,
    S_PENDING,
    S_PILE_LEN,
    S_PILE_POS,
    S_TOP,
    S_TOP_PLAYER,
    ST_OFF,
    SWAPS,
    TURNS,
    UNO_CAUGHT,
    UNO_FORGOTTEN,
    WD4_RESTRICTED,
    WINNER,
    WINNER_POINTS,
)
from unocli.kernel.primitives import (
    BLOCKED,
    DECK,
    NOT_PLAYED,
    POINTS,
    W4,
    W,
    _add,
    _can_bluff,
    _chance,
    _choose_card,
    _choose_colour,
    _draw,
    _draw_call,
    _is_action,
    _is_d2,
    _is_legal,
    _legal_options,
    _remove,
    _respond,
    _seat_after,
    _shuffle,
    _stackable_options,
    _swap_target,
)

# ---------------------------------------------------------------- rare effects


@njit(cache=True, _nrt=False)
def _uno_forgotten(g, pr, rs, seat):
    """§6: a forgotten Uno; the first opponent (in the direction of play) who notices catches it."""
    g[G_ROW + UNO_FORGOTTEN] += 1
    for k in range(1, g[S_N]):
        if _chance(rs, pr[_seat_after(g, seat, k), P_CATCH]):
            g[G_ROW + UNO_CAUGHT] += 1
            if g[G_RU + R_FAULT] != FAULT_UNO_PENALTY:
                _draw(g, rs, seat, g[G_RU + R_UNO_PENALTY])
            return


@njit(cache=True, _nrt=False)
def _challenge(g, rs, victim, total):
    """§5: a bluff costs the offender the penalty; an honest +4 costs the victim penalty + 2."""
    g[G_ROW + CHALLENGES] += 1
    if g[S_P4_BLUFF] != 0:
        g[G_ROW + CHALLENGES_WON] += 1
        _draw(g, rs, g[S_P4_OFFENDER], total)
    else:
        _draw(g, rs, victim, total + 2)
    g[S_PENDING] = 0
    g[S_CHAIN] = 0


@njit(cache=True, _nrt=False)
def _plus4_victim(g, pr, rs, victim, total):
    """A non-stacked +4's victim challenges or accepts at once; True when a bluff is caught."""
    action = _respond(g, pr, rs, victim, 0, g[S_P4_CHALLENGEABLE] != 0)
    if action == -2:
        _challenge(g, rs, victim, total)
        bluff = g[S_P4_BLUFF] != 0
        g[S_CUR] = victim if bluff else _seat_after(g, victim, 1)
        return bluff
    _draw(g, rs, victim, total)
    g[S_CUR] = _seat_after(g, victim, 1)
    return False


@njit(cache=True, _nrt=False)
def _final_penalty(g, pr, rs, seat, card, how, value):
    """A +2/+4 as the last card: the next player faces it (§7, §11.10). True when the round goes on."""
    victim = _seat_after(g, seat, 1)
    stacked = how == HOW_STACKED and g[G_RU + R_STACKING] != ST_OFF
    total = g[S_PENDING] + value if stacked else value
    chain = g[S_CHAIN] + 1 if stacked else 1
    if chain > g[G_ROW + MAX_STACK]:
        g[G_ROW + MAX_STACK] = chain
    g[S_PENDING] = 0
    g[S_CHAIN] = 0
    if card == W4 and how != HOW_STACKED:
        return _plus4_victim(g, pr, rs, victim, total)
    _draw(g, rs, victim, total)
    return False


@njit(cache=True, _nrt=False)
def _rotate(g):
    """seven_o 0: the hand of seat s goes to seat s + direction, with its size, colours and lack."""
    n = g[S_N]
    d = g[S_DIR]
    width = 58  # 54 types, size, lack, and the two colour-count words packed below
    for s in range(n):
        base = G_TMP + s * width
        for t in range(54):
            g[base + t] = g[G_HANDS + s * 54 + t]
        g[base + 54] = g[G_HSIZE + s]
        g[base + 55] = g[G_LACKS + s]
        g[base + 56] = g[G_CCOUNT + s * 4] + (g[G_CCOUNT + s * 4 + 1] << 16)
        g[base + 57] = g[G_CCOUNT + s * 4 + 2] + (g[G_CCOUNT + s * 4 + 3] << 16)
    for s in range(n):
        base = G_TMP + ((s - d) % n) * width
        for t in range(54):
            g[G_HANDS + s * 54 + t] = g[base + t]
        g[G_HSIZE + s] = g[base + 54]
        g[G_LACKS + s] = g[base + 55]
        g[G_CCOUNT + s * 4] = g[base + 56] & 0xFFFF
        g[G_CCOUNT + s * 4 + 1] = g[base + 56] >> 16
        g[G_CCOUNT + s * 4 + 2] = g[base + 57] & 0xFFFF
        g[G_CCOUNT + s * 4 + 3] = g[base + 57] >> 16
    g[G_ROW + ROTATIONS] += 1


@njit(cache=True, _nrt=False)
def _swap(g, rs, seat):
    """seven_o 7: ``seat`` swaps hands (and what is known of them) with its chosen opponent."""
    other = _swap_target(g, rs, seat)
    for t in range(54):
        x = g[G_HANDS + seat * 54 + t]
        g[G_HANDS + seat * 54 + t] = g[G_HANDS + other * 54 + t]
        g[G_HANDS + other * 54 + t] = x
    for c in range(4):
        x = g[G_CCOUNT + seat * 4 + c]
        g[G_CCOUNT + seat * 4 + c] = g[G_CCOUNT + other * 4 + c]
        g[G_CCOUNT + other * 4 + c] = x
    for region in (G_HSIZE, G_LACKS):
        x = g[region + seat]
        g[region + seat] = g[region + other]
        g[region + other] = x
    g[G_ROW + SWAPS] += 1


@njit(cache=True, _nrt=False)
def _pending_decision(g, pr, rs, victim):
    """§8 stacking: returns a card to stack, or -1 once the penalty is drawn or challenged."""
    challenge_open = g[S_TOP] == W4 and g[S_CHAIN] == 1 and g[S_P4_CHALLENGEABLE] != 0
    m = _stackable_options(g, victim)
    action = _respond(g, pr, rs, victim, m, challenge_open)
    if action >= 0:
        return action
    if action == -2:
        _challenge(g, rs, victim, g[S_PENDING])
        g[S_CUR] = victim if g[S_P4_BLUFF] != 0 else _seat_after(g, victim, 1)
        return -1
    _draw(g, rs, victim, g[S_PENDING])
    g[S_PENDING] = 0
    g[S_CHAIN] = 0
    g[S_CUR] = _seat_after(g, victim, 1)
    return -1


@njit(cache=True, _nrt=False)
def _jumper(g, pr, rs, seat):
    """§8 jump-in window after ``seat``'s card: the first other seat to jump in, or -1 (§11.9)."""
    top = g[S_TOP]
    if top >= W or g[G_ROW + TURNS] >= g[G_RU + R_MAX_TURNS]:
        return -1
    for k in range(1, g[S_N]):
        other = _seat_after(g, seat, k)
        if g[G_HANDS + other * 54 + top] == 0:
            continue
        if g[G_RU + R_NAF] != 0 and g[G_HSIZE + other] == 1 and _is_action(top):
            continue
        if _chance(rs, pr[other, P_JUMP]):
            return other
    return -1


# ---------------------------------------------------------------- the hot path


@njit(cache=True, inline="always", _nrt=False)
def _effects(g, pr, rs, seat, card, how):
    """§4 effects of a card just played: RES_WON, RES_DONE (no jump-in window) or RES_OPEN."""
    out = g[G_HSIZE + seat] == 0
    if card == W4 or (card == W and not out):
        g[S_COLOUR] = _choose_colour(g, rs, seat)
    elif card != W:
        g[S_COLOUR] = card // 13
    value = 4 if card == W4 else (2 if _is_d2(card) else 0)
    if out:
        if value > 0 and _final_penalty(g, pr, rs, seat, card, how, value):
            return RES_DONE
        return RES_WON
    rank = card % 13 if card < W else -1
    if value > 0:
        if g[G_RU + R_STACKING] != ST_OFF:  # §8: the penalty is left pending, no window
            if how == HOW_STACKED:
                g[S_PENDING] += value
                g[S_CHAIN] += 1
            else:
                g[S_PENDING] = value
                g[S_CHAIN] = 1
            if g[S_CHAIN] > g[G_ROW + MAX_STACK]:
                g[G_ROW + MAX_STACK] = g[S_CHAIN]
            g[S_CUR] = _seat_after(g, seat, 1)
            return RES_DONE
        if g[G_ROW + MAX_STACK] < 1:
            g[G_ROW + MAX_STACK] = 1
        victim = _seat_after(g, seat, 1)
        if card == W4:
            _plus4_victim(g, pr, rs, victim, 4)
        else:
            _draw_call(g, rs, victim, 2)
            g[S_CUR] = _seat_after(g, victim, 1)
    elif rank == 10:
        g[S_CUR] = _seat_after(g, seat, 1 if g[G_RU + R_FAULT] == FAULT_SKIP else 2)
    elif rank == 11:
        g[S_DIR] = -g[S_DIR]
        two = g[S_N] == 2 and g[G_RU + R_FAULT] != FAULT_REVERSE_2P
        g[S_CUR] = seat if two else _seat_after(g, seat, 1)  # §11.13
    else:
        if g[G_RU + R_SEVEN_O] != 0:
            if rank == 0:
                _rotate(g)
            elif rank == 7:
                _swap(g, rs, seat)
        g[S_CUR] = _seat_after(g, seat, 1)
    return RES_OPEN


@njit(cache=True, inline="always", _nrt=False)
def _play(g, pr, rs, seat, card, how):
    """``seat`` plays ``card``: Uno (§6), then its effects (§4)."""
    hand_before = g[G_HSIZE + seat]
    bluff = False
    if card == W4 and how != HOW_STACKED:
        bluff = g[G_RU + R_WD4] == WD4_RESTRICTED and g[G_CCOUNT + seat * 4 + g[S_COLOUR]] > 0
        g[S_P4_OFFENDER] = seat
        g[S_P4_BLUFF] = 1 if bluff else 0
        g[S_P4_HAND] = hand_before
        g[S_P4_UNDER] = 1 if g[S_TOP_PLAYER] == seat else 0
        g[S_P4_CHALLENGEABLE] = 1 if (g[G_RU + R_CHALLENGE] != 0 and g[G_RU + R_WD4] == WD4_RESTRICTED) else 0
    _remove(g, seat, card)
    g[G_DISC + g[S_TOP]] += 1
    g[S_DISC_N] += 1
    g[S_TOP] = card
    g[S_TOP_PLAYER] = seat
    g[G_ROW + CARDS_PLAYED] += 1
    g[G_ROW + TURNS] += 1
    g[S_DEAD] = 0
    if card == W4:
        g[G_ROW + PLUS4_PLAYED] += 1
        if bluff:
            g[G_ROW + BLUFFS] += 1
    if how == HOW_JUMP:
        g[G_ROW + JUMP_INS] += 1
    if card < W and card // 13 == g[G_LACKS + seat]:
        g[G_LACKS + seat] = -1
    if hand_before == 2 and _chance(rs, pr[seat, P_FORGET]):
        _uno_forgotten(g, pr, rs, seat)
    return _effects(g, pr, rs, seat, card, how)


@njit(cache=True, inline="always", _nrt=False)
def _turn(g, pr, rs, seat):
    """A normal turn (§3): returns (card, how) to play, or NOT_PLAYED / BLOCKED after a pass."""
    if _can_bluff(g, seat) and _chance(rs, pr[seat, P_BLUFF]):
        return W4, HOW_HAND
    m = _legal_options(g, seat)
    if m > 0:
        return _choose_card(g, rs, seat, m), HOW_HAND
    g[G_LACKS + seat] = g[S_COLOUR]
    drew_any = False
    while True:
        c = _draw(g, rs, seat, 1)
        if c < 0:
            break
        drew_any = True
        if _is_legal(g, seat, c):
            if _chance(rs, pr[seat, P_PLAY_DRAWN]):
                return c, HOW_DRAWN
            break
        if g[G_RU + R_DUP] == 0:
            if c == W4 and _can_bluff(g, seat) and _chance(rs, pr[seat, P_BLUFF]):
                return c, HOW_DRAWN
            break
    g[G_ROW + PASSES] += 1
    g[G_ROW + TURNS] += 1
    g[S_DEAD] = 0 if drew_any else g[S_DEAD] + 1
    if g[S_DEAD] >= g[S_N]:
        return BLOCKED, HOW_HAND
    g[S_CUR] = _seat_after(g, seat, 1)
    return NOT_PLAYED, HOW_HAND


# ---------------------------------------------------------------- a round


@njit(cache=True, _nrt=False)
def deal(g, rs, deal_rs, round_index):
    """Shuffle, deal and turn the start card for round ``round_index`` (§2, §11.1, §11.14)."""
    n = g[S_N]
    for i in range(108):
        g[G_PILE + i] = DECK[i]
    _shuffle(deal_rs, g, G_PILE, 108)
    # slices, not indexed loops: numba compiles them to plain fills
    g[G_HANDS : G_HANDS + n * 54] = 0
    g[G_CCOUNT : G_CCOUNT + n * 4] = 0
    g[G_HSIZE : G_HSIZE + NMAX] = 0
    g[G_LACKS : G_LACKS + NMAX] = -1
    g[G_DISC : G_DISC + 54] = 0
    g[G_ROW : G_ROW + ROW_WIDTH] = 0
    first = round_index % n
    pos = 0
    for _ in range(g[G_RU + R_HAND_SIZE]):
        for k in range(n):
            _add(g, (first + k) % n, g[G_PILE + pos])
            pos += 1
    # A start +4 goes back and the pile is shuffled; if only +4s are left it stays as a Wild.
    while g[G_PILE + pos] == W4:
        other = False
        for i in range(pos, 108):
            if g[G_PILE + i] != W4:
                other = True
                break
        if not other:
            break
        _shuffle(deal_rs, g, G_PILE + pos, 108 - pos)
    start = g[G_PILE + pos]
    pos += 1
    g[S_PILE_POS] = pos
    g[S_PILE_LEN] = 108
    g[S_DISC_N] = 0
    g[S_TOP] = start
    g[S_TOP_PLAYER] = -1
    g[S_DIR] = 1
    g[S_CUR] = first
    g[S_DEAD] = 0
    g[S_PENDING] = 0
    g[S_CHAIN] = 0
    g[S_P4_OFFENDER] = -1
    g[S_P4_BLUFF] = 0
    g[S_P4_HAND] = 0
    g[S_P4_UNDER] = 0
    g[S_P4_CHALLENGEABLE] = 0
    if start >= W:
        g[S_COLOUR] = _choose_colour(g, rs, first)
        return
    g[S_COLOUR] = start // 13
    rank = start % 13
    if rank == 12:
        _draw(g, rs, first, 2)
        g[S_CUR] = (first + 1) % n
    elif rank == 10:
        g[S_CUR] = (first + 1) % n
    elif rank == 11:
        g[S_DIR] = -1
        g[S_CUR] = (first - 1) % n


@njit(cache=True, _nrt=False)
def play(g, pr, rs):
    """Play a dealt round to its end; fills the row region (counters, outcome, winner, cards left)."""
    max_turns = g[G_RU + R_MAX_TURNS]
    jump_in = g[G_RU + R_JUMP_IN] != 0
    outcome = 0
    winner = -1
    while True:
        if g[G_ROW + TURNS] >= max_turns:  # §11.7
            outcome = 2
            break
        seat = g[S_CUR]
        how = HOW_STACKED
        if g[S_PENDING] > 0:
            card = _pending_decision(g, pr, rs, seat)
        else:
            card, how = _turn(g, pr, rs, seat)
            if card == BLOCKED:
                outcome = 1
                break
        won = False
        while card >= 0:
            res = _play(g, pr, rs, seat, card, how)
            if res == RES_WON:
                won = True
                break
            if res != RES_OPEN or not jump_in:
                break
            seat = _jumper(g, pr, rs, seat)  # the window reopens from each jumper
            card = g[S_TOP] if seat >= 0 else -1
            how = HOW_JUMP
        if won:
            winner = seat
            break
    n = g[S_N]
    pts = 0
    for s in range(n):
        g[G_ROW + CARDS_LEFT + s] = g[G_HSIZE + s]
        if outcome == 0:
            for t in range(54):
                pts += g[G_HANDS + s * 54 + t] * POINTS[t]
    g[G_ROW + OUTCOME] = outcome
    g[G_ROW + WINNER] = winner
    g[G_ROW + WINNER_POINTS] = pts


@njit(cache=True, _nrt=False)
def set_stream(rs, seed, index, purpose, sub):
    """Seed ``rs`` with the stream of (seed, game index, purpose, round) (rng.stream_state)."""
    a, b, c, d = stream_state(seed, index, np.uint64(purpose), np.uint64(sub))
    rs[0] = a
    rs[1] = b
    rs[2] = c
    rs[3] = d
