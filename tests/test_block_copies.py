"""The kernel's block copies and the refill's unconditional writes, against plain NumPy and Python.

``bits._move`` (LLVM's memmove), ``_turn_rows`` (a 7-0 rotation of a field's rows) and
``_swap_items`` (a 7's swap of two rows through a stack buffer) replace loops over single bytes;
``_refill`` writes every coloured type's copies without a loop per copy and moves on by its count.
The differential tests see all of them through whole games; these check each on its own, on
arrays and discard piles drawn by hypothesis, against an independent computation: ``np.roll``
and a NumPy row swap for the copies, the discard listed in type order and shuffled by the
reference engine's own Fisher-Yates (``unocli.game.rng``) for the refill.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from unocli.game.rng import bounded, stream_state
from unocli.kernel import _cache  # noqa: F401  (the kernel's cache locators, as unocli.kernel installs them)
from unocli.kernel.bits import _swap_items, _turn_rows
from unocli.kernel.encode import DECK, DECK_SIZE, N_TYPES, NMAX, RESHUFFLES
from unocli.kernel.primitives import _refill

COPIES = np.bincount(DECK, minlength=N_TYPES)  # how many of each type the deck holds


@njit(cache=False)
def _turn(a, scratch, width, n, forward):
    _turn_rows(a, scratch, width, n, forward)


@njit(cache=False)
def _swap(a, i, j, count):
    _swap_items(a, i, j, count)


@njit(cache=False)
def _refill_first(ws, rs):
    return _refill(ws[0], rs)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, NMAX), forward=st.booleans(), width=st.sampled_from([1, 4, N_TYPES]), seed=st.integers(0, 2**32))
def test_turn_rows_rolls_the_seated_rows(n: int, forward: bool, width: int, seed: int) -> None:
    a = np.random.default_rng(seed).integers(-128, 128, size=(NMAX, width), dtype=np.int8)
    expected = a.copy()
    expected[:n] = np.roll(a[:n], 1 if forward else -1, axis=0)  # forward: row s to s + 1, the last to 0
    scratch = np.zeros((NMAX, width), dtype=np.int8)
    _turn(a, scratch, np.int64(width), np.int64(n), forward)
    assert np.array_equal(a, expected)


def test_turn_rows_on_wider_items() -> None:
    """A field of 16-bit items (the hand sizes) moves whole items, not bytes."""
    a = np.arange(NMAX, dtype=np.int16) * 300
    expected = a.copy()
    expected[:5] = np.roll(a[:5], -1)
    _turn(a, np.zeros(NMAX, dtype=np.int16), np.int64(1), np.int64(5), False)
    assert np.array_equal(a, expected)


@settings(max_examples=60, deadline=None)
@given(i=st.integers(0, NMAX - 1), j=st.integers(0, NMAX - 1), width=st.sampled_from([4, N_TYPES]), seed=st.integers(0, 2**32))
def test_swap_items_exchanges_two_rows(i: int, j: int, width: int, seed: int) -> None:
    if i == j:
        return  # the kernel swaps a seat with another seat only
    a = np.random.default_rng(seed).integers(-128, 128, size=(NMAX, width), dtype=np.int8)
    expected = a.copy()
    expected[[i, j]] = a[[j, i]]
    _swap(a, np.int64(i * width), np.int64(j * width), np.int64(width))
    assert np.array_equal(a, expected)


def _shuffled(cards: list[int], state: tuple[int, int, int, int]) -> list[int]:
    """The reference engine's Fisher-Yates (rng.Stream.shuffle) on ``cards`` from the stream ``state``."""
    s0, s1, s2, s3 = state
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j, s0, s1, s2, s3 = bounded(s0, s1, s2, s3, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@st.composite
def _discards(draw: st.DrawFn) -> np.ndarray:
    """Discard counts the deck allows (at most DECK_SIZE - 2: a top card and one held card), often near full."""
    counts = np.array([draw(st.integers(0, int(c))) for c in COPIES], dtype=np.int8)
    while counts.sum() > DECK_SIZE - 2:
        counts[int(np.flatnonzero(counts)[0])] -= 1
    return counts


@settings(max_examples=100, deadline=None)
@given(disc=_discards(), seed=st.integers(0, 2**32))
def test_refill_lists_the_discard_in_type_order_and_shuffles_it(disc: np.ndarray, seed: int) -> None:
    from unocli.game.policies import preset
    from unocli.game.rules import Rules
    from unocli.kernel.batch import new_workspace
    from unocli.kernel.encode import encode_policies, encode_rules

    rules = Rules()
    probs, ints, prio = encode_policies((preset("random"),) * rules.players)
    ws = new_workspace(np.append(encode_rules(rules), np.int64(0)), probs, ints, prio)
    ws["pile"][0][:] = 99  # what the pile held before: must not show through
    ws["disc"][0][:] = disc
    m = int(disc.sum())
    ws["disc_n"][0] = m
    state = stream_state(seed, 7, 2, 0)
    rs = np.array(state, dtype=np.uint64)
    assert _refill_first(ws, rs) == (m > 0)
    if m == 0:
        return
    listed = [t for t in range(N_TYPES) for _ in range(int(disc[t]))]
    assert list(ws["pile"][0][:m]) == _shuffled(listed, state)
    assert (ws["pile_pos"][0], ws["pile_len"][0], ws["disc_n"][0]) == (0, m, 0)
    assert not ws["disc"][0].any() and ws["row"][0][RESHUFFLES] == 1
