"""What every request passes before a route sees it: plain ASGI middleware, no FastAPI.

* :class:`BodyLimit` caps the request body (one cap for every path, larger ones for named upload paths): a ``Content-Length`` over the cap is answered 413 before one
  byte of the body is read; a body sent without one (chunked) is counted as it streams and cut off at the
  cap; a body that trickles in slower than ``read_seconds`` in all gets a 408. The body is buffered (at most
  the cap) and replayed to the application, so nothing behind it ever holds more than ``max_bytes``.
* :class:`SecurityHeaders` adds ``nosniff``, ``frame-ancestors``/``X-Frame-Options``, ``Referrer-Policy`` and a
  Content-Security-Policy to every answer: the game's own scripts only, and the API docs' inline bootstrap.
* :func:`shorten` cuts a sentence that quotes client input down to a bounded excerpt: an error answer never
  echoes a whole request.

Errors these send look like the API's own (:func:`npuzzle.web.app._error_response`): ``{"detail", "kind"}``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Longest ``detail`` sentence of an error answer, in characters; longer ones keep their start and end.
MAX_DETAIL_CHARS = 300
#: Longest excerpt of one client-supplied value (a field name, a path) quoted in a sentence.
MAX_EXCERPT_CHARS = 60

#: The game page: its own scripts, styles and images; the player's own picture arrives as a data:/blob: URL.
PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: Swagger UI and ReDoc pages start from one inline script (FastAPI's HTML) and ReDoc runs a blob: worker.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")


def excerpt(text: str, limit: int = MAX_EXCERPT_CHARS) -> str:
    """``text`` if it is short, else its start, an ellipsis and how many characters were left out."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text) - limit + 1:,} more characters)"


def shorten(sentence: str, limit: int = MAX_DETAIL_CHARS) -> str:
    """One line of at most about ``limit`` characters: whitespace runs collapsed, the middle of a long one
    replaced by a count (the start says what was wrong, the end often says what to do). Linear in ``limit``
    whatever the sentence's length."""
    head_chars, tail_chars = limit * 2 // 3, limit // 4
    if len(sentence) <= 4 * limit:
        line = " ".join(sentence.split())
        if len(line) <= limit:
            return line
        head, tail = line[:head_chars], line[-tail_chars:]
    else:  # never split the whole of a huge one
        head = " ".join(sentence[: 2 * head_chars].split())[:head_chars]
        tail = " ".join(sentence[-2 * tail_chars :].split())[-tail_chars:]
    return f"{head.rstrip()} … ({len(sentence) - len(head) - len(tail):,} characters cut) … {tail.lstrip()}"


async def send_error(
    send: Send, status: int, detail: str, kind: str, headers: dict[str, str] | None = None
) -> None:
    """A complete JSON error answer in the API's shape; the connection is closed after it."""
    body = json.dumps({"detail": detail, "kind": kind}).encode()
    raw = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class BodyLimit:
    """Read at most ``max_bytes`` of request body within ``read_seconds``, or answer 413 / 408 / 400."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        read_seconds: float,
        path_caps: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.read_seconds = read_seconds
        self.path_caps = dict(path_caps or {})  # exact path -> its own cap (a screenshot upload is bigger)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.path_caps.get(scope.get("path", ""), self.max_bytes)
        declared = _content_length(scope)
        if declared == -1:
            await send_error(send, 400, "the Content-Length header is not a number", "BadRequest")
            return
        if declared is not None and declared > cap:
            await send_error(send, 413, self._too_large(f"{declared:,} bytes", cap), "RequestTooLarge")
            return
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + self.read_seconds
        more = True
        while more:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - time.monotonic(), 0.001))
            except TimeoutError:
                await send_error(
                    send,
                    408,
                    f"the request body did not arrive within {self.read_seconds:g} s",
                    "RequestTimeout",
                )
                return
            if message["type"] == "http.disconnect":
                return  # the client went away: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                await send_error(
                    send, 413, self._too_large(f"more than {cap:,} bytes", cap), "RequestTooLarge"
                )
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: only http.disconnect is left to wait for

        await self.app(scope, replay, send)

    def _too_large(self, what: str, cap: int) -> str:
        if cap != self.max_bytes:  # a path with its own cap: an upload
            return f"the request body has {what}; this server accepts uploads of at most {cap:,} bytes here"
        return (
            f"the request body has {what}; this server accepts at most {cap:,} bytes "
            "(a 32x32 board with its goal needs about 12,000)"
        )


def _content_length(scope: Scope) -> int | None:
    """The declared body size; ``None`` when absent, -1 when it is not a number."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 20 else -1
    return None


class SecurityHeaders:
    """Add the usual security headers to every HTTP answer that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        csp = DOCS_CSP if path.startswith(DOCS_PATHS) else PAGE_CSP
        extra = [
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
            (b"content-security-policy", csp.encode()),
            (b"cross-origin-opener-policy", b"same-origin"),
        ]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [*message.get("headers", ()), *(h for h in extra if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


__all__ = [
    "DOCS_CSP",
    "MAX_DETAIL_CHARS",
    "MAX_EXCERPT_CHARS",
    "PAGE_CSP",
    "BodyLimit",
    "SecurityHeaders",
    "excerpt",
    "send_error",
    "shorten",
]
