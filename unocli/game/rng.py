"""Per-game random streams (docs/design.md §1).

Every game draws from two streams derived from ``(seed, game_index)``:

* the **deal** stream (one per round of the game) shuffles the deck and
  handles a start Wild Draw Four, so a rule or policy change never shifts the
  deal (common random numbers);
* the **play** stream serves reshuffles and every policy decision.

A stream is a xoshiro256** generator whose four state words come from
SplitMix64 seeded with a hash of (seed, index, purpose, round).

The functions here are written on plain integers with explicit 64-bit masks,
so the same source runs as Python (arbitrary-precision ints, masked) and
compiles under numba (uint64, where the masks are no-ops). The kernel compiles
these very functions; the reference engine calls them as Python. Tests check
both give the same numbers and match the published test vectors.

Bounded integers use Lemire's nearly divisionless method on the upper 32 bits
of one output (exact; a rejection loop redraws on rare values). Bernoulli
draws compare a 53-bit uniform double with ``p`` and consume nothing when
``p`` is 0 or 1, so deterministic policies leave the stream untouched.
"""

from __future__ import annotations

MASK64 = 0xFFFFFFFFFFFFFFFF
MASK32 = 0xFFFFFFFF
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
TWO32 = 0x100000000

PURPOSE_DEAL = 1
PURPOSE_PLAY = 2
PURPOSE_SEARCH = 3  # a search decision's key (search_key)
PURPOSE_DETERMINISE = 4  # a rollout's re-deal of the hidden cards, from a search key
PURPOSE_ROLLOUT = 5  # a rollout's play stream, from a search key

SEED_MAX = MASK64


def u64(value):
    """``value`` as an unsigned 64-bit integer.

    In Python this masks an int; compiled by numba it is a cast to uint64.
    Every small constant below goes through it, because numba types a bare
    literal as int64 and mixing that with uint64 would change the arithmetic.
    """
    return value & MASK64


def splitmix64(state):
    """One SplitMix64 step: returns ``(output, new_state)``."""
    state = (state + GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31), state


def stream_key(seed, index, purpose, sub):
    """Hash (seed, game index, purpose, round) into one 64-bit key."""
    h, _ = splitmix64(u64(seed))
    h, _ = splitmix64(h ^ u64(index))
    tag = (((u64(purpose) & u64(MASK32)) << 32) | (u64(sub) & u64(MASK32))) & MASK64
    h, _ = splitmix64(h ^ tag)
    return h


def search_key(s0, s1, s2, s3, round_index, turns):
    """Key of a search decision: a hash of the play stream's state, the round and the turn.

    The searcher's rollouts draw from ``stream_state(key, rollout, PURPOSE_DETERMINISE or
    PURPOSE_ROLLOUT, 0)``: streams of their own, so searching never moves the game's play
    stream, and a game stays a function of (seed, index). The play stream's state alone can
    repeat between two decisions (a deterministic table draws nothing), hence the round and turn.
    """
    h = stream_key(s0, s1, round_index, turns)
    return stream_key(h ^ s2, s3, u64(PURPOSE_SEARCH), u64(0))


def seed_state(key):
    """xoshiro256** state (four words) from SplitMix64 seeded with ``key``."""
    s0, st = splitmix64(key)
    s1, st = splitmix64(st)
    s2, st = splitmix64(st)
    s3, st = splitmix64(st)
    return s0, s1, s2, s3


def stream_state(seed, index, purpose, sub):
    """State of the stream for (seed, game index, purpose, round)."""
    return seed_state(stream_key(seed, index, purpose, sub))


def _rotl(x, k):
    return ((x << k) & MASK64) | (x >> (64 - k))


def xoshiro_next(s0, s1, s2, s3):
    """One xoshiro256** output: returns ``(output, s0, s1, s2, s3)``."""
    result = (_rotl((s1 * u64(5)) & MASK64, 7) * u64(9)) & MASK64
    t = (s1 << 17) & MASK64
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


def bounded(s0, s1, s2, s3, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n <= 2**32``: ``(value, s0..s3)``.

    Lemire's method on the top 32 bits; exact. Callers skip the call when
    ``n == 1`` (one option needs no draw); both engines do the same.
    """
    n = u64(n)
    r, s0, s1, s2, s3 = xoshiro_next(s0, s1, s2, s3)
    m = (r >> 32) * n
    low = m & u64(MASK32)
    if low < n:
        threshold = (u64(TWO32) - n) % n
        while low < threshold:
            r, s0, s1, s2, s3 = xoshiro_next(s0, s1, s2, s3)
            m = (r >> 32) * n
            low = m & u64(MASK32)
    return m >> 32, s0, s1, s2, s3


def uniform01(s0, s1, s2, s3):
    """Uniform double in ``[0, 1)`` from the top 53 bits: ``(u, s0..s3)``."""
    r, s0, s1, s2, s3 = xoshiro_next(s0, s1, s2, s3)
    return (r >> 11) * (1.0 / 9007199254740992.0), s0, s1, s2, s3


_COMPILED = (
    "splitmix64",
    "stream_key",
    "search_key",
    "seed_state",
    "stream_state",
    "_rotl",
    "xoshiro_next",
    "bounded",
    "uniform01",
)
_registered = False


def register_numba() -> None:
    """Make the functions above callable from numba-compiled code (idempotent).

    The kernel calls this before it compiles; the reference engine and the
    light CLI commands run these functions as Python and never import numba.
    """
    global _registered
    if _registered:
        return
    # numba and numpy load here, not at import: `unocli --help` must not pay for them.
    import numpy as np
    from numba.extending import overload, register_jitable

    @overload(u64)
    def _u64_numba(value):
        return lambda value: np.uint64(value)

    for name in _COMPILED:
        register_jitable(globals()[name])
    _registered = True


class Stream:
    """A mutable xoshiro256** stream for the reference engine.

    Parameters
    ----------
    seed, index, purpose, sub
        See :func:`stream_key`.
    """

    __slots__ = ("draws", "s0", "s1", "s2", "s3")

    def __init__(self, seed: int, index: int, purpose: int, sub: int = 0) -> None:
        self.s0, self.s1, self.s2, self.s3 = stream_state(seed, index, purpose, sub)
        self.draws = 0

    def next(self) -> int:
        r, self.s0, self.s1, self.s2, self.s3 = xoshiro_next(self.s0, self.s1, self.s2, self.s3)
        self.draws += 1
        return r

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``; no draw when ``n == 1``."""
        if n <= 1:
            return 0
        v, self.s0, self.s1, self.s2, self.s3 = bounded(self.s0, self.s1, self.s2, self.s3, n)
        self.draws += 1
        return v

    def chance(self, p: float) -> bool:
        """True with probability ``p``; no draw when ``p`` is 0 or 1."""
        if p <= 0.0:
            return False
        if p >= 1.0:
            return True
        u, self.s0, self.s1, self.s2, self.s3 = uniform01(self.s0, self.s1, self.s2, self.s3)
        self.draws += 1
        return u < p

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place: for i from the end down to 1, swap with below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
