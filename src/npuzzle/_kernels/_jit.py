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
