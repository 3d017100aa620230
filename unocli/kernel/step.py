"""The numba round: arrays only, mirroring ``unocli/reference/engine.py``.

Every function here is the compiled twin of a reference-engine method of the
same name and draws random numbers in the same order, so both engines report
identical counters for every (rules, policies, seed, game index). Comments
point at docs/rules.md clauses; the reference engine has the prose.

State lives in three arrays (one set per thread, reused from game to game):

``g``   int64[G_SIZE]   everything mutable, in the regions declared in
                        encode.py: scalars (``g[G_ST + S_CUR]``: direction,
                        current seat, colour, ...), the counters row
                        (``g[G_ROW + TURNS]``), rules (``g[G_RU + R_NAF]``),
                        hands as per-type counts, hand sizes, per-colour
                        counts, the draw pile, the discard pile as counts,
                        policy integers and priority tables, each addressed
                        through a function of encode.py (``hand_at(seat, t)``)
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
    CHALLENGE_EXTRA,
    CHALLENGES,
    CHALLENGES_WON,
    DECK,
    DECK_SIZE,
    DRAW_TWO,
    DRAW_TWO_PENALTY,
    FAULT_REVERSE_2P,
    FAULT_SKIP,
    FAULT_UNO_PENALTY,
    G_PILE,
    G_ROW,
    G_RU,
    G_ST,
    HOW_DRAWN,
    HOW_HAND,
    HOW_JUMP,
    HOW_STACKED,
    JUMP_INS,
    MAX_STACK,
    N_COLOURS,
    N_TYPES,
    NMAX,
    NO_CARD,
    NO_COLOUR,
    NO_SEAT,
    OUTCOME,
    OUTCOME_BLOCKED,
    OUTCOME_CAPPED,
    OUTCOME_WON,
    P_BLUFF,
    P_CATCH,
    P_FORGET,
    P_JUMP,
    P_PLAY_DRAWN,
    PASSES,
    PLUS4_PLAYED,
    POINTS,
    R_CHALLENGE,
    R_DUP,
    R_FAULT,
    R_HAND_SIZE,
    R_JUMP_IN,
    R_MAX_TURNS,
    R_SEVEN_O,
    R_STACKING,
    R_UNO_PENALTY,
    R_WD4,
    RES_DONE,
    RES_OPEN,
    RES_WON,
    RESPOND_CHALLENGE,
    REVERSE,
    ROTATE_RANK,
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
    SKIP,
    ST_OFF,
    SWAP_RANK,
    SWAPS,
    TMP_CCOUNT,
    TMP_HSIZE,
    TMP_LACKS,
    TURN_BLOCKED,
    TURN_PASSED,
    TURNS,
    UNO_CAUGHT,
    UNO_FORGOTTEN,
    WD4_RESTRICTED,
    WILD,
    WILD_DRAW_FOUR,
    WILD_DRAW_FOUR_PENALTY,
    WINNER,
    WINNER_POINTS,
    ccount_at,
    disc_at,
    hand_at,
    hsize_at,
    lacks_at,
    pile_at,
    tmp_at,
)
from unocli.kernel.primitives import (
    _add,
    _can_bluff,
    _chance,
    _choose_card,
    _choose_colour,
    _colour,
    _draw,
    _draw_call,
    _is_action,
    _is_d2,
    _is_legal,
    _last_card_rule,
    _legal_options,
    _rank,
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
    for k in range(1, g[G_ST + S_N]):
        if _chance(rs, pr[_seat_after(g, seat, k), P_CATCH]):
            g[G_ROW + UNO_CAUGHT] += 1
            if g[G_RU + R_FAULT] != FAULT_UNO_PENALTY:
                _draw(g, rs, seat, g[G_RU + R_UNO_PENALTY])
            return


@njit(cache=True, _nrt=False)
def _challenge(g, rs, victim, total):
    """§5: a bluff costs the offender the penalty; an honest +4 costs the victim the penalty and 2 more."""
    g[G_ROW + CHALLENGES] += 1
    if g[G_ST + S_P4_BLUFF] != 0:
        g[G_ROW + CHALLENGES_WON] += 1
        _draw(g, rs, g[G_ST + S_P4_OFFENDER], total)
    else:
        _draw(g, rs, victim, total + CHALLENGE_EXTRA)
    g[G_ST + S_PENDING] = 0
    g[G_ST + S_CHAIN] = 0


@njit(cache=True, _nrt=False)
def _plus4_victim(g, pr, rs, victim, total):
    """A non-stacked +4's victim challenges or accepts at once; True when a bluff is caught."""
    action = _respond(g, pr, rs, victim, 0, g[G_ST + S_P4_CHALLENGEABLE] != 0)
    if action == RESPOND_CHALLENGE:
        _challenge(g, rs, victim, total)
        bluff = g[G_ST + S_P4_BLUFF] != 0
        g[G_ST + S_CUR] = victim if bluff else _seat_after(g, victim, 1)
        return bluff
    _draw(g, rs, victim, total)
    g[G_ST + S_CUR] = _seat_after(g, victim, 1)
    return False


@njit(cache=True, _nrt=False)
def _final_penalty(g, pr, rs, seat, card, how, value):
    """A +2/+4 as the last card: the next player faces it (§7, §11.10). True when the round goes on."""
    victim = _seat_after(g, seat, 1)
    stacked = how == HOW_STACKED and g[G_RU + R_STACKING] != ST_OFF
    total = g[G_ST + S_PENDING] + value if stacked else value
    chain = g[G_ST + S_CHAIN] + 1 if stacked else 1
    if chain > g[G_ROW + MAX_STACK]:
        g[G_ROW + MAX_STACK] = chain
    g[G_ST + S_PENDING] = 0
    g[G_ST + S_CHAIN] = 0
    if card == WILD_DRAW_FOUR and how != HOW_STACKED:
        return _plus4_victim(g, pr, rs, victim, total)
    _draw(g, rs, victim, total)
    return False


@njit(cache=True, _nrt=False)
def _rotate(g):
    """seven_o 0: the hand of seat s goes to seat s + direction, with its size, colours and lack."""
    n = g[G_ST + S_N]
    d = g[G_ST + S_DIR]
    for s in range(n):
        for t in range(N_TYPES):
            g[tmp_at(s, t)] = g[hand_at(s, t)]
        g[tmp_at(s, TMP_HSIZE)] = g[hsize_at(s)]
        g[tmp_at(s, TMP_LACKS)] = g[lacks_at(s)]
        for c in range(N_COLOURS):
            g[tmp_at(s, TMP_CCOUNT + c)] = g[ccount_at(s, c)]
    for s in range(n):
        src = (s - d) % n
        for t in range(N_TYPES):
            g[hand_at(s, t)] = g[tmp_at(src, t)]
        g[hsize_at(s)] = g[tmp_at(src, TMP_HSIZE)]
        g[lacks_at(s)] = g[tmp_at(src, TMP_LACKS)]
        for c in range(N_COLOURS):
            g[ccount_at(s, c)] = g[tmp_at(src, TMP_CCOUNT + c)]
    g[G_ROW + ROTATIONS] += 1


@njit(cache=True, inline="always", _nrt=False)
def _exchange(g, i, j):
    g[i], g[j] = g[j], g[i]


@njit(cache=True, _nrt=False)
def _swap(g, rs, seat):
    """seven_o 7: ``seat`` swaps hands (and what is known of them) with its chosen opponent."""
    other = _swap_target(g, rs, seat)
    for t in range(N_TYPES):
        _exchange(g, hand_at(seat, t), hand_at(other, t))
    for c in range(N_COLOURS):
        _exchange(g, ccount_at(seat, c), ccount_at(other, c))
    _exchange(g, hsize_at(seat), hsize_at(other))
    _exchange(g, lacks_at(seat), lacks_at(other))
    g[G_ROW + SWAPS] += 1


@njit(cache=True, _nrt=False)
def _pending_decision(g, pr, rs, victim):
    """§8 stacking: returns a card to stack, or NO_CARD once the penalty is drawn or challenged."""
    challenge_open = g[G_ST + S_TOP] == WILD_DRAW_FOUR and g[G_ST + S_CHAIN] == 1 and g[G_ST + S_P4_CHALLENGEABLE] != 0
    m = _stackable_options(g, victim)
    action = _respond(g, pr, rs, victim, m, challenge_open)
    if action >= 0:
        return action
    if action == RESPOND_CHALLENGE:
        _challenge(g, rs, victim, g[G_ST + S_PENDING])
        g[G_ST + S_CUR] = victim if g[G_ST + S_P4_BLUFF] != 0 else _seat_after(g, victim, 1)
        return NO_CARD
    _draw(g, rs, victim, g[G_ST + S_PENDING])
    g[G_ST + S_PENDING] = 0
    g[G_ST + S_CHAIN] = 0
    g[G_ST + S_CUR] = _seat_after(g, victim, 1)
    return NO_CARD


@njit(cache=True, _nrt=False)
def _jumper(g, pr, rs, seat):
    """§8 jump-in window after ``seat``'s card: the first other seat to jump in, or NO_SEAT (§11.9)."""
    top = g[G_ST + S_TOP]
    if top >= WILD or g[G_ROW + TURNS] >= g[G_RU + R_MAX_TURNS]:
        return NO_SEAT
    for k in range(1, g[G_ST + S_N]):
        other = _seat_after(g, seat, k)
        if g[hand_at(other, top)] == 0:
            continue
        if _last_card_rule(g, other) and _is_action(top):
            continue
        if _chance(rs, pr[other, P_JUMP]):
            return other
    return NO_SEAT


# ---------------------------------------------------------------- the hot path


@njit(cache=True, inline="always", _nrt=False)
def _effects(g, pr, rs, seat, card, how):
    """§4 effects of a card just played: RES_WON, RES_DONE (no jump-in window) or RES_OPEN."""
    out = g[hsize_at(seat)] == 0
    if card == WILD_DRAW_FOUR or (card == WILD and not out):
        g[G_ST + S_COLOUR] = _choose_colour(g, rs, seat)
    elif card != WILD:
        g[G_ST + S_COLOUR] = _colour(card)
    value = WILD_DRAW_FOUR_PENALTY if card == WILD_DRAW_FOUR else (DRAW_TWO_PENALTY if _is_d2(card) else 0)
    if out:
        if value > 0 and _final_penalty(g, pr, rs, seat, card, how, value):
            return RES_DONE
        return RES_WON
    rank = _rank(card) if card < WILD else -1  # -1: a Wild has no rank
    if value > 0:
        if g[G_RU + R_STACKING] != ST_OFF:  # §8: the penalty is left pending, no window
            if how == HOW_STACKED:
                g[G_ST + S_PENDING] += value
                g[G_ST + S_CHAIN] += 1
            else:
                g[G_ST + S_PENDING] = value
                g[G_ST + S_CHAIN] = 1
            if g[G_ST + S_CHAIN] > g[G_ROW + MAX_STACK]:
                g[G_ROW + MAX_STACK] = g[G_ST + S_CHAIN]
            g[G_ST + S_CUR] = _seat_after(g, seat, 1)
            return RES_DONE
        if g[G_ROW + MAX_STACK] < 1:
            g[G_ROW + MAX_STACK] = 1
        victim = _seat_after(g, seat, 1)
        if card == WILD_DRAW_FOUR:
            _plus4_victim(g, pr, rs, victim, WILD_DRAW_FOUR_PENALTY)
        else:
            _draw_call(g, rs, victim, DRAW_TWO_PENALTY)
            g[G_ST + S_CUR] = _seat_after(g, victim, 1)
    elif rank == SKIP:
        g[G_ST + S_CUR] = _seat_after(g, seat, 1 if g[G_RU + R_FAULT] == FAULT_SKIP else 2)
    elif rank == REVERSE:
        g[G_ST + S_DIR] = -g[G_ST + S_DIR]
        two = g[G_ST + S_N] == 2 and g[G_RU + R_FAULT] != FAULT_REVERSE_2P
        g[G_ST + S_CUR] = seat if two else _seat_after(g, seat, 1)  # §11.13
    else:
        if g[G_RU + R_SEVEN_O] != 0:
            if rank == ROTATE_RANK:
                _rotate(g)
            elif rank == SWAP_RANK:
                _swap(g, rs, seat)
        g[G_ST + S_CUR] = _seat_after(g, seat, 1)
    return RES_OPEN


@njit(cache=True, inline="always", _nrt=False)
def _play(g, pr, rs, seat, card, how):
    """``seat`` plays ``card``: Uno (§6), then its effects (§4)."""
    hand_before = g[hsize_at(seat)]
    bluff = False
    if card == WILD_DRAW_FOUR and how != HOW_STACKED:
        bluff = g[G_RU + R_WD4] == WD4_RESTRICTED and g[ccount_at(seat, g[G_ST + S_COLOUR])] > 0
        g[G_ST + S_P4_OFFENDER] = seat
        g[G_ST + S_P4_BLUFF] = 1 if bluff else 0
        g[G_ST + S_P4_HAND] = hand_before
        g[G_ST + S_P4_UNDER] = 1 if g[G_ST + S_TOP_PLAYER] == seat else 0
        g[G_ST + S_P4_CHALLENGEABLE] = 1 if (g[G_RU + R_CHALLENGE] != 0 and g[G_RU + R_WD4] == WD4_RESTRICTED) else 0
    _remove(g, seat, card)
    g[disc_at(g[G_ST + S_TOP])] += 1
    g[G_ST + S_DISC_N] += 1
    g[G_ST + S_TOP] = card
    g[G_ST + S_TOP_PLAYER] = seat
    g[G_ROW + CARDS_PLAYED] += 1
    g[G_ROW + TURNS] += 1
    g[G_ST + S_DEAD] = 0
    if card == WILD_DRAW_FOUR:
        g[G_ROW + PLUS4_PLAYED] += 1
        if bluff:
            g[G_ROW + BLUFFS] += 1
    if how == HOW_JUMP:
        g[G_ROW + JUMP_INS] += 1
    if card < WILD and _colour(card) == g[lacks_at(seat)]:
        g[lacks_at(seat)] = NO_COLOUR
    if hand_before == 2 and _chance(rs, pr[seat, P_FORGET]):
        _uno_forgotten(g, pr, rs, seat)
    return _effects(g, pr, rs, seat, card, how)


@njit(cache=True, inline="always", _nrt=False)
def _turn(g, pr, rs, seat):
    """A normal turn (§3): returns (card, how) to play, or TURN_PASSED / TURN_BLOCKED after a pass."""
    if _can_bluff(g, seat) and _chance(rs, pr[seat, P_BLUFF]):
        return WILD_DRAW_FOUR, HOW_HAND
    m = _legal_options(g, seat)
    if m > 0:
        return _choose_card(g, rs, seat, m), HOW_HAND
    g[lacks_at(seat)] = g[G_ST + S_COLOUR]
    drew_any = False
    while True:
        c = _draw(g, rs, seat, 1)
        if c == NO_CARD:
            break
        drew_any = True
        if _is_legal(g, seat, c):
            if _chance(rs, pr[seat, P_PLAY_DRAWN]):
                return c, HOW_DRAWN
            break
        if g[G_RU + R_DUP] == 0:
            if c == WILD_DRAW_FOUR and _can_bluff(g, seat) and _chance(rs, pr[seat, P_BLUFF]):
                return c, HOW_DRAWN
            break
    g[G_ROW + PASSES] += 1
    g[G_ROW + TURNS] += 1
    g[G_ST + S_DEAD] = 0 if drew_any else g[G_ST + S_DEAD] + 1
    if g[G_ST + S_DEAD] >= g[G_ST + S_N]:
        return TURN_BLOCKED, HOW_HAND
    g[G_ST + S_CUR] = _seat_after(g, seat, 1)
    return TURN_PASSED, HOW_HAND


# ---------------------------------------------------------------- a round


@njit(cache=True, _nrt=False)
def deal(g, rs, deal_rs, round_index):
    """Shuffle, deal and turn the start card for round ``round_index`` (§2, §11.1, §11.14)."""
    n = g[G_ST + S_N]
    for i in range(DECK_SIZE):
        g[pile_at(i)] = DECK[i]
    _shuffle(deal_rs, g, G_PILE, DECK_SIZE)
    # slices, not indexed loops: numba compiles them to plain fills
    g[hand_at(0, 0) : hand_at(n, 0)] = 0
    g[ccount_at(0, 0) : ccount_at(n, 0)] = 0
    g[hsize_at(0) : hsize_at(NMAX)] = 0
    g[lacks_at(0) : lacks_at(NMAX)] = NO_COLOUR
    g[disc_at(0) : disc_at(N_TYPES)] = 0
    g[G_ROW : G_ROW + ROW_WIDTH] = 0
    first = round_index % n
    pos = 0
    for _ in range(g[G_RU + R_HAND_SIZE]):
        for k in range(n):
            _add(g, (first + k) % n, g[pile_at(pos)])
            pos += 1
    # A start +4 goes back and the pile is shuffled; if only +4s are left it stays as a Wild.
    while g[pile_at(pos)] == WILD_DRAW_FOUR:
        other = False
        for i in range(pos, DECK_SIZE):
            if g[pile_at(i)] != WILD_DRAW_FOUR:
                other = True
                break
        if not other:
            break
        _shuffle(deal_rs, g, pile_at(pos), DECK_SIZE - pos)
    start = g[pile_at(pos)]
    pos += 1
    g[G_ST + S_PILE_POS] = pos
    g[G_ST + S_PILE_LEN] = DECK_SIZE
    g[G_ST + S_DISC_N] = 0
    g[G_ST + S_TOP] = start
    g[G_ST + S_TOP_PLAYER] = NO_SEAT
    g[G_ST + S_DIR] = 1
    g[G_ST + S_CUR] = first
    g[G_ST + S_DEAD] = 0
    g[G_ST + S_PENDING] = 0
    g[G_ST + S_CHAIN] = 0
    g[G_ST + S_P4_OFFENDER] = NO_SEAT
    g[G_ST + S_P4_BLUFF] = 0
    g[G_ST + S_P4_HAND] = 0
    g[G_ST + S_P4_UNDER] = 0
    g[G_ST + S_P4_CHALLENGEABLE] = 0
    if start >= WILD:
        g[G_ST + S_COLOUR] = _choose_colour(g, rs, first)
        return
    g[G_ST + S_COLOUR] = _colour(start)
    rank = _rank(start)
    if rank == DRAW_TWO:
        _draw(g, rs, first, DRAW_TWO_PENALTY)
        g[G_ST + S_CUR] = (first + 1) % n
    elif rank == SKIP:
        g[G_ST + S_CUR] = (first + 1) % n
    elif rank == REVERSE:
        g[G_ST + S_DIR] = -1
        g[G_ST + S_CUR] = (first - 1) % n


@njit(cache=True, _nrt=False)
def play(g, pr, rs):
    """Play a dealt round to its end; fills the row region (counters, outcome, winner, cards left)."""
    max_turns = g[G_RU + R_MAX_TURNS]
    jump_in = g[G_RU + R_JUMP_IN] != 0
    outcome = OUTCOME_WON
    winner = NO_SEAT
    while True:
        if g[G_ROW + TURNS] >= max_turns:  # §11.7
            outcome = OUTCOME_CAPPED
            break
        seat = g[G_ST + S_CUR]
        how = HOW_STACKED
        if g[G_ST + S_PENDING] > 0:
            card = _pending_decision(g, pr, rs, seat)
        else:
            card, how = _turn(g, pr, rs, seat)
            if card == TURN_BLOCKED:
                outcome = OUTCOME_BLOCKED
                break
        won = False
        while card >= 0:  # a card, not NO_CARD or TURN_PASSED
            res = _play(g, pr, rs, seat, card, how)
            if res == RES_WON:
                won = True
                break
            if res != RES_OPEN or not jump_in:
                break
            seat = _jumper(g, pr, rs, seat)  # the window reopens from each jumper
            card = g[G_ST + S_TOP] if seat != NO_SEAT else NO_CARD
            how = HOW_JUMP
        if won:
            winner = seat
            break
    n = g[G_ST + S_N]
    pts = 0
    for s in range(n):
        g[G_ROW + CARDS_LEFT + s] = g[hsize_at(s)]
        if outcome == OUTCOME_WON:
            for t in range(N_TYPES):
                pts += g[hand_at(s, t)] * POINTS[t]
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
