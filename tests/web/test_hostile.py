"""Hostile requests: each gets one clear 4xx JSON answer and the server goes on serving.

No or a wrong token, a foreign Host (DNS rebinding) or Origin, bad JSON, huge bodies,
illegal moves, sizes beyond the command line's limits, path-like names, too many jobs.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from boardgames.web.security import cookie_name
from tests.web.conftest import BASE, ORIGIN, PORT, TOKEN, Client, make_client

GOOD_NIM = {"options": {"rows": "3 4 5"}}
KALAH = {"options": {"pits": 4, "seeds": 3}, "moves": []}
NIM = "/api/games/nim/position"
POSTS = [
    "/api/games/kalah/position",
    "/api/games/kalah/move",
    "/api/games/kalah/record",
    "/api/games/kalah/program",
    "/api/games/kalah/hint",
    "/api/games/kalah/analyse",
    "/api/games/kalah/review",
    "/api/games/kalah/compare",
    "/api/games/kalah/compare/options",
    "/api/records/read",
    "/api/review",
    "/api/compare",
    "/api/compare/options",
    "/api/queens/steps",
    "/api/queens/solutions",
    "/api/queens/count",
    "/api/games/nim/position",
    "/api/games/nim/move",
    "/api/games/nim/program",
    "/api/games/nim/hint",
    "/api/games/nim/analyse",
    "/api/games/connect4/review",
    "/api/games/connect4/compare",
]


def still_serving(client: Client) -> None:
    answer = client.post(NIM, GOOD_NIM)
    assert answer.status_code == 200, answer.text
    assert answer.json()["text"] == "3 4 5" and 'data-nim-sum="2"' in answer.json()["panel"]["html"]


def assert_refused(response: Any, statuses: tuple[int, ...]) -> None:
    assert response.status_code in statuses, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]
    assert "Traceback" not in body["error"] and "/work/" not in body["error"]
    assert "\n" not in body["error"]


# --- no token, a wrong token -----------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/static/common.js", "/api/jobs/abc", *POSTS])
def test_no_token(app_client: Client, path: str) -> None:
    client, web = make_client()
    try:
        client.cookies.clear()
        method = client.get if not path.startswith("/api/") or "jobs" in path else client.post
        kwargs = {} if method == client.get else {"json": GOOD_NIM, "headers": ORIGIN}
        assert_refused(method(path, **kwargs), (403,))
    finally:
        web.jobs.close()
    still_serving(app_client)


@pytest.mark.parametrize(
    "cookie", ["wrong", TOKEN + "x", TOKEN[:-1], "", " " + TOKEN, TOKEN.upper(), "é" * 5]
)
def test_wrong_token_cookie(app_client: Client, cookie: str) -> None:
    app_client.client.cookies.clear()
    headers = {"Cookie": f"{cookie_name(PORT)}={cookie}".encode(), "Origin": BASE.encode()}
    response = app_client.client.post(NIM, json=GOOD_NIM, headers=headers)
    assert_refused(response, (403,))
    app_client.client.get(f"/?token={TOKEN}", follow_redirects=False)
    still_serving(app_client)


@pytest.mark.parametrize("token", ["nope", "", TOKEN + "0", "%00", "a" * 5000])
def test_wrong_token_in_the_url(app_client: Client, token: str) -> None:
    response = app_client.get(f"/?token={token}", follow_redirects=False)
    assert_refused(response, (403,))
    still_serving(app_client)


def test_the_token_becomes_a_strict_http_only_cookie() -> None:
    client, web = make_client()
    try:
        client.cookies.clear()
        response = client.get(f"/?token={TOKEN}", follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == "/"
        cookie = response.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and TOKEN in cookie
        page = client.get("/")
        assert page.status_code == 200 and "<title>boardgames</title>" in page.text
    finally:
        web.jobs.close()


# --- Host and Origin ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:8765",
        "127.0.0.1:9999",
        "localhost",
        "127.0.0.1",
        "127.0.0.1.evil.example:8765",
        "localhost.:8765",
        "0.0.0.0:8765",
        "[::2]:8765",
        "192.168.1.10:8765",
        "",
    ],
)
def test_foreign_host(app_client: Client, host: str) -> None:
    response = app_client.client.get("/", headers={"Host": host})
    assert_refused(response, (400, 421))
    post = app_client.client.post(NIM, json=GOOD_NIM, headers={"Host": host, **ORIGIN})
    assert_refused(post, (400, 421))
    still_serving(app_client)


@pytest.mark.parametrize(
    "host", ["localhost:8765", "127.0.0.1:8765", "[::1]:8765", "LOCALHOST:8765"]
)
def test_local_hosts_are_served(app_client: Client, host: str) -> None:
    origin = {"Origin": f"http://{host.lower()}"}
    response = app_client.client.post(NIM, json=GOOD_NIM, headers={"Host": host, **origin})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "origin",
    [
        None,
        "http://evil.example",
        "null",
        "http://127.0.0.1:9999",
        "https://127.0.0.1:8765",
        "http://127.0.0.1:8765.evil.example",
        "http://localhost:8766",
        "file://",
    ],
)
@pytest.mark.parametrize(
    "path",
    [
        "/api/games/nim/move",
        "/api/games/kalah/program",
        "/api/jobs/abc/cancel",
        "/api/records/read",
        "/api/games/kalah/review",
        "/api/games/connect4/compare",
    ],
)
def test_foreign_origin(app_client: Client, origin: str | None, path: str) -> None:
    headers = {} if origin is None else {"Origin": origin}
    body = {**GOOD_NIM, "move": 1} if "nim" in path else {**KALAH, "moves": [0], "text": "x"}
    response = app_client.client.post(path, json=body, headers=headers)
    assert_refused(response, (403,))
    still_serving(app_client)


# --- bodies ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{",
        b"[1, 2]",
        b"null",
        b"123",
        b'"text"',
        b'{"layout": NaN}',
        b'{"layout": Infinity}',
        b"\xff\xfe\x00{}",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"layout": [3, 4, 5],}',
    ],
)
def test_bad_json(app_client: Client, body: bytes) -> None:
    response = app_client.client.post(
        NIM,
        content=body,
        headers={**ORIGIN, "Content-Type": "application/json"},
    )
    assert_refused(response, (400,))
    still_serving(app_client)


def test_huge_body(app_client: Client) -> None:
    text = "1) A: 0\n" * (400_000)
    response = app_client.post("/api/records/read", {"text": text})
    assert_refused(response, (413,))
    still_serving(app_client)


def test_a_record_beyond_two_mib_in_utf8(app_client: Client) -> None:
    """Fewer than 2 MiB characters, but more than 2 MiB bytes (Cyrillic: 2 bytes each)."""
    text = "Игрок A : Программа\n" + "# " + "я" * (1_050_000)
    assert len(text) < 2 * 2**20 < len(text.encode())
    assert_refused(app_client.post("/api/records/read", {"text": text}), (413,))
    assert_refused(app_client.post("/api/review", {"text": text}), (413,))
    still_serving(app_client)


def test_huge_chunked_body(app_client: Client) -> None:
    def chunks():
        for _ in range(40):
            yield b" " * 100_000

    response = app_client.client.post(NIM, content=chunks(), headers=ORIGIN)
    assert_refused(response, (413,))
    still_serving(app_client)


@pytest.mark.parametrize("length", ["99999999999", "-1", "abc", "1e9"])
def test_bad_content_length(app_client: Client, length: str) -> None:
    response = app_client.client.post(
        NIM, content=b"{}", headers={**ORIGIN, "Content-Length": length}
    )
    assert_refused(response, (400, 413))
    still_serving(app_client)


# --- illegal moves and sizes -----------------------------------------------------------------

KALAH_MOVE = "/api/games/kalah/move"
RECORD = "Pits : 4\nSeeds : 3\n\n1) A: 1 0"
BAD_REQUESTS: list[tuple[str, dict[str, Any]]] = [
    # Kalah: moves
    (KALAH_MOVE, {**KALAH, "move": 5}),  # B's pit on A's turn
    (KALAH_MOVE, {**KALAH, "move": 99}),
    (KALAH_MOVE, {**KALAH, "move": -1}),
    (KALAH_MOVE, {**KALAH, "move": "1"}),
    (KALAH_MOVE, {**KALAH, "move": True}),
    (KALAH_MOVE, {**KALAH, "move": 1.5}),
    (KALAH_MOVE, {**KALAH, "moves": [1, 1], "move": 0}),  # pit 1 empty the 2nd time
    (KALAH_MOVE, {**KALAH, "moves": [6]}),
    (KALAH_MOVE, {**KALAH, "moves": [0] * 6000, "move": 0}),
    (KALAH_MOVE, {**KALAH, "moves": "0 1 2", "move": 0}),
    (KALAH_MOVE, {**KALAH, "move": 0, "animate": "yes"}),
    ("/api/games/kalah/program", {**KALAH, "moves": [9]}),
    ("/api/games/kalah/program", {**KALAH, "player": "depth=99999"}),
    ("/api/games/kalah/program", {**KALAH, "player": "nobody"}),
    ("/api/games/kalah/program", {**KALAH, "player": 42}),
    ("/api/games/kalah/program", {**KALAH, "player": "x" * 1000}),
    # Kalah: setup beyond the limits
    ("/api/games/kalah/position", {"options": {"pits": 0}}),
    ("/api/games/kalah/position", {"options": {"seeds": 0}}),
    ("/api/games/kalah/position", {"options": {"seeds": 21}}),
    ("/api/games/kalah/position", {"options": {"capture": "sideways"}}),
    # records: download, reading
    ("/api/games/kalah/record", {**KALAH, "players": ["human"]}),
    ("/api/games/kalah/record", {**KALAH, "players": "human,program"}),
    ("/api/games/kalah/record", {**KALAH, "players": [1, 2]}),
    ("/api/games/kalah/record", {**KALAH, "players": ["x" * 81, "y"]}),
    ("/api/records/read", {"text": "Pits : 6\n\n1) A: 0 1 B: 3\n"}),
    ("/api/records/read", {"text": "Pits : 99\n"}),
    ("/api/records/read", {"text": "# game: chess\ne4\n"}),
    ("/api/records/read", {"text": "# game: nim\n# options: rows\n"}),
    ("/api/records/read", {"text": "# boardgames play nim --colour red\nmoves: 1 1\n"}),
    ("/api/records/read", {"text": "# boardgames play nim\nmoves: 9 9\n"}),
    ("/api/records/read", {"text": 42}),
    ("/api/records/read", {}),
    # reviews
    ("/api/review", {"text": "../../../../etc/passwd"}),
    ("/api/review", {"text": "Pits : 6\n"}),  # no moves
    ("/api/review", {"path": "/etc/passwd"}),
    ("/api/review", {"text": RECORD, "depth": 0}),
    ("/api/review", {"text": RECORD, "depth": 41}),
    ("/api/review", {"text": RECORD, "seconds": 0}),
    ("/api/review", {"text": RECORD, "seconds": 1e9}),
    ("/api/review", {"text": RECORD, "seconds": "fast"}),
    ("/api/games/kalah/review", {**KALAH}),  # no moves
    ("/api/games/kalah/review", {**KALAH, "moves": [9]}),
    ("/api/games/queens/review", {"moves": [1]}),
    # Nim
    ("/api/games/nim/move", {**GOOD_NIM, "move": 4}),  # row 1 (3 chips): take 4
    ("/api/games/nim/program", {**GOOD_NIM, "player": "Bouton's ghost"}),
    # queens
    ("/api/queens/steps", {"n": 0}),
    ("/api/queens/steps", {"n": 17}),
    ("/api/queens/steps", {"n": 8, "count": 10**6}),
    ("/api/queens/steps", {"n": 8, "start": 10**9}),
    ("/api/queens/solutions", {"n": 13}),
    ("/api/queens/solutions", {"n": "8"}),
    ("/api/queens/count", {"n": 21}),
    ("/api/queens/count", {"n": 0}),
    # compare
    ("/api/compare", {"depth": 4}),  # no game
    ("/api/compare", {"game": "kalah", "depth": 13}),
    ("/api/compare", {"game": "kalah", "depth": 7, "engines": ["python"]}),
    ("/api/compare", {"game": "kalah", "strategies": ["quantum"]}),
    ("/api/compare", {"game": "kalah", "strategies": []}),
    ("/api/compare", {"game": "kalah", "engines": ["gpu"]}),
    ("/api/compare", {"game": "kalah", "playouts": 0}),
    ("/api/compare", {"game": "kalah", "playouts": 10**9}),
    ("/api/compare", {"game": "kalah", "options": {"pits": 40}}),
    ("/api/compare", {"game": "queens"}),
    ("/api/games/nim/compare", {"options": {"rows": "1"}, "moves": [1]}),  # game over
    (
        "/api/games/nim/compare",
        {"engines": ["numba"], "strategies": ["ordered", "minimax"], "depth": 13},
    ),
    ("/api/compare/options", {}),
    ("/api/games/chess/compare/options", {}),
    # the generic games API: games, options, positions, moves, levels
    ("/api/games/chess/position", {}),
    ("/api/games/queens/position", {}),
    ("/api/games/..%2f..%2fetc%2fpasswd/position", {}),
    ("/api/games/kalah/position", {"game": "nim"}),
    ("/api/games/kalah/position", {"options": {"pits": 13}}),
    ("/api/games/kalah/position", {"options": {"pits": 10**100}}),
    ("/api/games/kalah/position", {"options": {"pits": "six"}}),
    ("/api/games/kalah/position", {"options": {"pits": [6]}}),
    ("/api/games/kalah/position", {"options": {"rules": "chess"}}),
    ("/api/games/kalah/position", {"options": {"colour": "red"}}),
    ("/api/games/kalah/position", {"options": "pits=6"}),
    ("/api/games/kalah/position", {"moves": [9]}),  # B's pit on A's turn
    ("/api/games/kalah/position", {"moves": [-1]}),
    ("/api/games/kalah/position", {"moves": [2**60]}),
    ("/api/games/kalah/position", {"moves": [True]}),
    ("/api/games/kalah/position", {"moves": [1.0]}),
    ("/api/games/kalah/position", {"moves": "0 1 2"}),
    ("/api/games/kalah/position", {"moves": [0] * 6000}),
    ("/api/games/kalah/position", {"position": 42}),
    ("/api/games/kalah/position", {"position": "1 2 3"}),
    ("/api/games/kalah/position", {"position": "/etc/passwd"}),
    ("/api/games/kalah/position", {"position": "9" * 20_000}),
    ("/api/games/nim/position", {"options": {"rows": "3 " * 15}}),
    ("/api/games/nim/position", {"options": {"rows": "21"}}),
    ("/api/games/nim/position", {"options": {"rows": ""}}),
    ("/api/games/nim/position", {"options": {"rows": [[3]]}}),
    ("/api/games/nim/position", {"options": {"misere": "maybe"}}),
    ("/api/games/nim/position", {"options": {"rows": "1"}, "moves": [1, 1]}),  # after the end
    ("/api/games/nim/move", {}),
    ("/api/games/nim/move", {"move": "1"}),
    ("/api/games/nim/move", {"move": 1.5}),
    ("/api/games/nim/move", {"move": 4}),  # row 1 (3 chips): take 4
    ("/api/games/nim/move", {"move_text": "9 9"}),
    ("/api/games/nim/move", {"move_text": 9}),
    ("/api/games/nim/move", {"move_text": "x" * 1000}),
    ("/api/games/nim/move", {"options": {"rows": "1"}, "moves": [1], "move": 1}),
    ("/api/games/nim/program", {"level": "godlike"}),
    ("/api/games/nim/program", {"seconds": 0}),
    ("/api/games/nim/program", {"seconds": 1e9}),
    ("/api/games/nim/program", {"seconds": "fast"}),
    ("/api/games/nim/program", {"options": {"rows": "1"}, "moves": [1]}),  # game over
    ("/api/games/nim/hint", {"options": {"rows": "1"}, "moves": [1]}),
    ("/api/games/nim/analyse", {"top": 0}),
    ("/api/games/nim/analyse", {"top": 11}),
]


@pytest.mark.parametrize(
    ("path", "body"), BAD_REQUESTS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(BAD_REQUESTS)]
)
def test_bad_request(app_client: Client, path: str, body: dict[str, Any]) -> None:
    assert_refused(app_client.post(path, body), (400, 404, 413))
    still_serving(app_client)


# --- path-like names, unknown routes --------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/static/%2e%2e/%2e%2e/%2e%2e/pyproject.toml",
        "/static/..%2f..%2f..%2fpyproject.toml",
        "/static/%2e%2e%2fapp.py",
        "/static//etc/passwd",
        "/static/..%5c..%5capp.py",
        "/static/nothing.js",
        "/api/jobs/..%2f..%2fetc%2fpasswd",
        "/api/jobs/%2e%2e",
        "/etc/passwd",
        "/api/unknown",
        "/api/jobs/" + "a" * 200,
        "/static/kalah/%2e%2e/%2e%2e/web/app.py",
        "/static/nim/..%2fapi.py",
        "/static/queens/../api.py",
        "/api/games/nim",
        "/api/nim/unknown",
    ],
)
def test_path_like_names(app_client: Client, path: str) -> None:
    response = app_client.get(path)
    assert_refused(response, (400, 404))
    assert "[project]" not in response.text and "root:" not in response.text
    still_serving(app_client)


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/kalah/move",
        "/api/records/read",
        "/api/review",
        "/api/compare",
        "/api/games/nim/move",
        "/api/games/nim/hint",
        "/api/games/connect4/review",
    ],
)
def test_wrong_method(app_client: Client, path: str) -> None:
    assert_refused(app_client.get(path), (405,))
    still_serving(app_client)


# --- too many jobs -------------------------------------------------------------------------------

LONG_REVIEW = {"text": "Pits : 6\nSeeds : 6\n\n1) A: 0 1 B: 7\n", "depth": 40}


def test_many_jobs_at_once_get_a_busy_answer() -> None:
    client, web = make_client(max_jobs=2)
    c = Client(client, web)
    try:
        started = []
        for n in (19, 20):
            answer = c.post("/api/queens/count", {"n": n})
            assert answer.status_code == 202, answer.text
            started.append(answer.json()["job"])
        for n in (18, 17, 16):
            busy = c.post("/api/queens/count", {"n": n})
            assert_refused(busy, (429,))
            assert "busy" in busy.json()["error"]
        for job_id in started:
            cancelled = c.post(f"/api/jobs/{job_id}/cancel")
            assert cancelled.status_code == 200
            assert cancelled.json()["state"] in ("cancelled", "done")
        # the slots are free again
        again = c.post("/api/queens/count", {"n": 4})
        assert again.status_code == 202
        assert c.wait(again.json()["job"])["result"]["count"] == 2
        still_serving(c)
    finally:
        web.jobs.close()
        client.close()


def test_one_review_at_a_time() -> None:
    client, web = make_client()
    c = Client(client, web)
    try:
        first = c.post("/api/review", LONG_REVIEW)
        assert first.status_code == 202
        second = c.post("/api/review", LONG_REVIEW)
        assert_refused(second, (429,))
        c.post(f"/api/jobs/{first.json()['job']}/cancel")
    finally:
        web.jobs.close()
        client.close()


def test_the_error_answers_are_json(app_client: Client) -> None:
    response = app_client.post(KALAH_MOVE, {**KALAH, "move": 0})
    assert response.status_code == 200
    response = app_client.post(KALAH_MOVE, {**KALAH, "move": 9})
    assert response.headers["content-type"].startswith("application/json")
    assert json.loads(response.text)["error"].startswith("the move (9) is not a legal move")


def test_base_is_local() -> None:
    assert BASE.startswith("http://127.0.0.1:")


def test_a_bug_is_one_json_line_and_no_traceback(
    app_client: Client, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import boardgames.web.play

    def broken(*args: object) -> None:
        raise RuntimeError("/secret/path/on/the/server")

    monkeypatch.setattr(boardgames.web.play, "describe", broken)
    response = app_client.post(NIM, GOOD_NIM)
    assert response.status_code == 500
    assert response.json() == {"error": "internal error"}
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    monkeypatch.undo()
    still_serving(app_client)
