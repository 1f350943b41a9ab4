"""The generic Play API (``/api/games/...``): every registered two-player game, from its
plugin alone. A new game is checked by registering it."""

from __future__ import annotations

import random
import re
import sys
import time
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from boardgames.core.capabilities import Drawing, PositionNotation, capabilities, format_position
from boardgames.core.engine import LEVELS
from boardgames.core.players import players
from boardgames.core.protocol import GameError, describe_score
from boardgames.core.registry import load, plugins, two_player
from tests.helpers import patience
from tests.web.conftest import Client, make_client

GAMES = sorted(two_player())


def url(name: str, what: str) -> str:
    return f"/api/games/{name}/{what}"


def post_ok(client: Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, body)
    assert response.status_code == 200, response.text
    return response.json()


def run_job(client: Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    started = client.post(path, body)
    assert started.status_code == 202, started.text
    return client.wait(started.json()["job"])


def marked_moves(svg: str) -> set[int]:
    root = ET.fromstring(svg)
    return {int(e.get("data-move")) for e in root.iter() if e.get("data-move") is not None}  # type: ignore[arg-type]


# --- the list of games -------------------------------------------------------------------------


def test_the_list_of_games_is_the_registry(app_client: Client) -> None:
    listed = app_client.get("/api/games")
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert [g["name"] for g in body["games"]] == list(plugins())
    assert body["levels"] == list(LEVELS)
    help_ = body["level_help"]
    assert list(help_) == list(LEVELS)
    for name, level in LEVELS.items():  # the page's words and details are the engine's levels
        assert (help_[name]["depth"], help_[name]["seconds"]) == (level["depth"], level["seconds"])
        assert help_[name]["words"] and help_[name]["detail"]
    for entry in body["games"]:
        spec = plugins()[entry["name"]]
        assert entry["title"] == spec.title and entry["kind"] == spec.kind
        assert entry["player_names"] == list(spec.player_names)
        assert [o["name"] for o in entry["options"]] == [o.name for o in spec.options]
        for o, option in zip(entry["options"], spec.options, strict=True):
            assert (o["kind"], o["low"], o["high"], o["help"]) == (
                option.kind, option.low, option.high, option.help,
            )  # fmt: skip
        if spec.kind == "game":
            assert entry["capabilities"] == capabilities(spec.make())
            assert entry["engine"].startswith(f"{spec.title}: ")
            assert ("exact solver" in entry["engine"]) == bool(spec.solver)
        if spec.kind == "game":  # the sides' menus: the game's players (core.players)
            named = players(spec.make())
            assert entry["players"] == [
                {"name": n, "description": p.description} for n, p in named.items()
            ]
        if spec.web is None:
            assert entry["extras"] is None
            continue
        extras = entry["extras"]
        own = load(spec.web)
        assert extras["api"] == (f"/api/{spec.name}/" if own.routes else None)
        assert extras["animates"] == (own.animate is not None)
        assert extras["panel"] == (own.panel is not None)
        assert extras["reads_records"] == (own.read_record is not None)
        for script in extras["scripts"] + extras["styles"]:  # the game's files are served
            assert app_client.get(script).status_code == 200, script


def test_the_page_holds_the_extras_tabs_and_scripts(app_client: Client) -> None:
    page = app_client.get("/").text
    assert "<!-- extras:" not in page
    assert 'data-tab="play"' in page and '<section id="play"' in page
    listed = app_client.get("/api/games").json()["games"]
    for entry in listed:
        if entry["extras"] is None:
            continue
        for tab in entry["extras"]["tabs"]:
            assert f'<button data-tab="{tab["id"]}">{tab["label"]}</button>' in page
            assert f'<section id="{tab["id"]}" class="page">' in page
        for script in entry["extras"]["scripts"]:
            assert f'<script src="{script}"></script>' in page


# --- positions and moves, over every game ----------------------------------------------------


def position_words(game: Any, state: Any, moves: list[int]) -> str:
    """What the page shows as the position: the moves in the order played where the
    game's notation spells a position that way (Connect Four's ``4453``), else the
    game's notation of the position."""
    if isinstance(game, PositionNotation) and moves:
        played = "".join(game.format_move(m) for m in moves)
        try:
            if np.array_equal(game.parse_position(played), state):
                return played
        except (GameError, ValueError):
            pass
    return format_position(game, state, moves)


@pytest.mark.parametrize("name", GAMES)
def test_a_random_game_through_the_api(app_client: Client, name: str) -> None:
    """Random legal moves sent one by one to ``/move`` reach the library's own position;
    every answer lists the legal moves, and its SVG marks exactly them."""
    game = two_player()[name].make()
    rng = random.Random(7)
    pos = post_ok(app_client, url(name, "position"), {})
    state = game.initial_state()
    moves: list[int] = []
    while True:
        legal = game.legal_moves(state)
        assert [m["move"] for m in pos["legal"]] == legal
        assert [m["text"] for m in pos["legal"]] == [game.format_move(m) for m in legal]
        assert [m["move"] for m in pos["moves"]] == moves
        assert pos["text"] == position_words(game, state, moves)
        if isinstance(game, Drawing):
            assert pos["board"] is None and marked_moves(pos["svg"]) == set(legal)
        else:
            assert pos["svg"] is None and pos["board"]
        if not legal or len(moves) >= 300:
            break
        assert not pos["over"] and pos["to_move"] == game.to_move(state)
        move = rng.choice(legal)
        pos = post_ok(app_client, url(name, "move"), {"moves": moves, "move": move})
        state, _ = game.play(state, move)
        moves.append(move)
    if not legal:
        assert pos["over"] and pos["to_move"] is None and pos["result_text"]
    # the whole game sent at once is the same position
    again = post_ok(app_client, url(name, "position"), {"moves": moves})
    assert again == {k: v for k, v in pos.items() if k != "remark"}  # a move's own words


@pytest.mark.parametrize("name", GAMES)
def test_a_move_typed_in_the_games_notation(app_client: Client, name: str) -> None:
    game = two_player()[name].make()
    state = game.initial_state()
    move = game.legal_moves(state)[-1]
    pos = post_ok(app_client, url(name, "move"), {"move_text": game.format_move(move)})
    assert [m["move"] for m in pos["moves"]] == [move]


@pytest.mark.parametrize("name", [n for n in GAMES if two_player()[n].examples])
def test_a_start_position_from_the_examples(app_client: Client, name: str) -> None:
    from boardgames.core.capabilities import parse_position

    spec = two_player()[name]
    game = spec.make()
    for example in spec.examples:
        pos = post_ok(app_client, url(name, "position"), {"position": example})
        state = parse_position(game, example) if example.strip() else game.initial_state()
        assert [m["move"] for m in pos["legal"]] == game.legal_moves(state)
        assert pos["position"] == example.strip()


def test_options_reach_the_game(app_client: Client) -> None:
    pos = post_ok(app_client, url("nim", "position"), {"options": {"rows": "1 2", "misere": True}})
    assert pos["options"] == {"rows": [1, 2], "misere": True}
    assert len(pos["legal"]) == 3 and pos["text"] == "1 2"
    pos = post_ok(app_client, url("kalah", "position"), {"options": {"pits": 3, "seeds": "2"}})
    assert pos["options"] == {"pits": 3, "seeds": 2, "rules": "classic", "capture": "opposite"}
    assert [m["move"] for m in pos["legal"]] == [0, 1, 2]


def test_an_extra_turn_is_said(app_client: Client) -> None:
    """Kalah's sowing into the store: the same player moves again."""
    pos = post_ok(app_client, url("kalah", "move"), {"move": 0})
    assert pos["again"] and pos["to_move"] == 0 and pos["moves"][0]["player"] == 0


def test_the_end_of_a_game_in_words(app_client: Client) -> None:
    pos = post_ok(app_client, url("nim", "position"), {"options": {"rows": "2"}, "moves": [2]})
    assert pos["over"] and pos["legal"] == [] and pos["player"] is None
    assert pos["result_text"] == "First player wins (margin 1)." and pos["winner"] == 0
    going = post_ok(app_client, url("nim", "position"), {"options": {"rows": "2"}})
    assert going["winner"] is None


def test_an_empty_option_is_required_in_the_words_of_its_help(app_client: Client) -> None:
    """The form's empty field: its label (the option's help) and "required", not a
    complaint about the value ''."""
    for name, option, label in [("kalah", "pits", "Pits a side"),
                                ("nim", "rows", "Chips in each row at the start")]:  # fmt: skip
        answer = app_client.post(url(name, "position"), {"options": {option: "  "}})
        assert answer.status_code == 400
        assert answer.json() == {"error": f"{label}: required"}


# --- game records: moves or a position, pasted or opened ------------------------------------


KALAH_BOARD = "4 4 0 5 5 0 2 5 5 5 5 4 4 0 B"
"""A Kalah position (4 stones a pit, after 2 0 9) in its notation."""


@pytest.mark.parametrize(
    ("name", "options", "record", "texts", "start"),
    [
        ("connect4", {}, "4453", ["4", "4", "5", "3"], ""),  # its position: the moves
        ("connect4", {}, "4,4,5,3", ["4", "4", "5", "3"], ""),
        ("connect4", {}, "4 4 5 3", ["4", "4", "5", "3"], ""),  # moves without spaces
        ("connect4", {}, "# a comment\n4\n4\n\n5\n", ["4", "4", "5"], ""),
        ("connect4", {}, "start", [], ""),
        ("nim", {"rows": "3,4,5"}, "1 2, 3 1", ["1 2", "3 1"], ""),
        ("nim", {}, "1 2;3 1", ["1 2", "3 1"], ""),
        ("nim", {}, "1 2 3", [], "1 2 3"),  # a position: the chips left
        ("kalah", {"seeds": 4}, "2, 0, 9", ["2", "0", "9"], ""),
        (
            "kalah",
            {"seeds": 4},
            "4 4 0 5 5 0 2 5 5 5 5 4 4 0 B",
            [],
            "4 4 0 5 5 0 2 5 5 5 5 4 4 0 B",
        ),
    ],
)
def test_a_record_is_moves_or_a_position(
    app_client: Client, name: str, options: dict, record: str, texts: list[str], start: str
) -> None:
    pos = post_ok(app_client, url(name, "position"), {"options": options, "record": record})
    assert [m["text"] for m in pos["moves"]] == texts
    assert pos["position"] == start
    # sent back as the page sends a line (start and protocol moves), it is the same position
    again = {
        "options": options,
        "position": start or None,
        "moves": [m["move"] for m in pos["moves"]],
    }
    assert post_ok(app_client, url(name, "position"), again) == pos


@pytest.mark.parametrize("name", GAMES)
def test_any_game_written_as_its_moves_reads_back(app_client: Client, name: str) -> None:
    """A random line of every registered game, written as the page's links write it (the
    moves' notation joined by commas), is read back to the same moves."""
    game = two_player()[name].make()
    rng = random.Random(11)
    state, moves = game.initial_state(), []
    while game.legal_moves(state) and game.outcome(state) is None and len(moves) < 40:
        move = rng.choice(game.legal_moves(state))
        moves.append(move)
        state, _ = game.play(state, move)
    record = ",".join(game.format_move(m) for m in moves)
    pos = post_ok(app_client, url(name, "position"), {"record": record})
    assert [m["move"] for m in pos["moves"]] == moves and pos["position"] == ""


def test_a_record_after_a_starting_position(app_client: Client) -> None:
    start = "4 4 0 5 5 0 2 5 5 5 5 4 4 0 B"
    body = {"options": {"seeds": 4}, "position": start, "record": "9"}
    pos = post_ok(app_client, url("kalah", "position"), body)
    assert pos["position"] == start and [m["text"] for m in pos["moves"]] == ["9"]


@pytest.mark.parametrize(
    ("name", "record", "said"),
    [
        ("connect4", "4,4,x", "move 3 ('x'): "),
        ("connect4", "4,4,8", "move 3 ('8'): "),
        ("kalah", "0,0", "move 2 ('0'): "),  # pit 0 is empty after it
        ("kalah", "hello", "neither moves (move 1 ('hello'): "),
        ("nim", "\x89PNG\r\n\x1a\n\x00\x00", "neither moves (move 1 ("),
        ("nim", "1 3, 2 4, 3 5, 1 1", "move 4 ('1 1') comes after the end of the game"),
    ],
)
def test_a_bad_record_is_one_line(app_client: Client, name: str, record: str, said: str) -> None:
    answer = app_client.post(url(name, "position"), {"record": record})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error.startswith(said) and "\n" not in error, error


def test_a_record_too_long_or_not_text_is_refused(app_client: Client) -> None:
    answer = app_client.post(url("connect4", "position"), {"record": "4," * 6000})
    assert answer.status_code == 413
    answer = app_client.post(url("connect4", "position"), {"record": ["4"]})
    assert answer.status_code == 400 and answer.json()["error"] == "record must be text"


# --- the program, the hint, the analysis -------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_program_moves_and_the_position_follows(app_client: Client, name: str) -> None:
    game = two_player()[name].make()
    result = run_job(app_client, url(name, "program"), {"level": "easy"})
    assert result["state"] == "done", result
    answer = result["result"]
    assert answer["move"] in game.legal_moves(game.initial_state())
    assert answer["text"] == game.format_move(answer["move"])
    assert answer["value_text"] == describe_score(answer["value"], answer["exact"])
    assert answer["said"].startswith(f"{answer['player_name'].capitalize()} (the program) played ")
    assert f" played {answer['text']}. Its value for " in answer["said"]
    assert answer["said"].endswith(f": {answer['words']}.")  # no engine words, no overrun
    assert answer["budget"] is None and answer["overran"] is False  # easy: a depth, no time
    assert [m["move"] for m in answer["position"]["moves"]] == [answer["move"]]


def test_a_hint_in_the_engines_words(app_client: Client) -> None:
    """Nim 1 2 3 is lost for the mover: the exact value says so, with no 'at least'."""
    body = {"options": {"rows": "1 2 3"}, "level": "strong"}
    answer = run_job(app_client, url("nim", "hint"), body)["result"]
    assert answer["exact"] and answer["value_text"].startswith("loss by ")
    assert "at least" not in answer["value_text"]
    assert answer["words"] == f"{answer['value_text']} (exact)"
    said = answer["said"]
    assert re.fullmatch(
        r"Hint for first player: \d+ \d+\. Its value: loss by \d+ .*\(exact\)\..*", said
    )
    assert "search" not in said and "positions" not in said  # the engine's words stay out
    # a depth-limited search of a won line is a bound, and says so
    kalah = run_job(app_client, url("kalah", "hint"), {"level": "easy"})["result"]
    assert kalah["depth"] == 1 and not kalah["exact"]
    assert kalah["value_text"] == describe_score(kalah["value"], False)


def test_a_value_in_words_for_people(app_client: Client) -> None:
    """Exact, a bound, an estimate, or (a game without a heuristic evaluation, Nim) no
    proof: the words the page shows."""
    kalah = run_job(app_client, url("kalah", "analyse"), {"level": "easy"})["result"]
    assert all(re.fullmatch(r"[-+]\d+ \(estimate\)", m["words"]) for m in kalah["moves"])
    body = {"options": {"rows": "3 5 6 7"}, "level": "easy"}
    nim = run_job(app_client, url("nim", "analyse"), body)["result"]
    assert {m["words"] for m in nim["moves"]} == {"not proved in the time"}
    body = {"options": {"rows": "1 2"}, "level": "strong"}  # searched to the end
    small = run_job(app_client, url("nim", "analyse"), body)["result"]
    assert small["words"].endswith(" (exact)") and small["words"].startswith("win by 1")


def test_the_analysis_lists_the_best_moves(app_client: Client) -> None:
    """The strong level is a time (1 s), a share of which goes first to proving every move:
    a position proved in a small part of that share, even on a loaded machine (3 4 5 took
    a quarter to a half of it on a quiet one, too close under load)."""
    body = {"options": {"rows": "1 2 4"}, "level": "strong", "top": 2}
    answer = run_job(app_client, url("nim", "analyse"), body)["result"]
    rows = answer["moves"]
    assert len(rows) == 2 and rows[0]["value"] >= rows[1]["value"]
    assert rows[0]["text"] == "3 1"  # Bouton: take 1 from row 3 (4 -> 3, nim-sum 0)
    assert answer["said"].startswith("Best for first player: 3 1. Its value: win by 1 ")
    assert answer["said"].endswith(" (exact).")
    assert (answer["move"], answer["pv"][0], answer["exact"]) == (rows[0]["move"], "3 1", True)
    assert answer["budget"] == LEVELS["strong"]["seconds"] and answer["overran"] is False


@pytest.mark.parametrize("level", list(LEVELS))
def test_the_search_gets_the_levels_depth_or_time(
    app_client: Client, monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    """The program's move and the analysis search within the level: its depth, or its
    seconds (the page's budget, said back as ``budget``)."""
    import boardgames.web.play as web_play

    seen: dict[str, Any] = {}
    real_think, real_candidates = web_play.think, web_play.candidates

    def think(game: Any, state: Any, **kwargs: Any) -> Any:
        seen["think"] = (kwargs["depth"], kwargs["seconds"])
        return real_think(game, state, **{**kwargs, "seconds": 0.05 if kwargs["seconds"] else None})

    def candidates(game: Any, state: Any, **kwargs: Any) -> Any:
        seen["candidates"] = (kwargs["depth"], kwargs["seconds"])
        return real_candidates(game, state, **{**kwargs, "seconds": 0.05, "depth": 1})

    monkeypatch.setattr(web_play, "think", think)
    monkeypatch.setattr(web_play, "candidates", candidates)
    body = {"options": {"rows": "1 2 3"}, "level": level}
    moved = run_job(app_client, url("nim", "program"), body)["result"]
    analysed = run_job(app_client, url("nim", "analyse"), body)["result"]
    depth, seconds = LEVELS[level]["depth"], LEVELS[level]["seconds"]
    assert seen["think"] == (depth, seconds)
    assert seen["candidates"] == (depth, seconds or 1.0)  # a depth level: that depth
    assert moved["budget"] == seconds and analysed["budget"] == seconds


def test_a_proof_that_overran_its_time_is_said(
    app_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search that cannot be cut short (a proof under way) took longer than the level's
    time: the answer says so in words; one within its time says nothing of it."""
    import boardgames.web.play as web_play
    from boardgames.core.engine import Answer

    def slow_think(game: Any, state: Any, **kwargs: Any) -> Answer:
        move = game.legal_moves(state)[0]
        return Answer(move, 0, True, None, 10, 3.4, "solver", [move], overran=True)

    def slow_candidates(game: Any, state: Any, **kwargs: Any) -> list[tuple[int, Answer]]:
        time.sleep(0.3)  # the budget below is 0.05 s: 1.5 x 0.05 + 0.2 s = 0.275 s at most
        move = game.legal_moves(state)[0]
        return [(move, Answer(move, 0, True, None, 10, 0.3, "solver", [move]))]

    monkeypatch.setattr(web_play, "think", slow_think)
    monkeypatch.setattr(web_play, "candidates", slow_candidates)
    body = {"options": {"rows": "1 2"}, "seconds": 1.0}
    moved = run_job(app_client, url("nim", "program"), body)["result"]
    assert moved["overran"] and moved["budget"] == 1.0
    assert moved["overran_text"] == (
        "It took 3.4 s, more than its 1 s: a proof under way cannot be cut short."
    )
    assert moved["said"].endswith(moved["overran_text"])
    hint = run_job(app_client, url("nim", "hint"), body)["result"]
    assert hint["said"].endswith(moved["overran_text"])
    analysed = run_job(app_client, url("nim", "analyse"), {**body, "seconds": 0.05})["result"]
    assert analysed["overran"] and analysed["said"].endswith("cannot be cut short.")
    took = re.match(r"It took (\d+\.\d) s, more than its 0\.05 s", analysed["overran_text"])
    assert took and float(took[1]) >= 0.3, analysed["overran_text"]  # measured: 0.3 s or more
    calm = run_job(app_client, url("nim", "analyse"), body)["result"]  # 0.3 s of 1 s
    assert not calm["overran"] and calm["overran_text"] is None
    assert "took" not in calm["said"]


def test_cancel_stops_the_program_within_a_second_and_it_plays_on(app_client: Client) -> None:
    """The perfect level thinks up to 10 s on Kalah's start; Cancel ends it at once."""
    started = app_client.post(url("kalah", "program"), {"level": "perfect"})
    job_id = started.json()["job"]
    deadline = time.monotonic() + 30
    while app_client.get(f"/api/jobs/{job_id}").json()["progress"].get("stage") != "thinking":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    t0 = time.monotonic()
    answer = app_client.post(f"/api/jobs/{job_id}/cancel").json()
    assert answer["state"] == "cancelled", answer
    assert time.monotonic() - t0 < patience(1.0)
    assert app_client.web.jobs.running() == []
    # the engine is not left stopped: the next search answers as usual
    again = run_job(app_client, url("kalah", "program"), {"seconds": 0.2})
    assert again["state"] == "done" and again["result"]["move"] in range(6)


def test_one_search_of_a_game_at_a_time() -> None:
    """Two searches of the same game take turns (the compiled engine keeps one workspace
    a game); both answer."""
    client, web = make_client()
    c = Client(client, web)
    try:
        jobs = [c.post(url("kalah", "program"), {"seconds": 0.3}).json()["job"] for _ in range(2)]
        results = [c.wait(j) for j in jobs]
        assert [r["state"] for r in results] == ["done", "done"]
    finally:
        web.jobs.close()
        client.close()


# --- the page's extras: loaded from the registry -----------------------------------------------


def test_a_broken_extras_plugin_is_one_line_and_the_page_works(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import dataclasses

    import boardgames.web.app as app

    real = plugins()
    broken = {
        **real,
        "nim": dataclasses.replace(real["nim"], web="boardgames.no_such_module:WEB"),
        "kalah": dataclasses.replace(real["kalah"], web="boardgames.kalah.game:Kalah"),
    }
    monkeypatch.setattr(app, "plugins", lambda: broken)
    client, web = make_client()
    try:
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 2 and all(
            line.startswith("Warning: the web extras of game") for line in err
        )
        assert [name for name, _ in web.extras] == [
            n for n in real if real[n].web and n not in ("nim", "kalah")
        ]
        assert client.get("/").status_code == 200
        assert (
            client.post(
                "/api/nim/position", json={}, headers={"Origin": "http://127.0.0.1:8765"}
            ).status_code
            == 404
        )
        pos = client.post(
            url("nim", "position"), json={}, headers={"Origin": "http://127.0.0.1:8765"}
        )
        assert pos.status_code == 200
    finally:
        web.jobs.close()
        client.close()


def test_extras_without_their_files_are_left_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    """An install that lost a game's static files (no package data) still serves the
    page, without that game's tabs."""
    import dataclasses

    import boardgames.web.app as app

    real = plugins()
    kept = dict(real)
    for k, name in enumerate(n for n in real if real[n].web):
        extras = real[name].web_extras()
        folder = tmp_path / name
        folder.mkdir()
        if k == 0:
            folder = tmp_path / "nowhere"  # no folder at all
        fake = dataclasses.replace(extras, static=folder)
        module = type(sys)(f"fake_extras_{name}")
        module.WEB = fake  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, module.__name__, module)
        kept[name] = dataclasses.replace(real[name], web=f"{module.__name__}:WEB")
    monkeypatch.setattr(app, "plugins", lambda: kept)
    capsys.readouterr()
    client, web = make_client()
    try:
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == sum(1 for n in real if real[n].web) and web.extras == []
        assert all(" lack " in line for line in err), err
        page = client.get("/")
        assert page.status_code == 200 and 'data-tab="play"' in page.text
    finally:
        web.jobs.close()
        client.close()


def test_the_body_cap_is_the_largest_any_extras_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    import boardgames.web.app as app
    from boardgames.web.security import MAX_BODY

    real = app.load_extras()
    bigger = [(name, dataclasses.replace(e, max_body=3 * MAX_BODY)) for name, e in real[:1]]
    monkeypatch.setattr(app, "load_extras", lambda: bigger + real[1:])
    client, web = make_client()
    try:
        assert web.max_body == 3 * MAX_BODY
        origin = {"Origin": "http://127.0.0.1:8765", "Content-Type": "application/json"}
        body = b'{"pad": "' + b" " * (2 * MAX_BODY) + b'"}'
        answer = client.post(url("nim", "position"), content=body, headers=origin)
        assert answer.status_code == 200  # within the raised cap
        answer = client.post(url("nim", "position"), content=body * 2, headers=origin)
        assert answer.status_code == 413
    finally:
        web.jobs.close()
        client.close()


class PlainNim:
    """Nim without its drawing: the page shows its text board and the legal moves."""

    name = "nim"

    def __init__(self, **options: Any) -> None:
        from boardgames.nim.game import Nim

        self.inner = Nim(**options)
        self.rows = self.inner.rows

    def initial_state(self) -> Any:
        return self.inner.initial_state()

    def to_move(self, state: Any) -> int:
        return self.inner.to_move(state)

    def legal_moves(self, state: Any) -> list[int]:
        return self.inner.legal_moves(state)

    def play(self, state: Any, move: int) -> Any:
        return self.inner.play(state, move)

    def outcome(self, state: Any) -> int | None:
        return self.inner.outcome(state)

    def format_move(self, move: int) -> str:
        return self.inner.format_move(move)

    def parse_move(self, text: str, state: Any) -> int:
        return self.inner.parse_move(text, state)

    def render(self, state: Any) -> Any:
        return self.inner.render(state)


def test_a_game_without_a_drawing_gets_its_text_board(
    app_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    import boardgames.web.play as web_play

    plain = dataclasses.replace(plugins()["nim"], factory=f"{__name__}:PlainNim")
    monkeypatch.setattr(web_play, "plugin", lambda name: plain)
    pos = post_ok(app_client, url("nim", "position"), {"options": {"rows": "1 2"}, "moves": [1]})
    assert pos["svg"] is None and pos["legal"] == [{"move": 65537, "text": "2 1"},
                                                   {"move": 65538, "text": "2 2"}]  # fmt: skip
    assert pos["board"].splitlines()[1:] == ["  1  ○         0", "  2  ● ●       2"]
    assert pos["text"] == "1 1"  # no position notation: the moves from the start
