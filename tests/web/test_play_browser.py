"""The generic Play tab in a real browser: every registered two-player game that draws
itself (the ``svg`` capability) is played by clicking its ``data-move`` elements and by
the keyboard. A new game is checked by registering it.

Skipped where Playwright or Chromium is missing (see ``conftest.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from boardgames.core.capabilities import capabilities
from boardgames.core.registry import two_player
from tests.web.conftest import shot

pytestmark = pytest.mark.browser

DRAWN = sorted(n for n, spec in two_player().items() if "svg" in capabilities(spec.make()))
"""The registered two-player games with an SVG board (the Play tab plays them by clicks)."""
MUST_END = {"nim", "connect4"}
"""Games that end within :data:`LONG` moves of a person (the rest are played a few moves)."""
LONG, SHORT = 25, 8
PLAYABLE = "#g-board .playable"
"""The legal moves the person may click (Playwright's CSS reaches into the shadow root)."""


def new_game(
    page: Any, name: str, level: str = "easy", sides: tuple[str, str] = ("human", "program")
) -> None:
    """Choose ``name`` and start a game with its default options."""
    generation = int(page.get_attribute("#g-board", "data-generation") or 0)
    page.select_option("#g-level", level)
    page.select_option("#g-side0", sides[0])
    page.select_option("#g-side1", sides[1])
    if page.input_value("#g-game") != name:
        page.select_option("#g-game", name)
    else:
        page.click("#g-new")
    page.wait_for_function(
        "([name, n]) => { const b = document.querySelector('#g-board');"
        " return b.dataset.game === name && Number(b.dataset.generation) > n; }",
        arg=[name, generation],
    )


def moves(page: Any) -> int:
    return int(page.get_attribute("#g-board", "data-moves") or 0)


def over(page: Any) -> bool:
    return page.get_attribute("#g-board", "data-over") == "true"


def person_to_move_or_over(page: Any) -> None:
    page.wait_for_selector(f"{PLAYABLE}, #g-board[data-over=true]", timeout=20000)


def after(page: Any, count: int) -> None:
    """Wait until the game holds more than ``count`` moves."""
    page.wait_for_function(
        "n => Number(document.querySelector('#g-board').dataset.moves) > n", arg=count
    )


@pytest.fixture
def play_page(page: Any) -> Any:
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game")
    return page


@pytest.mark.parametrize("name", DRAWN)
def test_a_game_played_by_clicking_the_board(play_page: Any, name: str) -> None:
    page = play_page
    new_game(page, name)
    clicks = 0
    for clicks in range(1, (LONG if name in MUST_END else SHORT) + 1):  # noqa: B007
        person_to_move_or_over(page)
        if over(page):
            break
        before = moves(page)
        page.locator(PLAYABLE).first.click()
        after(page, before)
    person_to_move_or_over(page)
    shown = page.locator("#g-moves li").count()
    assert shown == moves(page) >= clicks - 1
    if name in MUST_END:
        assert over(page)
    if over(page):
        status = page.inner_text("#g-status")
        assert status.startswith("Game over. ") and (" wins " in status or "draw" in status)
        assert page.locator(PLAYABLE).count() == 0  # nothing to click any more
        assert page.is_disabled("#g-hint")


@pytest.mark.parametrize("name", DRAWN)
def test_a_game_played_with_the_keyboard(play_page: Any, name: str) -> None:
    """Tab reaches the board's legal moves; Enter and Space play the focused one, and the
    focus comes back to the board for the next move."""
    page = play_page
    new_game(page, name)
    page.focus("#g-new")
    page.keyboard.press("Tab")
    focused = "() => { const a = document.querySelector('#g-board').shadowRoot.activeElement;"
    focused += (
        " return a && a.classList.contains('playable') ? a.getAttribute('data-move') : null; }"
    )
    assert page.evaluate(focused) is not None
    for press in range(6):
        person_to_move_or_over(page)
        if over(page):
            break
        page.wait_for_function(focused)
        before = moves(page)
        page.keyboard.press("Enter" if press % 2 == 0 else " ")
        after(page, before)
    if name == "nim":  # the first chip of the first row takes the row: 3 rows, 3 turns
        person_to_move_or_over(page)
        assert over(page)


def test_hint_cancel_undo_analyse_and_the_program_on_both_sides(play_page: Any) -> None:
    page = play_page
    name = "kalah" if "kalah" in DRAWN else DRAWN[0]
    new_game(page, name, level="perfect")
    page.click("#g-hint")  # the perfect level thinks for seconds: Cancel stops it
    page.wait_for_selector("#g-cancel:visible")
    page.click("#g-cancel")
    page.wait_for_selector("#g-status:has-text('Hint cancelled.')", timeout=2000)
    assert page.is_hidden("#g-cancel") and page.is_enabled("#g-hint")
    page.select_option("#g-level", "easy")
    page.click("#g-hint")
    page.wait_for_selector("#g-said:has-text('Hint: ')")
    assert page.locator("#g-board .hint").count() == 1  # the hinted move is marked
    page.click("#g-analyse")
    page.wait_for_selector("#g-analysis tr[data-move]")
    assert page.locator("#g-analysis tr[data-move]").count() >= 1
    page.locator(PLAYABLE).first.click()
    after(page, 0)
    person_to_move_or_over(page)
    page.click("#g-undo")  # the person's move and the program's replies go back
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '0'")
    assert page.locator("#g-moves li").count() == 0
    shot(page, "play")
    if "nim" in DRAWN:  # the program on both sides plays a whole game by itself
        new_game(page, "nim", sides=("program", "program"))
        page.wait_for_selector("#g-board[data-over=true]", timeout=20000)
        assert page.inner_text("#g-status").startswith("Game over. ")
