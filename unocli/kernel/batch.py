"""The batch layer: a run of consecutive games in one workspace, compiled without the GIL.

Games are independent (each draws from its own streams), so the wrapper
(``unocli.kernel._play``) splits a batch into chunks and plays them on its
threads, each chunk in its own workspace reused from game to game. A game's
output row depends only on (seed, index), never on the chunking or the number
of threads.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from unocli.kernel.bits import _move
from unocli.kernel.encode import (
    CARDS_LEFT,
    CHOICE_UNIFORM,
    DEAL_LANES,
    DEALER,
    DECK_SIZE,
    FIRST_PLAYER,
    FIRST_TO_ONE,
    FOLD_BLOCK,
    I_BUDGET,
    I_SEARCH,
    MAX_DRAW,
    MAX_STACK,
    N_COUNTERS,
    N_INTS,
    N_PRIO_TABLES,
    N_TYPES,
    NMAX,
    NO_COLOUR,
    NO_SEAT,
    OUTCOME,
    OUTCOME_BLOCKED,
    OUTCOME_CAPPED,
    OUTCOME_STUCK,
    OUTCOME_WON,
    PURPOSE_DEAL,
    PURPOSE_PLAY,
    R_MAX_ROUNDS,
    R_PLAYERS,
    R_TARGET,
    ROUNDS,
    ROUNDS_BLOCKED,
    ROUNDS_CAPPED,
    ROUNDS_STUCK,
    ROW_WIDTH,
    SCORES,
    SEARCH_OFF,
    UNIFORM_INT_CODES,
    UNIFORM_INT_SLOTS,
    WINNER,
    WINNER_POINTS,
    WORKSPACE,
)
from unocli.kernel.fold import fold_block
from unocli.kernel.lanes import shuffle_block
from unocli.kernel.plain import in_shape, plain_deal_shuffled, plain_play, plain_shape
from unocli.kernel.primitives import _choice_code
from unocli.kernel.search_round import bench_rollouts, bench_searched_round, play_search
from unocli.kernel.step import deal, deal_shuffled, play, quiet_rules, set_stream, shuffle_deck


@njit(cache=True)
def new_workspace(ru, probs, ints, prio):
    """A game workspace (a one-record array of ``encode.WORKSPACE``) with the rules and policy tables loaded."""
    ws = np.zeros(1, WORKSPACE)
    g = ws[0]  # the record: a view of ws
    for i in range(ru.shape[0]):
        g.ru[i] = ru[i]
    n = ru[R_PLAYERS]
    g.players = n
    g.force_colour = NO_COLOUR
    for s in range(n):
        for k in range(N_INTS):
            g.ints[s, k] = ints[s, k]
        plain = in_shape(ints[s], UNIFORM_INT_SLOTS, UNIFORM_INT_CODES)  # encode.UNIFORM_KNOBS
        if ints[s, I_SEARCH] != SEARCH_OFF:
            g.searching = 1  # plain_shape then fails too: a search seat is never uniform
        # CHOICE_UNIFORM: primitives._choose_card would pick uniformly among all options
        g.uniform[s] = CHOICE_UNIFORM if plain else _choice_code(g, s)
        for k in range(probs.shape[1]):
            g.probs[s, k] = probs[s, k]
        for table in range(N_PRIO_TABLES):
            for t in range(N_TYPES):
                g.prio[s, table, t] = prio[s, table, t]
    return ws


@intrinsic
def _as_pointer(typingctx, address):
    """An integer address as a void pointer (to build an unmanaged array view)."""

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(address), codegen


@njit(cache=True, inline="always")
def _unmanaged(arr):
    """A view of ``arr`` that numba does not reference-count.

    Passing arrays to compiled helpers makes numba increment and decrement an
    atomic reference count at every call; on the hot path that cost 15-40% of
    the time. A view without a memory-info pointer skips it. The caller keeps
    ``arr`` alive for as long as the view is used.
    """
    return carray(_as_pointer(arr.ctypes.data), arr.shape, arr.dtype)


@njit(cache=True, inline="always")
def _play_round(g, h, d, rs, deal_rs, drs, prs, seed, index, r, plain, search, decks, states, k):
    """Deal and play round ``r`` of game ``index``; its row is left in ``g.row``.

    With ``k >= 0`` the round's deck is ``decks[k]`` and its deal stream after the shuffle
    ``states[k]`` (``lanes.shuffle_block``: the first round of each game of the block); otherwise
    the deck is shuffled here. A round played again (below) is dealt again from its streams.
    """
    if k >= 0:
        _move(g.pile, 0, decks, k * DECK_SIZE, DECK_SIZE)
        for w in range(4):
            deal_rs[w] = states[k, w]
    else:
        set_stream(deal_rs, seed, np.uint64(index), np.int64(PURPOSE_DEAL), r)
        shuffle_deck(g, deal_rs)
    s0, s1, s2, s3 = rs[0], rs[1], rs[2], rs[3]
    if plain:
        plain_deal_shuffled(g, rs, deal_rs, r)
        if not plain_play(g, rs):
            rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
            set_stream(deal_rs, seed, np.uint64(index), np.int64(PURPOSE_DEAL), r)
            deal(g, rs, deal_rs, r)
            play(g, rs, np.bool_(True))
    else:
        deal_shuffled(g, rs, deal_rs, r)
        if search:  # a constant of play_batch's closure: without search, numba drops the branch unread
            if g.searching != 0:
                play_search(g, h, d, rs, drs, prs)
                return
        if not play(g, rs, g.quiet == 0):
            # a reshuffle of one card in a round played without the stuck test: again, with it
            rs[0], rs[1], rs[2], rs[3] = s0, s1, s2, s3
            set_stream(deal_rs, seed, np.uint64(index), np.int64(PURPOSE_DEAL), r)
            deal(g, rs, deal_rs, r)
            play(g, rs, np.bool_(True))


@njit(cache=True, inline="always")
def play_game(g, h, d, rs, deal_rs, drs, prs, seed, index, match, plain, search, out, decks, states, k):
    """Play game ``index`` (one round, or a match when ``match``) and write its row to ``out``.

    Its first deck is ``decks[k]`` (``_play_round``).

    Inlined into ``play_batch``'s loop: a real call per game cost x1.013-1.024
    (alternated pairs both ways, four-player ``random`` rounds).

    With ``plain`` (the workspace passes ``plain.plain_shape``) a round is
    played by ``plain.plain_play``; the rare round it hands back is dealt
    again from the same streams and played by ``step.play``. ``h``, ``d``, ``drs`` and
    ``prs`` are the search players' scratch (``search.play_search``), used only when a seat searches.
    """
    set_stream(rs, seed, np.uint64(index), np.int64(PURPOSE_PLAY), np.int64(0))
    if g.searching != 0:  # the match's scores so far, for a search's match objective (search._value)
        for s in range(NMAX):
            g.mscore[s] = 0
    if not match:
        # one round: its row is the game's (both deals clear g.row, and a
        # round writes none of the columns from ROUNDS on); each column written once
        _play_round(g, h, d, rs, deal_rs, drs, prs, seed, index, np.int64(0), plain, search, decks, states, k)
        for i in range(ROUNDS):
            out[i] = g.row[i]
        outcome = g.row[OUTCOME]
        out[ROUNDS] = 1
        out[ROUNDS_BLOCKED] = 1 if outcome == OUTCOME_BLOCKED else 0
        out[ROUNDS_CAPPED] = 1 if outcome == OUTCOME_CAPPED else 0
        out[ROUNDS_STUCK] = 1 if outcome == OUTCOME_STUCK else 0
        for s in range(NMAX):
            out[SCORES + s] = 0
        w = g.row[WINNER]
        if w != NO_SEAT:
            out[SCORES + w] = g.row[WINNER_POINTS]
        return
    for i in range(ROW_WIDTH):
        out[i] = 0
    for r in range(g.ru[R_MAX_ROUNDS]):
        _play_round(g, h, d, rs, deal_rs, drs, prs, seed, index, r, plain, search, decks, states, k if r == 0 else -1)
        for i in range(N_COUNTERS):
            v = g.row[i]
            if i == MAX_STACK or i == MAX_DRAW:  # a match's largest of any round
                if v > out[i]:
                    out[i] = v
            else:
                out[i] += v
        for s in range(NMAX):
            out[CARDS_LEFT + s] = g.row[CARDS_LEFT + s]
        out[ROUNDS] += 1
        outcome = g.row[OUTCOME]
        if outcome == OUTCOME_BLOCKED:
            out[ROUNDS_BLOCKED] += 1
        elif outcome == OUTCOME_CAPPED:
            out[ROUNDS_CAPPED] += 1
        elif outcome == OUTCOME_STUCK:
            out[ROUNDS_STUCK] += 1
        if r == 0:
            out[FIRST_PLAYER] = g.row[FIRST_PLAYER]
            out[DEALER] = g.row[DEALER]
            out[FIRST_TO_ONE] = g.row[FIRST_TO_ONE]
        w = g.row[WINNER]
        if w != NO_SEAT:
            out[SCORES + w] += g.row[WINNER_POINTS]
            g.mscore[w] = out[SCORES + w]
            if out[SCORES + w] >= g.ru[R_TARGET]:
                out[OUTCOME] = OUTCOME_WON
                out[WINNER] = w
                return
    out[OUTCOME] = OUTCOME_CAPPED  # the match reached max_rounds
    out[WINNER] = NO_SEAT


def _batch_kernel(search: bool):
    """The batch kernel, compiled with the search players (``search``) or without them.

    Two closures of one source, capturing ``search`` alone: numba prunes the ``if search:`` branch
    of ``_play_round`` (inlined, ``search`` a constant there) while it builds the IR, so a run with
    no searching seat never compiles ``search_round.play_search`` and what it calls (most of the
    first compile's time). The cache keys a closure by its captured values, pickled: a captured
    function (a dispatcher pickles with a per-process id) would make a new key in every process,
    so ``play_game`` and ``_play_round`` are module functions that take ``search`` as an argument.
    """

    @njit(cache=True, nogil=True)
    def play_batch(ru, probs, ints, prio, seed, start, count, match, tag, keep, specialise, rows, acc):
        """Play games ``start .. start + count - 1`` in one workspace and fold them into ``acc``.

        Compiled with ``nogil``: the wrapper (``unocli.kernel._play``) runs one
        call per chunk of games on each of its threads, in parallel. A numba
        ``prange`` loop over the chunks would do the same, but its parallel
        lowering costs about 5 s of the first compile and saves nothing at run time.

        Parameters
        ----------
        ru, probs, ints, prio
            The encoded rules and policies (``encode.encode_rules``, ``encode.encode_policies``).
        seed, start, count, match
            Run seed, first game index, number of games, and whether a game is a match.
        tag : int64
            The seat rotation, hashed into the fingerprint (``Accumulator.add_rows``).
        keep : bool
            Copy each game's row to ``rows[i]``; otherwise ``rows`` is not touched
            (it may have no rows). Games are played into a block of
            ``FOLD_BLOCK`` columns either way (``fold.fold_block``).
        specialise : bool
            Play the rounds the plain round can play with ``plain.plain_play``
            (the same rows, faster); False always plays ``step.play``.
        rows : int64[count or 0, ROW_WIDTH], C-contiguous
            The per-game rows, when ``keep`` (written through a view that assumes C order).
        acc : uint64[ACC_WIDTH]
            A zeroed accumulator (``encode.A_*``), filled here.
        """
        players = ru[R_PLAYERS]
        g_owner = new_workspace(ru, probs, ints, prio)
        # a search's rollout copy and determinisation (kernel/search.py): small records, allocated always
        h_owner = new_workspace(ru, probs, ints, prio)
        d_owner = new_workspace(ru, probs, ints, prio)
        drs_owner = np.zeros(4, np.uint64)
        prs_owner = np.zeros(4, np.uint64)
        rs_owner = np.zeros(4, np.uint64)
        deal_owner = np.zeros(4, np.uint64)
        block_owner = np.zeros((ROW_WIDTH, FOLD_BLOCK), np.int64)
        hash_owner = np.zeros(FOLD_BLOCK, np.uint64)
        # each block's first decks (lanes.shuffle_block) and its scratch
        decks_owner = np.zeros(FOLD_BLOCK * DECK_SIZE, np.int8)
        states_owner = np.zeros((FOLD_BLOCK, 4), np.uint64)
        lane_owner = np.zeros((4, DEAL_LANES), np.uint64)
        draws_owner = np.zeros((DECK_SIZE, DEAL_LANES), np.uint8)
        near_owner = np.zeros(DEAL_LANES, np.uint64)
        one_owner = np.zeros(4, np.uint64)
        finished_owner = np.zeros(FOLD_BLOCK, np.int64)
        g = g_owner[0]  # a record: passed by pointer, never reference-counted
        h = h_owner[0]
        d = d_owner[0]
        drs = _unmanaged(drs_owner)
        prs = _unmanaged(prs_owner)
        plain = specialise and plain_shape(g)
        g.quiet = 1 if specialise and quiet_rules(g) else 0  # False: the general round as it is written, every test on
        rs = _unmanaged(rs_owner)
        deal_rs = _unmanaged(deal_owner)
        # games are played FOLD_BLOCK at a time into the columns of block, then folded together (fold.fold_block)
        block = _unmanaged(block_owner)
        hashes = _unmanaged(hash_owner)
        finished = _unmanaged(finished_owner)
        out = _unmanaged(rows)
        decks = _unmanaged(decks_owner)
        states = _unmanaged(states_owner)
        i = 0
        while i < count:
            b = min(FOLD_BLOCK, count - i)
            shuffle_block(seed, start + i, b, decks, states, lane_owner, draws_owner, near_owner, one_owner)
            for j in range(b):
                play_game(
                    g, h, d, rs, deal_rs, drs, prs, seed, start + i + j, match, plain, search, block[:, j], decks, states, j
                )
            fold_block(block, b, start + i, tag, players, acc, hashes, finished)
            if keep:
                for j in range(b):
                    for k in range(ROW_WIDTH):
                        out[i + j, k] = block[k, j]
            i += b
        # keep the owners alive past the loop
        g_owner[0].players += 0
        h_owner[0].players += 0
        d_owner[0].players += 0
        drs_owner[0] += 0
        prs_owner[0] += 0
        rs_owner[0] += 0
        deal_owner[0] += 0
        block_owner[0, 0] += 0
        hash_owner[0] += 0
        finished_owner[0] += 0
        decks_owner[0] += 0
        states_owner[0, 0] += 0

    return play_batch


play_batch = _batch_kernel(False)  # every run without a searching seat (kernel._play chooses)
play_batch_search = _batch_kernel(True)


@njit(cache=True)
def search_tables(ru, probs, ints, prio):
    """The workspaces and streams of a table with a searching seat, outside ``play_batch``'s chunks.

    The game, the rollout copy and the re-deal (``new_workspace`` each, kernel/search.py), and the
    play, deal, re-deal and rollout streams (uint64[4] each, zeroed).
    """
    streams = np.zeros((4, 4), np.uint64)
    g = new_workspace(ru, probs, ints, prio)
    h = new_workspace(ru, probs, ints, prio)
    d = new_workspace(ru, probs, ints, prio)
    return g, h, d, streams[0], streams[1], streams[2], streams[3]


@njit(cache=True, nogil=True)
def rollout_batch(ru, probs, ints, prio, seed, index, count):
    """``count`` search rollouts from the start of game ``index``'s first round, for seat 0 (``unocli bench``).

    Each is what a search pays per rollout (search.bench_rollouts): copy the state,
    re-deal the hidden cards, copy, play to the round's end with seat 0's knobs at every
    seat. Returns seat 0's wins.
    """
    g_owner, h_owner, d_owner, rs, deal_rs, drs, prs = search_tables(ru, probs, ints, prio)
    g = g_owner[0]
    set_stream(rs, seed, np.uint64(index), np.int64(PURPOSE_PLAY), np.int64(0))
    set_stream(deal_rs, seed, np.uint64(index), np.int64(PURPOSE_DEAL), np.int64(0))
    deal(g, rs, deal_rs, np.int64(0))
    return bench_rollouts(g, h_owner[0], d_owner[0], rs, drs, prs, np.int64(0), count)


@njit(cache=True, nogil=True)
def searched_rollout_batch(ru, probs, ints, prio, seed, start, count, budget):
    """The rollouts of searches at seat 0 in the first rounds of games ``start .. start + count - 1`` (``unocli bench``).

    Every seat plays its own knobs; at each of seat 0's turns with two options or more a search of
    ``budget`` rollouts per option is played (search_round.bench_searched_round). Returns the rollouts played.
    """
    g_owner, h_owner, d_owner, rs, deal_rs, drs, prs = search_tables(ru, probs, ints, prio)
    g = g_owner[0]
    g.ints[0, I_BUDGET] = budget
    g.quiet = 1 if quiet_rules(g) else 0  # as play_batch: the searches' rollouts skip the stuck test where it may
    played = np.int64(0)
    for index in range(start, start + count):
        set_stream(rs, seed, np.uint64(index), np.int64(PURPOSE_PLAY), np.int64(0))
        set_stream(deal_rs, seed, np.uint64(index), np.int64(PURPOSE_DEAL), np.int64(0))
        deal(g, rs, deal_rs, np.int64(0))
        played += bench_searched_round(g, h_owner[0], d_owner[0], rs, drs, prs, np.int64(0))
    return played
