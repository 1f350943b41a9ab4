"""``prefetch(array, i)``: a hint to the CPU to start loading ``array[i]`` (the row ``i``
of a 2-D array) into the cache, for numba kernels.

Searches that read big tables at random (the solver's transposition table, the endgame
tables) stall on every read; when the addresses of several reads are known ahead (all
the children of a node), issuing the prefetches first lets the memory system fetch them
at once instead of one after the other. It is LLVM's ``llvm.prefetch`` (read, keep in
all cache levels); it never faults, and it changes no result.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def prefetch(typingctx, arr, i):  # type: ignore[no-untyped-def]
    """Prefetch ``arr[i]`` (1-D) or ``arr[i, 0]`` (2-D or more); ``i`` must be in range."""
    if not isinstance(arr, types.Array) or not isinstance(i, types.Integer):
        return None
    sig = types.void(arr, i)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        idx = context.cast(builder, args[1], signature.args[1], types.intp)
        inds = [idx] + [context.get_constant(types.intp, 0)] * (aryty.ndim - 1)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, inds)
        i32 = ir.IntType(32)
        byte_ptr = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # read (0), keep in every cache level (3), data cache (1)
        address = builder.bitcast(ptr, byte_ptr)
        builder.call(fn, [address, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen
