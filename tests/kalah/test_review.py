"""``kalah review``: verdicts that do not depend on the cache, and a summary that reads.

Every test that reviews works in its own cache folder ($BOARDGAMES_CACHE), filled or left
empty on purpose: a review must say the same of every move whatever the cache holds
(issue 18: the classic program's game got "mistake" on a machine with a big table cached
and "inaccuracy" on a fresh one). Exact values are checked against the pure-Python
reference search played to the end of the game.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from boardgames.cli import cli
from boardgames.core.protocol import score_margin
from boardgames.core.search import alphabeta_tt
from boardgames.kalah.exact import endgame, sizing
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import EngineConfig, KalahEngine
from boardgames.kalah.record import Move, Record, read_record, replay

STRANGE_GAME = Path(__file__).parents[2] / "docs" / "games" / "strange-game.txt"
SUMMARY = re.compile(r"(\d+) moves, (\d+) valued exactly; (\d+) (\w+), (\d+) (\w+), (\d+) (\w+)")


def review(*args: str, columns: int | None = None) -> Result:
    env = {"COLUMNS": str(columns)} if columns else None
    return CliRunner().invoke(cli, ["kalah", "review", *args], env=env)


def weak_game(tmp_path: Path, pits: int = 3, seeds: int = 3) -> Path:
    """A whole game of two one-move-deep programs (they blunder): a record file."""
    game = Kalah(pits, seeds)
    engines = [
        KalahEngine(game, EngineConfig(depth=1, evaluation=e, strategy="alphabeta", prove_nodes=0))
        for e in ("tseitin", "rechenberg")
    ]
    state, moves = game.initial_state(), []
    while game.outcome(state) is None:
        player = game.to_move(state)
        pits_played = tuple(engines[player].best_move(state).move)
        moves.append(Move(player, pits_played))
        state = game.play_compound(state, pits_played)
    path = tmp_path / "weak.klh"
    Record(game=game, moves=moves).save(path)
    return path


def exhaustive(game: Kalah, state: np.ndarray) -> int:
    """Final margin for the side to move, by the reference search to the end."""
    if game.outcome(state) is not None:
        return int(game.outcome(state))
    return score_margin(alphabeta_tt(game, state, None).value) or 0


def rows_of(result: Result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["moves"]


# --- the same review whatever the cache holds -------------------------------------------


def test_auto_reviews_the_same_with_any_cache(folder: Path, tmp_path: Path) -> None:
    path = weak_game(tmp_path)
    args = (str(path), "--exact-nodes", "300", "--json")
    empty = json.loads(review(*args).stdout)
    assert empty["endgame"] == {"stones": 18, "source": "built"}  # the whole board: 18
    # a bigger cached table, then only a smaller one
    for k in (22, 10):
        for p in folder.glob("*.npy"):
            p.unlink()
        endgame.load_or_build(3, k)
        again = json.loads(review(*args).stdout)
        assert again["moves"] == empty["moves"]
    assert again["endgame"]["stones"] == 18
    # every move exact, and right: the reference search to the end of the game
    record = read_record(path)
    steps, _ = replay(record)
    game, state = record.game, record.game.initial_state()
    for row, step in zip(empty["moves"], steps, strict=True):
        player = game.to_move(state)
        after = exhaustive(game, step.state)
        after = after if game.to_move(step.state) == player else -after
        assert row["exact"] and row["before"] == exhaustive(game, state)
        assert row["after"] == after
        state = step.state
    assert {r["verdict"] for r in empty["moves"]} >= {"best", "mistake"}


def test_a_table_that_covers_part_of_the_game(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a budget that covers only the end of the game, which moves are exact is still
    the same for an empty cache, a cache holding a bigger table (cut down to the budget's)
    and a cache holding a smaller one (built on); --quick, which takes what the cache
    holds, is not."""
    monkeypatch.setattr(sizing, "REVIEW_TABLE_ENTRIES", 40_000)  # 3 pits: 14 stones
    path = weak_game(tmp_path, seeds=6)
    args = (str(path), "--exact-nodes", "2000", "--json")
    empty = json.loads(review(*args).stdout)
    assert empty["endgame"] == {"stones": 14, "source": "built"}
    exact = [r["exact"] for r in empty["moves"]]
    assert any(exact) and not all(exact)
    quick_runs = []
    for k, source in ((20, "cut from the cached 20-stone table"), (6, "built")):
        for p in folder.glob("*.npy"):
            p.unlink()
        endgame.load_or_build(3, k)
        quick_runs.append(json.loads(review(str(path), "--exact-nodes", "2000", "--quick",
                                            "--json").stdout))  # fmt: skip
        again = json.loads(review(*args).stdout)
        assert again["endgame"] == {"stones": 14, "source": source}
        assert again["moves"] == empty["moves"]
    assert again["moves"] == json.loads(review(*args).stdout)["moves"]  # now from the cache
    # --quick took the 20- and then the 6-stone table: not the same moves exact
    assert [q["endgame"]["stones"] for q in quick_runs] == [20, 6]
    assert quick_runs[0]["exact_moves"] > quick_runs[1]["exact_moves"]


def test_quick_builds_nothing(folder: Path, tmp_path: Path) -> None:
    path = weak_game(tmp_path)
    result = review(str(path), "--quick", "--exact-nodes", "300")
    assert result.exit_code == 0, result.output
    assert not list(folder.glob("*.npy"))
    assert "Endgame table: none (none in the cache; --quick builds none)" in result.stdout
    result = review(str(path), "--quick", "--endgame", "10")
    assert result.exit_code == 2 and "leave out --endgame" in result.output


def test_the_last_line_says_which_table_and_how_many_moves_stayed_depth_limited(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sizing, "REVIEW_TABLE_ENTRIES", 40_000)
    path = weak_game(tmp_path, seeds=6)
    data = json.loads(review(str(path), "--exact-nodes", "2000", "--json").stdout)
    limited = sum(not r["exact"] for r in data["moves"])
    assert data["depth_limited_moves"] == limited > 0
    text = " ".join(review(str(path), "--exact-nodes", "2000").stdout.split())
    moves = "move" if limited == 1 else "moves"
    assert text.endswith(
        "Endgame table: 14 stones on 3 pits (38,760 positions, from the cache); "
        f"{limited} {moves} depth-limited (depth 8)."
    )


# --- the summary and the table -----------------------------------------------------------


def test_the_summary_counts_in_plurals(folder: Path) -> None:
    args = (str(STRANGE_GAME), "--exact-nodes", "0", "--depth", "3")
    rows = rows_of(review(*args, "--json"))
    text = review(*args).stdout
    match = SUMMARY.search(" ".join(text.split()))
    assert match is not None, text
    n, exact, *pairs = match.groups()
    assert int(n) == len(rows) == 26 and int(exact) == 0
    singular = {"best": "best", "inaccuracies": "inaccuracy", "mistakes": "mistake"}
    counts = {}
    for count, word in zip(pairs[::2], pairs[1::2], strict=True):
        name = singular.get(word, word)
        assert (word != name) == (int(count) != 1 and name != "best"), text
        counts[name] = int(count)
    assert counts == {v: sum(r["verdict"] == v for r in rows) for v in counts}
    assert max(counts["inaccuracy"], counts["mistake"]) > 1  # a plural was printed
    assert "Endgame table: none (--exact-nodes 0" in text


@pytest.mark.parametrize("columns", [80, 60])
def test_the_verdict_is_never_cut(folder: Path, columns: int) -> None:
    args = (str(STRANGE_GAME), "--exact-nodes", "0", "--depth", "3")
    rows = rows_of(review(*args, "--json"))
    text = review(*args, columns=columns).stdout
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= columns
    assert "…" not in text
    for r in rows:
        row = next(line for line in lines if re.match(rf"│\s*{r['move']} │", line))
        assert f" {r['verdict']} " in row and f"depth {r['depth']}" in row


# --- the classic program's game (issue 18) ------------------------------------------------


@pytest.mark.slow
def test_move_13_of_the_strange_game_is_a_mistake_whatever_the_cache(folder: Path) -> None:
    """A's 7th move, 0 5 4 5 (move 13 of the review): a draw turned into a loss by 6, with
    the 20-stone table --endgame auto builds in an empty cache (1.5-2 minutes on two idle
    cores) and again with a 21-stone table in the cache instead, cut down to 20."""
    args = (str(STRANGE_GAME), "--exact-nodes", "5000000", "--json")  # the early moves fail sooner
    first = json.loads(review(*args).stdout)
    assert first["endgame"] == {"stones": 20, "source": "built"}
    move = first["moves"][12]
    assert move["played"] == [0, 5, 4, 5] and move["exact"]
    assert (move["before"], move["after"], move["verdict"]) == (0, -6, "mistake")
    endgame.load_or_build(6, 21)  # on top of the cached 20
    endgame.cache_path(6, 20, "classic").unlink()
    again = json.loads(review(*args).stdout)
    assert again["endgame"] == {"stones": 20, "source": "cut from the cached 21-stone table"}
    assert again["moves"] == first["moves"]


# --- a first run: the pure-Python solver while the fast one compiles ---------------------


def _first_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """This machine as on a first run: nothing compiled, a background compile started."""
    from boardgames.core import warmup

    calls: list[str] = []
    monkeypatch.setattr(warmup, "is_ready", lambda group: False)
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: calls.append(group) or True)
    monkeypatch.setattr(warmup, "stop_background", lambda *a, **k: calls.append("stopped"))
    return calls


def test_a_first_run_reviews_a_small_board_in_pure_python_with_the_same_verdicts(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = weak_game(tmp_path)
    fast = rows_of(review(str(path), "--json"))  # the fast solver (compiled in tests)
    calls = _first_run(monkeypatch)
    result = review(str(path), "--json")
    first = rows_of(result)
    assert calls == ["kalah"]
    assert json.loads(result.stdout)["endgame"] == {"stones": 0, "source": "first run"}
    keys = ("move", "player", "played", "before", "after", "loss", "verdict", "exact")
    assert [{k: r[k] for k in keys} for r in first] == [{k: r[k] for k in keys} for r in fast]
    # a best move is legal and keeps the value (another than the fast solver's, maybe)
    record = read_record(path)
    steps, _ = replay(record)
    game, state = record.game, record.game.initial_state()
    for row, step in zip(first, steps, strict=True):
        best = game.play_compound(state, tuple(row["best"]))
        value = exhaustive(game, best)
        assert (value if game.to_move(best) == game.to_move(state) else -value) == row["before"]
        state = step.state
    # the plain-text review says why no table was used
    text = review(str(path)).output
    assert "a first run: the pure-Python solver valued every move" in text


def test_a_first_run_past_the_pure_python_budget_compiles_the_fast_solver(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from boardgames.kalah.analysis import review as review_module

    path = weak_game(tmp_path)
    fast = rows_of(review(str(path), "--json"))
    calls = _first_run(monkeypatch)
    budget = {"depth": 8, "node_budget": 50}
    monkeypatch.setattr(review_module.QuickReviewer.__init__, "__kwdefaults__", budget)
    result = review(str(path), "--json")
    assert calls == ["kalah", "stopped"] and "compiled now" in result.stderr
    assert rows_of(result) == fast
