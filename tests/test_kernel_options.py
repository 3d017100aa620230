"""The counted legal options of a uniform card choice equal the listed ones, index for index.

A seat whose card choice is uniform (the ``random`` policy) does not list its
legal cards: ``_count_legal`` counts them from the colour counts and
``_nth_legal`` walks to the drawn index. Both must give exactly what
``_legal_options`` lists (from the held-types mask) (the count, and the card at every index, in type
order), or the kernel draws the same number and plays another card. The
differential test sees that only through whole games; this test checks every
index on random hands, tops and colours, the Wild Draw Four's legality
included (restricted, free, and the test-only fault that allows it always).
"""

from __future__ import annotations

import numpy as np
import pytest

from unocli.game.policies import Policy
from unocli.game.rules import Rules, WildDrawFour
from unocli.kernel import _cache  # noqa: F401  (the kernel's cache locators, as unocli.kernel installs them)
from unocli.kernel.encode import FAULT_NONE, FAULT_PLUS4_ANYTIME, N_TYPES, WILD, encode_policies, encode_rules


@pytest.fixture(scope="module")
def compare():
    # numba loads here, not at collection
    from numba import njit

    from unocli.kernel.batch import new_workspace
    from unocli.kernel.primitives import _count_legal, _held_of, _legal_options, _nth_legal

    @njit
    def run(ru, probs, ints, prio, hands, tops, colours):
        """Per case: -1 if the count and every index agree, else the first index (1000 + count) that differs; and the count."""
        ws = new_workspace(ru, probs, ints, prio)
        g = ws[0]
        out = np.zeros(hands.shape[0], np.int64)
        counts = np.zeros(hands.shape[0], np.int64)
        for i in range(hands.shape[0]):
            for t in range(N_TYPES):
                g.hands[0, t] = hands[i, t]
            for c in range(4):
                g.ccount[0, c] = 0
                for r in range(13):
                    g.ccount[0, c] += hands[i, c * 13 + r]
            g.hsize[0] = hands[i].sum()
            g.held[0] = _held_of(g, 0)  # the held-types mask _legal_options reads, kept with the counts
            g.top = tops[i]
            g.colour = colours[i]
            m = _legal_options(g, 0)
            counts[i] = m
            out[i] = -1
            if _count_legal(g, 0) != m:
                out[i] = 1000 + m
                continue
            for k in range(m):
                if _nth_legal(g, 0, k) != g.opts[k]:
                    out[i] = k
                    break
        return out, counts

    return run


def _cases(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    # sparse hands of 0-2 copies per coloured type and 0-4 of each Wild, as in play
    hands = (rng.random((n, N_TYPES)) < 0.12).astype(np.int8) * rng.integers(1, 3, (n, N_TYPES), dtype=np.int8)
    hands[:, WILD:] = rng.integers(0, 5, (n, 2)) * (rng.random((n, 2)) < 0.3)
    hands[rng.random(n) < 0.1] = 0  # some empty-handed cases: nothing is legal
    tops = rng.integers(0, N_TYPES, n)
    colours = rng.integers(0, 4, n)
    return hands, tops, colours


@pytest.mark.parametrize(
    ("wd4", "fault"),
    [(WildDrawFour.RESTRICTED, FAULT_NONE), (WildDrawFour.FREE, FAULT_NONE), (WildDrawFour.RESTRICTED, FAULT_PLUS4_ANYTIME)],
)
def test_counted_options_equal_listed_options(compare, wd4: WildDrawFour, fault: int) -> None:
    ru = np.append(encode_rules(Rules(players=2, wild_draw_four=wd4)), np.int64(fault))
    probs, ints, prio = encode_policies((Policy(), Policy()))
    hands, tops, colours = _cases(int(fault) * 10 + list(WildDrawFour).index(wd4), 20_000)
    out, counts = compare(ru, probs, ints, prio, hands, tops, colours)
    # the cases must be ones with a choice to make: most have several options, some none
    assert (counts >= 2).mean() > 0.3 and (counts == 0).any()
    bad = np.flatnonzero(out >= 0)
    if bad.size:
        i = bad[0]
        pytest.fail(f"{bad.size} cases differ; case {i}: hand {hands[i].tolist()}, top {tops[i]}, colour {colours[i]}: {out[i]}")


@pytest.fixture(scope="module")
def best():
    from numba import njit

    from unocli.kernel.batch import new_workspace
    from unocli.kernel.primitives import _best_legal, _held_of, _legal_options, _preferred

    @njit
    def run(ru, probs, ints, prio, hands, tops, colours):
        """Per case: the card _best_legal finds from the held-types mask, and _preferred's over the listed options."""
        ws = new_workspace(ru, probs, ints, prio)
        g = ws[0]
        found = np.zeros(hands.shape[0], np.int64)
        listed = np.zeros(hands.shape[0], np.int64)
        for i in range(hands.shape[0]):
            for t in range(N_TYPES):
                g.hands[0, t] = hands[i, t]
            for c in range(4):
                g.ccount[0, c] = 0
                for r in range(13):
                    g.ccount[0, c] += hands[i, c * 13 + r]
            g.hsize[0] = hands[i].sum()
            g.held[0] = _held_of(g, 0)
            g.top = tops[i]
            g.colour = colours[i]
            table = np.int64(i % 2)
            found[i] = _best_legal(g, 0, table)
            m = _legal_options(g, 0)
            listed[i] = _preferred(g, 0, m, table) if m > 0 else -1
        return found, listed

    return run


@pytest.mark.parametrize("tables", ["presets", "ties"])
def test_best_legal_is_the_preferred_listed_option(best, tables: str) -> None:
    """_best_legal (the legal types from the mask, least key) is _preferred's card among the listed options, every
    case: preset play and attack orders, and random priorities in a narrow range (many ties, negative ones too)."""
    from unocli.game.policies import preset

    ru = np.append(encode_rules(Rules(players=2)), np.int64(FAULT_NONE))
    probs, ints, prio = encode_policies((preset("strong"), Policy()))
    rng = np.random.default_rng(7)
    if tables == "ties":
        prio[0] = rng.integers(-3, 4, prio[0].shape)
    hands, tops, colours = _cases(99 if tables == "ties" else 98, 20_000)
    found, listed = best(ru, probs, ints, prio, hands, tops, colours)
    assert (listed >= 0).mean() > 0.5
    bad = np.flatnonzero(found != listed)
    if bad.size:
        i = bad[0]
        pytest.fail(f"{bad.size} cases differ; case {i}: hand {hands[i].tolist()}, top {tops[i]}, colour {colours[i]}")
