"""Kernel bit and block primitives: one-instruction bit counts and block copies of workspace fields.

LLVM intrinsics numba has no spelling for (``ctpop``, ``cttz``, ``memmove``, ``memcpy``), and the
helpers built on them. The block copies exist because numba cannot prove the fields of the
workspace record apart, so a loop over a field's items stays a loop of single bytes.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from unocli.kernel.encode import SWAP_BYTES


@intrinsic
def _popcount(typingctx, x):
    """Set bits of a uint64 (LLVM's ctpop: one instruction)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM's cttz: one instruction)."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


@intrinsic
def _move(typingctx, dst, at, src, start, count):
    """Move ``count`` items of the C-ordered array ``src`` from flat index ``start`` to ``dst`` at ``at``.

    LLVM's memmove (the two may overlap): a block copy, where a loop over the items of a
    workspace field stays a loop of single bytes (numba cannot prove the fields apart).
    """
    sig = types.void(dst, types.int64, src, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        to = context.make_array(signature.args[0])(context, builder, args[0])
        frm = context.make_array(signature.args[2])(context, builder, args[2])
        size = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
        cgutils.raw_memmove(builder, builder.gep(to.data, [args[1]]), builder.gep(frm.data, [args[3]]), args[4], size)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _swap_items(typingctx, arr, i, j, count):
    """Exchange ``count`` items of the C-ordered array ``arr`` at flat indices ``i`` and ``j`` (no overlap).

    Through a buffer on the stack (at most SWAP_BYTES bytes): block copies, as :func:`_move`.
    """
    sig = types.void(arr, types.int64, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        a = context.make_array(signature.args[0])(context, builder, args[0])
        size = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
        buf = cgutils.alloca_once(builder, ir.ArrayType(ir.IntType(8), SWAP_BYTES))
        p, q = builder.gep(a.data, [args[1]]), builder.gep(a.data, [args[2]])
        cgutils.raw_memcpy(builder, builder.bitcast(buf, p.type), p, args[3], size)
        cgutils.raw_memcpy(builder, p, q, args[3], size)
        cgutils.raw_memcpy(builder, q, builder.bitcast(buf, p.type), args[3], size)
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always", _nrt=False)
def _turn_rows(a, scratch, width, n, forward):
    """Rows 0 .. n - 1 of ``a`` (``width`` items each) move one row on (the last to row 0), or back.

    The row that goes round the end waits in row 0 of ``scratch``.
    """
    rest = (n - 1) * width
    if forward:
        _move(scratch, np.int64(0), a, rest, width)
        _move(a, width, a, np.int64(0), rest)
        _move(a, np.int64(0), scratch, np.int64(0), width)
    else:
        _move(scratch, np.int64(0), a, np.int64(0), width)
        _move(a, np.int64(0), a, width, rest)
        _move(a, rest, scratch, np.int64(0), width)


@njit(cache=True, inline="always", _nrt=False)
def _bit(c):
    """The bit of card type ``c`` in a mask of types (``g.held``): unsigned, as every mask operation here."""
    return np.uint64(1) << np.uint64(c)
