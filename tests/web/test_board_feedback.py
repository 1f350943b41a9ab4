"""Issue 49's page behaviour in a real browser: the last move and the winning line marked
on the board, the keyboard focus kept on the column played, the evaluation bar's number
and the analysis's depth, and the phone layout (390 x 844: one column, the board first,
a game played by taps). Every test fails on a JavaScript error or a console error.

With ``BOARDGAMES_SCREENSHOTS`` set, the phone test saves ``serve-phone-play.png``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import shot

pytestmark = pytest.mark.browser

PLAYABLE = "#g-board .playable"
BOARD_SVG = "() => document.querySelector('#g-board').shadowRoot.querySelector('svg')"


def opened(browser: Any, server: str, **context: Any) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server)
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game")
    page.evaluate("() => { document.querySelector('#g-speed').value = '0'; }")
    return ctx, page, errors


@pytest.fixture
def desk(browser: Any, server: str) -> Iterator[Any]:
    ctx, page, errors = opened(browser, server, viewport={"width": 1200, "height": 800})
    yield page
    ctx.close()
    assert errors == []


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Any]:
    ctx, page, errors = opened(
        browser, server, viewport={"width": 390, "height": 844}, is_mobile=True,
        has_touch=True, device_scale_factor=2,
    )  # fmt: skip
    yield page
    ctx.close()
    assert errors == []


def start(page: Any, name: str, sides: tuple[str, str] = ("human", "easy")) -> None:
    generation = int(page.get_attribute("#g-board", "data-generation") or 0)
    if page.input_value("#g-game") != name:
        page.select_option("#g-game", name)
        page.wait_for_function(
            "n => document.querySelector('#g-board').dataset.game === 'connect4'"
            " && Number(document.querySelector('#g-board').dataset.generation) > n",
            arg=generation,
        )
        generation = int(page.get_attribute("#g-board", "data-generation") or 0)
    page.select_option("#g-level", "easy")
    for k, side in enumerate(sides):
        page.select_option(f"#g-side{k}", side)
    page.click("#g-new")
    page.wait_for_function(
        "n => Number(document.querySelector('#g-board').dataset.generation) > n", arg=generation
    )


def moves(page: Any) -> int:
    return int(page.get_attribute("#g-board", "data-moves") or 0)


def wait_moves(page: Any, n: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#g-board').dataset.moves) >= n", arg=n
    )


def test_the_last_move_and_the_winning_line_are_marked(desk: Any, server: str) -> None:
    page = desk
    start(page, "connect4", ("human", "human"))
    page.click(f'{PLAYABLE}[data-move="3"]')
    wait_moves(page, 1)
    last = page.evaluate(BOARD_SVG + ".querySelectorAll('.last-move').length")
    assert last >= 1  # the disc just played is ringed
    assert page.inner_text("#g-position") == "4"
    for col, n in ((4, 2), (3, 3), (4, 4), (3, 5), (4, 6), (3, 7)):
        page.click(f'{PLAYABLE}[data-move="{col}"]')
        wait_moves(page, n)
    page.wait_for_selector("#g-board[data-over=true]")
    wins = page.evaluate(BOARD_SVG + ".querySelectorAll('.mark-win').length")
    assert wins >= 1  # four in a line: column 4's four discs of player 1
    assert page.inner_text("#g-position") == "4545454"  # the order they were played in
    # the game's own colours: the bar and the move list's dots are the discs' red and yellow
    disc = page.evaluate(
        "() => getComputedStyle(document.querySelector('#g-board').shadowRoot"
        ".querySelector('svg .p1')).fill"
    )
    fill = page.evaluate(
        "() => getComputedStyle(document.querySelector('#g-evalbar .evalfill')).backgroundColor"
    )
    dot = page.evaluate(
        "() => getComputedStyle(document.querySelector('#g-moves .mv.p0 .who')).color"
    )
    assert disc == fill == dot == "rgb(214, 40, 40)"


def test_the_focus_stays_on_the_column_played(desk: Any) -> None:
    page = desk
    start(page, "connect4", ("human", "easy"))
    page.wait_for_selector(PLAYABLE)
    focused = (
        "() => { const a = document.querySelector('#g-board').shadowRoot.activeElement;"
        " return a ? a.getAttribute('data-move') : null; }"
    )
    page.focus(f'{PLAYABLE}[data-move="4"]')
    for n in (2, 4, 6):
        assert page.evaluate(focused) == "4"
        page.keyboard.press("Enter")
        wait_moves(page, n)  # the program answered
        page.wait_for_selector(PLAYABLE)
        page.wait_for_function(f"() => ({focused})() === '4'")  # column 5, not column 1


def test_the_bar_shows_its_number_and_the_analysis_its_depth(desk: Any, server: str) -> None:
    page = desk
    start(page, "connect4", ("human", "human"))
    page.click(f'{PLAYABLE}[data-move="3"]')
    wait_moves(page, 1)
    page.select_option("#g-level", "medium")
    page.click("#g-analyse")
    page.wait_for_selector("#g-evalbar[data-state=done]", timeout=30000)
    number = page.inner_text("#g-evalbar .evalnum")
    assert number and number[0] in "+-=", number
    words = page.get_attribute("#g-evalbar", "aria-valuetext") or ""
    assert "depth 3" in words or "exact" in words, words
    lines = page.eval_on_selector_all("#g-candidates td.line", "ts => ts.map(t => t.textContent)")
    assert lines and all(line.strip() for line in lines)  # each top move its own line


def test_a_phone_plays_a_game_by_taps_in_one_column(phone: Any) -> None:
    page = phone
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width  # nothing off the screen to the side
    start(page, "connect4", ("human", "easy"))
    board = page.locator("#g-board").bounding_box()
    setup = page.locator("#play .setup").bounding_box()
    assert board is not None and setup is not None
    assert board["y"] < setup["y"]  # the board first
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390
    for _ in range(25):
        page.wait_for_selector(f"{PLAYABLE}, #g-board[data-over=true]", timeout=20000)
        if page.get_attribute("#g-board", "data-over") == "true":
            break
        before = moves(page)
        page.locator(PLAYABLE).first.tap()
        wait_moves(page, before + 1)
    page.wait_for_selector("#g-board[data-over=true]", timeout=20000)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    if os.environ.get("BOARDGAMES_SCREENSHOTS"):
        shot(page, "phone-play")


def test_an_opened_link_is_not_merged_into_the_saved_game(desk: Any, server: str) -> None:
    page = desk
    base = server.split("/?")[0]
    stored = "() => JSON.parse(localStorage.getItem('boardgames.play')).tree.c.map(c => c.t)"
    # both sides people (kept for the links below): the program to move at the end of a
    # link's line would move, and its move would change the link the reload opens
    for k in (0, 1):
        page.select_option(f"#g-side{k}", "human")
    page.goto(f"{base}/#connect4/4,4,5")
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '3'")
    page.reload()  # the page's own link again: the saved game, as it was
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '3'")
    assert page.evaluate(stored) == ["4"]
    page.goto(f"{base}/#connect4/3,3")  # another game's link
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '2'")
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('boardgames.play')).tree.c.length === 1"
    )
    assert page.evaluate(stored) == ["3"]  # shown on its own, not a variation of 4 4 5
    assert page.locator("#g-moves .variation").count() == 0


@pytest.mark.slow
def test_perfect_plays_the_solvers_best_from_the_empty_board_to_the_end(desk: Any) -> None:
    """The program at ``perfect`` as the first player against a scripted second player
    (the centre-most free column, then outwards): every move it makes scores what the
    position's best column scores (the book's or the solver's scores of every column)."""
    from boardgames.connect4 import book as B
    from boardgames.connect4 import solver as S
    from boardgames.connect4.game import ConnectFour

    game = ConnectFour()
    page = desk
    page.select_option("#g-level", "perfect")
    start(page, "connect4", ("perfect", "human"))
    script = [3, 2, 4, 1, 5, 0, 6]
    played: list[int] = []
    while True:
        page.wait_for_selector(f"{PLAYABLE}, #g-board[data-over=true]", timeout=60000)
        line = page.evaluate("() => play.pos.moves.map(m => m.move)")
        for k in range(len(played), len(line)):  # the program's move: the best column's score
            state = game.initial_state()
            for m in line[:k]:
                state, _ = game.play(state, m)
            if k % 2 == 0:
                book = B.load_book(7, 6)
                scores = None if book is None else book.columns(book.geo.from_state(game, state))
                if scores is None:
                    scores, _ = S.analyse(game, state)
                best = max(v for v in scores if v is not None)
                assert scores[line[k]] == best, (line[:k], line[k] + 1, scores)
        played = list(line)
        if page.get_attribute("#g-board", "data-over") == "true":
            break
        state = game.initial_state()
        for m in played:
            state, _ = game.play(state, m)
        col = next(c for c in script if c in game.legal_moves(state))
        page.click(f'{PLAYABLE}[data-move="{col}"]')
        wait_moves(page, len(played) + 1)
    assert (
        "1 wins" in page.inner_text("#g-status")
        or "player 1" in page.inner_text("#g-status").lower()
    )
