"""``boardgames serve`` as a real process: a storm of half-open connections under a low
open-file limit, and Ctrl-C or SIGTERM while the page follows a job's event stream. The
server answers through the storm, its stderr stays a few lines, and it stops with status
130 and one line."""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVING = "Serving the boardgames page; Ctrl-C stops the server."
LONG_COMPARE = {
    "depth": 6,
    "engines": ["python"],
    "strategies": ["minimax"],
    "game": "kalah",
    "options": {"pits": 12, "seeds": 6},
}
"""A comparison of some 30 s in pure Python (no compiled kernel to load)."""


@dataclass
class Serving:
    process: subprocess.Popen[str]
    port: int
    token: str
    err: Path

    def request(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"X-Token: {self.token}\r\nOrigin: http://127.0.0.1:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            "Connection: close\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(head.encode() + data)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        status = int(answer.split(b" ", 2)[1])
        return status, json.loads(answer.partition(b"\r\n\r\n")[2])

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stderr(self) -> str:
        return self.err.read_text(encoding="utf-8", errors="replace")

    def stop(self, sig: int = signal.SIGINT) -> tuple[int, list[str]]:
        """Send ``sig``; the status and stderr's lines after the first."""
        self.process.send_signal(sig)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - never leave it running
            self.process.kill()
            self.process.wait()
            raise
        lines = self.stderr().strip().splitlines()
        assert lines[0] == SERVING, lines
        return self.process.returncode, lines[1:]


@contextlib.contextmanager
def serve(tmp_path: Path, open_files: int | None = None) -> Iterator[Serving]:
    """``python -m boardgames serve --port 0`` (under an open-file limit if given)."""

    def limit() -> None:  # in the child, before it runs Python
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    err = tmp_path / f"stderr-{time.monotonic_ns()}.txt"
    with err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "boardgames", "serve", "--port", "0", "--no-browser"],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=limit,
        )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        found = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", url)
        assert found, (url, err.read_text())
        yield Serving(process, int(found[1]), found[2], err)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_storm_of_half_open_connections_under_a_low_file_limit(tmp_path: Path) -> None:
    """300 sockets that send ``GET / HTTP/1.1\\r\\nHost: `` and nothing more, against a
    server allowed 256 open files: the page answers within a second or two all along,
    stderr stays a line or two, and every connection is closed at the end."""
    with serve(tmp_path, open_files=256) as server:
        assert server.request("GET", "/api/games")[0] == 200  # serving: its loop is up
        before = server.open_files()
        sockets: list[socket.socket] = []
        try:
            for k in range(300):
                s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
                s.sendall(b"GET / HTTP/1.1\r\nHost: ")
                sockets.append(s)
                if k % 100 == 99:
                    t0 = time.monotonic()
                    status, games = server.request("GET", "/api/games")
                    assert status == 200 and "games" in games  # type: ignore[operator]
                    assert time.monotonic() - t0 < 3
            assert server.open_files() < 256 - 16  # the cap held: room for the rest
            time.sleep(0.5)
            assert server.process.poll() is None
            assert len(server.stderr()) < 500, server.stderr()[:2000]
        finally:
            for s in sockets:
                s.close()
        deadline = time.monotonic() + 5
        while server.open_files() > before:  # every connection closed by the server
            assert time.monotonic() < deadline, (server.open_files(), before)
            time.sleep(0.1)
        code, lines = server.stop()
    assert code == 130
    assert lines == ["Stopped (Ctrl-C): the server is down."]


@pytest.mark.parametrize(
    ("sig", "line"),
    [
        (signal.SIGINT, "Stopped (Ctrl-C): the server is down."),
        (signal.SIGTERM, "Stopped (SIGTERM): the server is down."),
    ],
)
def test_a_signal_with_an_event_stream_open_is_one_line(
    tmp_path: Path, sig: int, line: str
) -> None:
    with serve(tmp_path) as server:
        status, started = server.request("POST", "/api/compare", LONG_COMPARE)
        assert status == 202, started
        job = started["job"]  # type: ignore[index]
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as stream:
            stream.sendall(
                f"GET /api/jobs/{job}/events HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                f"X-Token: {server.token}\r\n\r\n".encode()
            )
            got = b""
            while b"event: progress" not in got:
                chunk = stream.recv(4096)
                assert chunk, got
                got += chunk
            t0 = time.monotonic()
            code, lines = server.stop(sig)
            stopped_in = time.monotonic() - t0
            rest = b""
            with contextlib.suppress(OSError):
                while chunk := stream.recv(4096):
                    rest += chunk
    assert code == 130
    assert lines == [line]
    assert stopped_in < 4
    # the stream ended as the page expects: the job cancelled, the server stopping
    assert b"event: cancelled" in rest and b"the server is stopping" in rest


UNCAPPED = """
import sys
from boardgames.web.app import create_app
from boardgames.web.server import Limits, bind, make_server

sock = bind("127.0.0.1", 0)
port = sock.getsockname()[1]
guard, web = create_app("storm-token", port)
server = make_server(guard, web, limits=Limits(max_connections=100_000, header_seconds=1.0))
print(port, flush=True)
server.run(sockets=[sock])
"""
"""A server without the connection cap (its head deadline 1 s), so that its files run
out: what the log says of it, and that it comes back."""


def test_running_out_of_files_is_one_line_and_the_server_comes_back(tmp_path: Path) -> None:
    err = tmp_path / "stderr.txt"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))

    with err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-c", UNCAPPED],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=ROOT,
            preexec_fn=limit,
        )
    sockets: list[socket.socket] = []
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline())
        server = Serving(process, port, "storm-token", err)
        for _ in range(80):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: ")
            sockets.append(s)
        time.sleep(1.5)  # files run out; the half-open ones are cut after a second
        cpu = sum(int(x) for x in Path(f"/proc/{process.pid}/stat").read_text().split()[13:15])
        deadline = time.monotonic() + 6
        while True:  # the page answers again once the deadline freed files
            with contextlib.suppress(OSError):
                if server.request("GET", "/api/games")[0] == 200:
                    break
            assert time.monotonic() < deadline, err.read_text()[:2000]
            time.sleep(0.2)
        lines = err.read_text().strip().splitlines()
        assert len(lines) == 1, lines[:5]
        assert lines[0].startswith(
            "Warning (web server): too many connections at once: the process ran out of files"
        )
        assert cpu < 150, cpu  # clock ticks, startup included: it did not spin
    finally:
        for s in sockets:
            s.close()
        process.kill()
        process.wait()
