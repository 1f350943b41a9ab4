"""Every error is JSON for the API and a short HTML page for a person; text that JSON
allows but UTF-8 does not (a lone surrogate) is a 400, never a 500; the token cookie is
named after the server's port."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from boardgames.web.security import COOKIE, Receive, Scope, Send, cookie_name
from tests.web.conftest import BASE, ORIGIN, PORT, TOKEN, Client, make_client
from tests.web.test_hostile import POSTS, assert_refused, still_serving

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
"""What a browser asks for when it loads a page."""


@pytest.fixture
def bare() -> Iterator[TestClient]:
    """A client of the app without the token (no cookie)."""
    client, web = make_client()
    client.cookies.clear()
    yield client
    web.jobs.close()
    client.close()


def assert_page(response: object, status: int) -> str:
    assert response.status_code == status, response.text  # type: ignore[attr-defined]
    assert response.headers["content-type"].startswith("text/html")  # type: ignore[attr-defined]
    page = str(response.text)  # type: ignore[attr-defined]
    assert page.startswith("<!doctype html>") and f"<h1>{status} " in page
    assert "Traceback" not in page and "{" not in page.split("<body>")[1]
    return page


# --- lone surrogates: 400, never 500 --------------------------------------------------------------

SURROGATES = [
    b'{"text": "\\ud800"}',
    b'{"\\udc00": 1}',
    b'{"layout": [3, 4], "options": {"rows": "\\udfff"}, "moves": []}',
]


@pytest.mark.parametrize("body", SURROGATES, ids=["value", "key", "nested"])
@pytest.mark.parametrize("path", POSTS)
def test_a_lone_surrogate_is_a_400(app_client: Client, path: str, body: bytes) -> None:
    response = app_client.client.post(
        path, content=body, headers={**ORIGIN, "Content-Type": "application/json"}
    )
    assert_refused(response, (400,))
    assert "surrogate" in response.json()["error"]
    still_serving(app_client)


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/%ED%A0%80/position",
        "/api/games/%F0%9F%98%80/position",
        "/api/jobs/%ED%A0%80",
        "/static/%ED%A0%80.js",
        "/%ED%A0%80",
    ],
)
def test_a_surrogate_in_the_url_is_no_500(app_client: Client, path: str) -> None:
    response = app_client.post(path, {}) if path.endswith("position") else app_client.get(path)
    assert_refused(response, (400, 404, 405))
    still_serving(app_client)


def test_a_pair_of_surrogates_is_a_character(app_client: Client) -> None:
    body = b'{"options": {"rows": "3 4 5"}, "names": "\\ud83d\\ude00"}'
    response = app_client.client.post(
        "/api/games/nim/position",
        content=body,
        headers={**ORIGIN, "Content-Type": "application/json"},
    )
    assert response.status_code == 200


# --- HTML for a person, JSON for the API ----------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/static/common.js", "/static/style.css", "/anything"])
def test_without_the_token_a_browser_gets_a_page_saying_how(bare: TestClient, path: str) -> None:
    page = assert_page(bare.get(path, headers=HTML), 403)
    assert "<code>boardgames serve</code>" in page
    assert f"http://127.0.0.1:{PORT}/?token=..." in page
    assert TOKEN not in page


def test_a_wrong_token_in_the_url_is_a_page(bare: TestClient) -> None:
    page = assert_page(bare.get("/?token=nope", headers=HTML, follow_redirects=False), 403)
    assert "wrong token" in page and "?token=..." in page


@pytest.mark.parametrize(
    "host", ["evil.example", "127.0.0.1:9999", "localhost", "[::2]:8765", "a<b>.example"]
)
def test_a_foreign_host_is_a_page_for_a_person(app_client: Client, host: str) -> None:
    page = assert_page(app_client.client.get("/", headers={**HTML, "Host": host}), 421)
    assert "<b>" not in page  # the name is escaped


@pytest.mark.parametrize(
    "path", ["/nothing", "/static/nothing.js", "/<script>alert(1)</script>", "/static/../x"]
)
def test_a_missing_page_is_a_page(app_client: Client, path: str) -> None:
    page = assert_page(app_client.get(path, headers=HTML), 404)
    assert "<script>" not in page


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games/nim/move"),
        ("GET", "/api/nothing"),
        ("GET", "/api/jobs/nothing"),
        ("POST", "/api/games"),
        ("POST", "/api/games/chess/position"),
    ],
)
def test_the_api_answers_json_even_to_a_browser(app_client: Client, method: str, path: str) -> None:
    response = app_client.client.request(method, path, headers={**HTML, **ORIGIN}, json={})
    assert_refused(response, (400, 404, 405))


@pytest.mark.parametrize(
    "accept", ["*/*", "application/json", "text/event-stream", "", "text/plain", "image/*"]
)
def test_anything_but_a_page_load_gets_json(bare: TestClient, accept: str) -> None:
    assert_refused(bare.get("/", headers={"Accept": accept}), (403,))


def test_no_token_on_the_api_from_a_browser_is_json(bare: TestClient) -> None:
    assert_refused(bare.get("/api/games", headers=HTML), (403,))


def test_a_page_that_loads_is_still_html(app_client: Client) -> None:
    page = app_client.get("/", headers=HTML)
    assert page.status_code == 200 and "<title>boardgames</title>" in page.text


# --- the token cookie: named after the port -------------------------------------------------------


def test_the_cookie_carries_the_port_and_its_attributes(bare: TestClient) -> None:
    response = bare.get(f"/?token={TOKEN}", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"
    cookie = response.headers["set-cookie"]
    name, _, rest = cookie.partition("=")
    assert name == cookie_name(PORT) == f"{COOKIE}_{PORT}"
    attributes = {part.strip() for part in rest.split(";")[1:]}
    assert attributes == {"Path=/", "HttpOnly", "SameSite=Strict"}


@pytest.mark.parametrize(
    "cookie",
    [
        f"{COOKIE}={TOKEN}",  # the old name, shared by every port
        f"{cookie_name(PORT + 1)}={TOKEN}",  # another server's
        f"{cookie_name(PORT)}x={TOKEN}",
        f"x{cookie_name(PORT)}={TOKEN}",
        f"{cookie_name(PORT)} ={TOKEN}",
        f"{cookie_name(PORT).upper()}={TOKEN}",
        f"{cookie_name(PORT)}={TOKEN}x",
        f"{cookie_name(PORT)}=",
        cookie_name(PORT),
    ],
)
def test_only_this_ports_cookie_is_the_token(bare: TestClient, cookie: str) -> None:
    response = bare.get("/api/games", headers={"Cookie": cookie})
    assert_refused(response, (403,))


@pytest.mark.parametrize("first_wrong", [True, False])
def test_a_second_cookie_of_the_same_name_does_not_lock_the_page_out(
    bare: TestClient, first_wrong: bool
) -> None:
    """A page on another port may set a cookie of this name for the same host: the
    right one among them still opens the page."""
    name = cookie_name(PORT)
    pair = [f"{name}=planted", f"{name}={TOKEN}"]
    cookies = "; ".join(pair if first_wrong else pair[::-1])
    assert bare.get("/api/games", headers={"Cookie": cookies}).status_code == 200


def test_two_apps_on_two_ports_keep_their_own_cookies() -> None:
    """One browser (one cookie jar) and two servers on two ports of 127.0.0.1: the visit
    to the second does not log the first out, each reads its own cookie."""
    from boardgames.web.app import create_app

    other = PORT + 1
    guard_a, web_a = create_app(TOKEN, PORT)
    guard_b, web_b = create_app("other-token-456", other)

    async def by_port(scope: Scope, receive: Receive, send: Send) -> None:
        host = dict(scope.get("headers", [])).get(b"host", b"")
        target = guard_b if host.endswith(b":%d" % other) else guard_a
        await target(scope, receive, send)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        browser = TestClient(by_port, base_url=BASE, raise_server_exceptions=False)
    b = f"http://127.0.0.1:{other}"
    try:
        assert browser.get(f"{BASE}/?token={TOKEN}", follow_redirects=False).status_code == 303
        assert browser.get(f"{b}/?token=other-token-456", follow_redirects=False).status_code == 303
        assert {c.name for c in browser.cookies.jar} == {cookie_name(PORT), cookie_name(other)}
        assert browser.get(f"{BASE}/api/games").status_code == 200
        assert browser.get(f"{b}/api/games").status_code == 200
        # with the old shared name the second visit replaced the first server's token
        browser.cookies.clear()
        browser.cookies.set(COOKIE, "other-token-456", domain="127.0.0.1")
        assert browser.get(f"{BASE}/api/games").status_code == 403
    finally:
        web_a.jobs.close()
        web_b.jobs.close()
        browser.close()
