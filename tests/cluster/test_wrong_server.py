"""``--cluster`` pointing at a server that is not a Dask scheduler (issue 34, class 8).

A web server (or anything that takes the connection and never speaks Dask) is one line
and status 1 within seconds, as a refused connection is, for every command that takes
``--cluster``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

LIMIT = 15.0
"""Seconds a command may take to give up (it waits 6 s for an answer)."""


@pytest.fixture(params=["silent", "http"])
def wrong_server(request: pytest.FixtureRequest) -> Iterator[str]:
    """A server on 127.0.0.1 that takes connections and answers, if at all, in HTTP."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)
            if request.param == "http":
                conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<html></html>")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


@pytest.mark.parametrize(
    "args",
    [
        ["queens", "count", "-n", "8", "--tasks", "4"],
        ["kalah", "solve", "--pits", "3", "--seeds", "2", "--endgame", "0"],
    ],
    ids=["queens-count", "kalah-solve"],
)
def test_a_server_that_is_no_scheduler_is_one_line_within_seconds(
    wrong_server: str, args: list[str]
) -> None:
    t0 = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "boardgames", *args, "--cluster", wrong_server],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
        timeout=120,
    )
    assert time.monotonic() - t0 < LIMIT
    assert r.returncode == 1, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"Error: no Dask scheduler answered at {wrong_server}")
