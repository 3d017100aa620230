"""The numba round: arrays only, mirroring ``unocli/reference/engine.py``.

Every function here is the compiled twin of a reference-engine method of the
same name and draws random numbers in the same order, so both engines report
identical counters for every (rules, policies, seed, game index). Comments
point at docs/rules.md clauses; the reference engine has the prose.

State lives in a record and an array (one set per thread, reused from game
to game):

``g``   encode.WORKSPACE  everything mutable, one field each (see encode.py):
                          the state of the round (``g.current``, ``g.colour``,
                          ``g.top`` ...), the counters row (``g.row[TURNS]``),
                          the rules (``g.ru[R_NAF]``), the hands as counts per
                          type (``g.hands[seat, t]``) with their sizes and
                          counts per colour, the piles, the policy
                          probabilities (``g.probs[seat, P_BLUFF]``), integers
                          and priority tables
``rs``  uint64[4]         the play stream's xoshiro256** state

Why so few arguments, and why ``_nrt=False``: numba reference-counts every
array handed to a helper, and in an earlier version perf showed 40% of the
time in those atomic counts. A record is passed by pointer, without a count;
nothing here allocates, so these functions are compiled without numba's
runtime (no reference counting at all); the record and arrays are owned by
the batch layer. The hot path (a turn that plays a card) is
inlined into ``play`` at numba's IR level; rare events are real calls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.game.rng import stream_state
from unocli.kernel.bits import _bit, _lowest_bit, _swap_items, _turn_rows
from unocli.kernel.encode import (
    BLUFFS,
    CARDS_DRAWN,
    CARDS_LEFT,
    CARDS_PLAYED,
    CHALLENGE_EXTRA,
    CHALLENGES,
    CHALLENGES_WON,
    CHOICE_PLAY,
    CHOICE_UNIFORM,
    DEALER,
    DECK_SIZE,
    DRAW_TWO,
    DRAW_TWO_PENALTY,
    FAST_RULE_CODES,
    FAST_RULE_SLOTS,
    FAULT_REVERSE_2P,
    FAULT_SKIP,
    FAULT_UNO_PENALTY,
    FIRST_PLAYER,
    FIRST_TO_ONE,
    HOW_DRAWN,
    HOW_HAND,
    HOW_JUMP,
    HOW_STACKED,
    I_SEARCH,
    JUMP_INS,
    MAX_DRAW,
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
    OUTCOME_STUCK,
    OUTCOME_WON,
    P_BLUFF,
    P_CATCH,
    P_FORGET,
    P_JUMP,
    P_PLAY_DRAWN,
    PASSES,
    PLUS4_PLAYED,
    POINTS,
    PRIO_PLAY,
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
    RES_ASK_P4,
    RES_ASK_SWAP,
    RES_DONE,
    RES_OPEN,
    RES_WON,
    RESPOND_CHALLENGE,
    REVERSE,
    ROTATE_RANK,
    ROTATIONS,
    SEARCH_OFF,
    SKIP,
    SKIPS,
    ST_OFF,
    SWAP_RANK,
    SWAPS,
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
)
from unocli.kernel.plain import in_shape
from unocli.kernel.primitives import (
    _below,
    _best_legal,
    _can_bluff,
    _chance,
    _choice_table,
    _choose_card,
    _choose_colour,
    _colour,
    _count_legal,
    _draw,
    _is_action,
    _is_d2,
    _is_legal,
    _last_card_rule,
    _legal_options,
    _nth_legal,
    _rank,
    _remove,
    _respond,
    _seat_after,
    _stackable_options,
    _start_card,
    _start_seat,
    _swap_target,
    _wants_bluff,
    shuffle_deck,
)
from unocli.kernel.stuck import _repeats

# ---------------------------------------------------------------- rare effects


@njit(cache=True, _nrt=False)
def _penalty_draw(g, rs, seat, k):
    """_draw of a penalty (a +2/+4, a stack, a challenge, an Uno penalty): the round's ``max_draw`` (§9)."""
    before = g.row[CARDS_DRAWN]
    _draw(g, rs, seat, k)
    got = g.row[CARDS_DRAWN] - before  # what the piles held, as the reference engine counts it
    if got > g.row[MAX_DRAW]:
        g.row[MAX_DRAW] = got


@njit(cache=True, _nrt=False)
def _uno_forgotten(g, rs, seat):
    """§6: a forgotten Uno; the first opponent (in the direction of play) who notices catches it."""
    g.row[UNO_FORGOTTEN] += 1
    for k in range(1, g.players):
        if _chance(rs, g.probs[_seat_after(g, seat, k), P_CATCH]):
            g.row[UNO_CAUGHT] += 1
            if g.ru[R_FAULT] != FAULT_UNO_PENALTY:
                _penalty_draw(g, rs, seat, g.ru[R_UNO_PENALTY])
            return


@njit(cache=True, _nrt=False)
def _challenge(g, rs, victim, total):
    """§5: a bluff costs the offender the penalty; an honest +4 costs the victim the penalty and 2 more."""
    g.row[CHALLENGES] += 1
    if g.p4_bluff != 0:
        g.row[CHALLENGES_WON] += 1
        _penalty_draw(g, rs, g.p4_offender, total)
    else:
        _penalty_draw(g, rs, victim, total + CHALLENGE_EXTRA)
        g.row[SKIPS] += 1  # the victim loses the turn
    g.pending = 0
    g.chain = 0


@njit(cache=True, _nrt=False)
def _plus4_victim(g, rs, victim, total):
    """A non-stacked +4's victim challenges or accepts at once; True when a bluff is caught."""
    return _plus4_resolve(g, rs, victim, total, _respond(g, rs, victim, np.int64(0), g.p4_challengeable != 0))


@njit(cache=True, _nrt=False)
def _plus4_resolve(g, rs, victim, total, action):
    """The victim's ``action`` (RESPOND_CHALLENGE or RESPOND_ACCEPT) on a non-stacked +4; True when a bluff is caught."""
    if action == RESPOND_CHALLENGE:
        _challenge(g, rs, victim, total)
        bluff = g.p4_bluff != 0
        g.current = victim if bluff else _seat_after(g, victim, 1)
        return bluff
    _penalty_draw(g, rs, victim, total)
    g.row[SKIPS] += 1
    g.current = _seat_after(g, victim, 1)
    return False


@njit(cache=True, _nrt=False)
def _final_penalty(g, rs, seat, card, how, value):
    """A +2/+4 as the last card: the next player faces it (§7, §11.10).

    Returns RES_DONE when the round goes on (a bluff caught), RES_WON, or RES_ASK_P4 when the
    victim of a challengeable +4 searches (``_plus4_answer`` then finishes).
    """
    victim = _seat_after(g, seat, 1)
    stacked = how == HOW_STACKED and g.ru[R_STACKING] != ST_OFF
    total = g.pending + value if stacked else value
    chain = g.chain + 1 if stacked else 1
    if chain > g.row[MAX_STACK]:
        g.row[MAX_STACK] = chain
    g.pending = 0
    g.chain = 0
    if card == WILD_DRAW_FOUR and how != HOW_STACKED:
        if g.p4_challengeable != 0 and g.ints[victim, I_SEARCH] != SEARCH_OFF:
            return RES_ASK_P4
        return _last_plus4_end(g, _plus4_victim(g, rs, victim, total))
    _penalty_draw(g, rs, victim, total)
    return RES_WON


@njit(cache=True, _nrt=False)
def _last_plus4_end(g, caught):
    """After the response to a +4 that was its player's last card: RES_DONE when a bluff was caught, else RES_WON."""
    if caught:
        return RES_DONE  # the round goes on, and the victim lost no turn
    # the round is over, so the victim loses no turn (docs/rules.md §9 skips): take back the one skip
    # _plus4_resolve counted (accepted, or an honest +4 challenged)
    g.row[SKIPS] -= 1
    return RES_WON


@njit(cache=True, _nrt=False)
def _plus4_answer(g, rs, seat, action):
    """The rest of ``_effects`` after RES_ASK_P4: the victim's ``action`` on ``seat``'s +4 (RESPOND_*), and its result."""
    victim = _seat_after(g, seat, 1)
    caught = _plus4_resolve(g, rs, victim, np.int64(WILD_DRAW_FOUR_PENALTY), action)
    if g.hsize[seat] == 0:  # its last card (_final_penalty)
        return _last_plus4_end(g, caught)
    return RES_OPEN


@njit(cache=True, _nrt=False)
def _rotate(g):
    """seven_o 0: the hand of seat s goes to seat s + direction, with its size, colours, held types and lack."""
    n = g.players
    forward = g.direction == 1  # seat s takes seat s - direction's hand: the rows move on, or back
    _turn_rows(g.hands, g.old_hands, np.int64(N_TYPES), n, forward)
    _turn_rows(g.ccount, g.old_ccount, np.int64(N_COLOURS), n, forward)
    _turn_rows(g.hsize, g.old_hsize, np.int64(1), n, forward)
    _turn_rows(g.lacks, g.old_lacks, np.int64(1), n, forward)
    _turn_rows(g.shown, g.old_shown, np.int64(1), n, forward)
    # the held-types masks turn in place, one word kept aside (no scratch field: the workspace stays under 8 KiB)
    if g.direction == 1:
        last = g.held[n - 1]
        for s in range(n - 1, 0, -1):
            g.held[s] = g.held[s - 1]
        g.held[0] = last
    else:
        first = g.held[0]
        for s in range(n - 1):
            g.held[s] = g.held[s + 1]
        g.held[n - 1] = first
    g.row[ROTATIONS] += 1


@njit(cache=True, _nrt=False)
def _swap(g, rs, seat):
    """seven_o 7: ``seat`` swaps hands (and what is known of them) with its chosen opponent."""
    _swap_hands(g, seat, _swap_target(g, rs, seat))


@njit(cache=True, _nrt=False)
def _swap_answer(g, seat, other):
    """The rest of ``_effects`` after RES_ASK_SWAP: ``seat`` swaps with ``other``, the next seat plays."""
    _swap_hands(g, seat, other)
    g.current = _seat_after(g, seat, 1)
    return RES_OPEN


@njit(cache=True, _nrt=False)
def _swap_hands(g, seat, other):
    """``seat`` and ``other`` exchange hands, with their sizes, held types, colours, lack and shown colour."""
    # the rows as block copies (a loop per type stayed a loop of single bytes)
    _swap_items(g.hands, seat * N_TYPES, other * N_TYPES, np.int64(N_TYPES))
    _swap_items(g.ccount, seat * N_COLOURS, other * N_COLOURS, np.int64(N_COLOURS))
    g.hsize[seat], g.hsize[other] = g.hsize[other], g.hsize[seat]
    g.held[seat], g.held[other] = g.held[other], g.held[seat]
    g.lacks[seat], g.lacks[other] = g.lacks[other], g.lacks[seat]
    g.shown[seat], g.shown[other] = g.shown[other], g.shown[seat]
    g.row[SWAPS] += 1


@njit(cache=True, _nrt=False)
def _pending_decision(g, rs, victim):
    """§8 stacking: returns a card to stack, or NO_CARD once the penalty is drawn or challenged."""
    challenge_open = g.top == WILD_DRAW_FOUR and g.chain == 1 and g.p4_challengeable != 0
    m = _stackable_options(g, victim)
    action = _respond(g, rs, victim, m, challenge_open)
    if action >= 0:
        return action
    if action == RESPOND_CHALLENGE:
        _challenge(g, rs, victim, g.pending)
        g.current = victim if g.p4_bluff != 0 else _seat_after(g, victim, 1)
        return NO_CARD
    _penalty_draw(g, rs, victim, g.pending)
    g.row[SKIPS] += 1
    g.pending = 0
    g.chain = 0
    g.current = _seat_after(g, victim, 1)
    return NO_CARD


@njit(cache=True, inline="always", _nrt=False)
def _jumper(g, rs, seat):
    """§8 jump-in window after ``seat``'s card: the first other seat to jump in, or NO_SEAT (§11.9).

    Inlined: ``play`` calls it after every card under jump-in rules, and a second call level
    cost party rollouts about 5%. Most windows close at once (no other seat holds the top's type):
    the filter below spares them the call (party rounds about 4% faster; a loop over the seated
    players here made ``play`` larger and official rounds 2-4% slower, this fixed sum about 1.5%).
    """
    # a filter only (_jumper_from decides): does any other seat hold the top's type? Summed over every
    # seat of the workspace, a loop of constant length that LLVM unrolls (the seats past the table hold
    # nothing), so play stays small and most windows close without the call
    top = g.top
    if top < WILD:
        others = np.int64(0)
        for s in range(NMAX):
            others += g.hands[s, top]
        if others == g.hands[seat, top]:
            return NO_SEAT
    return _jumper_from(g, rs, seat, np.int64(1))


@njit(cache=True, _nrt=False)
def _jumper_from(g, rs, seat, first):
    """``_jumper`` offering the window from the ``first``-th seat after ``seat`` on (a search's rollout of not jumping)."""
    top = g.top
    if top >= WILD or g.row[TURNS] >= g.ru[R_MAX_TURNS]:
        return NO_SEAT
    # most windows close at once (no other seat holds the top's type): tested over the seats
    # without a branch each, before the loop that offers the window (a branch per seat was
    # mispredicted often enough to cost party rounds about 4%)
    others = np.int64(0)
    for s in range(g.players):
        others += g.hands[s, top]
    if others == g.hands[seat, top]:
        return NO_SEAT
    for k in range(first, g.players):
        other = _seat_after(g, seat, k)
        if g.hands[other, top] == 0:
            continue
        if _last_card_rule(g, other) and _is_action(top):
            continue
        if _chance(rs, g.probs[other, P_JUMP]):
            return other
    return NO_SEAT


# ---------------------------------------------------------------- the hot path


@njit(cache=True, inline="always", _nrt=False)
def _effects(g, rs, seat, card, how):
    """§4 effects of a card just played: RES_WON, RES_DONE (no jump-in window) or RES_OPEN."""
    out = g.hsize[seat] == 0
    if card == WILD_DRAW_FOUR or (card == WILD and not out):
        g.colour = _choose_colour(g, rs, seat)
    elif card != WILD:
        g.colour = _colour(card)
    g.shown[seat] = g.colour
    value = WILD_DRAW_FOUR_PENALTY if card == WILD_DRAW_FOUR else (DRAW_TWO_PENALTY if _is_d2(card) else 0)
    if out:
        return _final_penalty(g, rs, seat, card, how, value) if value > 0 else RES_WON
    rank = _rank(card) if card < WILD else -1  # -1: a Wild has no rank
    if value > 0:
        if g.ru[R_STACKING] != ST_OFF:  # §8: the penalty is left pending, no window
            if how == HOW_STACKED:
                g.pending += value
                g.chain += 1
            else:
                g.pending = value
                g.chain = 1
            if g.chain > g.row[MAX_STACK]:
                g.row[MAX_STACK] = g.chain
            g.current = _seat_after(g, seat, 1)
            return RES_DONE
        if g.row[MAX_STACK] < 1:
            g.row[MAX_STACK] = 1
        victim = _seat_after(g, seat, 1)
        if card == WILD_DRAW_FOUR:
            if g.p4_challengeable != 0 and g.ints[victim, I_SEARCH] != SEARCH_OFF:
                return RES_ASK_P4  # a searching victim's response: search.play_search asks it (_plus4_answer)
            _plus4_victim(g, rs, victim, np.int64(WILD_DRAW_FOUR_PENALTY))
        else:
            _penalty_draw(g, rs, victim, np.int64(DRAW_TWO_PENALTY))
            g.row[SKIPS] += 1
            g.current = _seat_after(g, victim, 1)
    elif rank == SKIP:
        g.row[SKIPS] += 1
        g.current = _seat_after(g, seat, 1 if g.ru[R_FAULT] == FAULT_SKIP else 2)
    elif rank == REVERSE:
        g.direction = -g.direction
        two = g.players == 2 and g.ru[R_FAULT] != FAULT_REVERSE_2P
        if two:  # §11.13: the same player plays again; the other loses the turn
            g.row[SKIPS] += 1
        g.current = seat if two else _seat_after(g, seat, 1)
    else:
        if g.ru[R_SEVEN_O] != 0:
            if rank == ROTATE_RANK:
                _rotate(g)
            elif rank == SWAP_RANK:
                if g.players > 2 and g.ints[seat, I_SEARCH] != SEARCH_OFF:
                    return RES_ASK_SWAP  # a searching seat's target: search.play_search asks it (_swap_answer)
                _swap(g, rs, seat)
        g.current = _seat_after(g, seat, 1)
    return RES_OPEN


@njit(cache=True, inline="always", _nrt=False)
def _play(g, rs, seat, card, how):
    """``seat`` plays ``card``: Uno (§6), then its effects (§4)."""
    hand_before = g.hsize[seat]
    bluff = False
    if card == WILD_DRAW_FOUR and how != HOW_STACKED:
        bluff = g.ru[R_WD4] == WD4_RESTRICTED and g.ccount[seat, g.colour] > 0
        g.p4_offender = seat
        g.p4_bluff = 1 if bluff else 0
        g.p4_hand = hand_before
        g.p4_colour = g.colour
        g.p4_shown = 1 if g.shown[seat] == g.colour else 0
        g.p4_lacked = 1 if g.lacks[seat] == g.colour else 0
        g.p4_challengeable = 1 if (g.ru[R_CHALLENGE] != 0 and g.ru[R_WD4] == WD4_RESTRICTED) else 0
    _remove(g, seat, card)
    g.disc[g.top] += 1
    g.disc_n += 1
    g.top = card
    g.top_player = seat
    g.row[CARDS_PLAYED] += 1
    g.row[TURNS] += 1
    g.dead = 0
    if card == WILD_DRAW_FOUR:
        g.row[PLUS4_PLAYED] += 1
        if bluff:
            g.row[BLUFFS] += 1
    if how == HOW_JUMP:
        g.row[JUMP_INS] += 1
    if card < WILD and _colour(card) == g.lacks[seat]:
        g.lacks[seat] = NO_COLOUR
    if hand_before == 2 and g.row[FIRST_TO_ONE] == NO_SEAT:  # §9 first_to_one
        g.row[FIRST_TO_ONE] = seat
    if hand_before == 2 and _chance(rs, g.probs[seat, P_FORGET]):
        _uno_forgotten(g, rs, seat)
    return _effects(g, rs, seat, card, how)


@njit(cache=True, inline="always", _nrt=False)
def _turn(g, rs, seat):
    """A normal turn (§3): returns (card, how) to play, or TURN_PASSED / TURN_BLOCKED after a pass."""
    # a seat that never bluffs skips the test (and _wants_bluff, a real call, would say no without a draw)
    if g.probs[seat, P_BLUFF] > 0.0 and _can_bluff(g, seat) and _wants_bluff(g, rs, seat):
        return WILD_DRAW_FOUR, HOW_HAND
    choice = g.uniform[seat]
    if choice == CHOICE_UNIFORM and not _last_card_rule(g, seat):
        # the common case: a uniform choice, the same draw and card as listing the options
        m = _count_legal(g, seat)
        if m > 0:
            return _nth_legal(g, seat, _below(rs, m)), HOW_HAND
    else:
        # CHOICE_PLAY: the table _choice_table would give, read from the knobs once (primitives._choice_code)
        table = -1 if _last_card_rule(g, seat) else (PRIO_PLAY if choice == CHOICE_PLAY else _choice_table(g, seat))
        if table >= 0:
            # a choice by priority among all the legal cards: found without listing them (it draws nothing)
            c = _best_legal(g, seat, table)
            if c != NO_CARD:
                return c, HOW_HAND
        else:
            m = _legal_options(g, seat)
            if m > 0:
                return _choose_card(g, rs, seat, m), HOW_HAND
    g.lacks[seat] = g.colour
    drew_any = False
    while True:
        c = _draw(g, rs, seat, 1)
        if c == NO_CARD:
            break
        drew_any = True
        if _is_legal(g, seat, c):
            if _chance(rs, g.probs[seat, P_PLAY_DRAWN]):
                return c, HOW_DRAWN
            break
        if g.ru[R_DUP] == 0:
            if c == WILD_DRAW_FOUR and _can_bluff(g, seat) and _wants_bluff(g, rs, seat):
                return c, HOW_DRAWN
            break
    g.row[PASSES] += 1
    g.row[TURNS] += 1
    g.dead = 0 if drew_any else g.dead + 1
    if g.dead >= g.players:
        return TURN_BLOCKED, HOW_HAND
    g.current = _seat_after(g, seat, 1)
    return TURN_PASSED, HOW_HAND


# ---------------------------------------------------------------- a round


@njit(cache=True, inline="always", _nrt=False)
def deal(g, rs, deal_rs, round_index):
    """Shuffle, deal and turn the start card for round ``round_index`` (§2, §11.1, §11.14).

    Inlined where it is called: the shuffle and a call of :func:`deal_shuffled`, one function to compile."""
    shuffle_deck(g, deal_rs)
    deal_shuffled(g, rs, deal_rs, round_index)


@njit(cache=True, _nrt=False)
def deal_shuffled(g, rs, deal_rs, round_index):
    """:func:`deal` from its shuffle on: ``g.pile`` holds the round's shuffled deck and ``deal_rs`` the
    deal stream after it (``lanes.shuffle_block`` shuffles the first decks of a block of games)."""
    n = g.players
    # slices, not indexed loops: numba compiles them to plain fills
    g.hands[:n] = 0
    g.ccount[:n] = 0
    g.held[:] = 0
    g.hsize[:] = 0
    g.lacks[:] = NO_COLOUR
    g.shown[:] = NO_COLOUR
    g.disc[:] = 0
    g.row[:] = 0
    g.row[FIRST_TO_ONE] = NO_SEAT
    first = round_index % n
    size = g.ru[R_HAND_SIZE]
    # one card to each seat in turn from ``first`` on: seat first + off holds the cards at off, off + n, ...;
    # dealt a seat at a time, so its size and held types are counted in registers and stored once
    for off in range(n):
        seat = first + off
        if seat >= n:
            seat -= n
        held = np.uint64(0)
        for k in range(size):
            c = g.pile[k * n + off]
            g.hands[seat, c] += 1
            held |= _bit(c)
            if c < WILD:
                g.ccount[seat, _colour(c)] += 1
        g.hsize[seat] = size
        g.held[seat] = held
    pos = np.int64(size * n)  # not a literal (see primitives._refill)
    start = _start_card(g, deal_rs, pos)
    pos += 1
    g.pile_pos = pos
    g.pile_len = DECK_SIZE
    g.disc_n = 0
    g.top = start
    g.top_player = NO_SEAT
    g.direction = 1
    g.current = first
    g.dead = 0
    g.pending = 0
    g.chain = 0
    g.p4_offender = NO_SEAT
    g.p4_bluff = 0
    g.p4_hand = 0
    g.p4_colour = NO_COLOUR
    g.p4_shown = 0
    g.p4_lacked = 0
    g.p4_challengeable = 0
    g.row[DEALER] = (first - 1) % n
    g.round_index = round_index
    g.force_colour = NO_COLOUR
    if start >= WILD:
        g.colour = _choose_colour(g, rs, first)
    else:
        g.colour = _colour(start)
        rank = _rank(start)
        if rank == DRAW_TWO:
            _penalty_draw(g, rs, first, np.int64(DRAW_TWO_PENALTY))
        _start_seat(g, first, n, rank)
    g.row[FIRST_PLAYER] = g.current


@njit(cache=True, _nrt=False)
def play(g, rs, stuck):
    """Play a dealt round to its end; fills the row region (counters, outcome, winner, cards left).

    With ``stuck`` the stuck test (§11.15) runs before every decision. Without it, the round must
    be one of ``quiet_rules`` (the caller checks): there a round cannot come back to an earlier
    state unless it reshuffled a discard pile of one card (see ``quiet_rules``), and when that
    happens ``play`` returns False at once, leaving the round unfinished; the caller plays it
    again from the same state and streams with the test. True when the round was played out.
    """
    max_turns = g.ru[R_MAX_TURNS]
    jump_in = g.ru[R_JUMP_IN] != 0
    outcome = OUTCOME_WON
    winner = NO_SEAT
    g.kept_valid = 0
    g.brent_power = 1
    g.brent_since = 0
    g.one_card = 0
    while True:
        if g.row[TURNS] >= max_turns:  # §11.7
            outcome = OUTCOME_CAPPED
            break
        if stuck:
            if _repeats(g, rs):  # §11.15
                outcome = OUTCOME_STUCK
                break
        elif g.one_card != 0:
            return False
        seat = g.current
        how = HOW_STACKED
        if g.pending > 0:
            card = _pending_decision(g, rs, seat)
        else:
            card, how = _turn(g, rs, seat)
            if card == TURN_BLOCKED:
                outcome = OUTCOME_BLOCKED
                break
        won = False
        while card >= 0:  # a card, not NO_CARD or TURN_PASSED
            res = _play(g, rs, seat, card, how)
            if res == RES_WON:
                won = True
                break
            if res != RES_OPEN or not jump_in:
                break
            seat = _jumper(g, rs, seat)  # the window reopens from each jumper
            card = g.top if seat != NO_SEAT else NO_CARD
            how = HOW_JUMP
        if won:
            winner = seat
            break
    _round_end(g, outcome, winner)
    return True


@njit(cache=True, _nrt=False)
def quiet_rules(g):
    """Can ``play`` skip the stuck test (§11.15) on this workspace's rules: are they the plain round's?

    The rules of ``plain.plain_shape`` (encode.FAST_RULES, derived from the same allow-list), any
    policies: kernel/plain.py's module docstring has the argument. Each decision there strictly lowers
    (cards in the draw pile, cards in hands, minus the passes in a row that drew nothing) unless a
    reshuffle puts cards back, and a reshuffle of two or more cards draws random numbers, which a
    state kept for the test includes. So no state comes back, but after a reshuffle of one card
    (``g.one_card``), and the test never stops such a round.
    """
    return in_shape(g.ru, FAST_RULE_SLOTS, FAST_RULE_CODES)


@njit(cache=True, _nrt=False)
def _round_end(g, outcome, winner):
    """Fill the row's outcome, winner, winner's points and cards left.

    A real call, not part of ``play``: inlined there, LLVM kept the 54-entry
    points table in 14 vector registers for the whole round, reloading them
    from the stack after every call on the hot path.
    """
    pts = np.int64(0)
    for s in range(g.players):
        g.row[CARDS_LEFT + s] = g.hsize[s]
        if outcome == OUTCOME_WON:
            held = g.held[s]  # the types held: a few bits, where reading every count took 54 per seat
            while held != 0:
                t = _lowest_bit(held)
                held &= held - np.uint64(1)
                pts += g.hands[s, t] * POINTS[t]
    g.row[OUTCOME] = outcome
    g.row[WINNER] = winner
    g.row[WINNER_POINTS] = pts


@njit(cache=True, _nrt=False)
def set_stream(rs, seed, index, purpose, sub):
    """Seed ``rs`` with the stream of (seed, game index, purpose, round) (rng.stream_state)."""
    a, b, c, d = stream_state(seed, index, np.uint64(purpose), np.uint64(sub))
    rs[0] = a
    rs[1] = b
    rs[2] = c
    rs[3] = d
