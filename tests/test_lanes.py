"""The first decks of a block shuffled eight deal streams at a time (kernel/lanes.py) are the ones a round shuffles alone.

Each lane of ``_lane_draws`` is held against ``rng.bounded`` run in Python on the same state, and
``shuffle_block``'s decks and after-states against the reference engine's ``Stream.shuffle`` of the
same (seed, game, round 0) deal stream; three games whose shuffle comes near Lemire's redraw test
(found by a search over seed 0) take the one-draw-at-a-time path and must agree too.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from unocli.game.cards import CANONICAL_DECK
from unocli.game.rng import MASK32, PURPOSE_DEAL, Stream, bounded, xoshiro_next
from unocli.kernel.encode import DEAL_LANES, DECK_SIZE, FOLD_BLOCK
from unocli.kernel.lanes import _lane_draws, shuffle_block

WORDS = st.integers(min_value=1, max_value=2**64 - 1)
# games of seed 0 whose shuffle has a draw whose low half falls under its bound (a search over the first 4 million)
NEAR = (1343547, 2207007, 3931046)


@njit
def _draw_lanes(state, draws, near):
    _lane_draws(state, draws, near)


def _scratch() -> tuple[np.ndarray, ...]:
    return (
        np.zeros((4, DEAL_LANES), np.uint64),
        np.zeros((DECK_SIZE, DEAL_LANES), np.uint8),
        np.zeros(DEAL_LANES, np.uint64),
        np.zeros(4, np.uint64),
    )


def _lane(s0: int, s1: int, s2: int, s3: int) -> tuple[list[int], bool, tuple[int, int, int, int]]:
    """One stream's shuffle draws by ``rng.bounded``, whether one came near the redraw test, and the state after."""
    draws, near = [], False
    for i in range(DECK_SIZE - 1, 0, -1):
        out = xoshiro_next(s0, s1, s2, s3)[0]
        near = near or ((out >> 32) * (i + 1)) & MASK32 < i + 1  # Lemire's low half under the bound
        v, s0, s1, s2, s3 = bounded(s0, s1, s2, s3, i + 1)
        draws.append(v)
    return draws, near, (s0, s1, s2, s3)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS, WORDS, WORDS), min_size=DEAL_LANES, max_size=DEAL_LANES))
def test_each_lane_draws_what_rng_bounded_draws(states):
    state, draws, near, _ = _scratch()
    state[:] = np.array(states, dtype=np.uint64).T
    _draw_lanes(state, draws, near)
    for lane, words in enumerate(states):
        expected, close, after = _lane(*words)
        assert bool(near[lane]) == close
        if not close:  # a lane near the test is shuffled again by shuffle_block: its draws are not used
            assert list(draws[DECK_SIZE - 1 : 0 : -1, lane]) == expected
            assert tuple(int(w) for w in state[:, lane]) == after


def _reference(seed: int, game: int) -> tuple[list[int], tuple[int, int, int, int]]:
    """The reference engine's first deck of ``game`` and its deal stream's state after the shuffle."""
    stream = Stream(seed, game, PURPOSE_DEAL, 0)
    deck = [int(c) for c in CANONICAL_DECK]
    stream.shuffle(deck)
    return deck, (stream.s0, stream.s1, stream.s2, stream.s3)


def _block(seed: int, start: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    decks = np.zeros(FOLD_BLOCK * DECK_SIZE, np.int8)
    states = np.zeros((FOLD_BLOCK, 4), np.uint64)
    shuffle_block(np.uint64(seed), start, count, decks, states, *_scratch())
    return decks.reshape(FOLD_BLOCK, DECK_SIZE), states


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**40), st.integers(1, FOLD_BLOCK))
def test_a_block_s_first_decks_are_the_reference_engine_s(seed, start, count):
    decks, states = _block(seed, start, count)
    for k in range(count):
        deck, after = _reference(seed, start + k)
        assert list(decks[k]) == deck, k
        assert tuple(int(w) for w in states[k]) == after, k
    # a lane group is shuffled whole: the rows past it are not written (FOLD_BLOCK holds whole groups)
    assert FOLD_BLOCK % DEAL_LANES == 0 and not decks[-(-count // DEAL_LANES) * DEAL_LANES :].any()


def test_a_lane_near_the_redraw_test_is_shuffled_one_draw_at_a_time():
    for game in NEAR:
        stream = Stream(0, game, PURPOSE_DEAL, 0)
        assert _lane(stream.s0, stream.s1, stream.s2, stream.s3)[1]  # the lane is flagged: the other path runs
        decks, states = _block(0, game - 3, 7)  # the game in lane 3 of its block
        deck, after = _reference(0, game)
        assert list(decks[3]) == deck and tuple(int(w) for w in states[3]) == after
