"""The Analyse panel's analysis deepens continuously (issue 49): the API reports each
depth as the job's progress and ends proved, at its time, or on Cancel; the page shows
the depth reached, the bar's number and each top move's own line as they come, and stops
on Cancel and on another position. And Connect Four's proved values in its own words
("1 wins with their 12th disc", RULES.md section 6).

Nothing here expects a particular move or depth from a time-limited search: only that
the depths come in order, each reported answer is whole, and the page shows the one it got.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from boardgames.connect4.game import ConnectFour
from boardgames.connect4.words import COMMENTARY, ordinal, winning_disc
from boardgames.core.protocol import terminal_score
from tests.web.conftest import Client

DEPTH = re.compile(r"depth (\d+)")


def url(name: str, what: str) -> str:
    return f"/api/games/{name}/{what}"


def started(client: Client, name: str, body: dict[str, Any]) -> str:
    response = client.post(url(name, "analyse"), {**body, "deepen": True})
    assert response.status_code == 202, response.text
    return str(response.json()["job"])


def events(client: Client, job: str) -> list[tuple[str, dict[str, Any]]]:
    """Every event of the job's stream until it ends: (kind, snapshot)."""
    out: list[tuple[str, dict[str, Any]]] = []
    kind = ""
    with client.client.stream("GET", f"/api/jobs/{job}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                out.append((kind, json.loads(line[6:])))
                if kind != "progress":
                    break
    return out


def check_answer(answer: dict[str, Any]) -> None:
    """One reported analysis is whole: the best move first, each row its own line (from
    its own move), the bar's number, and the depth said."""
    rows = answer["moves"]
    assert rows and answer["move"] == rows[0]["move"] and answer["text"] == rows[0]["text"]
    assert all(row["pv"] and row["pv"][0] == row["text"] for row in rows)
    assert [r["value"] for r in rows] == sorted((r["value"] for r in rows), reverse=True)
    assert answer["bar_text"]
    assert answer["depth_text"] == "exact" or DEPTH.fullmatch(answer["depth_text"])


# --- the API ---------------------------------------------------------------------------------


def test_the_analysis_reports_each_depth_then_ends_at_its_time(app_client: Client) -> None:
    job = started(app_client, "kalah", {"options": {"seeds": 4}, "limit": 1.5})
    seen = events(app_client, job)
    kind, last = seen[-1]
    assert kind == "done", last
    depths = [
        int(DEPTH.fullmatch(s["progress"]["analysis"]["depth_text"])[1])  # type: ignore[index]
        for k, s in seen
        if k == "progress" and "analysis" in s["progress"]
    ]
    # deeper and deeper (the stream sends the latest progress: a quick depth may be passed)
    assert depths and depths == sorted(set(depths))
    for k, s in seen:
        if k == "progress" and "analysis" in s["progress"]:
            check_answer(s["progress"]["analysis"])
            assert s["progress"]["analysis"]["final"] is False
    result = last["result"]
    check_answer(result)
    assert result["final"] is True and result["limit"] == 1.5
    reached = int(DEPTH.fullmatch(result["depth_text"])[1])  # type: ignore[index]
    assert reached >= depths[-1] and result["said"].endswith(f", depth {reached}.")


def test_the_analysis_ends_when_every_move_is_proved(app_client: Client) -> None:
    job = started(app_client, "nim", {"options": {"rows": "1 2 4"}})
    kind, last = events(app_client, job)[-1]
    assert kind == "done", last
    result = last["result"]
    check_answer(result)
    assert result["exact"] and result["depth_text"] == "exact" and result["final"]
    assert all(row["words"].endswith("(exact)") for row in result["moves"])
    assert result["text"] == "3 1"  # proved, so Bouton's move: 4 -> 3 makes the nim-sum 0


def test_cancel_stops_a_deepening_analysis(app_client: Client) -> None:
    job = started(app_client, "kalah", {"options": {"seeds": 4}, "limit": 600})
    with app_client.client.stream("GET", f"/api/jobs/{job}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: ") and "analysis" in json.loads(line[6:])["progress"]:
                break  # a first depth reported
    answer = app_client.post(f"/api/jobs/{job}/cancel").json()  # answers once it stopped
    assert answer["state"] == "cancelled" and answer["reason"] == "user"


def test_a_bad_limit_is_refused(app_client: Client) -> None:
    response = app_client.post(url("nim", "analyse"), {"deepen": True, "limit": 0})
    assert response.status_code == 400 and "limit" in response.json()["error"]


# --- Connect Four's words --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "height", "winner", "score", "disc"),
    [
        (7, 6, 0, 18, 4),  # RULES.md 6: after 112233, 1 wins with their 4th disc: 22 - 4
        (7, 6, 0, 1, 21),  # the empty board: 1 wins with their last disc
        (7, 6, 1, 18, 4),
        (7, 7, 0, 22, 4),  # odd boards: 25 - 4 + 1
        (7, 7, 1, 21, 4),  # the second player's share is one smaller: 24 - 4 + 1
        (5, 5, 0, 1, 13),
    ],
)
def test_the_winning_disc_of_a_score(
    width: int, height: int, winner: int, score: int, disc: int
) -> None:
    assert winning_disc(width * height, winner, score) == disc


def test_ordinals() -> None:
    words = [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 32)]
    assert words == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                     "32nd"]  # fmt: skip


def test_connect_fours_values_in_its_own_words() -> None:
    game = ConnectFour()
    state = game.initial_state()
    say = COMMENTARY.value
    assert say(game, state, terminal_score(1, 41), True) == "1 wins with their 21st disc"
    assert (
        say(game, state, terminal_score(5, 3), False) == "1 wins with their 17th disc at the latest"
    )
    after, _ = game.play(state, 0)  # 2 to move: a loss of 2's is a win of 1's
    assert say(game, after, -terminal_score(10, 3), True) == "1 wins with their 12th disc"
    assert say(game, after, terminal_score(10, 3), True) == "2 wins with their 12th disc"
    assert say(game, state, 0, True) is None and say(game, state, 14, False) is None


def test_the_page_says_connect_fours_proved_values_in_its_words(app_client: Client) -> None:
    body = {"moves": [0, 0, 1, 1, 2, 2], "level": "easy"}  # 1 wins at once in column 4
    response = app_client.post(url("connect4", "analyse"), body)
    done = app_client.wait(response.json()["job"])
    answer = done.get("result") or done
    assert "result" in done, done
    assert answer["words"] == "1 wins with their 4th disc (exact)"
    assert answer["said"] == "Best for player 1: 4. Its value: 1 wins with their 4th disc (exact)."
    kalah = app_client.wait(
        app_client.post(url("kalah", "analyse"), {"level": "easy"}).json()["job"]
    )
    assert all(re.fullmatch(r"[-+]\d+ \(estimate\)", m["words"]) for m in kalah["result"]["moves"])


# --- the page --------------------------------------------------------------------------------

KALAH = "kalah/seeds=4/2,0,9"
"""A Kalah position no analysis proves in a minute: it deepens."""


def opened(page: Any, server: str, link: str, deepen: str) -> None:
    page.goto(f"{server.split('/?')[0]}/#{link}")
    page.wait_for_function(
        "g => document.querySelector('#g-board').dataset.game === g", arg=link.split("/")[0]
    )
    page.evaluate("() => { document.querySelector('#g-speed').value = '0'; }")
    page.select_option("#g-side0", "human")
    page.select_option("#g-side1", "human")
    page.uncheck("#g-auto")
    page.select_option("#g-deepen", deepen)


def depth_shown(page: Any) -> int:
    found = DEPTH.fullmatch(page.get_attribute("#g-evalbar", "data-depth") or "")
    assert found, page.get_attribute("#g-evalbar", "data-depth")
    return int(found[1])


@pytest.mark.browser
def test_the_page_deepens_shows_each_depth_and_stops_on_cancel(page: Any, server: str) -> None:
    opened(page, server, KALAH, "120")
    page.click("#g-analyse")
    page.wait_for_selector("#g-evalbar[data-state=deepening]", timeout=20000)
    first = depth_shown(page)
    page.wait_for_function(  # it goes on by itself: a deeper depth comes
        "d => { const m = /depth (\\d+)/.exec(document.querySelector('#g-evalbar').dataset.depth);"
        " return m && Number(m[1]) > d; }",
        arg=first,
        timeout=30000,
    )
    assert page.get_attribute("#g-evalbar", "data-state") == "deepening"
    words = page.inner_text("#g-eval-words")
    assert re.search(r", depth \d+\. Best move: .+\. Deepening…$", words), words
    assert page.inner_text("#g-evalbar .evalnum")  # the bar's number
    lines = page.eval_on_selector_all(
        "#g-candidates tr[data-move]",
        "rs => rs.map(r => [r.querySelector('button').textContent,"
        " r.querySelector('td.line').textContent])",
    )
    assert lines and all(line.split(" ")[0] == move for move, line in lines)  # each its own
    assert page.locator("#g-board .best").count() == 1  # the best so far marked
    page.click("#g-analysis-cancel")
    page.wait_for_selector("#g-eval-words:has-text('Analysis cancelled.')", timeout=3000)
    reached = depth_shown(page)  # the depth reached stays shown
    assert reached > first and page.get_attribute("#g-evalbar", "data-state") == "stopped"
    assert page.is_hidden("#g-analysis-cancel") and page.is_enabled("#g-analyse")
    page.wait_for_timeout(1500)  # nothing more comes
    assert depth_shown(page) == reached
    # another position stops it too (its job is cancelled on the server)
    page.click("#g-analyse")
    page.wait_for_selector("#g-evalbar[data-state=deepening]", timeout=20000)
    with page.expect_request(lambda r: r.url.endswith("/cancel"), timeout=5000):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => play.analysis === null")
    assert page.get_attribute("#g-evalbar", "data-state") == "none"


@pytest.mark.browser
def test_the_page_ends_the_analysis_at_its_time(page: Any, server: str) -> None:
    opened(page, server, KALAH, "5")
    page.click("#g-analyse")
    page.wait_for_selector("#g-evalbar[data-state=done]", timeout=30000)
    answer = page.evaluate("() => analysisOf(play.node)")
    assert answer["final"] and answer["limit"] == 5
    words = page.inner_text("#g-eval-words")
    assert words.endswith(f", {answer['depth_text']}. Best move: {answer['text']}."), words
    assert page.is_hidden("#g-analysis-cancel")
    assert page.get_attribute("#g-evalbar", "data-depth") == answer["depth_text"]


# --- the move list (issue 49): pairs, variations inline, actions on a menu -------------------


@pytest.mark.browser
def test_the_move_list_shows_pairs_and_inline_variations(page: Any, server: str) -> None:
    opened(page, server, "connect4/4,3,4,5,4", "5")
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '5'")
    assert page.locator("#g-moves ol.main.pairs").count() == 1
    numbers = page.eval_on_selector_all(
        "#g-moves ol.main > li > .num", "ns => ns.map(n => n.textContent)"
    )
    assert numbers == ["1.", "2.", "3."]  # a number a pair
    tops = page.eval_on_selector_all(
        "#g-moves ol.main > li > button.mv",
        "bs => bs.map(b => Math.round(b.getBoundingClientRect().top))",
    )
    assert tops[0] == tops[1] < tops[2] == tops[3] < tops[4]  # 1. 4 3 / 2. 4 5 / 3. 4
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # after 1. 4 3, 1 plays 6 instead of 4: a variation
    page.wait_for_function("() => document.querySelector('#g-board').dataset.moves === '2'")
    page.locator("#g-board .playable[data-move='5']").click()
    page.wait_for_function("() => document.querySelector('#g-board').dataset.key === '3,2,5'")
    variation = page.locator("#g-moves ol.main > li .variation")
    assert variation.count() == 1
    assert variation.locator(".num").first.inner_text() == "2."  # inline: 2. 6
    # the main line goes on after the variation: 2's move numbered again (2… 5)
    numbers = page.eval_on_selector_all(
        "#g-moves ol.main > li > .num", "ns => ns.map(n => n.textContent)"
    )
    assert numbers == ["1.", "2.", "2…", "3."]
    assert page.is_hidden("#g-moves .variation [data-action=drop]")  # no buttons under it
    page.click("#g-moves .variation .vmenu summary")
    assert page.is_visible("#g-moves .variation [data-action=promote]")
    page.click("#g-moves .variation [data-action=drop]")
    assert page.locator("#g-moves .variation").count() == 0


# --- the form's fields, checked in the page in the label's words -----------------------------


@pytest.mark.browser
@pytest.mark.parametrize(
    ("game", "option", "value", "said"),
    [
        ("connect4", "width", "12", "Columns: give a whole number from 4 to 9 (not 12)"),
        ("connect4", "height", "0", "Rows: give a whole number from 4 to 9 (not 0)"),
        ("connect4", "width", "", "Columns: required"),
        ("kalah", "pits", "4.5", "Pits a side: give a whole number from 1 to 12 (not 4.5)"),
        (
            "nim", "rows", "3 0 5",
            "Chips in each row at the start: give whole numbers from 1 to 20 each, separated"
            " by spaces or commas (not 0)",
        ),
    ],
)  # fmt: skip
def test_a_bad_field_is_named_as_labelled_and_sends_nothing(
    browser: Any, server: str, game: str, option: str, value: str, said: str
) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server)
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game")
    if page.input_value("#g-game") != game:
        page.select_option("#g-game", game)
    page.wait_for_selector(f"#g-opt-{option}")
    label = page.inner_text(f"label[for=g-opt-{option}] span")
    assert label.lower().startswith(said.split(":")[0].lower())  # named as labelled
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/api/" in r.url else None)
    page.fill(f"#g-opt-{option}", value)
    page.click("#g-new")
    page.wait_for_selector("#g-error:visible")
    assert page.inner_text("#g-error") == said
    assert page.get_attribute(f"#g-opt-{option}", "aria-invalid") == "true"
    assert sent == []  # checked in the page: no request, no 400 in the console
    ctx.close()
    assert errors == []


@pytest.mark.browser
def test_a_field_typed_while_the_game_opens_is_kept_and_its_error_stays(
    browser: Any, server: str
) -> None:
    """The person types a bad value and presses New game while the game they chose is still
    opening (a slow server): the late answer neither rebuilds the form over what they typed
    nor clears the error line (a CI flake, and a person's lost edit)."""
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game")
    held: list[Any] = []
    page.route("**/api/games/nim/position", lambda route: held.append(route))
    page.select_option("#g-game", "nim")
    page.wait_for_selector("#g-opt-rows")
    page.fill("#g-opt-rows", "3 0 5")
    page.click("#g-new")
    page.wait_for_selector("#g-error:visible")
    assert held, "the opening of nim was not held back"
    for route in held:
        route.continue_()
    page.wait_for_timeout(500)  # the late answer has arrived and been dropped
    assert page.input_value("#g-opt-rows") == "3 0 5"
    assert page.is_visible("#g-error")
    assert "(not 0)" in page.inner_text("#g-error")
    ctx.close()
    assert errors == []


@pytest.mark.browser
@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("17", "N: give a whole number from 1 to 16 (not 17)"),
        ("0", "N: give a whole number from 1 to 16 (not 0)"),
        ("", "N: give a whole number from 1 to 16 (the field is empty)"),
    ],
)
def test_the_queens_stepper_refuses_a_bad_n_in_words(
    browser: Any, server: str, value: str, said: str
) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server)
    page.click("nav button[data-tab='queens']")
    page.wait_for_selector("#queens.page.active")
    sent: list[str] = []
    # the stepper's own requests (the Play tab may still be loading its game meanwhile)
    page.on("request", lambda r: sent.append(r.url) if "/api/queens" in r.url else None)
    page.fill("#q-n", value)
    page.dispatch_event("#q-n", "change")
    page.wait_for_selector("#q-status.error")
    assert page.inner_text("#q-status") == said
    assert page.get_attribute("#q-n", "aria-invalid") == "true"
    for button in ("#q-step", "#q-play", "#q-next"):  # none runs on the N shown before
        page.click(button)
        assert page.inner_text("#q-status") == said
    page.wait_for_timeout(300)
    assert sent == []
    assert page.inner_text("#q-play") == "Play"
    ctx.close()
    assert errors == []


# --- a link opened where it is the program's turn --------------------------------------------


@pytest.mark.browser
def test_a_link_where_it_is_the_programs_turn_makes_it_move(page: Any, server: str) -> None:
    base = server.split("/?")[0]
    page.wait_for_function("() => document.querySelector('#g-board').dataset.game")
    page.evaluate("() => { document.querySelector('#g-speed').value = '0'; }")
    page.select_option("#g-side0", "human")
    page.select_option("#g-side1", "easy")
    page.goto(f"{base}/#connect4/4,4/1")  # shown at move 1: a look back, the program waits
    page.wait_for_function(
        "() => { const b = document.querySelector('#g-board');"
        " return b.dataset.game === 'connect4' && b.dataset.moves === '1'; }"
    )
    page.wait_for_timeout(800)
    assert page.get_attribute("#g-board", "data-moves") == "1"
    assert page.evaluate("() => play.job") is None
    page.goto(f"{base}/#connect4/4,4,4")  # the end of its line, 2 to move: the program's turn
    page.wait_for_function(
        "() => document.querySelector('#g-board').dataset.moves === '4'", timeout=20000
    )
    assert page.inner_text("#g-said").startswith("Player 2 (easy) played ")
    page.wait_for_selector("#g-board .playable")  # then the person's turn
