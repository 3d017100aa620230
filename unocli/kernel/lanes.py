"""The first deck of a block of games, shuffled ``DEAL_LANES`` deal streams at a time.

A round's shuffle (``primitives._shuffle``: Fisher-Yates over the 108 cards, one bounded draw of
the round's deal stream per card) is the one part of a round that does not depend on the round's
play, and its 107 draws are a fifth of an official round with scripted players. Each game's deal
stream is its own, so the streams of consecutive games step side by side: :func:`_lane_draws`
runs xoshiro256** and Lemire's bound on ``DEAL_LANES`` streams in the lanes of one vector (what
``rng.bounded`` does on one), and :func:`shuffle_block` applies each lane's draws to its deck.
The decks and the streams' states after them are the ones ``step.deal`` would make, bit for bit
(tests/test_lanes.py holds them against ``rng.bounded`` and the reference engine's ``Stream.shuffle``).

Lemire's method redraws when the low half of a product falls under a threshold below the bound; a
lane that comes near one (a low half under the bound: chance n / 2^32 for a draw below n, a deck about
once in 730,000) is shuffled again one draw at a time by ``primitives._shuffle``, so a redraw is taken
exactly as there.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from unocli.game.rng import stream_state
from unocli.kernel.encode import DEAL_LANES, DECK, DECK_SIZE, PURPOSE_DEAL
from unocli.kernel.primitives import _shuffle

_WORD = ir.IntType(64)
_WORDS = ir.VectorType(_WORD, DEAL_LANES)
_BYTES = ir.VectorType(ir.IntType(8), DEAL_LANES)


def _splat(x: int) -> ir.Constant:
    return ir.Constant(_WORDS, [x] * DEAL_LANES)


def _as_vector(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """A 64-bit value in every lane (LLVM's insertelement and shufflevector: one broadcast)."""
    one = builder.insert_element(ir.Constant(_WORDS, ir.Undefined), x, ir.Constant(ir.IntType(32), 0))
    zeros = ir.Constant(ir.VectorType(ir.IntType(32), DEAL_LANES), [0] * DEAL_LANES)
    return builder.shuffle_vector(one, ir.Constant(_WORDS, ir.Undefined), zeros)


@intrinsic
def _lane_draws(typingctx, state, draws, near):
    """A whole shuffle's draws of ``DEAL_LANES`` streams, lane by lane as ``rng.bounded`` makes them.

    Parameters
    ----------
    state : uint64[4, DEAL_LANES], C order
        Row k holds word k of each lane's xoshiro256** state; left as the state after the draws.
    draws : uint8[DECK_SIZE, DEAL_LANES], C order
        Row i receives each lane's draw below ``i + 1``, for i from ``DECK_SIZE - 1`` down to 1
        (``primitives._shuffle``'s order; row 0 is not written).
    near : uint64[DEAL_LANES]
        1 where some draw's low half fell under its bound (Lemire's redraw test may apply: the
        lane's draws are not to be used), else 0.
    """
    sig = types.void(state, draws, near)

    def codegen(context, builder, signature, args):
        st, dr, ne = (context.make_array(signature.args[k])(context, builder, args[k]) for k in range(3))
        words = builder.bitcast(st.data, _WORDS.as_pointer())
        # the four state words and the flag in stack slots LLVM keeps in registers (mem2reg); a loop,
        # not 107 unrolled steps: a smaller function compiles faster and runs as fast
        slots = [cgutils.alloca_once(builder, _WORDS) for _ in range(5)]
        for k in range(4):
            builder.store(builder.load(builder.gep(words, [ir.Constant(_WORD, k)]), align=8), slots[k])
        builder.store(_splat(0), slots[4])

        def rotl(x, k):
            return builder.or_(builder.shl(x, _splat(k)), builder.lshr(x, _splat(64 - k)))

        with cgutils.for_range(builder, ir.Constant(_WORD, DECK_SIZE - 1)) as loop:
            i = builder.sub(ir.Constant(_WORD, DECK_SIZE - 1), loop.index)  # DECK_SIZE - 1 down to 1
            s0, s1, s2, s3 = (builder.load(slots[k]) for k in range(4))
            # rng.xoshiro_next: the output from s1, then the state's step
            out = builder.mul(rotl(builder.mul(s1, _splat(5)), 7), _splat(9))
            t = builder.shl(s1, _splat(17))
            s2 = builder.xor(s2, s0)
            s3 = builder.xor(s3, s1)
            s1 = builder.xor(s1, s2)
            s0 = builder.xor(s0, s3)
            for k, w in enumerate((s0, s1, builder.xor(s2, t), rotl(s3, 45))):
                builder.store(w, slots[k])
            # rng.bounded: the top 32 bits times the bound; the draw is the product's high half
            bound = _as_vector(builder, builder.add(i, ir.Constant(_WORD, 1)))
            m = builder.mul(builder.lshr(out, _splat(32)), bound)
            low = builder.and_(m, _splat(0xFFFFFFFF))
            near_now = builder.zext(builder.icmp_unsigned("<", low, bound), _WORDS)
            builder.store(builder.or_(builder.load(slots[4]), near_now), slots[4])
            row = builder.gep(dr.data, [builder.mul(i, ir.Constant(_WORD, DEAL_LANES))])
            builder.store(builder.trunc(builder.lshr(m, _splat(32)), _BYTES), builder.bitcast(row, _BYTES.as_pointer()), align=1)
        for k in range(4):
            builder.store(builder.load(slots[k]), builder.gep(words, [ir.Constant(_WORD, k)]), align=8)
        builder.store(builder.load(slots[4]), builder.bitcast(ne.data, _WORDS.as_pointer()), align=8)
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, _nrt=False)
def shuffle_block(seed, start, count, decks, states, lane_state, draws, near, one):
    """Shuffle the first deck (round 0) of games ``start .. start + count - 1`` as ``step.deal`` would.

    Parameters
    ----------
    seed, start, count
        The run's seed, the first game's index and the number of games (at most ``decks``' rows).
    decks : int8[FOLD_BLOCK * DECK_SIZE]
        Items ``k * DECK_SIZE ..`` receive game ``start + k``'s shuffled deck (and past ``count`` up to the
        next multiple of ``DEAL_LANES``, decks nobody reads).
    states : uint64[>= count, 4]
        Row k receives that game's deal stream after the shuffle (``step.deal`` goes on from it).
    lane_state, draws, near
        Scratch of :func:`_lane_draws` (uint64[4, DEAL_LANES], uint8[DECK_SIZE, DEAL_LANES],
        uint64[DEAL_LANES]).
    one : uint64[4]
        Scratch: a lane's stream, shuffled again one draw at a time when ``near`` says so.
    """
    for b in range(0, count, DEAL_LANES):
        lanes = min(DEAL_LANES, count - b)
        for lane in range(DEAL_LANES):  # a lane past count draws from a stream nobody reads
            s0, s1, s2, s3 = stream_state(seed, np.uint64(start + b + lane), np.uint64(PURPOSE_DEAL), np.uint64(0))
            lane_state[0, lane] = s0
            lane_state[1, lane] = s1
            lane_state[2, lane] = s2
            lane_state[3, lane] = s3
        _lane_draws(lane_state, draws, near)
        # every lane of the group, a lane past count too (its rows exist: FOLD_BLOCK is a multiple of
        # DEAL_LANES), so the loops have constant bounds and the rows constant offsets
        base = b * DECK_SIZE
        for lane in range(DEAL_LANES):
            for i in range(DECK_SIZE):
                decks[np.uint64(base + lane * DECK_SIZE + i)] = DECK[i]
        # the lanes' swaps interleaved: each deck's swaps depend on each other, the decks' do not
        for i in range(DECK_SIZE - 1, 0, -1):
            for lane in range(DEAL_LANES):
                at = base + lane * DECK_SIZE
                here = np.uint64(at + i)
                there = np.uint64(at + np.int64(draws[i, lane]))
                t = decks[here]
                decks[here] = decks[there]
                decks[there] = t
        for lane in range(lanes):
            k = b + lane
            if near[lane] == 0:
                for w in range(4):
                    states[k, w] = lane_state[w, lane]
                continue
            s0, s1, s2, s3 = stream_state(seed, np.uint64(start + k), np.uint64(PURPOSE_DEAL), np.uint64(0))
            one[0] = s0
            one[1] = s1
            one[2] = s2
            one[3] = s3
            for i in range(DECK_SIZE):
                decks[k * DECK_SIZE + i] = DECK[i]
            _shuffle(one, decks, k * DECK_SIZE, np.int64(DECK_SIZE))
            for w in range(4):
                states[k, w] = one[w]
