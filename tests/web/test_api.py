"""The web page's JSON API: the same answers as the library and the command line."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from boardgames.kalah.game import Kalah
from boardgames.kalah.record import parse_record, read_record, replay
from boardgames.nim.rules import is_safe, winning_moves
from boardgames.queens.solve import solutions
from tests.web.conftest import Client, make_client

ROOT = Path(__file__).resolve().parents[2]
STRANGE = ROOT / "docs" / "games" / "strange-game.txt"
DEFAULT = {"pits": 6, "seeds": 6, "players": ["human", "human"], "sowings": []}


# --- Kalah ---------------------------------------------------------------------------------------


def sow(client: Client, game: dict, pit: int) -> dict:
    response = client.post("/api/kalah/sow", {**game, "pit": pit})
    assert response.status_code == 200, response.text
    answer = response.json()
    game["sowings"] = answer["sowings"]
    return answer


def test_the_worked_example_of_the_rules(app_client: Client) -> None:
    """RULES.md section 1: A sows 0 (extra turn) and 1, B sows 7, A sows 0 and captures."""
    game = dict(DEFAULT)
    first = sow(app_client, game, 0)
    assert first["board"] == [0, 7, 7, 7, 7, 7, 1, 6, 6, 6, 6, 6, 6, 0]
    assert first["to_move"] == "A" and first["extra_turn"]
    assert "extra turn" in first["said"]
    # stone by stone: the pit emptied, then one stone into each of the next six holes
    assert first["trace"][0] == {"hole": 0, "count": 0, "what": "take"}
    assert [c["hole"] for c in first["trace"][1:]] == [1, 2, 3, 4, 5, 6]
    assert all(c["what"] == "drop" for c in first["trace"][1:])
    assert sow(app_client, game, 1)["board"] == [0, 0, 8, 8, 8, 8, 2, 7, 7, 6, 6, 6, 6, 0]
    assert sow(app_client, game, 7)["board"] == [1, 0, 8, 8, 8, 8, 2, 0, 8, 7, 7, 7, 7, 1]
    capture = sow(app_client, game, 0)
    assert capture["board"] == [0, 0, 8, 8, 8, 8, 10, 0, 8, 7, 7, 0, 7, 1]
    assert "capture" in capture["said"] and capture["to_move"] == "B"
    # A's one stone from pit 0 lands in the empty pit 1; it and pit 11's 7 go to the store
    assert [(c["hole"], c["count"], c["what"]) for c in capture["trace"]] == [
        (0, 0, "take"), (1, 1, "drop"), (6, 10, "store"), (11, 0, "take"), (1, 0, "take"),
    ]  # fmt: skip
    assert capture["moves"] == [
        {"player": "A", "pits": [0, 1]},
        {"player": "B", "pits": [7]},
        {"player": "A", "pits": [0]},
    ]
    record = app_client.post("/api/kalah/record", game).json()["text"]
    assert "1) A: 0 1 B: 7\n2) A: 0\n" in record
    _steps, state = replay(parse_record(record))
    assert Kalah().board(state) == capture["board"]


def test_a_trace_ends_on_the_board_of_the_rules() -> None:
    """Every sowing of the strange game, traced, ends where Kalah.play ends (etudes too)."""
    from boardgames.kalah.web.page import trace_sowing

    for rules in ("classic", "etudes"):
        game = Kalah(6, 6, rules)
        state = game.initial_state()
        for k in range(80):
            legal = game.legal_moves(state)
            if not legal:
                break
            pit = legal[(7 * k) % len(legal)]
            board = game.board(state)
            for change in trace_sowing(game, state, pit):
                board[change["hole"]] = change["count"]
            state, _ = game.play(state, pit)
            assert board == game.board(state)


def test_open_the_strange_game(app_client: Client) -> None:
    answer = app_client.post("/api/kalah/open", {"text": STRANGE.read_text(encoding="utf-8")})
    assert answer.status_code == 200, answer.text
    pos = answer.json()
    record = read_record(STRANGE)
    _, final = replay(record)
    assert len(pos["moves"]) == 26 == len(record.moves)
    assert pos["board"] == Kalah().board(final)
    assert pos["over"] and pos["final"]["text"] == "A 32, B 40: B wins by 8"
    assert pos["players"] == ["program", "program"]
    # and the page's record of it reads back as the same game
    game = {k: pos[k] for k in ("pits", "seeds", "rules", "first", "players", "sowings")}
    text = app_client.post("/api/kalah/record", game).json()["text"]
    assert [m.pits for m in parse_record(text).moves] == [m.pits for m in record.moves]
    assert "Final : A 32 B 40" in text


def test_the_program_moves_and_its_record_replays(app_client: Client) -> None:
    """A whole 4 x 3 game: the person sows the first legal pit, the program answers."""
    game = {"pits": 4, "seeds": 3, "players": ["human", "program"], "time": 0.05, "sowings": []}
    pos = app_client.post("/api/kalah/new", game).json()
    while not pos["over"]:
        if pos["to_move"] == "A":
            pos = sow(app_client, game, pos["legal"][0])
            continue
        started = app_client.post("/api/kalah/program", game)
        assert started.status_code == 202, started.text
        result = app_client.wait(started.json()["job"])
        assert result["state"] == "done", result
        answer = result["result"]
        assert answer["said"].startswith("B moves from ") and "value" in answer["said"]
        for pit in answer["pits"]:
            pos = sow(app_client, game, pit)
    record = parse_record(app_client.post("/api/kalah/record", game).json()["text"])
    _, state = replay(record)
    stores = Kalah(4, 3).final_stores(state)
    assert stores == (pos["final"]["A"], pos["final"]["B"])
    assert record.players[1].startswith("program (")


def test_hint_words(app_client: Client) -> None:
    started = app_client.post("/api/kalah/hint", {**DEFAULT, "pits": 3, "seeds": 2, "time": 0.1})
    result = app_client.wait(started.json()["job"])
    said = result["result"]["said"]
    assert said.startswith("Hint: sow ") and "(value " in said
    # a small board is solved or looked up: the value is exact and says so, with no "at least"
    assert ("exact" in said and "at least" not in said) or "at depth" in said


def test_presets_play_and_are_named_in_the_record(app_client: Client) -> None:
    game = {"pits": 4, "seeds": 3, "players": ["classic", "tseitin"], "sowings": []}
    started = app_client.post("/api/kalah/program", game)
    result = app_client.wait(started.json()["job"])
    assert result["state"] == "done"
    text = app_client.post("/api/kalah/record", game).json()["text"]
    assert "Player A : program classic (depth 5, eval store, alphabeta)" in text
    assert "Player B : program tseitin (" in text


# --- jobs: cancel, a closed page --------------------------------------------------------------

LONG_REVIEW = {"text": STRANGE.read_text(encoding="utf-8"), "exact_nodes": 10**12, "depth": 40}


def test_cancel_stops_a_review_within_a_second(app_client: Client) -> None:
    job_id = app_client.post("/api/review", LONG_REVIEW).json()["job"]
    deadline = time.monotonic() + 30
    while app_client.get(f"/api/jobs/{job_id}").json()["progress"].get("stage") != "reviewing":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    t0 = time.monotonic()
    answer = app_client.post(f"/api/jobs/{job_id}/cancel").json()
    assert answer["state"] == "cancelled"
    assert time.monotonic() - t0 < 1.0
    assert app_client.web.jobs.running() == []


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


# --- Nim -----------------------------------------------------------------------------------------


def test_bouton_wins_from_a_safe_start_whatever_the_person_does(app_client: Client) -> None:
    """1 2 3 is safe (nim-sum 0): the person moves first and loses against Bouton."""
    body: dict = {"layout": [1, 2, 3], "to_move": 0}
    pos = app_client.post("/api/nim/position", body).json()
    assert pos["safe"] and pos["nim_sum"] == 0
    k = 0
    while not pos["over"]:
        row = next(r for r, n in enumerate(pos["left"]) if n)
        pos = app_client.post(
            "/api/nim/take",
            {**body, "left": pos["left"], "row": row, "take": 1 + k % pos["left"][row]},
        ).json()
        k += 1
        if pos["over"]:
            break
        pos = app_client.post(
            "/api/nim/program", {**body, "left": pos["left"], "to_move": pos["to_move"]}
        ).json()
        assert is_safe(pos["left"])  # Bouton always leaves a safe position
    assert pos["winner"] == 1


def test_the_hint_wins_against_bouton(app_client: Client) -> None:
    """From an unsafe start (3 4 5, misère too) the person who follows the hints wins."""
    for misere in (False, True):
        body: dict = {"layout": [3, 4, 5], "misere": misere}
        pos = app_client.post("/api/nim/position", body).json()
        while not pos["over"]:
            hint = app_client.post(
                "/api/nim/hint", {**body, "left": pos["left"], "to_move": 0}
            ).json()
            move = hint["move"]
            assert move is not None
            assert (move["row"], move["take"]) == (
                winning_moves(pos["left"], misere)[0].row,
                winning_moves(pos["left"], misere)[0].take,
            )
            pos = app_client.post(
                "/api/nim/take", {**body, "left": pos["left"], "to_move": 0, **move}
            ).json()
            if pos["over"]:
                break
            pos = app_client.post(
                "/api/nim/program", {**body, "left": pos["left"], "to_move": 1}
            ).json()
        assert pos["winner"] == 0


def test_the_binary_table(app_client: Client) -> None:
    pos = app_client.post("/api/nim/position", {"layout": [3, 4, 5]}).json()
    assert pos["columns"] == [4, 2, 1]
    assert pos["bits"] == [[0, 1, 1], [1, 0, 0], [1, 0, 1]]
    assert pos["ones"] == [2, 1, 2] and pos["nim_sum"] == 2 and not pos["safe"]


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


# --- compare ----------------------------------------------------------------------------------


def test_compare_agrees(app_client: Client) -> None:
    body = {"game": {"pits": 4, "seeds": 3}, "depth": 4, "engines": ["numba", "python"],
            "strategies": ["minimax", "alphabeta", "tt"]}  # fmt: skip
    job = app_client.post("/api/compare", body)
    assert job.status_code == 202, job.text
    result = app_client.wait(job.json()["job"])["result"]
    assert result["agree"]
    assert len({r["value"] for r in result["results"]}) == 1
    nodes = {(r["strategy"], r["engine"]): r["nodes"] for r in result["results"]}
    assert nodes[("alphabeta", "numba")] < nodes[("minimax", "numba")]
    assert nodes[("minimax", "python")] == nodes[("minimax", "numba")]


def test_cancel_stops_the_program_within_a_second_and_it_plays_on(app_client: Client) -> None:
    game = {"pits": 6, "seeds": 6, "players": ["program", "human"], "sowings": [], "time": 30}
    job_id = app_client.post("/api/kalah/program", game).json()["job"]
    deadline = time.monotonic() + 60
    while "depth" not in app_client.get(f"/api/jobs/{job_id}").json()["progress"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    t0 = time.monotonic()
    assert app_client.post(f"/api/jobs/{job_id}/cancel").json()["state"] == "cancelled"
    assert time.monotonic() - t0 < 1.0
    # the engine is not left stopped: the next move is searched as usual
    again = app_client.post("/api/kalah/program", {**game, "time": 0.2}).json()["job"]
    answer = app_client.wait(again)["result"]
    assert answer["depth"] > 3 and answer["said"].startswith("A moves from ")
