"""The page in a real browser: Playwright drives Debian's Chromium against the real server
(``boardgames serve --port 0 --no-browser`` in a subprocess, on 127.0.0.1 only).

Each test saves a screenshot ``serve-*.png`` to a temporary folder, or to the folder in
``BOARDGAMES_SCREENSHOTS`` (``BOARDGAMES_SCREENSHOTS=docs/images pytest tests/web -m
browser`` refreshes the README's three). Skipped where Playwright or Chromium is missing;
never downloads a browser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.web.conftest import ROOT, shot

pytestmark = pytest.mark.browser

STRANGE = ROOT / "docs" / "games" / "strange-game.txt"


def test_nim_against_bouton_to_the_end(page) -> None:
    """3 4 5 is unsafe: the person who follows the winning moves wins against Bouton."""
    page.click("#tabs button[data-tab=nim]")
    page.fill("#n-rows", "3 4 5")
    page.click("#n-new")
    page.wait_for_selector("#n-status:has-text('You to move')")
    for _ in range(20):
        page.click("#n-hint")
        page.wait_for_function(
            "() => document.querySelector('#n-said').textContent.startsWith('Take ')"
        )
        said = page.inner_text("#n-said")
        take, row = map(int, re.search(r"Take (\d+) from row (\d+)", said).groups())  # type: ignore[union-attr]
        left = int(page.inner_text(f"#n-table tr:nth-child({row + 1}) td:nth-child(2)"))
        page.click(f"#n-board circle[data-row='{row - 1}'][data-chip='{left - take}']")
        page.wait_for_function(
            "() => !document.querySelector('#n-status').textContent.startsWith('You to move')"
        )
        page.wait_for_selector("#n-status:has-text('You to move'), #n-status:has-text('You win')")
        if "You win" in page.inner_text("#n-status"):
            break
    assert page.inner_text("#n-status") == "You win! Congratulations."
    assert page.locator("#n-board circle.chip").count() == 0  # no chip left
    page.click("#n-undo")  # take back the last move and Bouton's reply
    assert page.inner_text("#n-status") == "You to move."
    page.fill("#n-rows", "3 5 6 7")  # a fresh game for the picture, its winning move shown
    page.click("#n-new")
    page.wait_for_selector("#n-status:has-text('You to move')")
    page.click("#n-hint")
    page.wait_for_selector("#n-table tr.hl")
    assert page.inner_text("#n-said").startswith("Take 3 from row 2 (row 2 goes 5 -> 2")
    shot(page, "nim")


def test_kalah_against_the_program_and_the_record(page, tmp_path: Path) -> None:
    """A whole 4 x 3 game; the downloaded record replays to the same end in `kalah replay`."""
    page.click("#tabs button[data-tab=kalah]")
    page.fill("#k-pits", "4")
    page.fill("#k-seeds", "3")
    page.select_option("#k-b", "program")
    page.fill("#k-time", "0.1")
    page.select_option("#k-speed", "0")
    page.click("#k-new")
    for _ in range(60):
        page.wait_for_selector(
            "#k-board g.pit-legal, #k-status:has-text('Game over')", timeout=20000
        )
        if "Game over" in page.inner_text("#k-status"):
            break
        sown = int(page.get_attribute("#k-board", "data-sowings") or 0)
        page.locator("#k-board g.pit-legal").last.click()
        page.wait_for_function(
            "n => Number(document.querySelector('#k-board').dataset.sowings) > n", arg=sown
        )
    final = page.inner_text("#k-status")
    scores = re.search(r"A (\d+), B (\d+)", final)
    assert scores is not None, final
    with page.expect_download() as download:
        page.click("#k-download")
    path = tmp_path / "game.klh"
    download.value.save_as(path)
    from boardgames.cli import cli

    result = CliRunner().invoke(cli, ["kalah", "replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    replayed = json.loads(result.stdout)
    assert (replayed["pits"], replayed["seeds"]) == (4, 3)
    assert replayed["final"] == {"A": int(scores.group(1)), "B": int(scores.group(2))}
    shown = [m.strip() for m in page.locator("#k-moves span").all_inner_texts()]
    assert shown == [f"{m['player']}: {' '.join(map(str, m['pits']))}" for m in replayed["moves"]]
    page.select_option("#k-speed", "130")
    page.click("#k-new")  # a fresh game for the picture: one sowing, the program's reply
    page.wait_for_selector("#k-board g.pit-legal")
    for turn in (1, 2):  # two sowings of A's, and the program's replies
        page.locator("#k-board g.pit-legal").first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('#k-moves span.b').length >= n", arg=turn
        )
        page.wait_for_selector("#k-board g.pit-legal", timeout=20000)
    shot(page, "kalah")


def test_a_bad_number_field_is_named_in_the_pages_words(page) -> None:
    """An empty or out-of-range field is refused in the page with its label's words (not
    the API's key, nor "got 0" for an empty field), marked, and asks nothing of the server;
    corrected, the game starts."""
    page.click("#tabs button[data-tab=kalah]")
    page.fill("#k-seeds", "")
    page.click("#k-new")
    said = page.inner_text("#k-status")
    assert said == "Stones a pit: give a whole number from 1 to 20 (the field is empty)"
    assert page.get_attribute("#k-seeds", "aria-invalid") == "true"
    page.fill("#k-seeds", "21")
    page.click("#k-new")
    assert page.inner_text("#k-status") == "Stones a pit: give a whole number from 1 to 20 (not 21)"
    page.fill("#k-seeds", "2.5")
    page.click("#k-new")
    assert "(not 2.5)" in page.inner_text("#k-status")
    page.fill("#k-seeds", "3")
    page.fill("#k-time", "")
    page.click("#k-new")
    assert page.inner_text("#k-status").startswith("Program's time a move (s): give a number")
    page.fill("#k-time", "0.2")
    page.click("#k-new")
    page.wait_for_selector("#k-board g.pit-legal")
    assert page.get_attribute("#k-seeds", "aria-invalid") == "false"
    page.click("#tabs button[data-tab=queens]")
    page.fill("#q-cn", "")
    page.click("#q-count")
    assert (
        page.inner_text("#q-cstatus") == "N: give a whole number from 1 to 20 (the field is empty)"
    )


def test_review_of_the_strange_game(page) -> None:
    """The depth-8 review (no exact values: seconds, not minutes) marks move 13, A's
    ``0 5 4 5``, as kalah review does, and shows its position on a click."""
    from boardgames.cli import cli

    result = CliRunner().invoke(
        cli, ["kalah", "review", str(STRANGE), "--exact-nodes", "0", "--depth", "8", "--json"]
    )
    assert result.exit_code == 0, result.output
    cli_rows = json.loads(result.stdout)["moves"]
    move13 = cli_rows[12]
    assert move13["played"] == [0, 5, 4, 5] and move13["verdict"] != "best"
    page.click("#tabs button[data-tab=review]")
    page.set_input_files("#r-open", str(STRANGE))
    page.fill("#r-exact", "0")
    page.fill("#r-depth", "8")
    page.click("#r-start")
    page.wait_for_selector("#r-table tr[data-move='26']", timeout=60000)
    verdicts = page.eval_on_selector_all(
        "#r-graph g.point", "gs => gs.map(g => [Number(g.dataset.move), g.dataset.verdict])"
    )
    assert verdicts == [[r["move"], r["verdict"]] for r in cli_rows]
    # numbered as the move list and the record number them: the 13th move is line 7's A
    page.click("#r-graph g.point[data-move='13']")
    assert "Move 7: A played 0 5 4 5" in page.inner_text("#r-pos-title")
    assert "7) A: 0 5 4 5" in STRANGE.read_text()
    assert move13["verdict"] in page.inner_text("#r-detail")
    assert page.locator("#r-table tr.sel td").first.inner_text() == "7"
    assert page.locator("#r-table tr[data-move='14'] td").first.inner_text() == "7…"
    assert "26 moves (13 numbered lines)" in page.inner_text("#r-status")
    # the line starts at the value before move 1 (for A), not at 0
    before = cli_rows[0]["before"] if cli_rows[0]["player"] == "A" else -cli_rows[0]["before"]
    first, start = page.evaluate(
        """() => {
            const pts = document.querySelector('#r-graph polyline').getAttribute('points');
            const dot = document.querySelector('#r-graph circle.start');
            return [pts.split(' ')[0], [dot.getAttribute('cx'), dot.getAttribute('cy')]];
        }"""
    )
    assert first == f"{float(start[0]):.1f},{float(start[1]):.1f}"
    zero_y = page.evaluate(
        "() => [...document.querySelectorAll('#r-graph line')].map(l => l.getAttribute('y1'))[0]"
    )
    assert (float(start[1]) < float(zero_y)) == (before > 0)
    assert (float(start[1]) == float(zero_y)) == (before == 0)
    # the table says whose side its values take
    assert "for the player who moved" in page.inner_text("#r-note")
    shot(page, "review")


def test_a_file_that_is_no_record_is_refused_when_chosen(page, tmp_path: Path) -> None:
    """Chosen as a record on the review tab, a picture is refused at once in one line
    naming the file; the record chosen before stays, and a record is described."""
    page.click("#tabs button[data-tab=review]")
    page.set_input_files("#r-open", str(STRANGE))
    page.wait_for_function(
        "() => document.querySelector('#r-status').textContent.startsWith('Ready')"
    )
    assert "26 moves, 6 pits × 6 stones, classic rules" in page.inner_text("#r-source")
    picture = tmp_path / "board.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    page.set_input_files("#r-open", str(picture))
    page.wait_for_function("() => document.querySelector('#r-status').classList.contains('error')")
    said = page.inner_text("#r-status")
    assert said.startswith("board.png: not a record this toolkit reads"), said
    assert "\n" not in said
    assert "strange-game" in page.inner_text("#r-source")  # the earlier choice stays
    assert not page.is_disabled("#r-start")
    empty = tmp_path / "empty.klh"
    empty.write_text("Pits : 4\nSeeds : 3\n")
    page.set_input_files("#r-open", str(empty))
    page.wait_for_function(
        "() => document.querySelector('#r-status').textContent.startsWith('empty.klh')"
    )
    assert "no moves to review" in page.inner_text("#r-status")


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
        deadline = time.monotonic() + 1.5  # the watchdog alone would take 3 s
        state = "running"
        while time.monotonic() < deadline and state == "running":
            time.sleep(0.1)
            state = client.get(f"/api/jobs/{job_id}").json()["state"]
        assert state == "cancelled"
