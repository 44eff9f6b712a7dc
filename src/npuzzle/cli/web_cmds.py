"""``npuzzle serve``: the web game and the HTTP API (FastAPI + uvicorn, imported only when serving)."""

from __future__ import annotations

import dataclasses
from typing import Annotated

import typer

from .common import fail


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command(
        "serve",
        epilog="Examples:  npuzzle serve   ·   npuzzle serve --host 0.0.0.0 --port 8080 --max-seconds 10",
    )(serve)


def check_port(host: str, port: int) -> None:
    """Raise ``ValueError`` with a plain reason if ``host``:``port`` cannot be listened on (in use, no such
    address here, needs privileges); port 0 (any free one) always can. Bound as the server binds it
    (``SO_REUSEADDR``), then released at once."""
    import socket

    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ValueError(cannot_listen(host, port, exc)) from None
    for family, kind, proto, _, address in infos[:1]:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                raise ValueError(cannot_listen(host, port, exc)) from None


def cannot_listen(host: str, port: int, exc: OSError) -> str:
    """The one line saying why ``host``:``port`` cannot be listened on, from the system's refusal ``exc``: the
    same words whether :func:`check_port` saw it or the server's own bind did (the port taken in between)."""
    import errno
    import socket

    where = f"{host}:{port}"
    if isinstance(exc, socket.gaierror):
        return f"cannot listen on --host {host!r}: no such address ({exc.strerror or exc})"
    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {port} on {host} is already in use (another npuzzle serve?); stop that server, "
            "or pick another with --port (--port 0 takes any free one)"
        )
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (
            f"not allowed to listen on {where} (ports below 1024 need administrator rights); "
            "pick a port from 1024 up with --port"
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot listen on --host {host!r}: not an address of this machine"
    return f"cannot listen on {where}: {exc.strerror or exc}"


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0: every interface).")] = (
        "127.0.0.1"
    ),
    port: Annotated[
        int, typer.Option("--port", "-p", min=0, max=65535, help="TCP port (0: any free one).")
    ] = 8000,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", help="Cap on one solve request, in seconds.")
    ] = 5.0,
    heavy_slots: Annotated[
        int | None,
        typer.Option(
            "--heavy-slots",
            help="Solves of boards larger than 3x3 that may run at once (default: cores - 1).",
        ),
    ] = None,
    bank: Annotated[
        str | None,
        typer.Option(
            "--bank",
            help="A puzzle bank (npuzzle bank fill): boards of an asked optimal length are drawn from it at "
            "once when it holds them.",
        ),
    ] = None,
) -> None:
    """Start the web game: open the printed address in a browser. API docs at /docs (they work offline).

    Slow and oversized requests are cut off (request head and body within 10 s each, body up to 64 KiB, a
    screenshot for /api/read up to 8 MiB, JSON 503 beyond 512 open connections). On a fresh machine the
    first 20 s or so build small 4x4 tables so hints are optimal early (/api/status says what is warming)."""
    try:
        check_port(host, port)  # before the app and its warm-up start: uvicorn would exit 3 with a raw errno
    except ValueError as exc:
        fail(exc)
    from ..web.app import WebSettings, create_app
    from ..web.server import ListenError, make_server

    settings = WebSettings(
        max_seconds=max_seconds,
        default_seconds=min(3.0, max_seconds),
        hint_seconds=min(3.0, max_seconds),
        warmup=True,
    )
    if heavy_slots is not None:
        settings = dataclasses.replace(settings, heavy_slots=heavy_slots)
    if bank is not None:
        settings = dataclasses.replace(settings, bank=bank)

    def ready(addresses: list[tuple[str, int]]) -> None:  # the port really bound (the system's for --port 0)
        bound = next((p for _, p in addresses), port)
        shown = f"[{host}]" if ":" in host else host
        typer.echo(
            f"npuzzle: playing at http://{shown}:{bound}/  (API docs at http://{shown}:{bound}/docs; "
            "Ctrl-C stops)"
        )
        typer.echo(
            "npuzzle: warming up (first run: compiling the solver and building the 4x4 tables; "
            f"progress at http://{shown}:{bound}/api/status)"
        )

    server = make_server(create_app(settings), host, port, settings, on_ready=ready)
    try:
        server.run()
    except ListenError as exc:  # the port was taken after check_port: the same one line, exit 2
        fail(ValueError(cannot_listen(host, port, exc.cause)))


__all__ = ["cannot_listen", "check_port", "register", "serve"]
