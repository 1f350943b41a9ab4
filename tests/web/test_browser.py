"""The page in a real browser: Playwright drives Debian's Chromium against the real server
(``boardgames serve --port 0 --no-browser`` in a subprocess, on 127.0.0.1 only). The Play,
Review and Compare tabs over every game: ``test_play_browser.py``; here Nim against
Bouton, the queens tab, fields, and a closed page.

Each test saves a screenshot ``serve-*.png`` to a temporary folder, or to the folder in
``BOARDGAMES_SCREENSHOTS`` (``BOARDGAMES_SCREENSHOTS=docs/images pytest tests/web -m
browser`` refreshes the README's). Skipped where Playwright or Chromium is missing;
never downloads a browser.
"""

from __future__ import annotations

import pytest

from tests.helpers import patience
from tests.web.conftest import ROOT, shot

pytestmark = pytest.mark.browser

STRANGE = ROOT / "docs" / "games" / "strange-game.txt"


def test_nim_the_hints_beat_bouton_to_the_end(page) -> None:
    """3 4 5 is unsafe: the person who plays the hinted moves (marked on the board) wins
    against Bouton, Nim's own player on the Play tab; the binary table beside the board
    shows Bouton leaving an odd column each time (a safe position has no safe move)."""
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game")
    page.evaluate("() => { document.querySelector('#g-speed').value = '0'; }")
    page.select_option("#g-side0", "human")
    page.select_option("#g-side1", "human")
    page.goto(page.url.split("#")[0] + "#nim/rows=3,4,5")
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game === 'nim'")
    page.select_option("#g-side1", "bouton")
    page.select_option("#g-level", "strong")
    page.uncheck("#g-auto")
    for _ in range(20):
        page.wait_for_selector("#g-board .playable, #g-board[data-over=true]", timeout=20000)
        if page.get_attribute("#g-board", "data-over") == "true":
            break
        played = int(page.get_attribute("#g-board", "data-moves") or 0)
        page.click("#g-hint")
        page.wait_for_selector("#g-board .hint.playable")
        page.locator("#g-board .hint.playable").click()
        page.wait_for_function(
            "n => Number(document.querySelector('#g-board').dataset.moves) >= n + 2"
            " || document.querySelector('#g-board').dataset.over === 'true'",
            arg=played,
        )
        if page.get_attribute("#g-board", "data-over") != "true":  # Bouton has no safe move
            assert page.get_attribute("#g-panel .nim-sum", "data-nim-sum") != "0"
    assert page.inner_text("#g-status").startswith("Game over. First player wins")
    assert page.locator("#g-board .playable").count() == 0


def test_a_bad_number_field_is_named_in_the_pages_words(page) -> None:
    """An empty or out-of-range field is refused in the page with its label's words (not
    the API's key, nor "got 0" for an empty field), and asks nothing of the server."""
    page.click("#tabs button[data-tab=queens]")
    page.fill("#q-cn", "")
    page.click("#q-count")
    assert (
        page.inner_text("#q-cstatus") == "N: give a whole number from 1 to 20 (the field is empty)"
    )
    assert page.get_attribute("#q-cn", "aria-invalid") == "true"
    page.fill("#q-cn", "21")
    page.click("#q-count")
    assert page.inner_text("#q-cstatus") == "N: give a whole number from 1 to 20 (not 21)"
    page.click("#tabs button[data-tab=review]")
    page.fill("#r-seconds", "")
    page.evaluate("() => reviewSource({game: 'nim', options: {}, moves: [1]}, 'a game')")
    page.click("#r-start")
    assert page.inner_text("#r-status") == (
        "Seconds a move: give a number from 0.05 to 60 (the field is empty)"
    )


def test_queens_stepped_to_the_first_solution_then_listed(page) -> None:
    page.click("#tabs button[data-tab=queens]")
    page.fill("#q-n", "8")
    page.dispatch_event("#q-n", "change")
    page.click("#q-step")  # the first step fetches the steps from the server
    page.wait_for_selector("#q-status:has-text('placed a queen in row 1, column 1')")
    page.click("#q-next")
    page.wait_for_selector("#q-status:has-text('solution 1: 1 5 8 6 3 7 2 4')", timeout=20000)
    assert page.locator("#q-board text:has-text('♛')").count() == 8
    page.click("#q-back")
    page.wait_for_selector("#q-status:has-text('Solutions so far: 0')")
    page.click("#q-step")
    page.click("#q-all")
    page.wait_for_selector("#q-list-title:has-text('92 solutions')")
    assert page.locator("#q-list .sol").count() == 92
    page.click("#q-fund")
    page.wait_for_selector("#q-list-title:has-text('12 fundamental solutions')")
    assert page.locator("#q-list .sol").count() == 12
    assert "class of 4 (rotation 180)" in page.inner_text("#q-list")
    shot(page, "queens")


def test_closing_the_event_stream_cancels_the_job(server: str) -> None:
    """Against the real server (uvicorn): a page that goes away stops its job within a
    second or so."""
    import time

    import httpx

    base = server.split("/?")[0]
    with httpx.Client(base_url=base, timeout=10) as client:
        assert client.get(server.replace(base, "")).status_code == 303  # token -> cookie
        origin = {"Origin": base}
        job_id = client.post("/api/queens/count", json={"n": 20}, headers=origin).json()["job"]
        with client.stream("GET", f"/api/jobs/{job_id}/events") as events:
            first = next(events.iter_lines())
            assert first.startswith("event: ")
        # the watchdog alone would take 3 s (on a busy machine: patience)
        deadline = time.monotonic() + min(patience(1.5), 2.9)
        state = "running"
        while time.monotonic() < deadline and state == "running":
            time.sleep(0.1)
            state = client.get(f"/api/jobs/{job_id}").json()["state"]
        assert state == "cancelled"
