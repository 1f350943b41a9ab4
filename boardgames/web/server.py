"""Running the web page: bind, print the URL with its token, open a browser, serve.

The socket is bound before anything is printed, so that ``--port 0`` prints the port
the system chose, and a port in use is one clear line. uvicorn serves (its h11 protocol,
hardened here: :class:`GuardedProtocol`) until Ctrl-C or SIGTERM; the server then cancels
every job, ends the page's event streams and stops within a second or two, and
:func:`run` raises :class:`ServerStopped`, which the command turns into its one
``Stopped`` line and status 130.

What a bad client cannot do here (each held by a test, see ``docs/reliability.md``):

* **Hold connections open.** A connection must send a whole request head within
  :attr:`Limits.header_seconds` (uvicorn has no such timeout: its keep-alive timeout
  only runs between requests), a head is at most :attr:`Limits.max_head` bytes (h11's
  limit), a body that stops coming is a 408 (the guard,
  :data:`~boardgames.web.security.BODY_SECONDS`), an idle connection closes after
  :attr:`Limits.keep_alive_seconds`.
* **Exhaust the process's files.** At most :attr:`Limits.max_connections` connections
  are open (half the open-file limit, at most :data:`MAX_CONNECTIONS`); a new one beyond
  it closes the connection that has waited longest for its request head (half-open
  sockets go first), or, when every one is busy answering, is refused with a 503.
  (uvicorn's ``limit_concurrency`` is not used: it counts a connection only once its
  request head is in, so half-open sockets pass it, and it answers in plain text.)
* **Fill the log.** The server's log (uvicorn's and asyncio's loggers) is one line a
  message, never a traceback, and a message repeated within
  :data:`REPEAT_SECONDS` is not written again: a storm of bad requests, or of
  ``accept()`` failing for want of files, is one line.
* **Get a plain-text error.** What h11 refuses (a malformed request line, a bad or
  doubled ``Content-Length``, a missing or doubled ``Host``, a head too big) is answered
  like every other error: JSON for the API, a short HTML page for a person.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import re
import resource
import secrets
import signal
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from boardgames.web.app import WebApp, create_app
from boardgames.web.security import (
    Guard,
    accepts_html,
    error_response,
    one_line,
    status_phrase,
)

WILDCARDS = ("0.0.0.0", "::", "")
MAX_CONNECTIONS = 256
"""The most connections open at once (a browser opens six or so to one server)."""
HEADER_SECONDS = 10.0
"""A connection's request head must be in this long after it opened (or after its
first byte, for the next request of a kept-alive connection)."""
KEEP_ALIVE_SECONDS = 5
"""An idle connection between two requests closes after this long (uvicorn's)."""
MAX_HEAD = 16 * 1024
"""The largest request head (request line and headers), bytes: h11 refuses more (431)."""
BACKLOG = 128
"""Connections the system queues for ``accept()`` (and the most accepted in one go)."""
STOP_SECONDS = 3
"""The most that stopping waits for answers under way (then they are cut)."""
REPEAT_SECONDS = 60.0
"""A log message repeated within this long (of its last time) is not written again."""
LOG = logging.getLogger("boardgames.web.server")


class ServerError(Exception):
    """The server cannot start (address in use, unknown host): one line."""


class ServerStopped(KeyboardInterrupt):
    """The server stopped on a signal: ``how`` says which (``Ctrl-C``, ``SIGTERM``)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


def url_host(host: str) -> str:
    """The host as a URL writes it: ``[::1]`` for IPv6, 127.0.0.1 for a wildcard."""
    if host in WILDCARDS:
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def graphical() -> bool:
    """True unless this is a Linux (or BSD) session without a display, where the
    webbrowser module would start a text browser in the terminal the server uses."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; ServerError with the reason otherwise."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise ServerError(f"--host {host}: cannot resolve it ({e})") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError as e:
        sock.close()
        raise ServerError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


# --- limits and the hardened protocol ---------------------------------------------------------


def open_file_limit() -> int:
    """The process's open-file limit (its soft ``RLIMIT_NOFILE``)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass(frozen=True)
class Limits:
    """What one connection may take (see the module's doc)."""

    max_connections: int = MAX_CONNECTIONS
    header_seconds: float = HEADER_SECONDS
    keep_alive_seconds: int = KEEP_ALIVE_SECONDS
    max_head: int = MAX_HEAD

    @classmethod
    def for_this_process(cls, **changes: Any) -> Limits:
        """The limits, with connections capped at half the open-file limit (the rest is
        for the jobs' files, the compiled kernels, the endgame tables)."""
        most = max(8, min(MAX_CONNECTIONS, (open_file_limit() - 32) // 2))
        return cls(**{"max_connections": most, **changes})


class _Connection(h11.Connection):
    """h11's connection, noting what was wrong with a request it refused."""

    refused: h11.RemoteProtocolError | None = None

    def next_event(self) -> Any:
        try:
            return super().next_event()
        except h11.RemoteProtocolError as e:
            self.refused = e
            raise


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for the request head, a cap on open
    connections, and errors of its own in the page's form. :func:`protocol_for` makes
    one with its :class:`Limits`."""

    limits: ClassVar[Limits] = Limits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = _Connection(h11.SERVER, self.limits.max_head)
        self._head_timer: asyncio.TimerHandle | None = None
        self._head = bytearray()
        self._waiting_since = 0.0

    # --- the connection's life ---------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        full = len(self.connections) >= self.limits.max_connections
        if full and not self._make_room():
            transport.write(_raw_error(503, "too many connections at once: try again soon"))
            transport.close()
            return
        super().connection_made(transport)
        self._waiting_since = self.loop.time()
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        if self.transport is None:  # refused in connection_made: it never began
            return
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._waiting_for_head():
            # the head so far (for its size, and to see whether a browser sent it); h11's
            # own limit counts only a head that comes in pieces
            most = self.limits.max_head
            self._head += data[: max(0, most + 4 - len(self._head))]
            end = self._head.find(b"\r\n\r\n")
            if end > most or (end < 0 and len(self._head) > most):
                self._answer(431, f"the request's head is too big (at most {most:,} bytes)")
                return
        super().data_received(data)
        if self.transport.is_closing():
            self._disarm_head_timer()
        elif self._waiting_for_head():
            self._arm_head_timer()  # a part of a head: it has until the timer to end
        else:
            self._head.clear()
            self._disarm_head_timer()

    def on_response_complete(self) -> None:
        self._waiting_since = self.loop.time()
        super().on_response_complete()

    def _waiting_for_head(self) -> bool:
        """True while no request is under way: the connection waits for the next head."""
        cycle = self.cycle
        return self.conn.their_state is h11.IDLE and (cycle is None or cycle.response_complete)

    # --- the head's deadline ---------------------------------------------------------------
    def _arm_head_timer(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(
                self.limits.header_seconds, self._head_timed_out
            )

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or not self._waiting_for_head():
            return
        if self._head:  # a request begun and not ended: say why it is dropped
            seconds = f"{self.limits.header_seconds:g}"
            self._answer(408, f"the request's head did not come in whole within {seconds} s")
        else:
            self.transport.close()

    # --- too many connections --------------------------------------------------------------
    def _make_room(self) -> bool:
        """Close the connection that has waited longest for a request head (a half-open
        socket, or an idle one kept alive); False when every one is busy answering."""
        waiting = [
            c
            for c in self.connections
            if isinstance(c, GuardedProtocol)
            and c.transport is not None
            and not c.transport.is_closing()
            and c._waiting_for_head()
        ]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda c: c._waiting_since)
        oldest._disarm_head_timer()
        oldest.transport.close()
        self.connections.discard(oldest)
        return True

    # --- errors h11 finds --------------------------------------------------------------------
    def send_400_response(self, msg: str) -> None:
        refused = self.conn.refused if isinstance(self.conn, _Connection) else None
        status = getattr(refused, "error_status_hint", 400) if refused else 400
        detail = one_line(str(refused), 120) if refused is not None and str(refused) else ""
        if status == 431:
            message = f"the request's head is too big (at most {self.limits.max_head:,} bytes)"
        else:
            message = "a malformed HTTP request" + (f" ({detail})" if detail else "")
        self._answer(status, message)

    def _answer(self, status: int, message: str) -> None:
        """Answer ``status`` with ``message`` in the asker's form (as far as its head can
        be read) and close the connection."""
        self._disarm_head_timer()
        self.transport.write(_raw_error(status, message, person=_person(bytes(self._head))))
        self._head.clear()
        self.transport.close()


def protocol_for(limits: Limits) -> type[GuardedProtocol]:
    """:class:`GuardedProtocol` with ``limits``."""
    return type("GuardedProtocol", (GuardedProtocol,), {"limits": limits})


_REQUEST_LINE = re.compile(rb"\A\s*[A-Z]+ +(\S+)")
_ACCEPT = re.compile(rb"^accept[ \t]*:([^\r\n]*)", re.IGNORECASE | re.MULTILINE)


def _person(head: bytes) -> bool:
    """True when a (maybe broken) request head is a browser's page load (not the API)."""
    line = _REQUEST_LINE.match(head)
    if line is not None and line.group(1).startswith(b"/api/"):
        return False
    accept = _ACCEPT.search(head)
    return accept is not None and accepts_html(accept.group(1).decode("latin-1"))


def _raw_error(status: int, message: str, *, person: bool = False) -> bytes:
    """A whole HTTP/1.1 error answer that closes the connection, as bytes."""
    headers, body = error_response(status, message, html_page=person)
    phrase = status_phrase(status)
    lines = [f"HTTP/1.1 {status} {phrase}".encode("latin-1")]
    lines += [k + b": " + v for k, v in headers]
    lines.append(b"connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


# --- the log: one line a message, a storm is one line ------------------------------------------


class OneLine(logging.Filter):
    """Every record as one line without its traceback; a message that came within
    :data:`REPEAT_SECONDS` of its last time is dropped."""

    def __init__(self, repeat_seconds: float = REPEAT_SECONDS) -> None:
        super().__init__()
        self.repeat_seconds = repeat_seconds
        self._last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{record.msg}"
        now = time.monotonic()
        last = self._last.get(key)
        self._last[key] = now
        if len(self._last) > 1000:  # messages worded with their data: forget the old
            self._last = {k: t for k, t in self._last.items() if now - t < self.repeat_seconds}
        if last is not None and now - last < self.repeat_seconds:
            return False
        record.msg = one_line(record.getMessage(), 300)
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


def quiet_logging() -> None:
    """Send uvicorn's, asyncio's and this module's log to stderr through :class:`OneLine`
    (``Warning (web server): ...``); done once a process."""
    marker = "_boardgames_one_line"
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("Warning (web server): %(message)s"))
    handler.addFilter(OneLine())
    setattr(handler, marker, True)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.asgi", "asyncio", LOG.name):
        logger = logging.getLogger(name)
        if any(getattr(h, marker, False) for h in logger.handlers):
            continue
        logger.handlers = [handler]
        logger.propagate = False
        logger.setLevel(logging.WARNING)
    logging.getLogger("uvicorn.access").handlers = []
    logging.getLogger("uvicorn.access").propagate = False


RESOURCE_ERRORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's errors as one line of :data:`LOG` (a storm of ``accept()``
    failing for want of files: one line, said in words)."""
    error = context.get("exception")
    if isinstance(error, OSError) and error.errno in RESOURCE_ERRORS:
        LOG.warning(
            "too many connections at once: the process ran out of files (its limit is %d); "
            "new connections wait until others close",
            open_file_limit(),
        )
        return
    message = str(context.get("message") or "error in the event loop")
    LOG.warning("%s%s", message.splitlines()[0], f": {error}" if error else "")


# --- the server ----------------------------------------------------------------------------------


class Server(uvicorn.Server):
    """uvicorn's server that stops cleanly: on Ctrl-C or SIGTERM it cancels the jobs
    first (so the page's event streams end with them), then lets uvicorn close the
    connections; it does not raise the signal again (:func:`run` says how it stopped)."""

    def __init__(self, config: uvicorn.Config, web: WebApp) -> None:
        super().__init__(config)
        self.web = web
        self.stopped_by: int | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(loop_error)
        await super().serve(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # as uvicorn's, also where SIGINT was ignored at start (a script's background
        # job: `kill -INT` stops it), but without raising the signal again at the end
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        before = {s: signal.signal(s, self.handle_exit) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for s, handler in before.items():
                signal.signal(s, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.stopped_by is None:
            self.stopped_by = sig
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.web.jobs.close(wait=0.0)  # cancelled now: their streams end with them
        await super().shutdown(sockets)


def make_server(
    guard: Guard, web: WebApp, *, limits: Limits | None = None, quiet: bool = True
) -> Server:
    """The uvicorn server of ``guard`` (``web``: its app, whose jobs it stops), hardened
    (:class:`GuardedProtocol` with ``limits``; by default those of this process);
    ``quiet``: its log one line a message (:func:`quiet_logging`)."""
    limits = limits or Limits.for_this_process()
    if quiet:
        quiet_logging()
    config = uvicorn.Config(
        guard,
        http=protocol_for(limits),
        ws="none",
        lifespan="off",
        log_config=None,
        log_level="warning",
        access_log=False,
        proxy_headers=False,
        server_header=False,
        timeout_keep_alive=limits.keep_alive_seconds,
        h11_max_incomplete_event_size=limits.max_head,
        backlog=BACKLOG,
        timeout_graceful_shutdown=STOP_SECONDS,
    )
    return Server(config, web)


def run(host: str, port: int, *, open_browser: bool = True) -> None:
    """Serve until Ctrl-C or SIGTERM, then raise :class:`ServerStopped` (a
    ``KeyboardInterrupt``)."""
    sock = bind(host, port)
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)
    local = host.strip("[]").lower() in ("127.0.0.1", "localhost", "::1")
    extra = None if local else ("*" if host in WILDCARDS else url_host(host))
    guard, web = create_app(token, port, extra_host=extra)
    url = f"http://{url_host(host)}:{port}/?token={token}"
    # stderr's notes come before the URL: a script that reads the URL and at once stops
    # the server has seen them all
    if not local:
        print(
            f"Warning: listening on {host}: other machines can reach this page (plain HTTP; "
            "the token in the URL is its only guard).",
            file=sys.stderr,
            flush=True,
        )
    print("Serving the boardgames page; Ctrl-C stops the server.", file=sys.stderr, flush=True)
    show = open_browser and graphical()
    if open_browser and not show:
        print(
            "No graphical display here: open the URL below in a browser.",
            file=sys.stderr,
            flush=True,
        )
    server = make_server(guard, web)
    print(url, flush=True)
    if show:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        web.jobs.close()
        sock.close()
    # the server stops on a signal: say which
    if server.stopped_by is not None or server.should_exit:
        raise ServerStopped("SIGTERM" if server.stopped_by == signal.SIGTERM else "Ctrl-C")
