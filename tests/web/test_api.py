"""The web page's JSON API with the games' extras: the same answers as the library and the
command line. Kalah's sowing shown stone by stone and its ``.klh`` records, Nim's binary
table and Bouton, the players of the sides' menus (a game's own too), the review and the
comparison of any two-player game, the queens tab."""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from boardgames.core.registry import two_player
from boardgames.kalah.game import Kalah
from boardgames.kalah.record import parse_record, read_record, replay
from boardgames.nim.rules import is_safe, nim_sum, winning_moves
from boardgames.queens.solve import solutions
from boardgames.web.play import player_name
from tests.helpers import patience
from tests.web.conftest import Client, make_client

ROOT = Path(__file__).resolve().parents[2]
STRANGE = ROOT / "docs" / "games" / "strange-game.txt"


def games(name: str) -> str:
    return f"/api/games/{name}"


def post_ok(client: Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, body)
    assert response.status_code == 200, response.text
    return response.json()


def run_job(client: Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    started = client.post(path, body)
    assert started.status_code == 202, started.text
    final = client.wait(started.json()["job"])
    assert final["state"] == "done", final
    return final["result"]


def counts_of(svg: str) -> list[int]:
    """The stones of every hole of a Kalah picture, in RULES.md order."""
    root = ET.fromstring(svg)
    holes = {
        int(e.get("data-hole")): int(e.get("data-count"))  # type: ignore[arg-type]
        for e in root.iter()
        if e.get("data-hole") is not None
    }
    return [holes[i] for i in range(len(holes))]


def board_of(pos: dict[str, Any]) -> list[int]:
    """A Kalah position's holes, from its notation (``4 4 ... 0 A``)."""
    return [int(w) for w in pos["text"].split()[:-1]]


# --- Kalah: a sowing stone by stone, records -----------------------------------------------------


def sow(client: Client, game: dict[str, Any], pit: int) -> dict[str, Any]:
    pos = post_ok(client, games("kalah") + "/move", {**game, "move": pit, "animate": True})
    game["moves"] = [m["move"] for m in pos["moves"]]
    return pos


def test_the_worked_example_of_the_rules(app_client: Client) -> None:
    """RULES.md section 1: A sows 0 (extra turn) and 1, B sows 7, A sows 0 and captures;
    each sowing comes with its frames, stone by stone."""
    game: dict[str, Any] = {"options": {"pits": 6, "seeds": 6}, "moves": []}
    first = sow(app_client, game, 0)
    assert board_of(first) == [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0]
    assert first["to_move"] == 0 and first["again"]
    assert "moves again" in first["remark"]
    # the pit emptied, then one stone into each of the next six holes: seven frames
    frames = first["animation"]
    assert len(frames) == 7 and frames[0]["beats"] > frames[1]["beats"]
    assert counts_of(frames[0]["svg"])[:2] == [0, 6]
    assert [counts_of(f["svg"])[k] for k, f in enumerate(frames[1:], 1)] == [7, 7, 7, 7, 7, 1]
    assert counts_of(frames[-1]["svg"]) == board_of(first)  # the last: the position after it
    assert "data-move" not in frames[0]["svg"]  # nothing to click while it is shown
    assert board_of(sow(app_client, game, 1)) == [0, 0, 8, 8, 8, 8, 2, 7, 7, 6, 6, 6, 6, 0]
    assert board_of(sow(app_client, game, 7)) == [1, 0, 8, 8, 8, 8, 2, 0, 8, 7, 7, 7, 7, 1]
    capture = sow(app_client, game, 0)
    assert board_of(capture) == [0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1]
    assert capture["to_move"] == 1
    # A's one stone from pit 0 lands in the empty pit 1; it and pit 11's 7 go to the store
    steps = [counts_of(f["svg"]) for f in capture["animation"]]
    assert [s[0] for s in steps][:2] == [0, 0] and steps[1][1] == 1
    assert steps[-1] == board_of(capture) and len(steps) == 5
    text = post_ok(app_client, games("kalah") + "/record", {**game, "players": ["human", "human"]})
    assert text["name"] == "kalah-game.klh"
    assert "1) A: 0 1 B: 7\n2) A: 0\n" in text["text"]
    _steps, state = replay(parse_record(text["text"]))
    assert Kalah().board(state) == board_of(capture)


@pytest.mark.parametrize("rules", ["classic", "etudes"])
def test_a_sowing_traced_ends_on_the_board_of_the_rules(rules: str) -> None:
    """Every sowing of a long game, traced and drawn frame by frame, ends where Kalah.play
    ends (relays and captures of the Etudes rules too)."""
    from boardgames.kalah.web.extras import animate, trace_sowing

    game = Kalah(6, 6, rules)
    state = game.initial_state()
    for k in range(80):
        legal = game.legal_moves(state)
        if not legal:
            break
        pit = legal[(7 * k) % len(legal)]
        board = game.board(state)
        for change in trace_sowing(game, state, pit):
            board[change.hole] = change.count
        after, _ = game.play(state, pit)
        assert board == game.board(after)
        if k % 10 == 0:
            frames = animate(game, state, pit)
            assert counts_of(frames[-1].svg) == game.board(after)
        state = after


def test_a_long_sowing_is_at_most_forty_frames() -> None:
    from boardgames.kalah.web.extras import MAX_FRAMES, animate

    game = Kalah(12, 20)
    frames = animate(game, game.initial_state(), 0)
    assert len(frames) <= MAX_FRAMES
    assert counts_of(frames[-1].svg) == game.board(game.play(game.initial_state(), 0)[0])


def test_open_the_strange_game(app_client: Client) -> None:
    """The classic printout (a .txt file) is read as Kalah's record: 26 turns, the end."""
    found = post_ok(app_client, "/api/records/read", {"text": STRANGE.read_text("utf-8")})
    record = read_record(STRANGE)
    _, final = replay(record)
    assert found["game"] == "kalah" and found["position"] is None
    assert found["options"] == {"pits": 6, "seeds": 6, "rules": "classic", "capture": "opposite"}
    assert found["moves"] == [pit for m in record.moves for pit in m.pits]
    assert found["said"].startswith("26 turns (A: program")
    pos = post_ok(app_client, games("kalah") + "/position", found)
    assert board_of(pos) == Kalah().board(final)
    assert pos["over"] and pos["result_text"] == "B wins (margin 8)."
    # and the page's record of it reads back as the same game
    body = {**found, "players": ["program one", "program two"]}
    text = post_ok(app_client, games("kalah") + "/record", body)["text"]
    assert [m.pits for m in parse_record(text).moves] == [m.pits for m in record.moves]
    assert "Final : A 32 B 40" in text and "Player B : program two" in text


def test_a_record_that_starts_with_b(app_client: Client) -> None:
    text = "Pits : 4\nSeeds : 3\nFirst : B\n\n1) B: 5\n2) A: 0\n"
    found = post_ok(app_client, "/api/records/read", {"text": text})
    assert found["position"] == "3 3 3 3 0 3 3 3 3 0 B" and found["moves"] == [5, 0]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Pits : 6\n\n1) A: 0 1 B: 3\n", "not a record this toolkit reads: line 3: "),
        ("Pits : 99\n", "not a record this toolkit reads: line 1: "),
    ],
)
def test_a_bad_kalah_record_is_one_line(app_client: Client, text: str, said: str) -> None:
    answer = app_client.post("/api/records/read", {"text": text})
    assert answer.status_code == 400 and answer.json()["error"].startswith(said)


def test_records_of_every_game_read_back(app_client: Client) -> None:
    """The record the page downloads names its game: read back, it is the same game."""
    for name, spec in two_player().items():
        game = spec.make()
        state, moves = game.initial_state(), []
        for _ in range(5):
            legal = game.legal_moves(state)
            if not legal:
                break
            moves.append(legal[len(legal) // 2])
            state, _ = game.play(state, moves[-1])
        text = post_ok(app_client, games(name) + "/record", {"moves": moves})["text"]
        found = post_ok(app_client, "/api/records/read", {"text": text})
        assert (found["game"], found["moves"]) == (name, moves), text


def test_the_older_page_record_still_opens(app_client: Client) -> None:
    text = "# Nim: a game record\n# game: nim\n# options: rows=3,4,5\n1 2\n3 1\n"
    found = post_ok(app_client, "/api/records/read", {"text": text})
    assert found["game"] == "nim" and len(found["moves"]) == 2
    assert post_ok(app_client, "/api/records/read", {"text": "1 2, 3 1"}) == {"game": None}


def test_a_program_of_kalahs_own_plays_its_whole_turn(app_client: Client) -> None:
    """A preset of Kalah's players (core.players) moves for B: its whole turn comes as
    steps, each with the position after it; the record names the players as sent."""
    game = {"options": {"pits": 4, "seeds": 3}, "moves": [0]}
    answer = run_job(app_client, games("kalah") + "/program", {**game, "player": "classic"})
    assert answer["said"].startswith("B (classic) played ")
    turn = [s["move"] for s in answer["steps"]]
    assert answer["text"] == " then ".join(map(str, turn))
    assert [m["move"] for m in answer["position"]["moves"]] == [0, *turn]
    assert answer["position"]["over"] or answer["position"]["to_move"] == 0
    body = {**game, "moves": [0, *turn], "players": ["human", "program classic"]}
    text = post_ok(app_client, games("kalah") + "/record", body)["text"]
    assert "Player B : program classic" in text


def test_a_whole_game_against_the_program_replays_as_its_record(app_client: Client) -> None:
    """4 x 3: the person sows the first legal pit, the program (medium) answers."""
    game: dict[str, Any] = {"options": {"pits": 4, "seeds": 3}, "moves": []}
    pos = post_ok(app_client, games("kalah") + "/position", game)
    while not pos["over"]:
        if pos["to_move"] == 0:
            pos = sow(app_client, game, pos["legal"][0]["move"])
            continue
        answer = run_job(app_client, games("kalah") + "/program", {**game, "player": "medium"})
        pos = answer["position"]
        game["moves"] = [m["move"] for m in pos["moves"]]
    text = post_ok(app_client, games("kalah") + "/record", {**game, "players": ["a", "b"]})["text"]
    _, state = replay(parse_record(text))
    assert Kalah(4, 3).board(state) == board_of(pos)


def test_cancel_stops_the_program_within_a_second_and_it_plays_on(app_client: Client) -> None:
    game = {"options": {"pits": 6, "seeds": 6}, "player": "perfect"}
    job_id = app_client.post(games("kalah") + "/program", game).json()["job"]
    deadline = time.monotonic() + 60
    while app_client.get(f"/api/jobs/{job_id}").json()["progress"].get("stage") != "thinking":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    t0 = time.monotonic()
    assert app_client.post(f"/api/jobs/{job_id}/cancel").json()["state"] == "cancelled"
    assert time.monotonic() - t0 < patience(1.0)
    # the engine is not left stopped: the next move is searched as usual
    answer = run_job(app_client, games("kalah") + "/program", {**game, "player": "medium"})
    assert answer["said"].startswith("A (medium) played ")


@pytest.mark.parametrize("name", sorted(two_player()))
def test_every_player_of_the_sides_menus_plays(app_client: Client, name: str) -> None:
    """The sides' menus list the game's players (GET /api/games); the program's move by
    any of the quick ones is legal, its turn played whole, and without ``animate`` no
    frames are drawn."""
    listed = next(g for g in app_client.get("/api/games").json()["games"] if g["name"] == name)
    names = [p["name"] for p in listed["players"]]
    assert names[:5] == ["random", "easy", "medium", "strong", "perfect"]
    for player in ("random", "easy"):
        answer = run_job(app_client, games(name) + "/program", {"player": player})
        assert answer["said"].startswith(f"{answer['player_name'].capitalize()} ({player}) ")
        assert [s["move"] for s in answer["steps"]] == [
            m["move"] for m in answer["position"]["moves"]
        ]
        assert all("animation" not in s for s in answer["steps"])


def test_a_broken_hook_leaves_the_position_whole(
    app_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's panel or animation that fails is left out; the position is answered."""
    import dataclasses

    web = app_client.web

    def broken(*args: object) -> None:
        raise RuntimeError("/secret/path")

    for name in ("nim", "kalah"):
        own = web.hooks[name]
        monkeypatch.setitem(web.hooks, name, dataclasses.replace(own, panel=broken, animate=broken))
    pos = post_ok(app_client, games("nim") + "/position", {})
    assert pos["panel"] is None and pos["legal"]
    pos = post_ok(app_client, games("kalah") + "/move", {"move": 0, "animate": True})
    assert pos["animation"] is None and len(pos["moves"]) == 1


# --- Nim: Bouton, the binary table ----------------------------------------------------------------


def panel_sum(pos: dict[str, Any]) -> int:
    found = re.search(r'data-nim-sum="(\d+)"', pos["panel"]["html"])
    assert found is not None, pos["panel"]
    return int(found[1])


def rows_of(pos: dict[str, Any]) -> list[int]:
    return [int(w) for w in pos["text"].split()]


def test_the_binary_table_is_a_side_panel(app_client: Client) -> None:
    pos = post_ok(app_client, games("nim") + "/position", {"options": {"rows": "3 4 5"}})
    panel = pos["panel"]
    assert panel["title"] == "Binary table"
    root = ET.fromstring(f"<div>{panel['html']}</div>")
    cells = [[c.text for c in tr] for tr in root.iter("tr")]
    assert cells[0] == ["row", "chips", "4", "2", "1"]
    assert cells[1:4] == [["1", "3", "0", "1", "1"], ["2", "4", "1", "0", "0"],
                          ["3", "5", "1", "0", "1"]]  # fmt: skip
    assert cells[4][2:] == ["2", "1", "2"] and cells[5][2:] == ["even", "odd", "even"]
    assert panel_sum(pos) == 2 == nim_sum((3, 4, 5))
    assert post_ok(app_client, games("kalah") + "/position", {})["panel"] is None


def test_bouton_wins_from_a_safe_start_whatever_the_person_does(app_client: Client) -> None:
    """1 2 3 is safe (nim-sum 0): the person moves first and loses against Bouton, the
    player Nim's plugin adds to the sides' menus."""
    game: dict[str, Any] = {"options": {"rows": "1 2 3"}, "moves": []}
    pos = post_ok(app_client, games("nim") + "/position", game)
    k = 0
    while not pos["over"]:
        legal = pos["legal"]
        pos = post_ok(
            app_client, games("nim") + "/move", {**game, "move": legal[k % len(legal)]["move"]}
        )
        game["moves"] = [m["move"] for m in pos["moves"]]
        k += 1
        if pos["over"]:
            break
        answer = run_job(app_client, games("nim") + "/program", {**game, "player": "bouton"})
        pos = answer["position"]
        game["moves"] = [m["move"] for m in pos["moves"]]
        assert is_safe(rows_of(pos)) and panel_sum(pos) == 0  # Bouton leaves a safe position
    assert pos["winner"] == 1


def test_the_hint_wins_against_bouton(app_client: Client) -> None:
    """From an unsafe start (3 4 5, misère too) the person who follows the hints wins."""
    for misere in (False, True):
        game: dict[str, Any] = {"options": {"rows": "3 4 5", "misere": misere}, "moves": []}
        pos = post_ok(app_client, games("nim") + "/position", game)
        while not pos["over"]:
            hint = run_job(app_client, games("nim") + "/hint", {**game, "level": "strong"})
            rows = tuple(rows_of(pos))
            best = winning_moves(rows, misere)
            assert hint["exact"] and best
            pos = post_ok(app_client, games("nim") + "/move", {**game, "move": hint["move"]})
            game["moves"] = [m["move"] for m in pos["moves"]]
            if pos["over"]:
                break
            pos = run_job(app_client, games("nim") + "/program", {**game, "player": "bouton"})[
                "position"
            ]
            game["moves"] = [m["move"] for m in pos["moves"]]
        assert pos["winner"] == 0


# --- the review and the comparison, of any game --------------------------------------------------


def test_a_review_of_nim_marks_the_moves_bouton_would_not_play(app_client: Client) -> None:
    """Exact values (Nim is solved): a move from an unsafe position into an unsafe one
    throws the win away (a blunder), a move into a safe one is best."""
    game = {"options": {"rows": "3 4 5"}}
    pos = post_ok(app_client, games("nim") + "/position", game)
    texts = {m["text"]: m["move"] for m in pos["legal"]}
    bad, good = texts["1 1"], texts["1 2"]  # 2 4 5 (unsafe), 1 4 5 (safe)
    result = run_job(app_client, games("nim") + "/review", {**game, "moves": [bad], "seconds": 1})
    (row,) = result["moves"]
    assert row["exact"] and row["verdict"] == "blunder" and row["change"] == "win -> loss"
    assert row["text"] == "1 1" and row["best_text"] in {"1 2", "2 2", "3 4"}
    assert row["before_first"] > 0 > row["after_first"] and row["svg"]
    result = run_job(app_client, games("nim") + "/review", {**game, "moves": [good], "seconds": 1})
    assert result["moves"][0]["verdict"] == "best" and result["moves"][0]["loss"] == 0
    assert result["summary"].startswith("1 move, 1 valued exactly: 1 best")


def test_a_review_of_the_strange_game_at_the_older_url(app_client: Client) -> None:
    """``/api/review`` takes a record's text; its game is found by the records' readers."""
    body = {"text": STRANGE.read_text("utf-8"), "depth": 2}
    result = run_job(app_client, "/api/review", body)
    assert result["game"] == "kalah" and len(result["moves"]) == 45  # single sowings
    assert [r["number"] for r in result["moves"]] == list(range(1, 46))
    assert result["final"] == "B wins (margin 8)."
    assert set(result["counts"]) == {"best", "inaccuracy", "mistake", "blunder"}


def test_cancel_stops_a_review_within_a_second(app_client: Client) -> None:
    body = {"text": STRANGE.read_text(encoding="utf-8"), "depth": 40}
    job_id = app_client.post("/api/review", body).json()["job"]
    deadline = time.monotonic() + 30
    while app_client.get(f"/api/jobs/{job_id}").json()["progress"].get("stage") != "reviewing":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    t0 = time.monotonic()
    answer = app_client.post(f"/api/jobs/{job_id}/cancel").json()
    assert answer["state"] == "cancelled"
    assert time.monotonic() - t0 < patience(1.0)
    assert app_client.web.jobs.running() == []


def test_compare_agrees(app_client: Client) -> None:
    body = {"options": {"pits": 4, "seeds": 3}, "depth": 4, "engines": ["numba", "python"],
            "strategies": ["minimax", "alphabeta", "tt"]}  # fmt: skip
    result = run_job(app_client, games("kalah") + "/compare", body)
    assert result["agree"]
    assert len({r["value"] for r in result["results"]}) == 1
    nodes = {(r["strategy"], r["engine"]): r["nodes"] for r in result["results"]}
    assert nodes[("alphabeta", "numba")] < nodes[("minimax", "numba")]
    assert nodes[("minimax", "python")] == nodes[("minimax", "numba")]


def test_compare_on_the_position_shown_with_monte_carlo(app_client: Client) -> None:
    body = {"moves": [3, 3], "depth": 3, "engines": ["numba"],
            "strategies": ["alphabeta", "mcts"], "playouts": 500}  # fmt: skip
    result = run_job(app_client, games("connect4") + "/compare", body)
    assert result["position"] == "44"
    assert result["to_move"] == player_name(two_player()["connect4"], 0)
    rows = {r["strategy"]: r for r in result["results"]}
    assert rows["mcts"]["nodes"] == rows["mcts"]["playouts"] == 500
    assert re.fullmatch(r"\d \(mean \d\.\d\d\)", rows["mcts"]["value_text"])
    assert rows["alphabeta"]["value_text"] is not None and result["agree"]


def test_the_compare_options_are_the_games(app_client: Client) -> None:
    for name, spec in two_player().items():
        found = post_ok(app_client, games(name) + "/compare/options", {})
        assert found["engines"] == (["python", "numba"] if spec.kernels else ["python"])
        names = [s["name"] for s in found["strategies"]]
        assert "minimax" in names and ("mcts" in names) == bool(spec.kernels)


# --- jobs: a closed page, the result -------------------------------------------------------------


def test_a_job_nobody_follows_is_cancelled() -> None:
    client, web = make_client(orphan_seconds=0.5)
    c = Client(client, web)
    try:
        job_id = c.post("/api/queens/count", {"n": 20}).json()["job"]
        job = web.jobs.get(job_id)
        assert job is not None
        assert job.wait(5.0)
        assert job.state == "cancelled"
    finally:
        web.jobs.close()
        client.close()


def test_events_end_with_the_result(app_client: Client) -> None:
    job_id = app_client.post("/api/queens/count", {"n": 8}).json()["job"]
    final = app_client.wait(job_id)
    assert final["state"] == "done"
    assert final["result"]["count"] == 92 and final["result"]["fundamental"] == 12


# --- queens -----------------------------------------------------------------------------------


def test_the_steps_of_four_queens(app_client: Client) -> None:
    steps = app_client.post("/api/queens/steps", {"n": 4, "count": 1000}).json()
    assert steps["finished"]
    found = [tuple(c + 1 for c in s["queens"]) for s in steps["steps"] if s["op"] == "solution"]
    assert found == list(solutions(4)) == [(2, 4, 1, 3), (3, 1, 4, 2)]
    for s in steps["steps"]:
        if s["op"] == "solution":
            continue
        # the tables are the library's, and agree with the queens on the board
        n = 4
        assert s["cols"] == "".join("1" if c in s["queens"] else "0" for c in range(n))
        assert s["sums"] == "".join(
            "1" if any(r + c == d for r, c in enumerate(s["queens"])) else "0"
            for d in range(2 * n - 1)
        )


def test_eight_queens_stepped_in_chunks(app_client: Client) -> None:
    every = []
    start = 0
    while True:
        chunk = app_client.post("/api/queens/steps", {"n": 8, "start": start, "count": 1000}).json()
        every += chunk["steps"]
        start += len(chunk["steps"])
        if chunk["finished"]:
            break
    found = [tuple(c + 1 for c in s["queens"]) for s in every if s["op"] == "solution"]
    assert found == list(solutions(8)) and len(found) == 92
    assert found[0] == (1, 5, 8, 6, 3, 7, 2, 4)


@pytest.mark.parametrize(
    ("n", "total", "fundamental"), [(1, 1, 1), (2, 0, 0), (6, 4, 1), (8, 92, 12), (10, 724, 92)]
)
def test_solution_lists(app_client: Client, n: int, total: int, fundamental: int) -> None:
    every = app_client.post("/api/queens/solutions", {"n": n}).json()
    classes = app_client.post("/api/queens/solutions", {"n": n, "fundamental": True}).json()
    assert every["count"] == total and classes["count"] == fundamental
    assert sum(s["class"] for s in classes["solutions"]) == total


def test_the_one_symmetric_class_of_eight(app_client: Client) -> None:
    classes = app_client.post("/api/queens/solutions", {"n": 8, "fundamental": True}).json()[
        "solutions"
    ]
    symmetric = [s for s in classes if s["class"] == 4]
    assert len(symmetric) == 1 and symmetric[0]["fixed_by"] == ["identity", "rotation 180"]


def test_records_of_games_begun_at_a_position_read_back(app_client: Client) -> None:
    """A game begun at a position given as such: its record has a ``start:`` line and the
    moves from there (the moves from the game's start alone replayed another game)."""
    from boardgames.core.capabilities import PositionNotation, format_position

    for name, spec in two_player().items():
        game = spec.make()
        if not isinstance(game, PositionNotation):
            continue
        state = game.initial_state()
        for _ in range(3):
            state, _ = game.play(state, game.legal_moves(state)[-1])
        start = format_position(game, state)
        moves = game.legal_moves(state)[:1]
        body = {"position": start, "moves": moves}
        text = post_ok(app_client, games(name) + "/record", body)["text"]
        found = post_ok(app_client, "/api/records/read", {"text": text})
        assert (found["game"], found["moves"]) == (name, moves), text
        assert found["position"] == start, text
