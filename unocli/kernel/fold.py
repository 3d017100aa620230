"""Fold finished games into a chunk's accumulator, inside the compiled batch loop.

``fold_row`` adds one game's row to one accumulator row (``encode.ACC_WIDTH``
uint64 words, layout ``encode.A_*``) exactly as
``unocli.run.accumulate.Accumulator.add_rows`` adds a batch of rows: the same
counts, sums over finished games, histograms and fingerprint, so the merged
accumulator does not depend on how games were split into chunks. Measured
before it existed: on 2 threads about a sixth of a run was this work done
serially in NumPy after the kernel returned (issue 14).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unocli.kernel.encode import (
    A_DEALER_WINS,
    A_DRAWN_HIST,
    A_FINGERPRINT,
    A_FINISHED,
    A_FIRST_PLAYER_WINS,
    A_GAMES,
    A_ONE_LOST,
    A_ONE_REACHED,
    A_OUTCOMES,
    A_PENALTY_HIST,
    A_PLACE_WINS,
    A_POINTS,
    A_POINTS_SQ,
    A_STACK_HIST,
    A_SUMS,
    A_SUMSQ,
    A_TURNS_HIST,
    A_WINS,
    CARDS_DRAWN,
    DEALER,
    DRAWN_BINS,
    FIRST_PLAYER,
    FIRST_TO_ONE,
    MAX_DRAW,
    MAX_STACK,
    METRIC_COLS,
    MIX_1,
    MIX_2,
    MIX_GAMMA,
    N_METRICS,
    N_OUTCOMES,
    NMAX,
    OUTCOME,
    OUTCOME_BLOCKED,
    OUTCOME_WON,
    PENALTY_BINS,
    ROW_WIDTH,
    SCORES,
    STACK_BINS,
    TURNS,
    TURNS_BINS,
    WINNER,
)


@njit(cache=True, inline="always")
def _mix(z):
    """SplitMix64's finaliser on a uint64 (``accumulate._mix``)."""
    z = (z ^ (z >> np.uint64(30))) * MIX_1
    z = (z ^ (z >> np.uint64(27))) * MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _add128(acc, at, v):
    """Add the int64 ``v`` to the 128-bit two's-complement pair ``acc[at]`` (low), ``acc[at + 1]`` (high)."""
    u = np.uint64(v)
    lo = acc[at] + u
    acc[at] = lo
    carry = np.uint64(1) if lo < u else np.uint64(0)
    if v < 0:
        carry -= np.uint64(1)  # sign extension: add 2**64 - 1 to the high word
    acc[at + 1] += carry


@njit(cache=True, inline="always")
def _bin(acc, at, value, bins):
    """Count ``value`` (clipped to ``0 .. bins - 1``) in the histogram at ``acc[at:at + bins]``."""
    b = min(max(value, 0), bins - 1)
    acc[at + b] += np.uint64(1)


@njit(cache=True)
def fold_row(row, index, tag, players, acc):
    """Add game ``index``'s ``row`` (rotation ``tag``) to the accumulator row ``acc``.

    Parameters
    ----------
    row : int64[ROW_WIDTH]
        The game's output row.
    index : int64
        Its game index (hashed into the fingerprint with ``tag``).
    tag : int64
        The seat rotation (``Accumulator.add_rows``'s ``tag``).
    players : int64
        Players at the table (for the place after the dealer).
    acc : uint64[ACC_WIDTH]
        The chunk's accumulator, updated in place.
    """
    h = _mix(np.uint64(index) * MIX_GAMMA + np.uint64(tag))
    for j in range(ROW_WIDTH):
        h = _mix(h ^ (np.uint64(row[j]) + np.uint64(j) * MIX_GAMMA))
    acc[A_FINGERPRINT] += h
    acc[A_GAMES] += np.uint64(1)
    outcome = row[OUTCOME]
    if 0 <= outcome < N_OUTCOMES:
        acc[A_OUTCOMES + outcome] += np.uint64(1)
    w = row[WINNER]
    if 0 <= w < NMAX:
        acc[A_WINS + w] += np.uint64(1)
        if w == row[FIRST_PLAYER]:
            acc[A_FIRST_PLAYER_WINS] += np.uint64(1)
        if w == row[DEALER]:
            acc[A_DEALER_WINS] += np.uint64(1)
        place = (w - row[DEALER] - 1) % players
        if place < 0:
            place += players
        if place < NMAX:
            acc[A_PLACE_WINS + place] += np.uint64(1)
    if outcome != OUTCOME_WON and outcome != OUTCOME_BLOCKED:
        return  # sums and histograms are over finished games only
    acc[A_FINISHED] += np.uint64(1)
    for i in range(N_METRICS):
        v = row[METRIC_COLS[i]]
        _add128(acc, A_SUMS + 2 * i, v)
        _add128(acc, A_SUMSQ + 2 * i, v * v)
    for s in range(players):  # the seats past them score 0, which adds nothing
        v = row[SCORES + s]
        _add128(acc, A_POINTS + 2 * s, v)
        _add128(acc, A_POINTS_SQ + 2 * s, v * v)
    _bin(acc, A_TURNS_HIST, row[TURNS], TURNS_BINS)
    _bin(acc, A_DRAWN_HIST, row[CARDS_DRAWN], DRAWN_BINS)
    _bin(acc, A_STACK_HIST, row[MAX_STACK], STACK_BINS)
    _bin(acc, A_PENALTY_HIST, row[MAX_DRAW], PENALTY_BINS)
    one = row[FIRST_TO_ONE]
    if one >= 0:
        acc[A_ONE_REACHED] += np.uint64(1)
        if w != one:
            acc[A_ONE_LOST] += np.uint64(1)
