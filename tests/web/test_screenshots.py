"""Screenshots of every tab of the page at desktop and phone width (``-m slow``): with
``BOARDGAMES_SCREENSHOTS=docs/images`` they become the pictures of docs/sections/serve.md
(``serve-tab-<tab>-desktop.png``, ``serve-tab-<tab>-phone.png``). Each tab shows some work:
Play an analysed Connect Four game, Review that game reviewed, Compare a comparison run,
a game's own tab as it opens. The page must stay within the phone's width."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import shot as save


def shot(page: Any, name: str) -> None:
    """The top of the page (where a phone's layout puts the board)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    save(page, name)


pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}
GAME = "connect4/444333"
"""Six discs: player 1 (a person by default) to move, so no program move starts."""


@pytest.fixture(params=list(SIZES))
def sized(request: Any, browser: Any, server: str) -> Iterator[tuple[str, Any]]:
    phone = request.param == "phone"
    ctx = browser.new_context(
        viewport=SIZES[request.param], is_mobile=phone, has_touch=phone,
        device_scale_factor=2 if phone else 1,
    )  # fmt: skip
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server)
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game")
    yield request.param, page
    ctx.close()
    assert errors == []


def test_every_tab_at_desktop_and_phone_width(sized: tuple[str, Any], server: str) -> None:
    size, page = sized
    base = server.split("/?")[0]
    page.goto(f"{base}/#{GAME}")
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '6'")
    page.select_option("#g-side0", "human")
    page.select_option("#g-side1", "human")
    page.select_option("#g-level", "medium")
    page.select_option("#g-deepen", "5")  # the analysis deepens for 5 s, then ends
    page.click("#g-analyse")
    page.wait_for_selector("#g-evalbar[data-state=done]", timeout=60000)
    shot(page, f"tab-play-{size}")
    tabs = page.eval_on_selector_all("nav button[data-tab]", "bs => bs.map(b => b.dataset.tab)")
    page.click("#g-review")
    page.wait_for_selector("#review.page.active")
    page.fill("#r-depth", "")  # by the time: the solver values what it can
    page.click("#r-start")
    page.wait_for_selector("#r-table tr[data-move='5']", timeout=60000)
    shot(page, f"tab-review-{size}")
    for tab in tabs:
        if tab in ("play", "review"):
            continue
        page.click(f"nav button[data-tab='{tab}']")
        page.wait_for_selector(f"#{tab}.page.active")
        if tab == "compare":
            page.click("#c-run")
            page.wait_for_function(
                "() => !document.querySelector('#c-run').disabled", timeout=120000
            )
        page.wait_for_timeout(500)
        shot(page, f"tab-{tab}-{size}")
        if size == "phone":
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, tab
