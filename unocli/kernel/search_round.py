"""A round with searching seats in the kernel: step.play's loop, a searching seat's decisions by search.

``play_search`` plays a table where a seat searches (kernel/search.py): the general
round's loop, with a searching seat's turn in ``_search_turn``, its pending decisions,
its response to a +4, its jump-ins and its 7's target searched, and every step
bracketed to keep the records of what the table has seen (kernel/seen.py). The decisions
made inside a card's effects come back from ``step._play`` as RES_ASK_P4 and RES_ASK_SWAP
(step._effects never searches: it cannot import the search), and ``_seen_step`` asks them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.game.rng import search_key
from unocli.kernel.encode import (
    CHALLENGES,
    HOW_DRAWN,
    HOW_HAND,
    HOW_JUMP,
    HOW_STACKED,
    I_BUDGET,
    I_SEARCH,
    N_TYPES,
    NO_CARD,
    NO_SEAT,
    OUTCOME_BLOCKED,
    OUTCOME_CAPPED,
    OUTCOME_STUCK,
    OUTCOME_WON,
    P_BLUFF,
    P_JUMP,
    PASSES,
    PURPOSE_DEAL,
    PURPOSE_DETERMINISE,
    PURPOSE_PLAY,
    PURPOSE_ROLLOUT,
    R_DUP,
    R_JUMP_IN,
    R_MAX_TURNS,
    RES_ASK_P4,
    RES_ASK_SWAP,
    RES_OPEN,
    RES_WON,
    ROTATIONS,
    SEARCH_OFF,
    SWAPS,
    TURN_BLOCKED,
    TURN_PASSED,
    TURNS,
    WILD,
    WILD_DRAW_FOUR,
    WINNER,
)
from unocli.kernel.primitives import (
    _can_bluff,
    _chance,
    _draw,
    _is_action,
    _is_legal,
    _last_card_rule,
    _legal_options,
    _seat_after,
    _wants_bluff,
)
from unocli.kernel.search import (
    DECIDE_CARD,
    _options,
    drawn_decision,
    jump_choice,
    p4_decision,
    pending_decision,
    search_decision,
    search_scores,
    swap_decision,
)
from unocli.kernel.seen import (
    _copy_state,
    _determinise,
    _load_rollout_policy,
    _seen_before,
    _seen_draws,
    _seen_play,
    _seen_shown,
    _seen_turn,
    reset_seen,
)
from unocli.kernel.step import _pending_decision, _play, _round_end, _turn, deal, play, quiet_rules, set_stream
from unocli.kernel.stuck import _repeats

#: search_step's answers other than a winner's seat: the round goes on, or the step's pass blocked it.
STEP_ON = -1
STEP_BLOCKED = -2

# ---------------------------------------------------------------- a searching seat's steps


@njit(cache=True, _nrt=False)
def _search_turn(g, h, d, rs, drs, prs, seat):
    """step._turn for a searching seat: the card from its hand, and a Wild's colour, by search."""
    if g.probs[seat, P_BLUFF] > 0.0 and _can_bluff(g, seat) and _wants_bluff(g, rs, seat):
        return np.int64(WILD_DRAW_FOUR), np.int64(HOW_HAND)
    o = search_decision(g, h, d, rs, drs, prs, seat)
    if o >= 0:
        g.force_colour = g.sopt_colour[o]
        return np.int64(g.sopt_card[o]), np.int64(HOW_HAND)
    g.lacks[seat] = g.colour
    drew_any = False
    while True:
        c = _draw(g, rs, seat, 1)
        if c == NO_CARD:
            break
        drew_any = True
        if _is_legal(g, seat, c):
            o = drawn_decision(g, h, d, rs, drs, prs, seat, c)
            if g.sopt_card[o] != NO_CARD:
                g.force_colour = g.sopt_colour[o]
                return np.int64(c), np.int64(HOW_DRAWN)
            break
        if g.ru[R_DUP] == 0:
            if c == WILD_DRAW_FOUR and _can_bluff(g, seat) and _wants_bluff(g, rs, seat):
                return np.int64(c), np.int64(HOW_DRAWN)
            break
    g.row[PASSES] += 1
    g.row[TURNS] += 1
    g.dead = 0 if drew_any else g.dead + 1
    if g.dead >= g.players:
        return np.int64(TURN_BLOCKED), np.int64(HOW_HAND)
    g.current = _seat_after(g, seat, 1)
    return np.int64(TURN_PASSED), np.int64(HOW_HAND)


@njit(cache=True, _nrt=False)
def _seen_step(g, h, d, rs, drs, prs, seat, card, how):
    """``_play`` with what the table sees of it recorded (Seen.played, drew, challenged, forget), and the decisions
    its effects leave to a searching seat (a +4's victim's response, the 7's target) searched."""
    challenges = g.row[CHALLENGES]
    moved = g.row[ROTATIONS] + g.row[SWAPS]
    victim = _seat_after(g, seat, 1)
    if card == WILD_DRAW_FOUR and how != HOW_STACKED:
        for t in range(N_TYPES):  # what a challenge of it shows: the cards after it
            g.p4_cards[t] = g.hands[seat, t] - (1 if t == WILD_DRAW_FOUR else 0)
    _seen_before(g)
    res = _play(g, rs, seat, card, how)
    _seen_play(g, seat, card)
    _seen_draws(g, seat, np.int64(1))
    if res == RES_ASK_P4 or res == RES_ASK_SWAP:
        # the searcher decides with the card played and its draws recorded, as the reference engine's records are
        _seen_before(g)
        if res == RES_ASK_P4:
            res = p4_decision(g, h, d, rs, drs, prs, seat)
        else:
            res = swap_decision(g, h, d, rs, drs, prs, seat)
        _seen_draws(g, seat, np.int64(0))
    if g.row[CHALLENGES] != challenges:
        _seen_shown(g, seat, victim)
    if g.row[ROTATIONS] + g.row[SWAPS] != moved:
        reset_seen(g)
    return res


@njit(cache=True, _nrt=False)
def _search_jumper(g, h, d, rs, drs, prs, seat):
    """step._jumper with a searching seat's jump-in searched (search.jump_choice), the others' by their knobs."""
    top = g.top
    if top >= WILD or g.row[TURNS] >= g.ru[R_MAX_TURNS]:
        return NO_SEAT
    for k in range(1, g.players):
        other = _seat_after(g, seat, k)
        if g.hands[other, top] == 0:
            continue
        if _last_card_rule(g, other) and _is_action(top):
            continue
        if g.ints[other, I_SEARCH] != SEARCH_OFF:
            if jump_choice(g, h, d, rs, drs, prs, other) == 0:
                return other
        elif _chance(rs, g.probs[other, P_JUMP]):
            return other
    return NO_SEAT


@njit(cache=True, _nrt=False)
def play_search(g, h, d, rs, drs, prs):
    """step.play for a table with a searching seat: the same loop, its turns by ``_search_turn``.

    Every step also records what the table sees of the hands (``g.cap``; shown hands in
    ``g.old_hands``, with ``g.known_by``: encode.WORKSPACE), which
    the searchers' re-deals keep; step.play, which rollouts and other tables use, records none.
    """
    _search_round(g, h, d, rs, drs, prs, np.int64(-1))


#: search_step's answers other than a winner's seat: the round goes on, or the step's pass blocked it.


@njit(cache=True, _nrt=False)
def start_seen_round(g):
    """What play_search sets before a round's first step: the stuck test's memory and the seen-records cleared."""
    g.kept_valid = 0
    g.brent_power = 1
    g.brent_since = 0
    reset_seen(g)


@njit(cache=True, _nrt=False)
def search_step(g, h, d, rs, drs, prs):
    """One step of play_search's loop (after its turn cap and stuck tests), recording what the table sees of it.

    A searching seat's decisions are searched, any other seat's follow its knobs. Returns the
    winner's seat when the step ended the round won, STEP_BLOCKED when its pass blocked the round,
    else STEP_ON. ``bluff_decision.play_measured`` plays its rounds by this step, so its re-deals
    read the same records as a search's.
    """
    jump_in = g.ru[R_JUMP_IN] != 0
    seat = g.current
    how = HOW_STACKED
    _seen_before(g)
    if g.pending > 0:
        challenges = g.row[CHALLENGES]
        offender = g.p4_offender
        if g.ints[seat, I_SEARCH] != SEARCH_OFF:
            card = pending_decision(g, h, d, rs, drs, prs, seat)
        else:
            card = _pending_decision(g, rs, seat)
        _seen_draws(g, seat, np.int64(0))
        if g.row[CHALLENGES] != challenges:
            _seen_shown(g, offender, seat)
    else:
        colour = g.colour
        before = g.hsize[seat]
        if g.ints[seat, I_SEARCH] != SEARCH_OFF:
            card, how = _search_turn(g, h, d, rs, drs, prs, seat)
        else:
            card, how = _turn(g, rs, seat)
        _seen_turn(g, seat, colour, before, card, how)
        if card == TURN_BLOCKED:
            return np.int64(STEP_BLOCKED)
    while card >= 0:
        res = _seen_step(g, h, d, rs, drs, prs, seat, card, how)
        if res == RES_WON:
            return np.int64(seat)
        if res != RES_OPEN or not jump_in:
            break
        seat = _search_jumper(g, h, d, rs, drs, prs, seat)
        card = g.top if seat != NO_SEAT else NO_CARD
        how = HOW_JUMP
    return np.int64(STEP_ON)


@njit(cache=True, _nrt=False)
def _search_round(g, h, d, rs, drs, prs, stop):
    """play_search's loop; with ``stop`` >= 0 it returns before decision ``stop`` (the round unfinished: tests)."""
    max_turns = g.ru[R_MAX_TURNS]
    outcome = OUTCOME_WON
    winner = NO_SEAT
    start_seen_round(g)
    steps = 0
    while True:
        if steps == stop:
            return
        steps += 1
        if g.row[TURNS] >= max_turns:  # §11.7
            outcome = OUTCOME_CAPPED
            break
        if _repeats(g, rs):  # §11.15
            outcome = OUTCOME_STUCK
            break
        got = search_step(g, h, d, rs, drs, prs)
        if got == STEP_BLOCKED:
            outcome = OUTCOME_BLOCKED
            break
        if got >= 0:
            winner = got
            break
    _round_end(g, outcome, winner)


# ---------------------------------------------------------------- bench and tests


@njit(cache=True, _nrt=False)
def bench_rollouts(g, h, d, rs, drs, prs, seat, count):
    """``count`` rollouts from ``g``'s position, as a search plays them (copy, re-deal, copy, play out); wins.

    For ``unocli bench`` (rollouts per second); every seat plays ``seat``'s knobs.
    """
    _load_rollout_policy(g, h, seat)
    reset_seen(g)
    key = search_key(rs[0], rs[1], rs[2], rs[3], np.int64(g.round_index), np.int64(g.row[TURNS]))
    quiet = quiet_rules(g)
    wins = 0
    for r in range(count):
        _copy_state(g, d)
        set_stream(drs, key, np.uint64(r), np.int64(PURPOSE_DETERMINISE), np.int64(0))
        _determinise(g, d, seat, drs)
        _copy_state(d, h)
        set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), np.int64(0))
        if not play(h, prs, not quiet):
            # a reshuffle of one card without the stuck test (step.play): the rollout again, with it
            _copy_state(d, h)
            set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), np.int64(0))
            play(h, prs, np.bool_(True))
        wins += 1 if h.row[WINNER] == seat else 0
    return wins


@njit(cache=True, _nrt=False)
def bench_searched_round(g, h, d, rs, drs, prs, seat):
    """Play ``g``'s dealt round with its own knobs, searching ``seat``'s card at each of its turns; the rollouts played.

    For ``unocli bench``: rollouts from the positions a search meets. At each turn of ``seat`` with two
    options or more and no pending penalty, ``search.search_scores`` plays ``g.ints[seat, I_BUDGET]``
    rollouts of every option (copy, re-deal, copy, play out, as a search does), then the seat plays its
    own knobs' card: a search never draws from the play stream, so the round is the one ``seat``'s knobs
    play. The searches' own work (key, options, scores) is in the time; the steps between them are too.
    """
    max_turns = g.ru[R_MAX_TURNS]
    start_seen_round(g)
    played = np.int64(0)
    while g.row[TURNS] < max_turns and not _repeats(g, rs):
        if g.current == seat and g.pending == 0:
            m = _legal_options(g, seat)
            if m > 0:
                k = _options(g, seat, m)
                if k > 1:
                    search_scores(g, h, d, rs, drs, prs, seat, k, np.int64(0), np.int64(HOW_HAND), np.int64(DECIDE_CARD))
                    played += k * g.ints[seat, I_BUDGET]
        got = search_step(g, h, d, rs, drs, prs)
        if got != STEP_ON:
            break
    return played


@njit(cache=True)
def seen_after(ws, hs, ds, seed, index, stop):
    """Deal game ``index``'s first round and play ``stop`` decisions of it from Python (tests): ``ws`` holds the state."""
    rs = np.zeros(4, np.uint64)
    deal_rs = np.zeros(4, np.uint64)
    drs = np.zeros(4, np.uint64)
    prs = np.zeros(4, np.uint64)
    set_stream(rs, seed, np.uint64(index), np.int64(PURPOSE_PLAY), np.int64(0))
    set_stream(deal_rs, seed, np.uint64(index), np.int64(PURPOSE_DEAL), np.int64(0))
    g = ws[0]
    deal(g, rs, deal_rs, np.int64(0))
    _search_round(g, hs[0], ds[0], rs, drs, prs, np.int64(stop))
