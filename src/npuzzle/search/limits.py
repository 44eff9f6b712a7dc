"""Limits on long work. Hitting one raises :class:`~npuzzle.errors.SearchLimitExceeded`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Caps for a search; ``None`` means no cap.

    ``max_nodes`` counts expanded nodes; ``max_seconds`` is wall-clock time; ``max_memory_mb`` bounds the
    memory a search may allocate for its open/closed sets or visited arrays.
    """

    max_nodes: int | None = None
    max_seconds: float | None = None
    max_memory_mb: int | None = None

    def __post_init__(self) -> None:
        for name in ("max_nodes", "max_seconds", "max_memory_mb"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive, got {value!r}")


NO_LIMITS = Limits()

__all__ = ["NO_LIMITS", "Limits"]
