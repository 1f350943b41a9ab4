"""The real server (uvicorn, in a thread, on 127.0.0.1) against bad clients: malformed
and oversized requests, half-open and idle connections, slow bodies, too many
connections. Every answer is one JSON error (an HTML page for a person), every bad
connection is closed in time, and the page goes on answering.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from boardgames.web.app import WebApp, create_app
from boardgames.web.security import Guard, cookie_name
from boardgames.web.server import Limits, Server, bind, make_server

TOKEN = "real-server-token-123"
QUICK = Limits(max_connections=40, header_seconds=0.4, keep_alive_seconds=1)
"""Short deadlines, so that a test of them takes a second."""


@dataclass
class Running:
    port: int
    guard: Guard
    web: WebApp
    server: Server

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def head(self, method: str, path: str, *more: str) -> bytes:
        """A request head with the right Host and token, and ``more`` header lines."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", f"X-Token: {TOKEN}", *more]
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    def ask(self, raw: bytes, timeout: float = 5.0) -> Answer:
        """Send ``raw`` on a new connection; the answer (read to the connection's end or
        to the end of the first answer's body)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(raw)
            return read_answer(s, body=not raw.startswith(b"HEAD "))

    def serves(self) -> bool:
        """The page answers a good request (the list of games) at once."""
        answer = self.ask(self.head("GET", "/api/games"), timeout=3.0)
        return answer.status == 200 and "games" in answer.json()


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def read_answer(s: socket.socket, body: bool = True) -> Answer:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1.1 "), data[:200]
    status = int(lines[0].split()[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), value.strip())
    length = int(headers.get("content-length", "-1")) if body else 0
    while length < 0 or len(rest) < length:
        try:
            chunk = s.recv(65536)
        except (TimeoutError, ConnectionResetError):
            break
        if not chunk:
            break
        rest += chunk
    return Answer(status, headers, rest if length < 0 else rest[:length])


@contextlib.contextmanager
def real_server(limits: Limits = QUICK, **app: Any) -> Iterator[Running]:
    """The guarded app served by the hardened uvicorn server in a thread."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    guard, web = create_app(TOKEN, port, **app)
    server = make_server(guard, web, limits=limits, quiet=False)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive()
        time.sleep(0.01)
    try:
        yield Running(port, guard, web, server)
    finally:
        server.should_exit = True
        thread.join(10)
        web.jobs.close()
        sock.close()
    assert not thread.is_alive()


@pytest.fixture(scope="module")
def live() -> Iterator[Running]:
    with real_server() as running:
        yield running


def assert_json_error(answer: Answer, statuses: tuple[int, ...]) -> str:
    assert answer.status in statuses, (answer.status, answer.body[:200])
    assert answer.headers["content-type"].startswith("application/json"), answer.headers
    body = answer.json()
    assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return str(body["error"])


def assert_html_error(answer: Answer, statuses: tuple[int, ...]) -> str:
    assert answer.status in statuses, (answer.status, answer.body[:200])
    assert answer.headers["content-type"].startswith("text/html"), answer.headers
    page = answer.body.decode("utf-8")
    assert page.startswith("<!doctype html>") and "Traceback" not in page
    return page


# --- what h11 refuses: JSON (HTML for a person), not plain text -------------------------------

MALFORMED = [
    b"GET / HTTP/1.1\r\n\r\n",  # no Host
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",  # two Hosts
    b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    b"POST /api/games/nim/position HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n",
    b"POST /api/games/nim/position HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
    b"POST /api/games/nim/position HTTP/1.1\r\nHost: h\r\nContent-Length: 1e3\r\n\r\n",
    b"POST /api/games/nim/position HTTP/1.1\r\nHost: h\r\nContent-Length: 0x10\r\n\r\n",
    b"POST /api/games/nim/position HTTP/1.1\r\nHost: h\r\n"
    b"Content-Length: 3\r\nContent-Length: 4\r\n\r\n",
    b"POST /api/games/nim/position HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 4\r\n\r\n",
    b"POST /api/x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
    b"POST /api/x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n",
    b"POST /api/x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET / HTTP/2.0\r\nHost: h\r\n\r\n",
    b"GET / HTTP/9.9\r\nHost: h\r\n\r\n",
    b"GET /\r\nHost: h\r\n\r\n",
    b"GET / HTTP/1.1 extra\r\nHost: h\r\n\r\n",
    b"G\x00T / HTTP/1.1\r\nHost: h\r\n\r\n",
    b"GET /\xff\xfe HTTP/1.1\r\nHost: h\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\nBad Header: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\n: no name\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\nX: a\x00b\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\n folded: line\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: h\r\nno-colon\r\n\r\n",
    b"\r\n\r\n\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40 + b"\r\n\r\n",  # TLS hello
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",  # an HTTP/2 preface
    b"GET / HTTP/1.1\r\nHost: h\r\nX: " + b"a" * 20_000 + b"\r\n\r\n",  # head too big
    b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: h\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % k for k in range(3000)) + b"\r\n",
]


@pytest.mark.parametrize("raw", MALFORMED, ids=[f"malformed-{k}" for k in range(len(MALFORMED))])
def test_a_malformed_request_is_one_json_error(live: Running, raw: bytes) -> None:
    answer = live.ask(raw)
    message = assert_json_error(answer, (400, 413, 421, 431, 501, 505))
    if message.startswith(("a malformed", "the request's head")):  # h11 let it by: the guard
        assert answer.headers.get("connection") == "close"
    assert live.serves()


@pytest.mark.parametrize(
    "raw",
    [
        b"GET / HTTP/1.1\r\nAccept: text/html,*/*\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nAccept: text/html\r\n\r\n",
        b"GET /static/x HTTP/1.1\r\nHost: h\r\nAccept: text/html\r\nContent-Length: z\r\n\r\n",
        b"GET / HTTP/1.1\r\nAccept: text/html\r\nX: " + b"a" * 20_000 + b"\r\n\r\n",
    ],
)
def test_a_malformed_request_from_a_browser_is_a_page(live: Running, raw: bytes) -> None:
    page = assert_html_error(live.ask(raw), (400, 431))
    assert "<h1>" in page
    assert live.serves()


def test_a_malformed_api_request_from_a_browser_is_still_json(live: Running) -> None:
    raw = b"GET /api/games HTTP/1.1\r\nAccept: text/html\r\n\r\n"  # no Host
    assert "Host" in assert_json_error(live.ask(raw), (400,))


def test_the_head_too_big_says_so(live: Running) -> None:
    raw = b"GET / HTTP/1.1\r\nHost: h\r\nX: " + b"a" * 20_000 + b"\r\n\r\n"
    message = assert_json_error(live.ask(raw), (431,))
    assert "too big" in message and "16,384" in message


def test_a_head_request_that_fails_has_no_body(live: Running) -> None:
    answer = live.ask(live.head("HEAD", "/nothing/here"))
    assert answer.status == 404 and answer.body == b""


# --- bodies: the size cap and a body that stops coming, on the real server ------------------


def test_an_oversized_body_is_refused_on_the_real_server(live: Running) -> None:
    size = live.guard.max_body + 1
    head = live.head(
        "POST",
        "/api/records/read",
        f"Origin: http://{live.host}",
        "Content-Type: application/json",
        f"Content-Length: {size}",
    )
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as s:
        s.sendall(head)
        with contextlib.suppress(OSError):  # the server may answer before the body is in
            s.sendall(b"x" * size)
        answer = read_answer(s)
    assert "too big" in assert_json_error(answer, (413,))
    assert live.serves()


def test_an_oversized_chunked_body_is_refused_on_the_real_server(live: Running) -> None:
    head = live.head(
        "POST",
        "/api/games/nim/position",
        f"Origin: http://{live.host}",
        "Transfer-Encoding: chunked",
    )
    chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as s:
        s.sendall(head)
        with contextlib.suppress(OSError):
            for _ in range(live.guard.max_body // 65536 + 2):
                s.sendall(chunk)
        answer = read_answer(s)
    assert "too big" in assert_json_error(answer, (413,))
    assert live.serves()


def test_a_body_that_stops_coming_is_a_408(live: Running) -> None:
    live.guard.body_seconds = 0.5
    try:
        head = live.head(
            "POST",
            "/api/games/nim/position",
            f"Origin: http://{live.host}",
            "Content-Type: application/json",
            "Content-Length: 100",
        )
        t0 = time.monotonic()
        answer = live.ask(head + b'{"options": {"rows": [3')
        assert "stopped coming" in assert_json_error(answer, (408,))
        assert time.monotonic() - t0 < 3
    finally:
        live.guard.body_seconds = 10.0
    assert live.serves()


# --- half-open, idle and too many connections ---------------------------------------------------


def closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """(whether the server closed ``s`` within ``seconds``, what it sent before)."""
    s.settimeout(seconds)
    got = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                return True, got
            got += chunk
    except TimeoutError:
        return False, got
    except ConnectionResetError:
        return True, got


def test_a_half_open_request_is_answered_408_and_closed(live: Running) -> None:
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(f"GET / HTTP/1.1\r\nHost: {live.host}\r\nAccept: te".encode())
        t0 = time.monotonic()
        closed, got = closed_within(s, 5)
    assert closed and time.monotonic() - t0 < 3
    assert got.startswith(b"HTTP/1.1 408 ") and b'"error"' in got
    assert live.serves()


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        b"G",
        b"GET / HTTP/1.1\r\n",
        b"GET / HTTP/1.1\r\nHost: ",
        b"POST /api/games/nim/position HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: b\r\n",
    ],
)
def test_a_connection_that_never_ends_its_head_is_closed(live: Running, sent: bytes) -> None:
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(sent)
        closed, got = closed_within(s, 5)
    assert closed
    assert got.startswith(b"HTTP/1.1 408 ") if sent else got == b""


def test_a_trickled_head_is_cut_at_the_deadline(live: Running) -> None:
    """One byte every 0.1 s: each byte is news, but the head has a deadline."""
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        t0 = time.monotonic()
        closed = False
        with contextlib.suppress(OSError):
            for byte in b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 100:
                s.sendall(bytes([byte]))
                time.sleep(0.1)
                if time.monotonic() - t0 > 5:
                    break
        closed, _ = closed_within(s, 2)
        assert closed and time.monotonic() - t0 < 4


def test_an_idle_kept_alive_connection_is_closed(live: Running) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=5) as s:
        s.sendall(live.head("GET", "/api/games"))
        assert read_answer(s).status == 200
        closed, _ = closed_within(s, 4)
    assert closed


def test_a_second_request_begun_on_a_kept_alive_connection_has_a_deadline(live: Running) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=5) as s:
        s.sendall(live.head("GET", "/api/games"))
        assert read_answer(s).status == 200
        s.sendall(b"GET /api/games HTTP/1.1\r\nHo")
        closed, got = closed_within(s, 4)
    assert closed and got.startswith(b"HTTP/1.1 408 ")


def test_too_many_half_open_connections_leave_the_page_answering(live: Running) -> None:
    limit = live.server.config.http_protocol_class.limits.max_connections  # type: ignore[attr-defined]
    sockets = []
    try:
        for _ in range(limit * 2):
            s = socket.create_connection(("127.0.0.1", live.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: ")
            sockets.append(s)
        t0 = time.monotonic()
        assert live.serves()
        assert time.monotonic() - t0 < 2
        assert len(live.server.server_state.connections) <= limit
    finally:
        for s in sockets:
            s.close()


def test_when_every_connection_is_busy_a_new_one_gets_a_503() -> None:
    with real_server(Limits(max_connections=2, header_seconds=5)) as running:
        streams = []
        try:
            for _ in range(2):  # two event streams: busy answering
                job = running.web.jobs.start("wait", lambda job: job._cancel.wait(10))
                s = socket.create_connection(("127.0.0.1", running.port), timeout=5)
                s.sendall(running.head("GET", f"/api/jobs/{job.id}/events"))
                assert s.recv(12).startswith(b"HTTP/1.1 200")
                streams.append(s)
            answer = running.ask(running.head("GET", "/api/games"))
            assert "too many connections" in assert_json_error(answer, (503,))
        finally:
            for s in streams:
                s.close()


# --- the cookie: one a port, two servers side by side ---------------------------------------------


def test_two_servers_side_by_side_with_one_cookie_jar() -> None:
    httpx = pytest.importorskip("httpx")
    with real_server() as one, real_server() as two, httpx.Client(timeout=10) as browser:
        assert one.port != two.port
        for server in (one, two):
            visit = browser.get(f"http://{server.host}/?token={TOKEN}", follow_redirects=False)
            assert visit.status_code == 303
            cookie = visit.headers["set-cookie"]
            assert cookie.startswith(f"{cookie_name(server.port)}={TOKEN};")
            for part in ("HttpOnly", "SameSite=Strict", "Path=/"):
                assert part in cookie
        # each server reads its own cookie: the second visit did not overwrite the first
        names = {c.name for c in browser.cookies.jar}
        assert names == {cookie_name(one.port), cookie_name(two.port)}
        for server in (one, two):
            assert browser.get(f"http://{server.host}/api/games").status_code == 200


def test_a_cookie_of_another_port_is_not_this_servers(live: Running) -> None:
    other = cookie_name(live.port + 1)
    raw = (
        f"GET /api/games HTTP/1.1\r\nHost: {live.host}\r\nCookie: {other}={TOKEN}\r\n\r\n"
    ).encode()
    assert "no valid token" in assert_json_error(live.ask(raw), (403,))
    good = f"{cookie_name(live.port)}={TOKEN}"
    raw = f"GET /api/games HTTP/1.1\r\nHost: {live.host}\r\nCookie: {good}\r\n\r\n".encode()
    assert live.ask(raw).status == 200


# --- a static file's bad Range: JSON, or a page for a person --------------------------------------

BAD_RANGES = [
    "bytes=9-3",
    "bytes=99999999-",
    "items=0-10",
    "bytes=",
    "bytes=-",
    "bytes=a-b",
    "bytes=0-1,99999999-",
]


@pytest.mark.parametrize("value", BAD_RANGES)
def test_a_bad_range_is_json(live: Running, value: str) -> None:
    answer = live.ask(live.head("GET", "/static/common.js", f"Range: {value}"))
    assert_json_error(answer, (400, 416))
    if answer.status == 416:
        assert answer.headers["content-range"].startswith("bytes */")
    assert live.serves()


@pytest.mark.parametrize("value", BAD_RANGES[:3])
def test_a_bad_range_for_a_person_is_a_page(live: Running, value: str) -> None:
    answer = live.ask(live.head("GET", "/static/common.js", f"Range: {value}", "Accept: text/html"))
    assert_html_error(answer, (400, 416))


def test_a_good_range_is_served(live: Running) -> None:
    answer = live.ask(live.head("GET", "/static/common.js", "Range: bytes=0-9"))
    assert answer.status == 206 and len(answer.body) == 10
