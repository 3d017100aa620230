"""The random streams: reference vectors, exact bounded integers, numba == Python, stream keys."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numba
import numpy as np
import pytest
from scipy import stats

from unocli.game import rng
from unocli.game.rng import (
    MASK64,
    PURPOSE_DEAL,
    PURPOSE_PLAY,
    SEED_MAX,
    Stream,
    bounded,
    seed_state,
    splitmix64,
    stream_key,
    stream_state,
    uniform01,
    xoshiro_next,
)

rng.register_numba()  # compiled below without the kernel, which otherwise registers them

# ---------------------------------------------------------------- reference vectors

# SplitMix64 (Vigna's splitmix64.c, https://prng.di.unimi.it/splitmix64.c), state seeded with
# 1477776061723855037. The values come from the test `reference` in rust-random/rngs,
# rand_xoshiro/src/splitmix64.rs ("produced with the reference implementation").
SPLITMIX_SEED = 1477776061723855037
SPLITMIX_EXPECTED = [
    1985237415132408290, 2979275885539914483, 13511426838097143398,
    8488337342461049707, 15141737807933549159, 17093170987380407015,
    16389528042912955399, 13177319091862933652, 10841969400225389492,
    17094824097954834098, 3336622647361835228, 9678412372263018368,
    11111587619974030187, 7882215801036322410, 5709234165213761869,
    7799681907651786826, 4616320717312661886, 4251077652075509767,
    7836757050122171900, 5054003328188417616, 12919285918354108358,
    16477564761813870717, 5124667218451240549, 18099554314556827626,
    7603784838804469118, 6358551455431362471, 3037176434532249502,
    3217550417701719149, 9958699920490216947, 5965803675992506258,
    12000828378049868312, 12720568162811471118, 245696019213873792,
    8351371993958923852, 14378754021282935786, 5655432093647472106,
    5508031680350692005, 8515198786865082103, 6287793597487164412,
    14963046237722101617, 3630795823534910476, 8422285279403485710,
    10554287778700714153, 10871906555720704584, 8659066966120258468,
    9420238805069527062, 10338115333623340156, 13514802760105037173,
    14635952304031724449, 15419692541594102413,
]  # fmt: skip

# xoshiro256** 1.0 (Blackman & Vigna, https://prng.di.unimi.it/xoshiro256starstar.c) from the
# state s = {1, 2, 3, 4}. The values come from the test `reference` in rust-random/rngs,
# rand_xoshiro/src/xoshiro256starstar.rs ("produced with the reference implementation").
XOSHIRO_STATE = (1, 2, 3, 4)
XOSHIRO_EXPECTED = [
    11520, 0, 1509978240, 1215971899390074240, 1216172134540287360,
    607988272756665600, 16172922978634559625, 8476171486693032832,
    10595114339597558777, 2904607092377533576,
]  # fmt: skip


def test_splitmix64_reference_vector():
    state, out = SPLITMIX_SEED, []
    for _ in SPLITMIX_EXPECTED:
        value, state = splitmix64(state)
        out.append(value)
    assert out == SPLITMIX_EXPECTED


def test_xoshiro256starstar_reference_vector():
    s, out = XOSHIRO_STATE, []
    for _ in XOSHIRO_EXPECTED:
        value, *s = xoshiro_next(*s)
        out.append(value)
    assert out == XOSHIRO_EXPECTED


def test_xoshiro_first_output_by_hand():
    # result = rotl(s1 * 5, 7) * 9 with s1 = 2: rotl(10, 7) = 1280, * 9 = 11520.
    assert xoshiro_next(1, 2, 3, 4)[0] == 11520
    # t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)
    s0, s1, s2, s3 = 1, 2, 3, 4
    t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = ((s3 << 45) & MASK64) | (s3 >> 19)
    assert xoshiro_next(1, 2, 3, 4)[1:] == (s0, s1, s2, s3)


def test_seed_state_is_four_splitmix_outputs():
    key = 987654321
    expected, state = [], key
    for _ in range(4):
        value, state = splitmix64(state)
        expected.append(value)
    assert seed_state(key) == tuple(expected)


def test_all_values_stay_64_bit():
    s = seed_state(MASK64)
    for _ in range(1000):
        r, *s = xoshiro_next(*s)
        assert 0 <= r <= MASK64 and all(0 <= w <= MASK64 for w in s)


# ---------------------------------------------------------------- bounded integers


class ScriptedWords:
    """Stands in for xoshiro_next: returns the given 64-bit outputs in order."""

    def __init__(self, outputs):
        self.outputs = list(outputs)
        self.calls = 0

    def __call__(self, s0, s1, s2, s3):
        self.calls += 1
        return self.outputs.pop(0), s0, s1, s2, s3


def _bounded_on(monkeypatch, outputs, n):
    words = ScriptedWords(outputs)
    monkeypatch.setattr(rng, "xoshiro_next", words)
    value = rng.bounded(0, 0, 0, 0, n)[0]
    return value, words.calls


def test_bounded_rejects_exactly_the_biased_words(monkeypatch):
    # n = 3: 2**32 mod 3 = 1, so the one word x = 0 (x * 3 mod 2**32 = 0 < 1) is rejected.
    value, calls = _bounded_on(monkeypatch, [0 << 32, 5 << 32], 3)
    assert (value, calls) == (0, 2)
    value, calls = _bounded_on(monkeypatch, [1 << 32], 3)
    assert (value, calls) == (0, 1)
    value, calls = _bounded_on(monkeypatch, [MASK64], 3)
    assert (value, calls) == (2, 1)
    # Only the top 32 bits matter.
    assert _bounded_on(monkeypatch, [(7 << 32) | 0xFFFFFFFF], 3) == _bounded_on(monkeypatch, [7 << 32], 3)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 10, 13, 54, 99, 107, 108, 1000, 4093])
def test_bounded_is_exactly_uniform_over_all_32_bit_words(monkeypatch, n):
    """Every value v in [0, n) is produced by exactly floor(2**32 / n) accepted words.

    The words x with (x * n) >> 32 == v form the interval [ceil(v 2^32 / n), ceil((v+1) 2^32 / n));
    the low part (x * n) mod 2^32 grows by n along it, so only its first word can fall below the
    rejection threshold (2^32 - n) mod n < n. We ask ``bounded`` itself about the words at both
    ends of every interval: where they map and whether the first is rejected.
    """
    two32 = 1 << 32
    per_value = two32 // n
    for v in range(n):
        first = -((-v * two32) // n)
        end = -((-(v + 1) * two32) // n)
        got, calls = _bounded_on(monkeypatch, [first << 32, 0 << 32, 1 << 32], n)
        rejected = calls > 1
        if not rejected:
            assert got == v
        if first + 1 < end:
            assert _bounded_on(monkeypatch, [(first + 1) << 32], n) == (v, 1)
        assert _bounded_on(monkeypatch, [(end - 1) << 32], n) == (v, 1)
        assert (end - first) - rejected == per_value


def test_bounded_edge_sizes():
    s = seed_state(42)
    assert bounded(*s, 1)[0] == 0
    r = xoshiro_next(*s)[0]
    assert bounded(*s, 1 << 32)[0] == r >> 32  # n = 2**32: the top word itself


def test_bounded_reaches_every_value_and_passes_chi_square():
    """70 000 draws below 7 and 108 000 below 108: chi-square p-value above 1e-6 (a fixed seed)."""
    for n, draws in ((7, 70_000), (108, 108_000)):
        stream = Stream(2024, 1, PURPOSE_PLAY)
        counts = Counter(stream.below(n) for _ in range(draws))
        assert set(counts) == set(range(n))
        observed = [counts[v] for v in range(n)]
        assert stats.chisquare(observed).pvalue > 1e-6


def test_shuffle_is_a_uniform_permutation():
    stream = Stream(5, 5, PURPOSE_DEAL)
    counts = Counter()
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        stream.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    assert stats.chisquare([counts[p] for p in itertools.permutations(range(4))]).pvalue > 1e-6


def test_uniform01_and_chance():
    stream = Stream(1, 2, PURPOSE_PLAY)
    us = [uniform01(*seed_state(k))[0] for k in range(2000)]
    assert all(0.0 <= u < 1.0 for u in us)
    assert 0.45 < sum(us) / len(us) < 0.55
    before = stream.draws
    assert stream.chance(0.0) is False and stream.chance(1.0) is True and stream.below(1) == 0
    assert stream.draws == before  # no draw for a certain outcome or a single option
    hits = sum(stream.chance(0.3) for _ in range(20_000))
    assert stream.draws == before + 20_000
    assert abs(hits / 20_000 - 0.3) < 0.015  # > 4 standard deviations (0.0032)


# ---------------------------------------------------------------- numba gives the same numbers

U = np.uint64


@pytest.fixture(scope="module")
def compiled():
    return {
        name: numba.njit(getattr(rng, name))
        for name in ("splitmix64", "xoshiro_next", "bounded", "uniform01", "stream_key", "seed_state", "stream_state")
    }


def _words(count, seed=7):
    gen = random.Random(seed)
    edges = [0, 1, 2, MASK64, MASK64 - 1, 1 << 63, (1 << 32) - 1, 1 << 32]
    return edges + [gen.getrandbits(64) for _ in range(count)]


def _ints(values):
    return tuple(int(v) for v in values)


def test_numba_splitmix_and_seeding_match_python(compiled):
    for x in _words(500):
        assert _ints(compiled["splitmix64"](U(x))) == splitmix64(x)
        assert _ints(compiled["seed_state"](U(x))) == seed_state(x)


def test_numba_xoshiro_matches_python(compiled):
    words = _words(400)
    for s in zip(words, words[1:], words[2:], words[3:], strict=False):
        if not any(s):
            continue
        assert _ints(compiled["xoshiro_next"](*map(U, s))) == xoshiro_next(*s)
    # A long run from one state: the compiled and Python streams never part.
    s_py = seed_state(3)
    s_nb = tuple(U(w) for w in s_py)
    for _ in range(2000):
        r_py, *s_py = xoshiro_next(*s_py)
        r_nb, *rest = compiled["xoshiro_next"](*s_nb)
        s_nb = tuple(U(w) for w in rest)  # numba hands back Python ints: keep feeding uint64
        assert int(r_nb) == r_py


def test_numba_bounded_and_uniform_match_python(compiled):
    gen = random.Random(11)
    sizes = [1, 2, 3, 4, 7, 54, 107, 108, 1000, (1 << 31) + 1, 1 << 32] + [gen.randint(1, 1 << 32) for _ in range(50)]
    for k in range(300):
        s = seed_state(k * 7919)
        n = sizes[k % len(sizes)]
        assert _ints(compiled["bounded"](*map(U, s), U(n))) == bounded(*s, n)
        u_nb, *rest = compiled["uniform01"](*map(U, s))
        u_py, *rest_py = uniform01(*s)
        assert float(u_nb) == u_py and _ints(rest) == tuple(rest_py)


def test_numba_stream_keys_match_python(compiled):
    gen = random.Random(13)
    for _ in range(300):
        seed, index = gen.getrandbits(64), gen.getrandbits(64)
        purpose, sub = gen.choice([PURPOSE_DEAL, PURPOSE_PLAY]), gen.randint(0, 1000)
        args = (U(seed), U(index), U(purpose), U(sub))
        assert int(compiled["stream_key"](*args)) == stream_key(seed, index, purpose, sub)
        assert _ints(compiled["stream_state"](*args)) == stream_state(seed, index, purpose, sub)


# ---------------------------------------------------------------- stream keys


def test_stream_keys_differ_by_seed_index_purpose_and_round():
    seeds = [0, 1, 2, 7, 12345, SEED_MAX]
    indices = [0, 1, 2, 3, 1000, SEED_MAX]
    purposes = [PURPOSE_DEAL, PURPOSE_PLAY]
    rounds = [0, 1, 2, 9]
    keys = {(s, i, p, r): stream_key(s, i, p, r) for s, i, p, r in itertools.product(seeds, indices, purposes, rounds)}
    assert len(set(keys.values())) == len(keys)
    # The same arguments give the same key and the same numbers.
    assert stream_key(7, 3, PURPOSE_DEAL, 1) == keys[(7, 3, PURPOSE_DEAL, 1)]
    a, b = Stream(7, 3, PURPOSE_PLAY), Stream(7, 3, PURPOSE_PLAY)
    assert [a.next() for _ in range(10)] == [b.next() for _ in range(10)]
    c = Stream(7, 3, PURPOSE_DEAL)
    assert [Stream(7, 3, PURPOSE_PLAY).next() for _ in range(1)] != [c.next()]


def test_seed_and_index_are_not_interchangeable():
    assert stream_key(1, 2, PURPOSE_DEAL, 0) != stream_key(2, 1, PURPOSE_DEAL, 0)
    assert stream_key(0, 0, PURPOSE_DEAL, 1) != stream_key(0, 0, PURPOSE_PLAY, 0)
