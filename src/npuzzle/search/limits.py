"""Limits on long work. Hitting one raises :class:`~npuzzle.errors.SearchLimitExceeded`.

Every value is checked when a :class:`Limits` is made, so a limit that is given always holds: ``nan``,
zero, negative numbers, booleans and non-numbers are refused (``ValueError`` / ``TypeError`` naming the
field). ``float("inf")`` is accepted and means *no cap* (it is stored as ``None``), as does any count of
at least :data:`NO_CAP_AT` (searches keep 64-bit counters).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

NO_CAP_AT = 1 << 62  # max_nodes / max_memory_mb at or above this are "no cap" (counters are int64)


def _quote(value: Any) -> str:
    """A short ``repr`` of ``value`` (a huge integer is not printed in full)."""
    if isinstance(value, int) and value.bit_length() > 200:
        return f"an integer of about {int(value.bit_length() * 0.30103):,} digits"
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:59] + "…"


def _check(name: str, value: Any, integer: bool) -> int | float | None:
    """``value`` as a positive int (``integer``) or float; ``None`` and infinity mean no cap."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a positive number or None, got {type(value).__name__} {_quote(value)}"
        )
    if isinstance(value, numbers.Integral):
        number: int | float = int(value)
    else:
        number = float(value)
        if math.isnan(number):
            raise ValueError(f"{name} must be a positive number, got nan")
        if math.isinf(number) and number > 0:
            return None  # documented: infinity is no cap
    if number <= 0:
        raise ValueError(f"{name} must be positive, got {_quote(value)}")
    if integer:
        if number != int(number):
            raise ValueError(f"{name} must be a whole number, got {_quote(value)}")
        number = int(number)
        return None if number >= NO_CAP_AT else number
    return float(number)


@dataclass(frozen=True)
class Limits:
    """Caps for a search; ``None`` means no cap.

    ``max_nodes`` counts expanded nodes; ``max_seconds`` is wall-clock time; ``max_memory_mb`` bounds the
    memory a search may allocate for its open/closed sets or visited arrays. Values are checked (see the
    module docstring): ``Limits(max_seconds=float("nan"))`` raises ``ValueError``.

    >>> Limits(max_seconds=2).max_seconds, Limits(max_seconds=float("inf")).max_seconds
    (2.0, None)
    """

    max_nodes: int | None = None
    max_seconds: float | None = None
    max_memory_mb: int | None = None

    def __post_init__(self) -> None:
        for name, integer in (("max_nodes", True), ("max_seconds", False), ("max_memory_mb", True)):
            object.__setattr__(self, name, _check(name, getattr(self, name), integer))

    @classmethod
    def coerce(cls, value: Any) -> Limits:
        """``value`` if it is a :class:`Limits`, :data:`NO_LIMITS` for ``None``; ``TypeError`` otherwise."""
        if value is None:
            return NO_LIMITS
        if isinstance(value, Limits):
            return value
        raise TypeError(
            f"limits must be an npuzzle Limits (e.g. Limits(max_seconds=5)) or None, got {type(value).__name__}"
        )


NO_LIMITS = Limits()

__all__ = ["NO_CAP_AT", "NO_LIMITS", "Limits"]
