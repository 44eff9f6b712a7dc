"""Serving the application with uvicorn, with deadlines for slow clients (``npuzzle serve`` uses this).

uvicorn closes an idle keep-alive connection after ``timeout_keep_alive`` but gives a connection that is
still sending its request line and headers all the time in the world: a thousand clients that send half a
request and wait hold a thousand sockets. :class:`HeadDeadlineH11Protocol` closes a connection whose request
head is not complete ``head_seconds`` after it opened (or after its previous answer); the body has its own
deadline in :class:`~npuzzle.web.guard.BodyLimit`. Beyond ``max_connections`` open connections (or requests
in progress) a request gets a 503 in the API's JSON shape (uvicorn's own ``limit_concurrency`` answers plain
text, so it is not used), and h11 refuses a request head over ``max_head_bytes``.
:class:`NpuzzleServer` binds its sockets before the application starts (a port taken meanwhile is a
:class:`ListenError`, not uvicorn's exit 3) and reports the addresses it really listens on once it has started
(``--port 0``).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Sized
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import WebSettings
from .guard import send_error


class HeadDeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections whose request head does not arrive in time and answering
    a JSON 503 to requests beyond ``max_connections`` open connections or requests in progress."""

    head_seconds: float = 10.0
    max_connections: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.max_connections is not None:
            self.app = _capped(self.app, self.connections, self.tasks, self.max_connections)

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


def _capped(app: Any, connections: Sized, tasks: Sized, cap: int) -> Any:
    """``app`` behind a check of the server's open connections and running requests (the sets uvicorn keeps
    for every connection of the server, this one's request already counted)."""

    async def capped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and (len(connections) > cap or len(tasks) > cap):
            detail = f"the server holds its {cap} connections already; try again shortly"
            await send_error(send, 503, detail, "ServerBusy", {"Retry-After": "2"})
            return
        await app(scope, receive, send)

    return capped


def protocol_with_deadline(
    head_seconds: float, max_connections: int | None = None
) -> type[HeadDeadlineH11Protocol]:
    """A protocol class closing slow request heads after ``head_seconds`` and answering 503 beyond
    ``max_connections`` (uvicorn takes a class)."""
    return type(
        "HeadDeadlineH11",
        (HeadDeadlineH11Protocol,),
        {"head_seconds": head_seconds, "max_connections": max_connections},
    )


class ListenError(Exception):
    """The server cannot listen on ``host``:``port``: ``cause`` is the system's refusal (an ``OSError`` with
    its errno: in use, not an address of this machine, no rights; or ``socket.gaierror``, no such host)."""

    def __init__(self, host: str, port: int, cause: OSError) -> None:
        super().__init__(f"cannot listen on {host}:{port}: {cause.strerror or cause}")
        self.host, self.port, self.cause = host, port, cause


def listen_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to ``host``:``port`` the way asyncio's ``create_server`` binds them when uvicorn gives it
    a host and a port (every address the host resolves to, ``SO_REUSEADDR``, IPv6 ones IPv6-only), not yet
    listening; :class:`ListenError` (and none left open) when one cannot be bound."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        raise ListenError(host, port, exc) from exc
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):  # each address once
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # Linux would make it dual-stack, taking the IPv4 port too
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        raise ListenError(host, port, exc) from exc
    return sockets


class NpuzzleServer(uvicorn.Server):
    """A uvicorn server that binds its sockets before anything else (the application's start-up, warm-up
    included, runs only once it has them: a port taken since ``npuzzle serve`` checked it is a
    :class:`ListenError`, where uvicorn would log the raw errno and exit 3) and calls ``on_ready(addresses)``
    once it listens: ``(host, port)`` pairs of the sockets it really bound (the system's port for port 0)."""

    def __init__(
        self, config: uvicorn.Config, on_ready: Callable[[list[tuple[str, int]]], None] | None
    ) -> None:
        super().__init__(config)
        self.on_ready = on_ready

    def addresses(self) -> list[tuple[str, int]]:
        return [
            (str(name[0]), int(name[1]))
            for server in getattr(self, "servers", [])
            for sock in server.sockets
            for name in [sock.getsockname()]
        ]

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        config = self.config
        if sockets is not None or config.fd is not None or config.uds is not None:
            await super().serve(sockets)
            return
        sockets = listen_sockets(config.host, config.port)
        try:
            await super().serve(sockets)
        finally:  # uvicorn closes them on a normal shutdown, not when its start-up fails
            for sock in sockets:
                sock.close()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and self.on_ready is not None:
            self.on_ready(self.addresses())


def make_server(
    app: Any,
    host: str,
    port: int,
    settings: WebSettings,
    on_ready: Callable[[list[tuple[str, int]]], None] | None = None,
    **config: Any,
) -> NpuzzleServer:
    """A uvicorn server for ``app`` with the deadlines and caps of ``settings``; ``config`` overrides."""
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "http": protocol_with_deadline(settings.head_seconds, settings.max_connections),
        "timeout_keep_alive": max(1, round(settings.keep_alive_seconds)),
        "h11_max_incomplete_event_size": settings.max_head_bytes,
        "timeout_graceful_shutdown": 5,
        "server_header": False,
        **config,
    }
    return NpuzzleServer(uvicorn.Config(app, **options), on_ready)


__all__ = [
    "HeadDeadlineH11Protocol",
    "ListenError",
    "NpuzzleServer",
    "listen_sockets",
    "make_server",
    "protocol_with_deadline",
]
