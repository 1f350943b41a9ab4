"""``top_bit(x)``: the index of the highest set bit of a nonzero uint64, for numba kernels;
``popcount(x)``: its set bits.

It is LLVM's count-leading-zeros (one ``lzcnt`` or ``bsr`` instruction on x86), which
numba has no function for; ``63 - ctlz``. Branch-free searches use it to jump from a
finished level straight back to the deepest level that still has work (one bit per
level in a mask). The result for 0 is undefined: test for 0 first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def _top_bit(typingctx, x):  # type: ignore[no-untyped-def]
    """Index (0..63) of the highest set bit of ``x`` as a uint64; ``x`` must not be 0."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.uint64(x)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        v = context.cast(builder, args[0], signature.args[0], types.uint64)
        lz = builder.ctlz(v, ir.Constant(ir.IntType(1), 1))  # 1: undefined for 0
        return builder.xor(ir.Constant(ir.IntType(64), 63), lz)

    return sig, codegen


top_bit: Callable[[Any], Any] = _top_bit  # type: ignore[assignment]
"""Index (0..63) of the highest set bit of ``x`` as a uint64, in a numba kernel; ``x``
must not be 0."""


@intrinsic
def _popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """The set bits of a uint64 (one ``popcnt``)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


popcount: Callable[[Any], Any] = _popcount  # type: ignore[assignment]
"""The number of set bits of ``x`` as a uint64, in a numba kernel (LLVM's ``ctpop``)."""
