"""Processor instructions numba does not expose, each with a plain-Python twin.

``popcount(x)``: the number of set bits of a non-negative ``int64``, compiled to LLVM's ``ctpop`` (one
``popcnt`` instruction). Ranking a placement takes one popcount per tile, one after another; a lookup table
puts a cache access on that chain and arithmetic bit counting a dozen instructions. Called from plain Python
(``NUMBA_DISABLE_JIT=1``, the reference runs) it counts with :meth:`int.bit_count`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload


def popcount(x: int) -> int:
    """Set bits of ``x >= 0``.

    >>> popcount(0b1011)
    3
    """
    return int(x).bit_count()


@intrinsic
def _llvm_ctpop(typingctx: Any, x: Any) -> Any:
    signature = types.int64(types.int64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64]), "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return signature, codegen


@overload(popcount, jit_options={"cache": True})
def _popcount_compiled(x: Any) -> Any:
    if isinstance(x, types.Integer):

        def impl(x: Any) -> Any:  # numba requires the overload's exact parameter names and annotations
            return _llvm_ctpop(np.int64(x))

        return impl
    return None


__all__ = ["popcount"]
