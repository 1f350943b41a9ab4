"""The web server's guard: every request passes it before any page or API sees it.

* **Token.** The URL printed at start carries a random token (``/?token=...``); the first
  visit trades it for an HttpOnly, SameSite=Strict cookie and is sent on to ``/``
  without it. Every request must then carry the cookie (or the ``X-Token`` header).
* **Host.** Only ``localhost``, ``127.0.0.1`` and ``[::1]`` with the server's port (and
  the host the server was told to bind with ``--allow-remote``; any name when that is a
  wildcard address such as 0.0.0.0): a web page of another
  site whose name was made to point at 127.0.0.1 (DNS rebinding) is refused.
* **Origin.** A request that changes anything (every method but GET, HEAD, OPTIONS)
  must come with an ``Origin`` header naming this server.
* **Size.** A request body is at most :data:`MAX_BODY` bytes, or what a game's extras
  ask for (:attr:`~boardgames.web.extras.WebExtras.max_body`).
* **Errors.** Whatever a handler raises becomes one JSON message; nothing (no
  traceback) reaches the page or the log.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 2 * 1024 * 1024 + 64 * 1024
"""Largest request body by default: 2 MiB of text (a game record, say) with room for the
JSON around it. A game's extras may raise it for the whole server (``max_body``)."""
COOKIE = "boardgames_token"
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def json_body(status: int, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"error": message}).encode()


async def send_json(send: Send, status: int, payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"x-content-type-options", b"nosniff"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: token, Host, Origin, body size, and the last word on errors."""

    def __init__(
        self,
        app: ASGIApp,
        token: str,
        port: int,
        extra_host: str | None = None,
        max_body: int = MAX_BODY,
    ) -> None:
        self.app = app
        self.token = token
        self.extra_host = extra_host
        self.max_body = max_body
        self.set_port(port)

    def set_port(self, port: int) -> None:
        """The port the server listens on (known once the socket is bound)."""
        self.port = port
        hosts = [f"{name}:{port}" for name in LOCAL_NAMES]
        if self.extra_host is not None:
            hosts.append(f"{self.extra_host}:{port}")
        self.hosts = {h.lower() for h in hosts}
        self.origins = {f"http://{h}" for h in self.hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await self.app(scope, receive, send)
            return  # no websockets here
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            problem = self._refuse(scope)
            if problem is not None:
                await send_json(send, problem[0], {"error": problem[1]})
                return
            if self._token_in_query(scope):
                await self._trade_token(send)
                return
            await self.app(scope, self._capped(scope, receive), guarded_send)
        except TooBig:
            if not started:
                await send_json(send, 413, {"error": too_big(self.max_body)})
        except Exception:
            # never a traceback, in the page or the log: one JSON line
            if not started:
                await send_json(send, 500, {"error": "internal error"})

    # --- the checks ----------------------------------------------------------------------
    def _headers(self, scope: Scope) -> dict[str, str]:
        out: dict[str, str] = {}
        for key, value in scope.get("headers", []):
            out.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        return out

    def _refuse(self, scope: Scope) -> tuple[int, str] | None:
        """(status, message) when the request may not go on."""
        headers = self._headers(scope)
        host = headers.get("host", "").strip().lower()
        if self.extra_host == "*" and host and len(host) <= 300:
            allowed, origins = {host}, {f"http://{host}"}  # bound to every address: any name
        else:
            allowed, origins = self.hosts, self.origins
        if host not in allowed:
            return 421 if host else 400, (
                "this server answers only to localhost, 127.0.0.1 and [::1] "
                f"on port {self.port} (the Host header was {host[:60]!r})"
            )
        method = scope.get("method", "GET").upper()
        if method not in SAFE_METHODS:
            origin = headers.get("origin", "").strip().lower()
            if origin not in origins:
                return 403, (
                    "a request that changes something must come from this page "
                    f"(Origin {origin[:60]!r} is not this server)"
                )
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 12:
                return 400, "a bad Content-Length header"
            if int(length) > self.max_body:
                return 413, too_big(self.max_body)
        if self._token_in_query(scope):
            return None if self._query_token_ok(scope) else (403, "wrong token in the URL")
        given = headers.get("x-token") or self._cookie(headers.get("cookie", ""))
        if not given or not hmac.compare_digest(given.encode(), self.token.encode()):
            return 403, (
                "no valid token: open the URL that `boardgames serve` printed "
                "(it ends in ?token=...)"
            )
        return None

    def _token_in_query(self, scope: Scope) -> bool:
        return scope.get("path") == "/" and b"token=" in scope.get("query_string", b"")

    def _query_token_ok(self, scope: Scope) -> bool:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = query.get("token", [""])[0]
        return hmac.compare_digest(given.encode(), self.token.encode())

    @staticmethod
    def _cookie(header: str) -> str | None:
        for part in header.split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE:
                return value
        return None

    async def _trade_token(self, send: Send) -> None:
        """The first visit: the token becomes a cookie, the page reloads without it."""
        cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", b"/"),
                    (b"set-cookie", cookie.encode()),
                    (b"cache-control", b"no-store"),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})

    def _capped(self, scope: Scope, receive: Receive) -> Receive:
        """``receive`` that refuses a body beyond ``max_body`` (chunked uploads too)."""
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise TooBig
            return message

        return capped


class TooBig(Exception):
    """A request body beyond the server's cap."""


def too_big(limit: int) -> str:
    """The one-line answer to a body beyond ``limit`` bytes."""
    return f"the request is too big (at most {limit:,} bytes)"
