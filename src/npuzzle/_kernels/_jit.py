"""The one njit policy for every kernel.

``cache=True`` keeps compiled machine code next to the sources so a second process starts fast;
``nogil=True`` lets the web server and batch solver run kernels in threads; bounds checks stay off
(wrappers validate inputs before calling in).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba

F = TypeVar("F", bound=Callable[..., Any])

JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "boundscheck": False, "error_model": "numpy"}


def njit(func: F) -> F:
    """Compile ``func`` with the house policy (lazily, on first call)."""
    return numba.njit(**JIT_OPTIONS)(func)  # type: ignore[no-any-return]


def njit_parallel(func: F) -> F:
    """:func:`njit` plus ``parallel=True``, for kernels that split their work with ``numba.prange``.

    Used deliberately, only where threads write disjoint parts of the output (so results do not depend on
    scheduling); numba runs ``prange`` on as many threads as there are cores (``NUMBA_NUM_THREADS``).
    """
    return numba.njit(parallel=True, **JIT_OPTIONS)(func)  # type: ignore[no-any-return]


def is_compiled(*kernels: Any) -> bool:
    """Whether every kernel has machine code at hand: compiled in this process already, or in numba's cache
    on disk for its present source (a load of a second or so, where a first compile can take a minute).

    Callers use this to give a quick answer by other means, and to say so, before a long one-time compile.
    When numba's cache cannot be looked at (another numba, no cache), the answer is True: the caller then
    behaves as if compiling were cheap, as it did before it asked."""
    from numba.core.dispatcher import Dispatcher

    for kernel in kernels:
        if not isinstance(kernel, Dispatcher):
            raise TypeError(f"{kernel!r} is not a compiled kernel (a numba dispatcher)")
        if kernel.overloads:
            continue
        try:
            index = kernel._cache._cache_file._load_index()  # {} when absent, stale or of another numba
        except AttributeError:
            return True
        except Exception:  # an unreadable index: numba will compile again
            return False
        if not index:
            return False
    return True
