"""The :class:`Problem` protocol the generic searches of :mod:`npuzzle.search.generic` work on.

Write a class with ``initial``, ``is_goal`` and ``successors`` (and optionally ``heuristic`` and ``key``)
and every generic search can solve it: a maze, a different puzzle, anything with states and actions.

>>> class Count(BaseProblem[int, str]):
...     def initial(self): return 0
...     def is_goal(self, state): return state == 3
...     def successors(self, state): return [("+1", state + 1, 1.0)]
>>> Count().heuristic(0), Count().key(5)
(0.0, 5)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from ..solution import SearchStats

S = TypeVar("S")  # a state
A = TypeVar("A")  # an action


class Problem(Protocol[S, A]):
    """What a search needs to know about a problem."""

    def initial(self) -> S:
        """The start state."""
        ...

    def is_goal(self, state: S) -> bool:
        """True at a goal state."""
        ...

    def successors(self, state: S) -> Iterable[tuple[A, S, float]]:
        """``(action, next_state, step_cost)`` for every move from ``state``."""
        ...

    def heuristic(self, state: S) -> float:
        """A lower bound on the cost from ``state`` to a goal (0 is always safe)."""
        ...

    def key(self, state: S) -> Hashable:
        """A compact hashable stand-in for ``state``, what closed sets store (default: the state)."""
        ...


class BaseProblem(Generic[S, A]):
    """Convenience base class: no heuristic (0), the state is its own key. Override what you need."""

    def initial(self) -> S:
        raise NotImplementedError

    def is_goal(self, state: S) -> bool:
        raise NotImplementedError

    def successors(self, state: S) -> Iterable[tuple[A, S, float]]:
        raise NotImplementedError

    def heuristic(self, state: S) -> float:
        return 0.0

    def key(self, state: S) -> Hashable:
        return state  # type: ignore[return-value]


@dataclass(frozen=True)
class SearchResult(Generic[S, A]):
    """What a generic search found: ``actions`` from the start to ``final`` (a goal), their total ``cost``.

    ``found`` is False when the reachable space held no goal (``actions`` is then empty).
    """

    found: bool
    actions: list[A] = field(default_factory=list)
    final: S | None = None
    cost: float = 0.0
    stats: SearchStats = field(default_factory=SearchStats)

    @property
    def length(self) -> int:
        return len(self.actions)


__all__ = ["BaseProblem", "Problem", "SearchResult"]
