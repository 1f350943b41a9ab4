"""``boardgames kalah match``: spec parsing, bookkeeping of sides and margins, the CLI."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core.match import score_interval
from boardgames.core.protocol import GameError
from boardgames.kalah.game import Kalah
from boardgames.kalah.play import match as match_module
from boardgames.kalah.play.engine import DEFAULT_TIME
from boardgames.kalah.play.match import (
    GameRecord,
    MatchTask,
    opening,
    parse_spec,
    play_game,
    summarise,
)


def test_parse_spec() -> None:
    cfg = parse_spec("depth=5, eval=store,strategy=alphabeta")
    assert (cfg.depth, cfg.evaluation, cfg.strategy, cfg.time) == (5, "store", "alphabeta", None)
    cfg = parse_spec("time=0.25,eval=tseitin,unit=sowing,tt=4")
    assert (cfg.time, cfg.unit, cfg.tt_mib) == (0.25, "sowing", 4.0)
    assert parse_spec("").time_limit == DEFAULT_TIME  # the default program


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("depth5", "key=value"),
        ("colour=red", "key=value"),
        ("depth=five", "needs a number"),
        ("depth=" + "1" + "0" * 30, "depth must be 1 to 200, got 1" + "0" * 30),
        ("depth=" + "9" * 60, "depth is far too large: 60 digits"),
        ("time=1" + "0" * 35, "time must be more than 0 and at most 86400 seconds"),
        ("eval=magic", "unknown evaluation"),
        ("depth=3,strategy=alphabeta,time=1", "iterative strategy"),
    ],
)
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(GameError, match=message):
        parse_spec(spec)


def test_summary_numbers() -> None:
    records = [GameRecord(i, "A", m, [], 1) for i, m in enumerate([3, -1, 0, 5])]
    s = summarise(records)
    assert (s.wins, s.draws, s.losses, s.average_margin, s.score) == (2, 1, 1, 1.75, 0.625)
    assert s.ci95 == score_interval(0.625, 4)


@pytest.mark.parametrize(
    "score, games, interval",
    [
        # Wilson's formula (E. B. Wilson, JASA 22, 1927) worked by hand: centre
        # (p + z^2/2n) / (1 + z^2/n), half-width z/(1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2)
        (0.5, 10, (0.2366, 0.7634)),
        (0.0, 10, (0.0, 0.2775)),
        (1.0, 10, (0.7225, 1.0)),
        (0.0, 2, (0.0, 0.6576)),  # two games lost: not 0.000-0.000
    ],
)
def test_the_score_interval_is_wilsons(
    score: float, games: int, interval: tuple[float, float]
) -> None:
    assert score_interval(score, games) == pytest.approx(interval, abs=1e-4)


def test_openings_are_seeded_and_legal() -> None:
    game = Kalah()
    assert opening(game, 6, 42) == opening(game, 6, 42)
    assert opening(game, 6, 42) != opening(game, 6, 43)
    s = game.initial_state()
    for move in opening(game, 6, 42):
        s, _ = game.play(s, move)


def test_swapped_sides_mirror_the_margin() -> None:
    """Deterministic equal players: game 2k and 2k+1 are the same game with names swapped."""
    tasks = [MatchTask(i, 4, 3, "classic", "depth=2", "depth=2", 3, 7) for i in (0, 1)]
    first, second = (play_game(t) for t in tasks)
    assert first.opening == second.opening
    assert (first.a_side, second.a_side) == ("A", "B")
    assert first.margin == -second.margin


def test_stronger_spec_wins_a_small_match() -> None:
    """Depth 6 against a one-move lookahead on a 4x3 board."""
    result = CliRunner().invoke(
        cli,
        ["kalah", "match", "--a", "depth=6", "--b", "depth=1,eval=store", "--pits", "4",
         "--seeds", "3", "--games", "8", "--jobs", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["wins"] + data["draws"] + data["losses"] == 8 == len(data["results"])
    assert data["score"] > 0.5
    assert [r["a_side"] for r in data["results"]] == ["A", "B"] * 4


def test_table_output_and_worker_processes() -> None:
    result = CliRunner().invoke(
        cli,
        ["kalah", "match", "--a", "depth=2", "--b", "depth=1", "--pits", "3", "--seeds", "2",
         "--games", "2", "--jobs", "2"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "95% interval" in result.output and "on 2 workers (local:2)" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--a", "depth=x"], "needs a number"),
        (["--b", "speed=3"], "key=value"),
        (["--games", "0"], "--games must be"),
        (["--random-opening", "-1"], "--random-opening must be"),
        (["--pits", "0"], "pits must be"),
        (["--jobs", "-2"], "--jobs must be"),
    ],
)
def test_bad_options_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["kalah", "match", *args])
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_ctrl_c_shows_the_games_finished_so_far(monkeypatch) -> None:
    real = match_module.play_game
    calls = []

    def interrupted(task):
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(match_module, "play_game", interrupted)
    result = CliRunner().invoke(
        cli,
        ["kalah", "match", "--a", "depth=2", "--b", "depth=1", "--games", "6", "--pits", "3",
         "--seeds", "2", "--jobs", "1"],
    )  # fmt: skip
    assert result.exit_code == 130
    assert re.search(r"Stopped \(Ctrl-C\) after [0-9.]+ s: 2 of 6 games done\.", result.output)
    assert "2 games in" in result.output and "Aborted" not in result.output


def test_a_first_run_plays_by_the_reference_while_the_engine_compiles(monkeypatch) -> None:
    """No compiled engine yet: every move of an alpha-beta player comes from the
    pure-Python reference at the player's depth, the game still ends by the rules, and the
    record and the CLI say how many moves the reference played."""
    from boardgames.kalah.cli import match as match_cli

    monkeypatch.setattr(match_module, "engine_ready", lambda game, config: False)
    monkeypatch.setattr(match_cli, "engine_ready", lambda game, config: False)
    game = Kalah(4, 3, "classic")
    record = play_game(MatchTask(0, 4, 3, "classic", "depth=3", "depth=1,eval=store", 2, 5))
    assert record.reference_moves == record.moves > 0
    assert record.a_depths.count(3) == len(record.a_depths)  # the reference's own depth
    assert abs(record.margin) <= game.pits * game.seeds * 2
    result = CliRunner().invoke(
        cli,
        ["kalah", "match", "--a", "depth=2", "--b", "time=0.05", "--pits", "3", "--seeds",
         "2", "--games", "2", "--jobs", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["reference_moves"] == sum(r["moves"] for r in data["results"]) > 0
    assert "pure-Python reference" in result.stderr


@pytest.mark.parametrize(
    ("spec", "has_one"),
    [
        ("depth=4", True),
        ("time=0.2,eval=store", True),
        ("classic", True),
        ("strategy=mcts,playouts=50", False),
        ("depth=3,nodes=1000", False),
        ("depth=3,unit=sowing", False),
    ],
)
def test_only_a_search_the_reference_can_play_has_a_stand_in(spec: str, has_one: bool) -> None:
    assert match_module.has_reference(parse_spec(spec)) is has_one


def test_a_ready_engine_plays_every_move(monkeypatch) -> None:
    monkeypatch.setattr(match_module, "engine_ready", lambda game, config: True)
    record = play_game(MatchTask(1, 3, 2, "classic", "depth=2", "depth=1", 0, 1))
    assert record.reference_moves == 0 and record.moves > 0
