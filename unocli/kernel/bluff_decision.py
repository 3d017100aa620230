"""The bluff at the decision, in the kernel: rollout values of a +4 bluff and of the best other card.

Games are played by a field (every seat one policy), each a pure function of
(seed, index) as everywhere. At every turn where the acting seat could bluff
(it holds a Wild Draw Four and a card of the colour in play, docs/rules.md
§3), the position is measured by rollouts with the search machinery
(``kernel/search.py``: the same re-deal of hidden cards, the same rollout
copies, the same stream key), then the game goes on as if nothing had been
measured: a measurement reads the game's play stream, never draws from it.

One measurement, with ``budget`` = B, plays 2B determinisations of the
position. The first B (*selection*) rate every option: each other legal card
(a Wild once per colour) and the +4 in each colour; the next B
(*evaluation*) rate again the +4 in each colour and the other card that won
most selection rollouts (ties to the first in card-type order). Choosing the
best other card on rollouts that do not measure it keeps the max of noisy
totals from biasing the value of the alternative upwards.

The +4 is played out twice per colour and rollout: once with the victim (the
next player) accepting it and once challenging it (the ``accept`` and
``challenge`` knob rows, for this one decision; every later decision of the
rollout, the victim's included, follows the field). A victim who challenges
with probability c then gives the bluff the value (1 - c) A + c C, exact per
rollout, so every challenge rate is read from the same rollouts.

Streams: the key is ``rng.search_key`` of the game's play stream, round and
turn (a function of (seed, game, decision)); rollout r re-deals from
(key, r, PURPOSE_DETERMINISE) and plays from (key, r, PURPOSE_ROLLOUT), as a
search does. ``reference/bluff_decision.py`` does the same, draw for draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.game.policies import Policy, SearchMode
from unocli.game.rng import search_key
from unocli.game.rules import Rules
from unocli.kernel._cache import in_cache
from unocli.kernel.batch import search_tables
from unocli.kernel.encode import (
    HOW_HAND,
    N_COLOURS,
    N_INTS,
    N_PRIO_TABLES,
    N_TYPES,
    NO_SEAT,
    OUTCOME_BLOCKED,
    OUTCOME_CAPPED,
    OUTCOME_STUCK,
    OUTCOME_WON,
    PURPOSE_DEAL,
    PURPOSE_DETERMINISE,
    PURPOSE_PLAY,
    PURPOSE_ROLLOUT,
    R_MAX_TURNS,
    RES_WON,
    TURNS,
    WILD_DRAW_FOUR,
    WINNER,
    encode_policies,
    encode_rules,
)
from unocli.kernel.primitives import _can_bluff, _legal_options, _seat_after
from unocli.kernel.search import _options, _rollout
from unocli.kernel.search_round import STEP_BLOCKED, search_step, start_seen_round
from unocli.kernel.seen import _copy_state, _determinise, _load_rollout_policy
from unocli.kernel.step import _play, _round_end, deal, play, set_stream
from unocli.kernel.stuck import _repeats

#: The columns of a decision row (:func:`decisions`), in order.
COLUMNS: tuple[str, ...] = (
    "game",
    "seat",
    "turn",
    "own_hand",  # the acting seat's cards, the +4 included
    "next_hand",  # the victim's cards (the next player in the direction of play)
    "options",  # other legal options (distinct cards, a Wild once per colour)
    "alt_card",  # the other card that won most selection rollouts
    "alt_colour",  # its colour (-1 unless a Wild)
    "alt_select",  # its selection wins
    *(f"accept_select_{c}" for c in range(N_COLOURS)),
    *(f"challenge_select_{c}" for c in range(N_COLOURS)),
    *(f"accept_{c}" for c in range(N_COLOURS)),
    *(f"challenge_{c}" for c in range(N_COLOURS)),
    "alt",  # the chosen other card's evaluation wins
)
COL = {name: i for i, name in enumerate(COLUMNS)}
WIDTH = len(COLUMNS)
_SELECT = COL["accept_select_0"]  # the +4's selection wins: accepting by colour, then challenging (plain ints for numba)
_EVALUATE = COL["accept_0"]
# Rows a chunk's buffer holds per game at first (bluff positions per game are a few); a full buffer is grown.
ROWS_PER_GAME = 8
# The kernel's helpers' options (no reference counting, as kernel/search.py); mypy's numba stubs lack ``_nrt``.
_kernel = njit(cache=True, _nrt=False)  # type: ignore[call-overload]


@_kernel
def _set_knobs(h, seat, probs, ints, prio, row):
    """Seat ``seat`` of ``h`` plays the knob row ``row`` of the encoded tables."""
    for k in range(N_INTS):
        h.ints[seat, k] = ints[row, k]
    for k in range(probs.shape[1]):
        h.probs[seat, k] = probs[row, k]
    for table in range(N_PRIO_TABLES):
        for t in range(N_TYPES):
            h.prio[seat, table, t] = prio[row, table, t]


@_kernel
def _plus4_rollout(g, h, prs, seat, colour, fprobs, fints, fprio, response):
    """``seat`` plays its +4 naming ``colour`` in ``h``; the victim answers by knob row ``response``; then the round
    is played out by the field. 1 if ``seat`` wins."""
    victim = _seat_after(h, seat, 1)
    h.force_colour = colour
    _set_knobs(h, victim, fprobs, fints, fprio, response)
    res = _play(h, prs, np.int64(seat), np.int64(WILD_DRAW_FOUR), np.int64(HOW_HAND))
    # back to the field's knobs (h holds the acting seat's at every seat: search._load_rollout_policy)
    _set_knobs(h, victim, g.probs, g.ints, g.prio, seat)
    if res == RES_WON:
        return 1
    play(h, prs, np.bool_(True))
    return 1 if h.row[WINNER] == seat else 0


@_kernel
def measure(g, h, d, rs, drs, prs, seat, budget, fprobs, fints, fprio, out):
    """Rollout values at ``seat``'s bluff position in ``g``, into ``out`` (a row of :data:`COLUMNS` from ``seat``).

    Parameters
    ----------
    g, h, d
        The game, the rollout copy and the determinisation (``kernel/search.py``).
    rs : uint64[4]
        The game's play stream: read for the key, never drawn from.
    drs, prs : uint64[4]
        Scratch for a rollout's determinisation and play streams.
    seat, budget
        The acting seat; rollouts per option in each half (selection, evaluation).
    fprobs, fints, fprio
        Encoded knob rows: row 0 accepts a +4, row 1 challenges it (the victim's answer to this one).
    out : int64[WIDTH]
        The row, from column ``seat`` on (the caller writes ``game``).
    """
    key = search_key(rs[0], rs[1], rs[2], rs[3], np.int64(g.round_index), np.int64(g.row[TURNS]))
    m = _legal_options(g, seat)
    k = _options(g, seat, m)  # the other legal cards: a +4 that would be a bluff is not legal (§3)
    _load_rollout_policy(g, h, seat)
    for i in range(WIDTH):
        out[i] = 0
    out[1] = seat
    out[2] = g.row[TURNS]
    out[3] = g.hsize[seat]
    out[4] = g.hsize[_seat_after(g, seat, 1)]
    out[5] = k
    for o in range(k):
        g.sopt_score[o] = 0
    for r in range(2 * budget):
        _copy_state(g, d)
        set_stream(drs, key, np.uint64(r), np.int64(PURPOSE_DETERMINISE), np.int64(0))
        _determinise(g, d, seat, drs)
        if r == budget:
            best = 0
            for o in range(1, k):
                if g.sopt_score[o] > g.sopt_score[best]:
                    best = o
            out[6] = g.sopt_card[best]
            out[7] = g.sopt_colour[best]
            out[8] = g.sopt_score[best]
        base = _SELECT if r < budget else _EVALUATE
        for c in range(N_COLOURS):
            for response in range(2):
                _copy_state(d, h)
                set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), np.int64(0))
                out[base + response * N_COLOURS + c] += _plus4_rollout(g, h, prs, seat, c, fprobs, fints, fprio, response)
        if r < budget:
            for o in range(k):
                _copy_state(d, h)
                set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), np.int64(0))
                h.force_colour = g.sopt_colour[o]
                g.sopt_score[o] += _rollout(h, prs, seat, np.int64(g.sopt_card[o]), np.int64(HOW_HAND))
        else:
            _copy_state(d, h)
            set_stream(prs, key, np.uint64(r), np.int64(PURPOSE_ROLLOUT), np.int64(0))
            h.force_colour = out[7]
            out[WIDTH - 1] += _rollout(h, prs, seat, np.int64(out[6]), np.int64(HOW_HAND))


@_kernel
def play_measured(g, h, d, rs, drs, prs, budget, fprobs, fints, fprio, out, at):
    """search.play_search's loop, measuring every bluff position on the way into ``out[at:]``; returns the rows
    written, or -1 when ``out`` is too short (the round is then incomplete).

    Each step is ``search.search_step``: it keeps the records of what the table has seen
    (colour bounds, shown hands) that the measurement's re-deals read, as a search's do.
    """
    max_turns = g.ru[R_MAX_TURNS]
    outcome = OUTCOME_WON
    winner = NO_SEAT
    written = 0
    start_seen_round(g)
    while True:
        if g.row[TURNS] >= max_turns:
            outcome = OUTCOME_CAPPED
            break
        seat = g.current
        # measured before the stuck test, as the reference engine's loop sees the position before its step
        if g.pending == 0 and _can_bluff(g, seat):
            if at + written >= out.shape[0]:
                return np.int64(-1)
            measure(g, h, d, rs, drs, prs, seat, budget, fprobs, fints, fprio, out[at + written])
            written += 1
        if _repeats(g, rs):
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
    return np.int64(written)


@njit(cache=True, nogil=True)
def decision_batch(ru, probs, ints, prio, fprobs, fints, fprio, seed, start, count, budget, out):
    """Play games ``start ..`` (one round each) and measure their bluff positions into ``out``.

    Returns (games completed, rows written): it stops at the first game whose rows would overflow ``out``.
    """
    g_owner, h_owner, d_owner, rs, deal_rs, drs, prs = search_tables(ru, probs, ints, prio)
    g = g_owner[0]
    h = h_owner[0]
    d = d_owner[0]
    rows = 0
    for i in range(count):
        index = start + i
        set_stream(rs, seed, np.uint64(index), np.int64(PURPOSE_PLAY), np.int64(0))
        set_stream(deal_rs, seed, np.uint64(index), np.int64(PURPOSE_DEAL), np.int64(0))
        deal(g, rs, deal_rs, np.int64(0))
        got = play_measured(g, h, d, rs, drs, prs, budget, fprobs, fints, fprio, out, rows)
        if got < 0:
            return i, rows
        for j in range(rows, rows + got):
            out[j, 0] = index
        rows += got
    return count, rows


@njit(cache=True)
def measure_at(ws, hs, ds, rs, seat, budget, fprobs, fints, fprio):
    """:func:`measure` on one-record workspace arrays from Python (tests); returns the row."""
    out = np.zeros(WIDTH, np.int64)
    drs = np.zeros(4, np.uint64)
    prs = np.zeros(4, np.uint64)
    measure(ws[0], hs[0], ds[0], rs, drs, prs, seat, budget, fprobs, fints, fprio, out)
    return out


def decisions(
    rules: Rules,
    field: Policy,
    accept: Policy,
    challenge: Policy,
    *,
    seed: int,
    start: int = 0,
    count: int,
    budget: int,
    threads: int | None = None,
) -> np.ndarray:
    """The bluff positions of games ``start .. start + count - 1`` played by ``field`` at every seat, measured.

    Parameters
    ----------
    rules
        The rule set (a +4 must be restricted and challengeable, without stacking: the victim answers at once).
    field
        Every seat's policy, in the games and in the rollouts.
    accept, challenge
        The victim's policy for its answer to the measured +4 only: one that accepts it, one that challenges it.
    seed, start, count
        Run seed, first game index, number of games.
    budget
        Rollouts per option in each half (selection, evaluation).
    threads
        Threads (default: all); the rows do not depend on it.

    Returns
    -------
    int64[decisions, WIDTH]
        One row per bluff position (:data:`COLUMNS`), in game order.
    """
    from unocli.kernel import _fault, _thread_pool, max_threads

    if field.search is not SearchMode.OFF:
        raise ValueError("the field of a bluff measurement must not search: its games are played by the knobs")
    ru = np.append(encode_rules(rules), np.int64(_fault()))
    probs, ints, prio = encode_policies((field,) * rules.players)
    fprobs, fints, fprio = encode_policies((accept, challenge))
    n_threads = max(1, min(threads or max_threads(), max_threads()))
    nchunks = max(1, min(count, 4 * n_threads))
    per = (count + nchunks - 1) // nchunks
    parts: list[np.ndarray] = [np.empty((0, WIDTH), np.int64)] * nchunks

    def chunk(c: int) -> None:
        lo = start + min(count, c * per)
        hi = start + min(count, (c + 1) * per)
        got: list[np.ndarray] = []
        size = max(16, ROWS_PER_GAME * (hi - lo))
        while lo < hi:
            out = np.zeros((size, WIDTH), np.int64)
            done, rows = decision_batch(
                ru, probs, ints, prio, fprobs, fints, fprio, np.uint64(seed), np.int64(lo), np.int64(hi - lo),
                np.int64(budget), out,
            )  # fmt: skip
            got.append(out[:rows])
            lo += int(done)
            size *= 2
        parts[c] = np.concatenate(got) if got else parts[c]

    if n_threads == 1 or nchunks == 1:
        for c in range(nchunks):
            chunk(c)
    else:
        list(_thread_pool().map(chunk, range(nchunks)))
    return np.concatenate(parts)


def is_compiled() -> bool:
    """Is the decision kernel in numba's on-disk cache, so its next call will not compile (kernel.KERNELS)?"""
    return in_cache(decision_batch)


__all__ = ["COL", "COLUMNS", "WIDTH", "decision_batch", "decisions", "is_compiled", "measure", "measure_at"]
