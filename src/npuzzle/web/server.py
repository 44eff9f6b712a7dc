"""Serving the application with uvicorn, with deadlines for slow clients (``npuzzle serve`` uses this).

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive`` but gives a connection that is
still sending its request line and headers all the time in the world: a thousand clients that send half a
request and wait hold a thousand sockets. :class:`HeadDeadlineH11Protocol` closes a connection whose request
head is not complete ``head_seconds`` after it opened (or after its previous answer); the body has its own
deadline in :class:`~npuzzle.web.guard.BodyLimit`. ``limit_concurrency`` answers 503 beyond
``max_connections`` open connections, and h11 refuses a request head over ``max_head_bytes``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import WebSettings


class HeadDeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections whose request head does not arrive in time."""

    head_seconds: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._arm_head_deadline()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # a whole request head has arrived
            self._cancel_head_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_head_deadline()  # the next request on this connection gets the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_deadline()
        super().connection_lost(exc)

    def _arm_head_deadline(self) -> None:
        self._cancel_head_deadline()
        self._head_deadline = self.loop.call_later(self.head_seconds, self._head_too_slow)

    def _cancel_head_deadline(self) -> None:
        deadline = getattr(self, "_head_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._head_deadline = None

    def _head_too_slow(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def protocol_with_deadline(head_seconds: float) -> type[HeadDeadlineH11Protocol]:
    """A protocol class closing slow request heads after ``head_seconds`` (uvicorn takes a class)."""
    return type("HeadDeadlineH11", (HeadDeadlineH11Protocol,), {"head_seconds": head_seconds})


def make_server(app: Any, host: str, port: int, settings: WebSettings, **config: Any) -> uvicorn.Server:
    """A uvicorn server for ``app`` with the deadlines and caps of ``settings``; ``config`` overrides."""
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "http": protocol_with_deadline(settings.head_seconds),
        "timeout_keep_alive": max(1, round(settings.keep_alive_seconds)),
        "limit_concurrency": settings.max_connections,
        "h11_max_incomplete_event_size": settings.max_head_bytes,
        "timeout_graceful_shutdown": 5,
        "server_header": False,
        **config,
    }
    return uvicorn.Server(uvicorn.Config(app, **options))


__all__ = ["HeadDeadlineH11Protocol", "make_server", "protocol_with_deadline"]
