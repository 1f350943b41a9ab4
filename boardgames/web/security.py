"""The web server's guard: every request passes it before any page or API sees it.

* **Token.** The URL printed at start carries a random token (``/?token=...``); the first
  visit trades it for an HttpOnly, SameSite=Strict cookie named after the server's port
  (``boardgames_token_8765``: cookies ignore ports, so two servers side by side each keep
  their own) and is sent on to ``/`` without it. Every request must then carry the
  cookie (or the ``X-Token`` header).
* **Host.** Only ``localhost``, ``127.0.0.1`` and ``[::1]`` with the server's port (and
  the host the server was told to bind with ``--allow-remote``; any name when that is a
  wildcard address such as 0.0.0.0): a web page of another
  site whose name was made to point at 127.0.0.1 (DNS rebinding) is refused.
* **Origin.** A request that changes anything (every method but GET, HEAD, OPTIONS)
  must come with an ``Origin`` header naming this server.
* **Size and time.** A request body is at most :data:`MAX_BODY` bytes, or what a game's
  extras ask for (:attr:`~boardgames.web.extras.WebExtras.max_body`), and must keep
  coming: :data:`BODY_SECONDS` without a byte of it is a 408.
* **Errors.** Whatever a handler raises becomes one message; nothing (no traceback)
  reaches the page or the log. Every error answer is JSON (``{"error": "one line"}``) for
  the API and a short HTML page for a person (a browser asking for HTML outside
  ``/api/``); an error that a lower layer answered as plain text (Starlette's answer to
  a bad ``Range`` header) is given the same form here.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from http import HTTPStatus
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
BODY_SECONDS = 10.0
"""A request body that sends nothing for this long is refused (408)."""
COOKIE = "boardgames_token"
"""The token cookie's name, before the port: ``boardgames_token_8765``."""
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
KEPT_HEADERS = (b"allow", b"content-range", b"retry-after")
"""Headers of a lower layer's error answer that the rewritten answer keeps."""
ERROR_BODY = 64 * 1024
"""The most of a lower layer's error answer that is read to word it again."""


def cookie_name(port: int) -> str:
    """The token cookie of the server on ``port``."""
    return f"{COOKIE}_{port}"


def one_line(text: str, most: int = 300) -> str:
    """``text`` as one printable line of at most ``most`` characters."""
    line = " ".join(text.split())
    line = "".join(c if c.isprintable() else "?" for c in line)
    return line if len(line) <= most else line[: most - 3] + "..."


def header(scope: Scope, name: str) -> str:
    """The first ``name`` header of the request ('' when absent), as latin-1 text."""
    key = name.lower().encode("latin-1")
    for k, value in scope.get("headers", []):
        if k.lower() == key:
            return str(value.decode("latin-1"))
    return ""


def wants_html(scope: Scope) -> bool:
    """True for a person's browser: a page (not ``/api/``) asked for with HTML among
    what it accepts. The API, scripts (``fetch``) and event streams get JSON."""
    if str(scope.get("path", "")).startswith("/api/"):
        return False
    return accepts_html(header(scope, "accept"))


def accepts_html(accept: str) -> bool:
    """True when an ``Accept`` header names HTML (as a browser's page load does)."""
    return "text/html" in accept.lower()


def error_page(status: int, message: str, hint: str | None = None) -> bytes:
    """A short HTML page for a person: the status, the message, and what to do."""
    phrase = status_phrase(status)
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>boardgames: {status} {html.escape(phrase)}</title>",
        "<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:3em auto;"
        "padding:0 1em;color:#222}code{background:#eee;padding:0 .2em}</style>",
        "</head><body>",
        f"<h1>{status} {html.escape(phrase)}</h1>",
        f"<p>{html.escape(message)}</p>",
    ]
    if hint:
        parts.append(f"<p>{hint}</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts).encode("utf-8")


def status_phrase(status: int) -> str:
    """HTTP's words for ``status`` (``Not Found``)."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def error_response(
    status: int,
    message: str,
    *,
    html_page: bool,
    hint: str | None = None,
    extra: Iterable[tuple[bytes, bytes]] = (),
) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of an error answer: ``{"error": message}`` (JSON), or an HTML
    page (``hint``: HTML shown under the message) for a person."""
    if html_page:
        body = error_page(status, message, hint)
        kind = b"text/html; charset=utf-8"
    else:
        body = json.dumps({"error": one_line(message)}).encode()
        kind = b"application/json"
    headers = [
        (b"content-type", kind),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
        (b"content-security-policy", b"default-src 'none'; style-src 'unsafe-inline'"),
        *extra,
    ]
    return headers, body


async def send_error(
    send: Send,
    scope: Scope,
    status: int,
    message: str,
    *,
    hint: str | None = None,
    extra: Iterable[tuple[bytes, bytes]] = (),
) -> None:
    """Answer the request with an error, in the form its asker reads (:func:`wants_html`)."""
    headers, body = error_response(
        status, message, html_page=wants_html(scope), hint=hint, extra=extra
    )
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Refusal:
    """Why the guard refuses a request: status, message, and for a person's browser a
    hint in HTML."""

    __slots__ = ("hint", "message", "status")

    def __init__(self, status: int, message: str, hint: str | None = None) -> None:
        self.status = status
        self.message = message
        self.hint = hint


class Guard:
    """ASGI middleware: token, Host, Origin, body size, and the last word on errors."""

    def __init__(
        self,
        app: ASGIApp,
        token: str,
        port: int,
        extra_host: str | None = None,
        max_body: int = MAX_BODY,
        body_seconds: float = BODY_SECONDS,
    ) -> None:
        self.app = app
        self.token = token
        self.extra_host = extra_host
        self.max_body = max_body
        self.body_seconds = body_seconds
        self.set_port(port)

    def set_port(self, port: int) -> None:
        """The port the server listens on (known once the socket is bound)."""
        self.port = port
        self.cookie = cookie_name(port)
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
        person = wants_html(scope)
        held: Message | None = None  # a lower layer's error answer, being read
        held_body = bytearray()

        async def guarded_send(message: Message) -> None:
            nonlocal started, held
            if message["type"] == "http.response.start":
                started = True
                if _needs_rewording(message, person):
                    held = message
                    return
            elif held is not None and message["type"] == "http.response.body":
                if len(held_body) < ERROR_BODY:
                    held_body.extend(message.get("body", b"")[: ERROR_BODY - len(held_body)])
                if not message.get("more_body", False):
                    await _reword(send, held, bytes(held_body), person)
                return
            await send(message)

        try:
            problem = self._refuse(scope)
            if problem is not None:
                await send_error(send, scope, problem.status, problem.message, hint=problem.hint)
                return
            if self._token_in_query(scope):
                await self._trade_token(send)
                return
            await self.app(scope, self._capped(receive), guarded_send)
        except TooBig:
            if not started:
                await send_error(send, scope, 413, too_big(self.max_body))
        except SlowBody:
            if not started:
                await send_error(send, scope, 408, slow_body(self.body_seconds))
        except Exception:
            # never a traceback, in the page or the log: one line
            if not started:
                await send_error(send, scope, 500, "internal error")

    # --- the checks ----------------------------------------------------------------------
    def _headers(self, scope: Scope) -> dict[str, str]:
        out: dict[str, str] = {}
        for key, value in scope.get("headers", []):
            out.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        return out

    def _refuse(self, scope: Scope) -> Refusal | None:
        """Why the request may not go on (None when it may)."""
        headers = self._headers(scope)
        host = headers.get("host", "").strip().lower()
        if self.extra_host == "*" and host and len(host) <= 300:
            allowed, origins = {host}, {f"http://{host}"}  # bound to every address: any name
        else:
            allowed, origins = self.hosts, self.origins
        if host not in allowed:
            return Refusal(
                421 if host else 400,
                "this server answers only to localhost, 127.0.0.1 and [::1] "
                f"on port {self.port} (the Host header was {host[:60]!r})",
            )
        method = scope.get("method", "GET").upper()
        if method not in SAFE_METHODS:
            origin = headers.get("origin", "").strip().lower()
            if origin not in origins:
                return Refusal(
                    403,
                    "a request that changes something must come from this page "
                    f"(Origin {origin[:60]!r} is not this server)",
                )
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 12:
                return Refusal(400, "a bad Content-Length header")
            if int(length) > self.max_body:
                return Refusal(413, too_big(self.max_body))
        if self._token_in_query(scope):
            if self._query_token_ok(scope):
                return None
            return Refusal(403, "wrong token in the URL", self._how_to_open(host))
        header_token = headers.get("x-token")
        given = [header_token] if header_token else self._cookies(scope)
        if not any(hmac.compare_digest(g.encode(), self.token.encode()) for g in given):
            return Refusal(
                403,
                "no valid token: open the URL that `boardgames serve` printed "
                "(it ends in ?token=...)",
                self._how_to_open(host),
            )
        return None

    def _how_to_open(self, host: str) -> str:
        """For a person: where the page's address with its token is."""
        shown = html.escape(host or f"127.0.0.1:{self.port}")
        return (
            "Open the address that <code>boardgames serve</code> printed in its terminal "
            f"when it started: <code>http://{shown}/?token=...</code>, with the token it "
            "gave. The page then keeps the token in a cookie for this port, so later "
            "visits need only the address. (If that server has stopped, start it again: "
            "each start prints a new token.)"
        )

    def _token_in_query(self, scope: Scope) -> bool:
        return scope.get("path") == "/" and b"token=" in scope.get("query_string", b"")

    def _query_token_ok(self, scope: Scope) -> bool:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = query.get("token", [""])[0]
        return hmac.compare_digest(given.encode(), self.token.encode())

    def _cookies(self, scope: Scope) -> list[str]:
        """Every value of this server's token cookie (a page of another port on the same
        host may have set one of the same name too: any may be the right one)."""
        found = []
        for key, value in scope.get("headers", []):
            if key.lower() != b"cookie":
                continue
            for part in value.decode("latin-1").split(";"):
                name, _, given = part.strip().partition("=")
                if name == self.cookie:
                    found.append(given)
        return found

    async def _trade_token(self, send: Send) -> None:
        """The first visit: the token becomes a cookie, the page reloads without it."""
        cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
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

    def _capped(self, receive: Receive) -> Receive:
        """``receive`` that refuses a body beyond ``max_body`` (chunked uploads too), and
        one that stops coming for ``body_seconds``."""
        seen = 0
        whole = False

        async def capped() -> Message:
            nonlocal seen, whole
            if whole:  # the body is in: what comes now is the end of the connection
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), self.body_seconds)
            except TimeoutError:
                raise SlowBody(self.body_seconds) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise TooBig
                whole = not message.get("more_body", False)
            else:
                whole = True
            return message

        return capped


def _needs_rewording(message: Message, person: bool) -> bool:
    """True for an error answer not in the form the asker reads (JSON for the API and
    scripts, HTML for a person)."""
    if int(message.get("status", 200)) < 400:
        return False
    kind = b""
    for key, value in message.get("headers", []):
        if key.lower() == b"content-type":
            kind = value.lower()
    want = b"text/html" if person else b"application/json"
    return not kind.startswith(want)


async def _reword(send: Send, start: Message, body: bytes, person: bool) -> None:
    """Send a lower layer's error answer (``start``, ``body``) again in the asker's form."""
    status = int(start["status"])
    text = _error_text(body) or status_phrase(status)
    kept = [(k, v) for k, v in start.get("headers", []) if k.lower() in KEPT_HEADERS]
    headers, page = error_response(status, text, html_page=person, extra=kept)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": page})


def _error_text(body: bytes) -> str:
    """The message of a lower layer's error answer: its JSON ``error``, else its text."""
    text = body.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        return one_line(text)
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        return one_line(data["error"])
    return one_line(text)


class TooBig(Exception):
    """A request body beyond the server's cap."""


class SlowBody(Exception):
    """A request body that stopped coming; ``seconds``: how long the server waited."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


def too_big(limit: int) -> str:
    """The one-line answer to a body beyond ``limit`` bytes."""
    return f"the request is too big (at most {limit:,} bytes)"


def slow_body(seconds: float) -> str:
    """The one-line answer to a body that stopped coming for ``seconds``."""
    return f"the request's body stopped coming (nothing for {seconds:g} s)"
