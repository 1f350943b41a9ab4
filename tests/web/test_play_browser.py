"""The generic Play tab in a real browser, as an analysis board: every registered
two-player game that draws itself (the ``svg`` capability) is played by clicking its
``data-move`` elements and by the keyboard, kept in the address (a link that survives a
reload, copied, and the last game restored from the browser's storage), stepped through
with the keys, branched into variations, analysed (the evaluation bar, the best move
marked on the board, the best moves), read by a screen reader (the accessibility tree
names every move), and fed a bad file. A new game is checked by registering it.

Skipped where Playwright or Chromium is missing (see ``conftest.py``); every test fails on
a JavaScript error in the page (the ``page`` fixture). With ``BOARDGAMES_SCREENSHOTS`` set,
the analysis test saves ``serve-play-<game>.png`` there (an analysed position of each game).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from boardgames.core.capabilities import capabilities
from boardgames.core.registry import plugins, two_player
from tests.web.conftest import ROOT, shot

pytestmark = pytest.mark.browser

STRANGE = ROOT / "docs" / "games" / "strange-game.txt"
DRAWN = sorted(n for n, spec in two_player().items() if "svg" in capabilities(spec.make()))
"""The registered two-player games with an SVG board (the Play tab plays them by clicks)."""


def one_by_default(offset: int) -> list[Any]:
    """Every drawn game, one of them (a different one for each test) in the default run
    and the others under ``-m slow``, to keep the default run short; together the tests
    still check every game by default."""
    chosen = DRAWN[offset % len(DRAWN)]
    return [pytest.param(n, marks=() if n == chosen else pytest.mark.slow) for n in DRAWN]


MUST_END = {"nim", "connect4"}
"""Games that end within :data:`LONG` moves of a person (the rest are played a few moves)."""
LONG, SHORT = 25, 6
PLAYABLE = "#g-board .playable"
"""The legal moves the person may click (Playwright's CSS reaches into the shadow root)."""
OPTIONS = {
    "nim": ("rows=2,3,4,misere=on", {"rows": "2,3,4", "misere": "on"}),
    "kalah": ("seeds=4", {"seeds": 4}),
}
"""Options other than the defaults for the links of these games, as a link writes them and
as values (the other games: their defaults)."""
SCALE = 20
"""The page's bar: a heuristic score of +SCALE fills 72% for its side (95% at most)."""


# --- helpers -------------------------------------------------------------------------------------


def base_of(server: str) -> str:
    return server.split("/?")[0]


def line_of(name: str, length: int) -> tuple[str, list[int], list[str]]:
    """A line of ``length`` moves of game ``name`` (the middle legal move each time, with
    the options of :data:`OPTIONS`): its link's fragment, its moves and their texts."""
    words, values = OPTIONS.get(name, ("", {}))
    game = plugins()[name].make(**values)
    state, moves = game.initial_state(), []
    for _ in range(length):
        legal = game.legal_moves(state)
        if not legal or game.outcome(state) is not None:
            break
        move = legal[len(legal) // 2]
        moves.append(move)
        state, _ = game.play(state, move)
    texts = [game.format_move(m) for m in moves]
    fragment = "/".join(part for part in (name, words, ",".join(texts)) if part)
    return fragment, moves, texts


def key(moves: list[int]) -> str:
    return ",".join(map(str, moves))


def shown(page: Any, moves: list[int], timeout: float = 10000) -> None:
    """Wait until the board shows the position after ``moves``."""
    page.wait_for_function(
        "k => document.querySelector('#g-board').dataset.key === k", arg=key(moves),
        timeout=timeout,
    )  # fmt: skip


def fragment(page: Any) -> str:
    return unquote(page.url.split("#", 1)[1]) if "#" in page.url else ""


def open_link(page: Any, server: str, link: str, moves: list[int]) -> None:
    page.goto(f"{base_of(server)}/#{link}")
    page.wait_for_function(
        "g => document.querySelector('#g-board').dataset.game === g", arg=link.split("/")[0]
    )
    shown(page, moves)


def people(page: Any) -> None:
    """Both sides played by a person: the program moves only when asked."""
    frames_off(page)
    page.select_option("#g-side0", "human")
    page.select_option("#g-side1", "human")


def frames_off(page: Any) -> None:
    """Moves shown at once, not frame by frame (a game's animation: Kalah's sowing)."""
    page.evaluate("() => { document.querySelector('#g-speed').value = '0'; }")


def generation_of(page: Any) -> int:
    return int(page.get_attribute("#g-board", "data-generation") or 0)


def started(page: Any, name: str, generation: int) -> None:
    page.wait_for_function(
        "([name, n]) => { const b = document.querySelector('#g-board');"
        " return b.dataset.game === name && Number(b.dataset.generation) > n; }",
        arg=[name, generation],
    )


def new_game(
    page: Any, name: str, level: str = "easy", sides: tuple[str, str] | None = None
) -> None:
    """Choose ``name`` and start a game with its default options, a person against the
    program at ``level`` unless ``sides`` names the players (a game's own players too:
    the sides' menus are the game's)."""
    frames_off(page)
    page.select_option("#g-level", level)
    if page.input_value("#g-game") != name:
        generation = generation_of(page)
        page.select_option("#g-game", name)
        started(page, name, generation)
    generation = generation_of(page)
    for k, side in enumerate(sides or ("human", level)):
        page.select_option(f"#g-side{k}", side)
    page.click("#g-new")
    started(page, name, generation)


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


def main_line(page: Any) -> list[str]:
    """The main line's moves in their notation, as the list names them."""
    labels = page.eval_on_selector_all(
        "#g-moves ol.main > li > button.mv", "bs => bs.map(b => b.getAttribute('aria-label'))"
    )
    return [label.split(": ", 1)[1] for label in labels]


@pytest.fixture
def play_page(page: Any) -> Any:
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game")
    frames_off(page)
    return page


# --- playing ---------------------------------------------------------------------------------


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
    shown_moves = page.locator("#g-moves li").count()
    assert shown_moves == moves(page) >= clicks - 1
    if name in MUST_END:
        assert over(page)
    if over(page):
        status = page.inner_text("#g-status")
        assert status.startswith("Game over. ") and (" wins " in status or "draw" in status)
        assert page.locator(PLAYABLE).count() == 0  # nothing to click any more
        assert page.is_disabled("#g-hint")
        bar = page.locator("#g-evalbar")  # the bar shows the result
        assert bar.get_attribute("data-state") == "over"
        assert bar.get_attribute("aria-valuetext") in status


@pytest.mark.parametrize("name", DRAWN)
def test_keyboard_play_and_what_a_screen_reader_hears(play_page: Any, name: str) -> None:
    """Every legal move is a button of the accessibility tree named after the move's
    notation; Tab reaches them with a visible focus, Enter and Space play the focused one
    and the focus comes back to the board; the arrow keys step back from the board."""
    page = play_page
    new_game(page, name)
    legal = {m["move"]: m["text"] for m in page.evaluate("() => play.pos.legal")}
    labelled = page.eval_on_selector_all(
        PLAYABLE, "els => els.map(e => [Number(e.dataset.move), e.getAttribute('aria-label')])"
    )
    assert sorted(move for move, _ in labelled) == sorted(legal)
    for move, label in labelled:  # each named after its move's notation
        assert label.startswith("play ") and legal[move] in label.split("(")[0], (label, move)
    tree = page.locator("#g-board").aria_snapshot()
    assert re.findall(r'button "([^"]+)"', tree) == [label for _, label in labelled]
    whole = page.locator("#play").aria_snapshot()
    assert 'meter "Evaluation' in whole and 'button "Analyse"' in whole
    assert 'checkbox "Auto-analyse"' in whole and 'button "Copy link"' in whole
    for region in ("#g-status", "#g-said", "#g-eval-words"):  # what is said out loud
        assert page.get_attribute(region, "aria-live") == "polite"
    assert page.get_attribute("#g-error", "role") == "alert"
    page.focus("#g-new")
    page.keyboard.press("Tab")
    focused = "() => { const a = document.querySelector('#g-board').shadowRoot.activeElement;"
    focused += (
        " return a && a.classList.contains('playable') ? a.getAttribute('data-move') : null; }"
    )
    assert page.evaluate(focused) is not None
    outline = page.evaluate(
        "() => getComputedStyle(document.querySelector('#g-board').shadowRoot.activeElement)"
        ".outlineStyle"
    )
    assert outline == "solid"  # the focus can be seen
    for press in range(4):
        person_to_move_or_over(page)
        if over(page):
            break
        page.wait_for_function(focused)
        before = moves(page)
        page.keyboard.press("Enter" if press % 2 == 0 else " ")
        after(page, before)
    person_to_move_or_over(page)
    played = moves(page)
    assert played >= 2 and page.locator("#g-moves button.mv").count() == played
    tree = page.locator("#g-moves").aria_snapshot()  # the moves are named for a listener
    assert re.search(r'button "move 1, [^"]+: [^"]+"', tree), tree
    if not over(page):
        page.wait_for_function(focused)
        page.keyboard.press("ArrowLeft")  # from the board itself
        page.wait_for_function(
            "n => Number(document.querySelector('#g-board').dataset.moves) === n",
            arg=played - 1,
        )


# --- the address, the link and the browser's storage ------------------------------------------


@pytest.mark.parametrize("name", one_by_default(0))
def test_the_link_round_trips_survives_a_reload_and_is_copied(
    play_page: Any, server: str, name: str
) -> None:
    page = play_page
    link, line, texts = line_of(name, 4)
    open_link(page, server, link, line)
    assert fragment(page) == link  # the page writes the link it was given
    assert page.locator("#g-moves ol.main > li").count() == len(line)
    assert main_line(page) == texts
    page.keyboard.press("ArrowLeft")  # the move shown is in the link
    shown(page, line[:-1])
    assert fragment(page) == f"{link}/{len(line) - 1}"
    page.reload()
    shown(page, line[:-1])
    assert page.get_attribute("#g-board", "data-line") == str(len(line))
    assert fragment(page) == f"{link}/{len(line) - 1}"
    base = base_of(server)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page.click("#g-copy")
    page.wait_for_selector("#g-said:has-text('Link copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == page.url
    copied = page.url
    page.goto(f"{base}/")  # no fragment: the last game, from the browser's storage
    shown(page, line[:-1])
    assert page.url == copied
    if name == "connect4":  # a position in the game's notation: the moves that write it
        open_link(page, server, "connect4/4453", [3, 3, 4, 2])
        assert fragment(page) == "connect4/4,4,5,3"


@pytest.mark.parametrize("name", one_by_default(1))
def test_stepping_with_the_keys_and_a_variation_promoted_then_dropped(
    play_page: Any, server: str, name: str
) -> None:
    page = play_page
    people(page)
    link, line, texts = line_of(name, 4)
    open_link(page, server, link, line)
    page.keyboard.press("Home")
    shown(page, [])
    assert page.is_disabled("#g-back") and page.is_enabled("#g-forward")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shown(page, line[:2])
    page.keyboard.press("End")
    shown(page, line)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    shown(page, line[:1])
    other = next(
        int(m)
        for m in page.eval_on_selector_all(PLAYABLE, "els => els.map(e => e.dataset.move)")
        if int(m) != line[1]
    )
    page.locator(f"{PLAYABLE}[data-move='{other}']").click()  # another move: a variation
    shown(page, [line[0], other])
    main = page.locator("#g-moves ol.main > li")
    assert main.count() == len(line)  # the main line is kept
    assert main.nth(1).locator(".variation").count() == 1  # indented under move 2
    assert page.locator("#g-moves .variation button.mv.current").count() == 1
    assert page.get_attribute("#g-board", "data-line") == "2"
    assert fragment(page).endswith(f"{texts[0]},{page.evaluate('() => play.node.text')}")
    page.keyboard.press("ArrowLeft")  # back to the branch, then on along the main line
    shown(page, line[:1])
    page.keyboard.press("ArrowRight")
    shown(page, line[:2])
    assert page.is_hidden("#g-moves .variation [data-action=promote]")  # on a small menu
    page.click("#g-moves .variation .vmenu summary")
    page.click("#g-moves .variation [data-action=promote]")
    assert main.count() == 2  # the variation is the main line now
    assert main_line(page)[1] == page.evaluate("() => play.root.children[0].children[0].text")
    moved = page.locator("#g-moves .variation button.mv")
    assert moved.count() == len(line) - 1  # the old main line, from move 2 on
    assert moved.nth(0).get_attribute("aria-current") == "step"  # still shown
    page.click("#g-moves .variation .vmenu summary")
    page.click("#g-moves .variation [data-action=drop]")  # the move shown goes with it
    shown(page, line[:1])
    assert page.locator("#g-moves .variation").count() == 0
    assert main.count() == 2
    page.reload()  # the variations are kept in the browser's storage with the game
    shown(page, line[:1])
    assert page.locator("#g-moves ol.main > li").count() == 2


# --- the analysis --------------------------------------------------------------------------------


def bar_share(answer: dict[str, Any]) -> float:
    first = answer["value"] if answer["player"] == 0 else -answer["value"]
    if abs(first) > 5e8:
        return 1.0 if first > 0 else 0.0
    return 0.5 + 0.45 * first / (abs(first) + SCALE)


PICTURES = {
    "connect4": ("connect4/4,4,5,3,3,5,4,3,4,7,5,5,7,4,7,5,5,7", "strong"),
    "kalah": ("kalah/seeds=4/2,0,9,12,4", "medium"),
    "nim": ("nim/2 1", "strong"),
}
"""The positions analysed and their levels (pictured for the README as
``serve-play-<game>.png``: Connect Four's and Nim's values are proved)."""
ANALYSED = (
    "() => { const b = document.querySelector('#g-evalbar');"
    " return b.dataset.state === 'done'"
    " && b.dataset.key === document.querySelector('#g-board').dataset.key; }"
)
"""The position shown is analysed."""


@pytest.mark.parametrize("name", one_by_default(2))
def test_the_analysis_fills_the_bar_marks_the_best_move_and_lists_the_best(
    play_page: Any, server: str, name: str
) -> None:
    page = play_page
    page.set_viewport_size({"width": 1280, "height": 760})  # the README's pictures
    people(page)
    assert not page.is_checked("#g-auto")  # off by default at a level that thinks for seconds
    page.select_option("#g-level", "easy")
    assert page.is_checked("#g-auto")  # on by default at a quick one
    link, level = PICTURES.get(name) or (line_of(name, 3)[0], "easy")
    page.select_option("#g-level", level)
    page.uncheck("#g-auto")  # the person's choice, from now on
    page.select_option("#g-deepen", "5")  # each analysis deepens for 5 s at most, then ends
    length = link.rsplit("/", 1)[1].count(",") + 1
    page.goto(f"{base_of(server)}/#{link}/{length - 1}")  # the move before the last shown
    page.wait_for_function(
        "n => { const b = document.querySelector('#g-board');"
        " return b.dataset.moves === String(n - 1) && b.dataset.line === String(n); }",
        arg=length,
    )
    bar = page.locator("#g-evalbar")
    assert bar.get_attribute("data-state") == "none"
    assert page.inner_text("#g-eval-words").startswith("Not analysed")
    assert page.locator("#g-board .best").count() == 0
    page.click("#g-analyse")
    page.wait_for_function(ANALYSED, timeout=20000)
    answer = page.evaluate("() => analysisOf(play.node)")
    legal = page.evaluate("() => play.pos.legal.length")
    rows = page.locator("#g-candidates tr[data-move]")
    assert rows.count() == min(3, legal) == len(answer["moves"])
    assert rows.first.get_attribute("data-move") == str(answer["move"])
    best = page.locator("#g-board .best")  # the best move marked on the board
    assert best.count() == 1 and best.get_attribute("data-move") == str(answer["move"])
    words = f"{answer['player_name'][0].upper()}{answer['player_name'][1:]} to move: "
    words += answer["words"]
    assert page.inner_text("#g-eval-words").startswith(words)
    deep = answer["depth_text"]  # how deep it looked: "exact", "depth 3", ...
    assert bar.get_attribute("aria-valuetext") == words + ("" if deep == "exact" else f", {deep}")
    assert page.inner_text("#g-evalbar .evalnum") == answer["bar_text"]  # the bar's number
    assert re.fullmatch(
        r".+ \(exact\)|.+ by at least \d+|[-+]\d+ \(estimate\)|not proved in the time",
        answer["words"],
    )
    assert float(bar.get_attribute("data-share") or "nan") == pytest.approx(
        bar_share(answer), abs=1e-3
    )
    assert page.inner_text("#g-bestline") == "Best line: " + "  ".join(answer["pv"])
    shown_words = page.inner_text("#g-analysis").split("How it was found")[0]
    for jargon in ("positions", "numba", "python", "solver"):  # kept in the fold
        assert jargon not in shown_words
    if deep != "exact":  # how deep an estimate looked is said (issue 49)
        assert f", {deep}. " in shown_words
    before = page.get_attribute("#g-board", "data-key") or ""
    page.check("#g-auto")  # from now on each position shown is analysed by itself
    page.keyboard.press("ArrowRight")
    page.wait_for_function("k => document.querySelector('#g-board').dataset.key !== k", arg=before)
    page.wait_for_function(ANALYSED, timeout=20000)
    assert page.locator("#g-board .best").count() == 1
    end = page.get_attribute("#g-board", "data-key") or ""
    page.keyboard.press("ArrowLeft")  # analysed already
    shown(page, [int(m) for m in before.split(",") if m])
    page.wait_for_function(ANALYSED)
    main = end.split(",")[-1]
    other = page.locator(f"#g-candidates tr[data-move]:not([data-move='{main}'])").first
    if other.count():  # a best move other than the game's, played from the list: a variation
        chosen = other.get_attribute("data-move") or ""
        other.locator("button").click()
        shown(page, [int(m) for m in f"{before},{chosen}".strip(",").split(",")])
        assert page.locator("#g-moves .variation").count() == 1
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")  # the game's move again: analysed already
    page.wait_for_function(ANALYSED, timeout=20000)
    assert page.get_attribute("#g-board", "data-key") == end
    page.wait_for_timeout(400)  # the bar's transition
    page.click("#g-title")  # no focus ring in the picture
    shot(page, f"play-{name}")


def test_cancel_a_hint_or_an_analysis_take_back_and_the_program_on_both_sides(
    play_page: Any,
) -> None:
    page = play_page
    name = "kalah" if "kalah" in DRAWN else DRAWN[0]
    new_game(page, name, level="perfect")
    page.click("#g-hint")  # the perfect level thinks for seconds: Cancel stops it
    page.wait_for_selector("#g-cancel:visible")
    page.click("#g-cancel")
    page.wait_for_selector("#g-status:has-text('Hint cancelled.')", timeout=2000)
    assert page.is_hidden("#g-cancel") and page.is_enabled("#g-hint")
    page.click("#g-analyse")  # an analysis is cancelled just the same
    page.wait_for_selector("#g-analysis-cancel:visible")
    assert re.fullmatch(r"Analysing…|.+ Deepening…", page.inner_text("#g-eval-words"))
    assert page.get_attribute("#g-evalbar", "data-state") in ("running", "deepening")
    page.click("#g-analysis-cancel")
    page.wait_for_selector("#g-eval-words:has-text('Analysis cancelled.')", timeout=2000)
    assert page.is_hidden("#g-analysis-cancel") and page.is_enabled("#g-analyse")
    page.click("#g-analyse")  # again: a move meanwhile cancels it, never blocked by it
    page.wait_for_selector("#g-analysis-cancel:visible")
    page.select_option("#g-side1", "human")
    page.locator(PLAYABLE).last.click()
    after(page, 0)
    assert page.is_hidden("#g-analysis-cancel")
    assert page.get_attribute("#g-evalbar", "data-state") == "none"
    page.keyboard.press("ArrowLeft")
    page.select_option("#g-side1", "easy")
    page.select_option("#g-level", "easy")
    page.uncheck("#g-auto")
    page.click("#g-hint")
    page.wait_for_selector("#g-said:has-text('Hint for ')")
    assert page.locator("#g-board .hint").count() == 1  # the hinted move is marked
    page.locator(PLAYABLE).last.click()  # (not Kalah's first pit: an extra turn)
    after(page, 0)
    person_to_move_or_over(page)
    said = page.inner_text("#g-said")
    assert " (easy) played " in said and "Its value for " in said
    page.click("#g-undo")  # the person's move and the program's replies go back
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '0'")
    assert page.locator("#g-moves li").count() == 0 and page.is_disabled("#g-forward")
    if "nim" in DRAWN:  # the program on both sides plays a whole game by itself
        new_game(page, "nim", sides=("easy", "easy"))
        page.wait_for_selector("#g-board[data-over=true]", timeout=20000)
        assert page.inner_text("#g-status").startswith("Game over. ")


# --- records, uploads and errors ----------------------------------------------------------------


@pytest.mark.parametrize("name", one_by_default(3))
def test_a_bad_upload_is_one_line_at_once_and_wipes_nothing(
    play_page: Any, server: str, name: str, tmp_path: Path
) -> None:
    page = play_page
    people(page)
    link, line, texts = line_of(name, 3)
    open_link(page, server, link, line)
    before = main_line(page)
    picture = tmp_path / "board.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    page.set_input_files("#g-file", str(picture))
    page.wait_for_selector("#g-error:visible")
    assert page.inner_text("#g-error") == (
        "board.png was not opened: it is a PNG picture, not a game record"
    )
    assert main_line(page) == before and fragment(page) == link
    shown(page, line)
    notes = tmp_path / "notes.txt"  # text, but no game: the server's one line
    notes.write_text("hello there\n")
    page.set_input_files("#g-file", str(notes))
    page.wait_for_selector("#g-error:has-text('notes.txt was not opened: neither moves')")
    assert "\n" not in page.inner_text("#g-error") and "{" not in page.inner_text("#g-error")
    assert main_line(page) == before
    with page.expect_download() as download:  # the page's own record opens again
        page.click("#g-download")
    record = tmp_path / "game.txt"
    download.value.save_as(record)
    assert download.value.suggested_filename in (f"{name}-game.txt", f"{name}-game.klh")
    assert texts[-1] in record.read_text()  # the moves are in it: it opens again below
    page.keyboard.press("Home")
    shown(page, [])
    page.set_input_files("#g-file", str(record))
    shown(page, line)
    assert page.is_hidden("#g-error") and page.inner_text("#g-said").startswith("Opened game.txt")
    plain = tmp_path / "plain.txt"  # no comment lines: the game and options of the form
    plain.write_text("\n".join(texts[:2]) + "\n")
    page.set_input_files("#g-file", str(plain))
    shown(page, line[:2])
    page.set_input_files("#g-file", str(record))
    shown(page, line)
    page.fill("#g-move", "no such move")  # an API error: one line, never its JSON
    page.press("#g-move", "Enter")
    page.wait_for_selector("#g-error:visible")
    error = page.inner_text("#g-error")
    assert error and not error.lstrip().startswith("{") and "\n" not in error
    shown(page, line)
    page.fill("#g-record", ", ".join(texts[:2]))  # a record pasted as text
    page.click("#g-new")
    shown(page, line[:2])


def test_an_empty_field_is_required_and_a_bad_link_is_one_line(play_page: Any, server: str) -> None:
    page = play_page
    name = "kalah" if "kalah" in DRAWN else DRAWN[0]
    new_game(page, name)
    first = page.locator("#g-options input:not([type=checkbox])").first
    label = page.evaluate("e => e.dataset.help", first.element_handle())
    first.fill("")
    page.click("#g-new")
    page.wait_for_selector("#g-error:visible")
    assert page.inner_text("#g-error") == f"{label[0].upper()}{label[1:]}: required"
    assert first.get_attribute("aria-invalid") == "true"
    page.goto(f"{base_of(server)}/#chess/e4")
    page.wait_for_selector("#g-error:has-text('there is no game \"chess\" here')")


# --- a game's extras: Kalah's sowing and records, Nim's binary table -----------------------------


def test_kalah_sown_stone_by_stone_and_its_record(
    play_page: Any, server: str, tmp_path: Path
) -> None:
    """A sowing is shown frame by frame (the server's pictures: the pit emptied, a stone
    into each hole), the program's reply too; nothing can be played meanwhile. The record
    downloads as a .klh file that ``kalah replay`` reads and the page opens again."""
    page = play_page
    people(page)
    open_link(page, server, "kalah/pits=4,seeds=3", [])
    assert page.is_visible("#g-speed")
    page.select_option("#g-speed", "260")
    page.select_option("#g-side1", "easy")
    page.locator(f"{PLAYABLE}[data-move='0']").click()  # 3 stones: pits 1, 2, 3
    page.wait_for_selector("#g-board[data-animating=true]")
    assert page.locator(PLAYABLE).count() == 0  # the frames cannot be clicked
    assert page.locator("#g-board svg.sowing").count() == 1
    page.wait_for_function("() => document.querySelector('#g-board').dataset.frame === '3'")
    shot(page, "kalah")  # a sowing under way: the pit it was sown from, the stones dropped
    page.wait_for_function("() => document.querySelector('#g-board').dataset.animations === '2'",
                           timeout=20000)  # fmt: skip
    person_to_move_or_over(page)
    assert page.get_attribute("#g-board", "data-frames") is not None
    assert page.locator("#g-board svg.sowing").count() == 0  # the position again
    said = page.inner_text("#g-said")
    assert said.startswith("B (easy) played "), said
    line = main_line(page)
    assert line[0] == "0" and len(line) >= 2
    with page.expect_download() as download:
        page.click("#g-download")
    assert download.value.suggested_filename == "kalah-game.klh"
    path = tmp_path / "game.klh"
    download.value.save_as(path)
    text = path.read_text()
    assert "Player A : human\nPlayer B : program easy\n" in text and "1) A: 0 B: " in text
    from boardgames.cli import cli

    result = CliRunner().invoke(cli, ["kalah", "replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    replayed = json.loads(result.stdout)
    assert replayed["moves"][0]["pits"] == [0]
    frames_off(page)
    page.select_option("#g-side1", "human")
    page.keyboard.press("Home")
    shown(page, [])
    page.set_input_files("#g-file", str(path))  # the .klh opens as the same game
    page.wait_for_selector("#g-said:has-text('Opened game.klh: 2 turns (A: human')")
    assert main_line(page) == line


def test_the_classic_printout_opens_on_the_play_tab(play_page: Any) -> None:
    """The strange game (a .txt file in the classic Russian printout) is Kalah's: read by
    Kalah's extras whatever game the form shows, played to its end."""
    page = play_page
    people(page)
    page.set_input_files("#g-file", str(STRANGE))
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game === 'kalah'")
    page.wait_for_selector("#g-board[data-over=true]")
    assert page.locator("#g-moves ol.main > li").count() == 45
    assert page.inner_text("#g-status") == "Game over. B wins (margin 8)."


def test_nims_binary_table_beside_the_board_and_bouton(play_page: Any, server: str) -> None:
    """Nim's side panel is its binary table; Bouton (Nim's own player, in the sides'
    menu) always leaves every column even. Connect Four has no such panel."""
    page = play_page
    open_link(page, server, "connect4", [])
    assert page.is_hidden("#g-panel") and page.is_hidden("#g-speed")
    people(page)
    open_link(page, server, "nim/rows=3,4,5", [])
    assert page.inner_text("#g-panel-title") == "Binary table"
    assert page.get_attribute("#g-panel .nim-sum", "data-nim-sum") == "2"
    assert page.locator("#g-side1 option[value=bouton]").count() == 1
    page.select_option("#g-side1", "bouton")
    assert "bouton" in page.inner_text("#g-side-notes").lower()
    page.locator(f"{PLAYABLE}").first.click()
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '2'")
    person_to_move_or_over(page)
    assert page.inner_text("#g-said").startswith("Second player (bouton) played ")
    assert page.get_attribute("#g-panel .nim-sum", "data-nim-sum") == "0"
    rows = page.locator("#g-panel tr[data-row]")
    assert rows.count() == 3
    shot(page, "nim")


# --- the Review and Compare tabs, over any game ---------------------------------------------------

C4_GAME = "connect4/4,4,5,3,1,7"
"""A short Connect Four game whose fifth move (1) lets the opponent's threat stand."""


def test_review_of_connect_four(play_page: Any, server: str) -> None:
    """The game on the Play tab reviewed move by move: the graph's points and the table's
    rows are the library's verdicts (core.review at the same depth), the position before
    a move shows the move played and the best one."""
    from boardgames.core.registry import make_game
    from boardgames.core.review import review_game

    page = play_page
    people(page)
    open_link(page, server, C4_GAME, [3, 3, 4, 2, 0, 6])
    page.click("#g-review")
    page.wait_for_selector("#review.page.active")
    assert "Connect Four, 6 moves" in page.inner_text("#r-source")
    page.fill("#r-depth", "3")
    page.click("#r-start")
    page.wait_for_selector("#r-table tr[data-move='6']", timeout=60000)
    game = make_game("connect4")
    library = review_game(game, [3, 3, 4, 2, 0, 6], depth=3)
    points = page.eval_on_selector_all(
        "#r-graph g.point", "gs => gs.map(g => [Number(g.dataset.move), g.dataset.verdict])"
    )
    assert points == [[r.number, r.verdict] for r in library]
    glyphs = {"best": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for r in library:  # the move list marks the mistakes as chess players do
        cell = page.locator(f"#r-table tr[data-move='{r.number}'] td").nth(2).inner_text()
        assert cell == f"{game.format_move(r.move)}{glyphs[r.verdict]}", (cell, r.verdict)
    assert page.inner_text("#r-status").startswith("6 moves, ")
    worst = max(library, key=lambda r: (("best", "inaccuracy", "mistake", "blunder")
                                        .index(r.verdict), r.loss or 0))  # fmt: skip
    assert page.locator("#r-table tr.sel td").first.inner_text() == str(worst.number)
    page.click("#r-graph g.point[data-move='5']")
    assert page.inner_text("#r-pos-title").startswith("Move 5: player 1 played 1")
    assert page.locator("#r-board .hint").get_attribute("data-move") == "0"
    assert library[4].verdict in page.inner_text("#r-detail")
    if library[4].best != 0:
        assert page.locator("#r-board .best").get_attribute("data-move") == str(library[4].best)
    assert "for the player who moved" in page.inner_text("#r-note")
    shot(page, "review")


def test_a_file_that_is_no_record_is_refused_on_the_review_tab(
    play_page: Any, tmp_path: Path
) -> None:
    """Chosen as a record, a picture is refused at once in one line naming the file; the
    record chosen before stays; a record without moves says so."""
    page = play_page
    page.click("#tabs button[data-tab=review]")
    page.set_input_files("#r-open", str(STRANGE))
    page.wait_for_function(
        "() => document.querySelector('#r-status').textContent.startsWith('Ready')"
    )
    assert "Kalah, 45 moves; 26 turns (A: program" in page.inner_text("#r-source")
    picture = tmp_path / "board.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    page.set_input_files("#r-open", str(picture))
    page.wait_for_function("() => document.querySelector('#r-status').classList.contains('error')")
    said = page.inner_text("#r-status")
    assert said == "board.png: it is a PNG picture, not a game record", said
    assert "strange-game" in page.inner_text("#r-source")  # the earlier choice stays
    assert not page.is_disabled("#r-start")
    empty = tmp_path / "empty.klh"
    empty.write_text("Pits : 4\nSeeds : 3\n")
    page.set_input_files("#r-open", str(empty))
    page.wait_for_function(
        "() => document.querySelector('#r-status').textContent.startsWith('empty.klh')"
    )
    assert "no moves to review" in page.inner_text("#r-status")


def test_compare_of_connect_four(play_page: Any, server: str) -> None:
    """Strategies on the position shown on the Play tab: the game's strategies and
    engines, a table whose exact rows agree, a chart of the positions visited."""
    page = play_page
    people(page)
    open_link(page, server, "connect4/4,4", [3, 3])
    page.click("#tabs button[data-tab=compare]")
    page.select_option("#c-game", "connect4")
    page.wait_for_function("() => compare.options && compare.options.game === 'connect4'")
    assert page.locator("#c-strategies input[value=mcts]").count() == 1
    page.select_option("#c-where", "game")
    page.fill("#c-depth", "3")
    for box in page.locator("#c-engines input").all():
        box.set_checked(box.get_attribute("value") == "python")
    page.click("#c-run")
    page.wait_for_selector("#c-table tr[data-strategy], #c-status.error", timeout=60000)
    assert page.locator("#c-status.error").count() == 0, page.inner_text("#c-status")
    engines = set(page.eval_on_selector_all("#c-table tr[data-engine]",
                                            "rs => rs.map(r => r.dataset.engine)"))  # fmt: skip
    assert engines == {"python"}
    strategies = page.eval_on_selector_all(
        "#c-table tr[data-strategy]", "rs => rs.map(r => r.dataset.strategy)"
    )
    assert strategies == ["minimax", "alphabeta", "tt", "id"]  # those that run on python
    assert page.inner_text("#c-status").startswith("All exact strategies agree: value ")
    assert page.inner_text("#c-title").startswith("Connect Four, depth 3: 44 ")
    assert page.locator("#c-chart rect").count() == 4
    shot(page, "compare")
