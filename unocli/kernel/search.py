"""Search players in the kernel: determinised rollouts, mirroring ``unocli/reference/search.py``.

A seat whose ``search`` knob is on chooses each card it plays from its hand
(and, with a Wild, the colour), whether to play a playable drawn card, its
response to a pending penalty or to a +4, whether to jump in and a 7's swap
target by rollouts: for each option it plays the option in a copy of the round,
plays the copy to its end with its own other knobs at every seat, and adds up
the copies' values (a win, or with the match objective the points: ``_value``;
docs/search.md). The re-deal keeps what the table has seen of the hands
(kernel/seen.py), which ``search_round.play_search`` records step by step.

Three workspaces (``encode.WORKSPACE`` records) take part: ``g`` is the game;
``d`` holds one rollout's determinisation (``g``'s state with the hidden cards
re-dealt), shared by every option of that rollout (common random numbers);
``h`` is the copy an option is played out in, with every seat's policy set to
the searcher's knobs (search off). All three belong to the batch layer.

Streams: a decision's key hashes the play stream's state, the round and the
turn (``rng.search_key``); rollout ``r`` re-deals from the stream
(key, r, PURPOSE_DETERMINISE, sub) and plays from (key, r, PURPOSE_ROLLOUT, sub),
``sub`` 0 for a card, a drawn card or a pending penalty and ``_sub(kind, seat)`` for
the decisions made inside a card's effects (a +4's response, a jump-in, a 7's target),
which can share a turn and a stream state with the next decision. The game's own play
stream is never drawn from by a search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.game.rng import search_key
from unocli.kernel.encode import (
    COL_RANDOM,
    HOW_HAND,
    HOW_JUMP,
    HOW_P4,
    HOW_STACKED,
    HOW_SWAP,
    I_BUDGET,
    I_COLOUR,
    I_OBJECTIVE,
    I_RANDOM_PLAY,
    I_SEARCH,
    I_SWAP,
    N_COLOURS,
    NMAX,
    NO_CARD,
    NO_COLOUR,
    NO_SEAT,
    OBJ_MATCH,
    OUTCOME,
    OUTCOME_WON,
    P_JUMP,
    P_PLAY_DRAWN,
    PASSES,
    PURPOSE_DETERMINISE,
    PURPOSE_ROLLOUT,
    R_JUMP_IN,
    R_TARGET,
    RES_OPEN,
    RES_WON,
    RESPOND_ACCEPT,
    RESPOND_CHALLENGE,
    SEARCH_PEEK,
    SKIPS,
    SW_RANDOM,
    TURNS,
    WILD,
    WILD_DRAW_FOUR,
    WINNER,
    WINNER_POINTS,
)
from unocli.kernel.primitives import (
    _choose_card,
    _choose_colour,
    _legal_options,
    _respond,
    _seat_after,
    _stackable_options,
    _swap_target,
)
from unocli.kernel.seen import _copy_state, _determinise, _load_rollout_policy
from unocli.kernel.step import (
    _challenge,
    _jumper,
    _jumper_from,
    _penalty_draw,
    _pending_decision,
    _play,
    _plus4_answer,
    _round_end,
    _swap_answer,
    play,
    set_stream,
)

#: a decision's kind, for its rollouts' streams (``_sub``): a card, a drawn card or a pending penalty (the
#: streams' sub 0), the response to a +4 with stacking off or as the last card, a jump-in, a 7's target
DECIDE_CARD, DECIDE_P4, DECIDE_JUMP, DECIDE_SWAP = range(4)

# ---------------------------------------------------------------- rollouts


@njit(cache=True, _nrt=False)
def _respond_with(g, rs, victim, action):
    """The end of step._pending_decision for a challenge or an accept (``RESPOND_*``) a search chose."""
    if action == RESPOND_CHALLENGE:
        _challenge(g, rs, victim, g.pending)
        g.current = victim if g.p4_bluff != 0 else _seat_after(g, victim, 1)
        return
    _penalty_draw(g, rs, victim, g.pending)
    g.row[SKIPS] += 1
    g.pending = 0
    g.chain = 0
    g.current = _seat_after(g, victim, 1)


@njit(cache=True, _nrt=False)
def _rollout(h, rs, seat, card, how):
    """``_rollout_play`` with the stuck test on: 1 if ``seat`` wins (``bluff_decision``'s rollouts)."""
    return _rollout_play(h, rs, seat, card, how, np.bool_(True))


@njit(cache=True, _nrt=False)
def _rollout_play(h, rs, seat, card, how, stuck):
    """``seat`` takes option ``card`` in ``h`` (``how``), then the round is played out: 1 if it wins, else 0.

    Without ``stuck`` the round is played out without the stuck test (``step.play``: the rules must be
    ``quiet_rules``) and -1 says it was handed back after a reshuffle of one card, unfinished: the caller
    plays the rollout again from the same state and stream with the test.

    The row is the finished round's either way (its winner and points, for ``_value``).
    HOW_HAND: ``card`` from the hand (NO_CARD keeps a drawn card: the pass that ends the turn);
    HOW_STACKED: a card to stack, or a ``RESPOND_*`` code; HOW_P4: the ``RESPOND_*`` code of
    ``seat``, the victim of the +4 just played; HOW_SWAP: ``card`` is the seat the 7's player
    ``seat`` swaps with; HOW_JUMP: jump in with ``card`` (the top card's twin), or with NO_CARD
    let the window pass on to the seats after ``seat``. Cards are played as ``step.play`` plays
    them, jump-ins included.
    """
    s = np.int64(seat)
    c = np.int64(card)
    jump_in = h.ru[R_JUMP_IN] != 0
    if how == HOW_P4:
        offender = np.int64(h.p4_offender)
        if _plus4_answer(h, rs, offender, c) == RES_WON:
            return _won(h, seat, offender)
        c = np.int64(NO_CARD)  # the top card is a +4: no jump-in window
    elif how == HOW_SWAP:
        _swap_answer(h, s, c)
        s = _jumper(h, rs, s) if jump_in else np.int64(NO_SEAT)
        c = np.int64(h.top if s != NO_SEAT else NO_CARD)
        how = np.int64(HOW_JUMP)
    elif how == HOW_JUMP and c == NO_CARD:
        opener = np.int64(h.top_player)  # the window goes on from the seat after the searcher
        s = _jumper_from(h, rs, opener, ((s - opener) * h.direction) % h.players + 1)
        c = np.int64(h.top if s != NO_SEAT else NO_CARD)
    elif c < 0 and how == HOW_STACKED:
        _respond_with(h, rs, s, c)
    elif c == NO_CARD:
        h.row[PASSES] += 1
        h.row[TURNS] += 1
        h.dead = 0
        h.current = _seat_after(h, s, 1)
    # int64 throughout, as step.play types them: an int8 card would compile the step's helpers twice
    while c >= 0:
        res = _play(h, rs, s, c, how)
        if res == RES_WON:
            return _won(h, seat, s)
        if res != RES_OPEN or not jump_in:
            break
        s = _jumper(h, rs, s)
        c = np.int64(h.top if s != NO_SEAT else NO_CARD)
        how = np.int64(HOW_JUMP)
    if not play(h, rs, stuck):
        return -1
    return 1 if h.row[WINNER] == seat else 0


@njit(cache=True, _nrt=False)
def _won(h, seat, winner):
    """A rollout's card ended the round won by ``winner``: its row finished; 1 if that is ``seat``."""
    _round_end(h, np.int64(OUTCOME_WON), winner)
    return 1 if winner == seat else 0


@njit(cache=True, _nrt=False)
def _value(g, h, seat):
    """A finished rollout's value to ``seat`` (docs/search.md, "The objective").

    The round objective: 1 if it won the round, else 0. The match objective: the points the
    round gives its winner w, up to what w still needed to reach the target (points past it
    win nothing more), times (players - 1) when w is ``seat``, negated when w is another seat;
    0 when nobody won. Its mean is (players - 1) times the change in ``seat``'s score less the
    mean of the others' changes, counted to the target.
    """
    w = h.row[WINNER]
    if g.ints[seat, I_OBJECTIVE] != OBJ_MATCH:
        return 1 if w == seat else 0
    if h.row[OUTCOME] != OUTCOME_WON:
        return 0
    gain = min(h.row[WINNER_POINTS], g.ru[R_TARGET] - g.mscore[w])
    return (g.players - 1) * gain if w == seat else -gain


@njit(cache=True, _nrt=False)
def search_scores(g, h, d, rs, drs, prs, seat, k, pref, how, kind):
    """Play ``budget`` rollouts of each of the k options in ``g.sopt_*``; their values' totals go to ``g.sopt_score``.

    Parameters
    ----------
    g, h, d
        The game, the rollout copy and the determinisation (module docstring).
    rs : uint64[4]
        The game's play stream: read for the key, never drawn from.
    drs, prs : uint64[4]
        Scratch for a rollout's determinisation and play streams.
    seat, k
        The searching seat and its number of options.
    pref
        The option its knobs would take (``_policy_option`` and the like).
    how
        How an option is taken (``_rollout``).
    kind
        The decision's ``DECIDE_*`` kind: with ``seat``, the rollout streams' sub (``_sub``).

    Returns
    -------
    int64
        The index of the option with the largest total; of those tied, ``pref`` if it is one, else the first.
    """
    key = search_key(rs[0], rs[1], rs[2], rs[3], np.int64(g.round_index), np.int64(g.row[TURNS]))
    sub = _sub(kind, seat)
    peek = g.ints[seat, I_SEARCH] == SEARCH_PEEK
    budget = g.ints[seat, I_BUDGET]
    _load_rollout_policy(g, h, seat)
    quiet = g.quiet  # the rollouts skip the stuck test where the game's own rounds do (batch.play_batch)
    for o in range(k):
        g.sopt_score[o] = 0
    for r in range(budget):
        _copy_state(g, d)
        if not peek:
            set_stream(drs, key, np.uint64(r), np.int64(PURPOSE_DETERMINISE), sub)
            _determinise(g, d, seat, drs)
        for o in range(k):
            _copy_state(d, h)
            set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), sub)
            h.force_colour = g.sopt_colour[o]
            if _rollout_play(h, prs, seat, np.int64(g.sopt_card[o]), np.int64(how), quiet == 0) < 0:
                # a reshuffle of one card in a rollout played without the stuck test: again, with it
                _copy_state(d, h)
                set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), sub)
                h.force_colour = g.sopt_colour[o]
                _rollout_play(h, prs, seat, np.int64(g.sopt_card[o]), np.int64(how), np.bool_(True))
            g.sopt_score[o] += _value(g, h, seat)
    top = g.sopt_score[0]
    for o in range(1, k):
        if g.sopt_score[o] > top:
            top = g.sopt_score[o]
    if g.sopt_score[pref] == top:
        return pref
    for o in range(k):
        if g.sopt_score[o] == top:
            return o
    return 0


@njit(cache=True, _nrt=False)
def _sub(kind, seat):
    """The rollout streams' sub of a decision: 0 for DECIDE_CARD, else one per kind and seat (a decision inside a
    card's effects can share the turn and stream state with the next, and two seats can be offered one window)."""
    return np.int64(0 if kind == DECIDE_CARD else kind * NMAX + seat)


@njit(cache=True, _nrt=False)
def _options(g, seat, m):
    """The search's options from the m legal cards in ``g.opts``: each distinct card, a Wild once per colour.

    A Wild that would be the last card names no colour (docs/rules.md §12.9), so it is one
    option. Options are in card-type order, colours red, yellow, green, blue: ties go to the first.
    """
    k = 0
    last = -1
    for i in range(m):
        t = np.int64(g.opts[i])
        if t == last:
            continue
        last = t
        if t == WILD_DRAW_FOUR or (t == WILD and g.hsize[seat] > 1):
            for c in range(N_COLOURS):
                g.sopt_card[k] = t
                g.sopt_colour[k] = c
                k += 1
        else:
            g.sopt_card[k] = t
            g.sopt_colour[k] = NO_COLOUR
            k += 1
    return k


@njit(cache=True, _nrt=False)
def search_decision(g, h, d, rs, drs, prs, seat):
    """The option ``seat`` plays from its hand now: its index in ``g.sopt_*``, or -1 without a legal card.

    Fills ``g.sopt_card`` and ``g.sopt_colour`` and, with two options or more, ``g.sopt_score``.
    """
    m = _legal_options(g, seat)
    if m == 0:
        return np.int64(-1)
    k = _options(g, seat, m)
    if k == 1:
        return np.int64(0)
    pref = _policy_option(g, rs, seat, m, k)
    return search_scores(g, h, d, rs, drs, prs, seat, k, pref, np.int64(HOW_HAND), np.int64(DECIDE_CARD))


@njit(cache=True, _nrt=False)
def _policy_option(g, rs, seat, m, k):
    """The option the seat's own knobs would play (reference search.policy_option), or 0.

    Ties between rollout totals go to it, so a small budget falls back on the rollout policy
    rather than on card-type order. A knob that would draw (``play = random``, ``colour =
    random``) is not asked: the game's stream is not drawn from; the first option stands in.
    """
    if g.ints[seat, I_RANDOM_PLAY] != 0:
        return np.int64(0)
    card = _choose_card(g, rs, seat, m)  # deterministic without random play; may narrow g.opts (options are built)
    colour = NO_COLOUR
    if card == WILD_DRAW_FOUR or (card == WILD and g.hsize[seat] > 1):
        colour = 0 if g.ints[seat, I_COLOUR] == COL_RANDOM else _choose_colour(g, rs, seat)
    for o in range(k):
        if g.sopt_card[o] == card and g.sopt_colour[o] == colour:
            return np.int64(o)
    return np.int64(0)


@njit(cache=True, _nrt=False)
def _drawn_options(g, card):
    """The options of a playable drawn card: play it (a Wild once per colour: the hand is not empty after it), keep it."""
    k = 0
    if card >= WILD:
        for c in range(N_COLOURS):
            g.sopt_card[k] = card
            g.sopt_colour[k] = c
            k += 1
    else:
        g.sopt_card[k] = card
        g.sopt_colour[k] = NO_COLOUR
        k += 1
    g.sopt_card[k] = NO_CARD
    g.sopt_colour[k] = NO_COLOUR
    return k + 1


@njit(cache=True, _nrt=False)
def drawn_decision(g, h, d, rs, drs, prs, seat, card):
    """Play the drawn playable ``card`` or keep it (reference search.drawn_choice): its option's index in ``g.sopt_*``.

    Ties go to the knobs' choice: play when ``play_drawn`` is 1 (a Wild's colour as the colour
    knob names it), keep when it is 0; otherwise (they would draw a number) the first option.
    """
    k = _drawn_options(g, card)
    p = g.probs[seat, P_PLAY_DRAWN]
    pref = np.int64(0)
    if p <= 0.0:
        pref = np.int64(k - 1)
    elif p >= 1.0 and card >= WILD and g.ints[seat, I_COLOUR] != COL_RANDOM:
        pref = np.int64(_choose_colour(g, rs, seat))  # deterministic without colour = random
    return search_scores(g, h, d, rs, drs, prs, seat, k, pref, np.int64(HOW_HAND), np.int64(DECIDE_CARD))


@njit(cache=True, _nrt=False)
def _pending_options(g, m, challenge_open):
    """The options facing a pending penalty: each distinct stackable card of the m in ``g.opts`` (a +4 once per
    colour: stacked, it names one even as the last card), challenging when open, accepting."""
    k = 0
    last = -1
    for i in range(m):
        t = np.int64(g.opts[i])
        if t == last:
            continue
        last = t
        for c in range(N_COLOURS if t == WILD_DRAW_FOUR else 1):
            g.sopt_card[k] = t
            g.sopt_colour[k] = c if t == WILD_DRAW_FOUR else NO_COLOUR
            k += 1
    if challenge_open:
        g.sopt_card[k] = RESPOND_CHALLENGE
        g.sopt_colour[k] = NO_COLOUR
        k += 1
    g.sopt_card[k] = RESPOND_ACCEPT
    g.sopt_colour[k] = NO_COLOUR
    return k + 1


@njit(cache=True, _nrt=False)
def pending_decision(g, h, d, rs, drs, prs, victim):
    """step._pending_decision for a searching victim (reference search.pending_choice): stack, challenge or accept.

    Returns the card to stack, or NO_CARD once the penalty is challenged or drawn. With one option
    (accept) the knobs decide, as they do for any seat. Ties go to the knobs' own response,
    worked out on a copy of the play stream (``prs``), so the game's stream is not moved.
    """
    challenge_open = g.top == WILD_DRAW_FOUR and g.chain == 1 and g.p4_challengeable != 0
    m = _stackable_options(g, victim)
    k = _pending_options(g, m, challenge_open)
    if k == 1:
        return _pending_decision(g, rs, victim)
    for i in range(4):
        prs[i] = rs[i]
    action = _respond(g, prs, victim, m, challenge_open)  # may narrow g.opts: the options are built
    colour = _choose_colour(g, prs, victim) if action == WILD_DRAW_FOUR else NO_COLOUR
    pref = np.int64(k - 1)
    for o in range(k):
        if g.sopt_card[o] == action and g.sopt_colour[o] == colour:
            pref = np.int64(o)
    o = search_scores(g, h, d, rs, drs, prs, victim, k, pref, np.int64(HOW_STACKED), np.int64(DECIDE_CARD))
    card = np.int64(g.sopt_card[o])
    if card >= 0:
        g.force_colour = g.sopt_colour[o]
        return card
    _respond_with(g, rs, victim, card)
    return np.int64(NO_CARD)


@njit(cache=True, _nrt=False)
def p4_decision(g, h, d, rs, drs, prs, seat):
    """A searching victim's response to ``seat``'s +4 (step's RES_ASK_P4), applied: returns what ``step._effects``
    would have (``step._plus4_answer``)."""
    return _plus4_answer(g, rs, seat, np.int64(g.sopt_card[p4_choice(g, h, d, rs, drs, prs, seat)]))


@njit(cache=True, _nrt=False)
def p4_choice(g, h, d, rs, drs, prs, seat):
    """The option a searching victim takes on ``seat``'s +4: challenging (0) or accepting (1), by rollouts.

    Ties go to the knobs' response, worked out on a copy of the play stream (``prs``), so the
    game's stream is not moved (reference search.plus4_choice).
    """
    victim = _seat_after(g, seat, 1)
    g.sopt_card[0] = RESPOND_CHALLENGE
    g.sopt_card[1] = RESPOND_ACCEPT
    g.sopt_colour[0] = NO_COLOUR
    g.sopt_colour[1] = NO_COLOUR
    for i in range(4):
        prs[i] = rs[i]
    pref = np.int64(0 if _respond(g, prs, victim, np.int64(0), np.bool_(True)) == RESPOND_CHALLENGE else 1)
    return search_scores(g, h, d, rs, drs, prs, victim, np.int64(2), pref, np.int64(HOW_P4), np.int64(DECIDE_P4))


@njit(cache=True, _nrt=False)
def jump_choice(g, h, d, rs, drs, prs, seat):
    """The option the searching ``seat`` takes in a jump-in window: jumping in with the top card's twin (0) or not (1)
    (reference search.jump_choice). Ties go to the knobs: not with ``jump_in`` 0, else jumping (strictly between 0
    and 1 they would draw: the first option)."""
    g.sopt_card[0] = g.top
    g.sopt_card[1] = NO_CARD
    g.sopt_colour[0] = NO_COLOUR
    g.sopt_colour[1] = NO_COLOUR
    pref = np.int64(1 if g.probs[seat, P_JUMP] <= 0.0 else 0)
    return search_scores(g, h, d, rs, drs, prs, seat, np.int64(2), pref, np.int64(HOW_JUMP), np.int64(DECIDE_JUMP))


@njit(cache=True, _nrt=False)
def swap_decision(g, h, d, rs, drs, prs, seat):
    """The searching ``seat``'s 7 swaps with the opponent its rollouts choose (step's RES_ASK_SWAP); returns RES_OPEN."""
    return _swap_answer(g, seat, np.int64(g.sopt_card[swap_choice(g, h, d, rs, drs, prs, seat)]))


@njit(cache=True, _nrt=False)
def swap_choice(g, h, d, rs, drs, prs, seat):
    """The option of the opponent the searching ``seat``'s 7 swaps with, by rollouts (reference search.swap_choice).

    The options are the opponents in the direction of play from the next seat on; ties go to
    the knobs' target (``swap_target = random`` would draw: the first option).
    """
    k = np.int64(g.players - 1)
    for i in range(k):
        g.sopt_card[i] = _seat_after(g, seat, i + 1)
        g.sopt_colour[i] = NO_COLOUR
    pref = np.int64(0)
    if g.ints[seat, I_SWAP] != SW_RANDOM:
        target = _swap_target(g, rs, seat)  # draws nothing but for random
        for i in range(k):
            if g.sopt_card[i] == target:
                pref = np.int64(i)
    return search_scores(g, h, d, rs, drs, prs, seat, k, pref, np.int64(HOW_SWAP), np.int64(DECIDE_SWAP))


# ---------------------------------------------------------------- from Python (tests)


@njit(cache=True)
def drawn_at(ws, hs, ds, rs, seat, card):
    """drawn_decision on one-record workspace arrays from Python (tests); returns (option, options)."""
    drs = np.zeros(4, np.uint64)
    prs = np.zeros(4, np.uint64)
    g = ws[0]
    o = drawn_decision(g, hs[0], ds[0], rs, drs, prs, seat, np.int64(card))
    return o, _drawn_options(g, card)


@njit(cache=True)
def pending_at(ws, hs, ds, rs, seat):
    """pending_decision on one-record workspace arrays from Python (tests): the card stacked, or NO_CARD."""
    drs = np.zeros(4, np.uint64)
    prs = np.zeros(4, np.uint64)
    return pending_decision(ws[0], hs[0], ds[0], rs, drs, prs, seat)


@njit(cache=True)
def search_at(ws, hs, ds, rs, seat):
    """search_decision on one-record workspace arrays from Python (tests); returns (option, options)."""
    drs = np.zeros(4, np.uint64)
    prs = np.zeros(4, np.uint64)
    g = ws[0]
    o = search_decision(g, hs[0], ds[0], rs, drs, prs, seat)
    m = _legal_options(g, seat)
    k = _options(g, seat, m) if m > 0 else 0
    return o, k


@njit(cache=True)
def effect_at(ws, hs, ds, rs, seat, kind):
    """From Python (tests), by ``kind`` (DECIDE_*): ``p4_choice`` (``seat`` played the +4), ``jump_choice`` (``seat``
    is offered the window) or ``swap_choice`` (``seat`` played the 7); returns (the option chosen, the options)."""
    drs = np.zeros(4, np.uint64)
    prs = np.zeros(4, np.uint64)
    g = ws[0]
    if kind == DECIDE_P4:
        return p4_choice(g, hs[0], ds[0], rs, drs, prs, seat), 2
    if kind == DECIDE_JUMP:
        return jump_choice(g, hs[0], ds[0], rs, drs, prs, seat), 2
    return swap_choice(g, hs[0], ds[0], rs, drs, prs, seat), g.players - 1
