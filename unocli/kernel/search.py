"""Search players in the kernel: determinised rollouts, mirroring ``unocli/reference/search.py``.

A seat whose ``search`` knob is on chooses each card it plays from its hand
(and, with a Wild, the colour), whether to play a playable drawn card, and its
response to a pending penalty by rollouts: for each option it plays the
option in a copy of the round, plays the copy to its end with its own other
knobs at every seat, and counts the copies it wins (docs/search.md). The
re-deal keeps what the table has seen of the hands (colour bounds, hands shown
in a challenge), which ``play_search`` records step by step.

Three workspaces (``encode.WORKSPACE`` records) take part: ``g`` is the game;
``d`` holds one rollout's determinisation (``g``'s state with the hidden cards
re-dealt), shared by every option of that rollout (common random numbers);
``h`` is the copy an option is played out in, with every seat's policy set to
the searcher's knobs (search off). All three belong to the batch layer.

Streams: a decision's key hashes the play stream's state, the round and the
turn (``rng.search_key``); rollout ``r`` re-deals from the stream
(key, r, PURPOSE_DETERMINISE) and plays from (key, r, PURPOSE_ROLLOUT). The
game's own play stream is never drawn from by a search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.game.rng import search_key
from unocli.kernel.encode import (
    CHALLENGES,
    COL_RANDOM,
    COPIES,
    DECK_SIZE,
    HOW_DRAWN,
    HOW_HAND,
    HOW_JUMP,
    HOW_STACKED,
    I_BUDGET,
    I_COLOUR,
    I_RANDOM_PLAY,
    I_SEARCH,
    N_COLOURS,
    N_INTS,
    N_PRIO_TABLES,
    N_TYPES,
    NO_CAP,
    NO_CARD,
    NO_COLOUR,
    NO_SEAT,
    OUTCOME_BLOCKED,
    OUTCOME_CAPPED,
    OUTCOME_STUCK,
    OUTCOME_WON,
    P_BLUFF,
    P_PLAY_DRAWN,
    PASSES,
    PURPOSE_DEAL,
    PURPOSE_DETERMINISE,
    PURPOSE_PLAY,
    PURPOSE_ROLLOUT,
    R_DUP,
    R_JUMP_IN,
    R_MAX_TURNS,
    R_NAF,
    R_WD4,
    RES_OPEN,
    RES_WON,
    RESPOND_ACCEPT,
    RESPOND_CHALLENGE,
    ROTATIONS,
    ROW_WIDTH,
    SEARCH_OFF,
    SEARCH_PEEK,
    SKIPS,
    SWAPS,
    TURN_BLOCKED,
    TURN_PASSED,
    TURNS,
    WD4_RESTRICTED,
    WILD,
    WILD_DRAW_FOUR,
    WINNER,
)
from unocli.kernel.primitives import (
    _add,
    _can_bluff,
    _choose_card,
    _choose_colour,
    _colour,
    _draw,
    _is_legal,
    _legal_options,
    _respond,
    _seat_after,
    _shuffle,
    _stackable_options,
    _wants_bluff,
)
from unocli.kernel.step import (
    _challenge,
    _jumper,
    _penalty_draw,
    _pending_decision,
    _play,
    _repeats,
    _round_end,
    _turn,
    deal,
    play,
    set_stream,
)

# ---------------------------------------------------------------- copies


@njit(cache=True, _nrt=False)
def _copy_state(src, dst):
    """Copy the state of the round (not the policies, nor the stuck test's memory) from ``src`` to ``dst``."""
    dst.direction = src.direction
    dst.current = src.current
    dst.colour = src.colour
    dst.top = src.top
    dst.top_player = src.top_player
    dst.dead = src.dead
    dst.pending = src.pending
    dst.chain = src.chain
    dst.pile_pos = src.pile_pos
    dst.pile_len = src.pile_len
    dst.disc_n = src.disc_n
    dst.p4_offender = src.p4_offender
    dst.p4_bluff = src.p4_bluff
    dst.p4_hand = src.p4_hand
    dst.p4_colour = src.p4_colour
    dst.p4_shown = src.p4_shown
    dst.p4_lacked = src.p4_lacked
    dst.p4_challengeable = src.p4_challengeable
    dst.round_index = src.round_index
    dst.force_colour = NO_COLOUR
    for i in range(ROW_WIDTH):
        dst.row[i] = src.row[i]
    for s in range(src.players):
        dst.hsize[s] = src.hsize[s]
        dst.lacks[s] = src.lacks[s]
        dst.shown[s] = src.shown[s]
        for t in range(N_TYPES):
            dst.hands[s, t] = src.hands[s, t]
        for c in range(N_COLOURS):
            dst.ccount[s, c] = src.ccount[s, c]
    for t in range(N_TYPES):
        dst.disc[t] = src.disc[t]
    for i in range(DECK_SIZE):
        dst.pile[i] = src.pile[i]


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
        h.uniform[s] = 0  # the listing path: the same card and draws as counting (step._turn)
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
    m = np.int64(0)
    for t in range(N_TYPES):
        k = COPIES[t] - d.hands[seat, t] - d.disc[t] - (1 if d.top == t else 0)
        for s in range(d.players):
            if s != seat and g.known_by[s] == seat:
                k -= g.old_hands[s, t]
        for _ in range(k):
            d.opts[m] = t
            m += 1
    _shuffle(drs, d.opts, np.int64(0), m)
    for s in range(d.players):
        if s == seat:
            continue
        shown = g.known_by[s] == seat
        need = np.int64(d.hsize[s])
        for t in range(N_TYPES):
            d.hands[s, t] = 0
        for c in range(N_COLOURS):
            d.ccount[s, c] = 0
        d.hsize[s] = 0
        if shown:
            for t in range(N_TYPES):
                for _ in range(g.old_hands[s, t]):
                    _add(d, s, t)
                    need -= 1
        for bounded in range(2):
            for i in range(m):
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
    n = np.int64(0)
    for i in range(m):
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
    _seen_draws(g, seat, 0)
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
    """``seat`` plays ``card`` in ``h`` (``how``: from its hand, or stacked), then the round is played out: 1 if it wins.

    The card is played as ``step.play`` plays it, jump-ins included. A negative ``card`` is no
    card: from the hand (NO_CARD), keeping a drawn card, the pass that ends the turn (step._turn's
    after a draw); stacked, a ``RESPOND_*`` code (challenge or accept the pending penalty).
    """
    if card < 0 and how == HOW_STACKED:
        _respond_with(h, rs, seat, card)
        play(h, rs)
        return 1 if h.row[WINNER] == seat else 0
    if card == NO_CARD:
        h.row[PASSES] += 1
        h.row[TURNS] += 1
        h.dead = 0
        h.current = _seat_after(h, seat, 1)
        play(h, rs)
        return 1 if h.row[WINNER] == seat else 0
    jump_in = h.ru[R_JUMP_IN] != 0
    # int64 throughout, as step.play types them: an int8 card would compile the step's helpers twice
    s = np.int64(seat)
    c = np.int64(card)
    while c >= 0:
        res = _play(h, rs, s, c, how)
        if res == RES_WON:
            return 1 if s == seat else 0
        if res != RES_OPEN or not jump_in:
            break
        s = _jumper(h, rs, s)
        c = np.int64(h.top if s != NO_SEAT else NO_CARD)
        how = np.int64(HOW_JUMP)
    play(h, rs)
    return 1 if h.row[WINNER] == seat else 0


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
def search_scores(g, h, d, rs, drs, prs, seat, k, pref, how):
    """Play ``budget`` rollouts of each of the k options in ``g.sopt_*``; their wins go to ``g.sopt_score``.

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
        The option its knobs would play (``_policy_option``).
    how
        HOW_HAND: the options are cards from the hand (NO_CARD keeps a drawn card); HOW_STACKED:
        cards to stack on a pending penalty, or ``RESPOND_*`` codes (``_rollout``).

    Returns
    -------
    int64
        The index of the option with most wins; of those tied, ``pref`` if it is one, else the first.
    """
    key = search_key(rs[0], rs[1], rs[2], rs[3], np.int64(g.round_index), np.int64(g.row[TURNS]))
    peek = g.ints[seat, I_SEARCH] == SEARCH_PEEK
    budget = g.ints[seat, I_BUDGET]
    _load_rollout_policy(g, h, seat)
    for o in range(k):
        g.sopt_score[o] = 0
    for r in range(budget):
        _copy_state(g, d)
        if not peek:
            set_stream(drs, key, np.uint64(r), np.int64(PURPOSE_DETERMINISE), np.int64(0))
            _determinise(g, d, seat, drs)
        for o in range(k):
            _copy_state(d, h)
            set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), np.int64(0))
            h.force_colour = g.sopt_colour[o]
            g.sopt_score[o] += _rollout(h, prs, seat, np.int64(g.sopt_card[o]), np.int64(how))
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
    return search_scores(g, h, d, rs, drs, prs, seat, k, pref, np.int64(HOW_HAND))


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
    return search_scores(g, h, d, rs, drs, prs, seat, k, pref, np.int64(HOW_HAND))


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
    o = search_scores(g, h, d, rs, drs, prs, victim, k, pref, np.int64(HOW_STACKED))
    card = np.int64(g.sopt_card[o])
    if card >= 0:
        g.force_colour = g.sopt_colour[o]
        return card
    _respond_with(g, rs, victim, card)
    return np.int64(NO_CARD)


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


# ---------------------------------------------------------------- a round with search seats


@njit(cache=True, _nrt=False)
def _seen_step(g, rs, seat, card, how):
    """``_play`` with what the table sees of it recorded (Seen.played, drew, challenged, forget)."""
    challenges = g.row[CHALLENGES]
    moved = g.row[ROTATIONS] + g.row[SWAPS]
    victim = _seat_after(g, seat, 1)
    if card == WILD_DRAW_FOUR and how != HOW_STACKED:
        for t in range(N_TYPES):  # what a challenge of it shows: the cards after it
            g.p4_cards[t] = g.hands[seat, t] - (1 if t == WILD_DRAW_FOUR else 0)
    _seen_before(g)
    res = _play(g, rs, seat, card, how)
    _seen_play(g, seat, card)
    _seen_draws(g, seat, 1)
    if g.row[CHALLENGES] != challenges:
        _seen_shown(g, seat, victim)
    if g.row[ROTATIONS] + g.row[SWAPS] != moved:
        reset_seen(g)
    return res


@njit(cache=True, _nrt=False)
def _seen_shown(g, offender, victim):
    """The victim of ``offender``'s +4 challenged it and saw its cards (Seen.challenged)."""
    for t in range(N_TYPES):
        g.old_hands[offender, t] = g.p4_cards[t]
    g.known_by[offender] = victim


@njit(cache=True, _nrt=False)
def play_search(g, h, d, rs, drs, prs):
    """step.play for a table with a searching seat: the same loop, its turns by ``_search_turn``.

    Every step also records what the table sees of the hands (``g.cap``; shown hands in
    ``g.old_hands``, with ``g.known_by``: encode.WORKSPACE), which
    the searchers' re-deals keep; step.play, which rollouts and other tables use, records none.
    """
    _search_round(g, h, d, rs, drs, prs, np.int64(-1))


#: search_step's answers other than a winner's seat: the round goes on, or the step's pass blocked it.
STEP_ON = -1
STEP_BLOCKED = -2


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
        _seen_draws(g, seat, 0)
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
        res = _seen_step(g, rs, seat, card, how)
        if res == RES_WON:
            return np.int64(seat)
        if res != RES_OPEN or not jump_in:
            break
        seat = _jumper(g, rs, seat)
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


# ---------------------------------------------------------------- bench


@njit(cache=True, _nrt=False)
def bench_rollouts(g, h, d, rs, drs, prs, seat, count):
    """``count`` rollouts from ``g``'s position, as a search plays them (copy, re-deal, copy, play out); wins.

    For ``unocli bench`` (rollouts per second); every seat plays ``seat``'s knobs.
    """
    _load_rollout_policy(g, h, seat)
    reset_seen(g)
    key = search_key(rs[0], rs[1], rs[2], rs[3], np.int64(g.round_index), np.int64(g.row[TURNS]))
    wins = 0
    for r in range(count):
        _copy_state(g, d)
        set_stream(drs, key, np.uint64(r), np.int64(PURPOSE_DETERMINISE), np.int64(0))
        _determinise(g, d, seat, drs)
        _copy_state(d, h)
        set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), np.int64(0))
        play(h, prs)
        wins += 1 if h.row[WINNER] == seat else 0
    return wins


__all__ = [
    "STEP_BLOCKED",
    "STEP_ON",
    "bench_rollouts",
    "drawn_at",
    "drawn_decision",
    "pending_at",
    "pending_decision",
    "play_search",
    "reset_seen",
    "search_at",
    "search_decision",
    "search_scores",
    "search_step",
    "seen_after",
    "start_seen_round",
]


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
