"""Fold finished games into a chunk's accumulator, inside the compiled batch loop.

``fold_rows`` adds games' rows to one accumulator row (``encode.ACC_WIDTH``
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


@njit(cache=True, inline="always")
def _hash(h, row, j):
    """One link of a game's hash chain: column ``j`` of ``row`` into ``h``."""
    return _mix(h ^ (np.uint64(row[j]) + np.uint64(j) * MIX_GAMMA))


@njit(cache=True, inline="always")
def _seed_hash(index, tag):
    return _mix(np.uint64(index) * MIX_GAMMA + np.uint64(tag))


@njit(cache=True)
def fold_rows(rows, index, count, tag, players, acc):
    """Add games ``index .. index + count - 1`` (``rows[:count]``, rotation ``tag``) to the accumulator row ``acc``.

    A game's hash is a chain of ``ROW_WIDTH`` multiplications, each waiting
    for the last; four games' chains are run side by side, so the processor
    overlaps them (the hashes, and so the fingerprint, are the same).

    Parameters
    ----------
    rows : int64[>= count, ROW_WIDTH]
        The games' output rows.
    index : int64
        The first game's index (hashed into the fingerprint with ``tag``).
    count : int64
        Games to add.
    tag : int64
        The seat rotation (``Accumulator.add_rows``'s ``tag``).
    players : int64
        Players at the table (for the place after the dealer).
    acc : uint64[ACC_WIDTH]
        The chunk's accumulator, updated in place.
    """
    i = 0
    while i + 4 <= count:
        r0 = rows[i]
        r1 = rows[i + 1]
        r2 = rows[i + 2]
        r3 = rows[i + 3]
        h0 = _seed_hash(index + i, tag)
        h1 = _seed_hash(index + i + 1, tag)
        h2 = _seed_hash(index + i + 2, tag)
        h3 = _seed_hash(index + i + 3, tag)
        for j in range(ROW_WIDTH):
            h0 = _hash(h0, r0, j)
            h1 = _hash(h1, r1, j)
            h2 = _hash(h2, r2, j)
            h3 = _hash(h3, r3, j)
        acc[A_FINGERPRINT] += h0 + h1 + h2 + h3
        i += 4
    while i < count:
        h = _seed_hash(index + i, tag)
        r = rows[i]
        for j in range(ROW_WIDTH):
            h = _hash(h, r, j)
        acc[A_FINGERPRINT] += h
        i += 1
    for i in range(count):
        _fold_counts(rows[i], players, acc)


@njit(cache=True, inline="always")
def _fold_counts(row, players, acc):
    """Everything ``fold_rows`` adds for one game but its hash."""
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
