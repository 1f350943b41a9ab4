"""The second example plugin (examples/othello-plugin/): Othello with forced passes and a
board-size option, installed into a fresh virtual environment as a third party installs
it (the fixture helpers are test_plugin_example's), where every generic feature serves it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from tests.test_plugin_example import (
    ROOT,
    Venv,
    assert_installed_outside,
    envs_script,
    installed,
    web_script,
)

PLUGIN = ROOT / "examples" / "othello-plugin"
RESULT = re.compile(r"((Black|White) wins \(margin \d+\)|The game is a draw)\.")
PASS_4X4 = "b1 c1 d3 a1"
"""The shortest way to a forced pass on 4x4: Black, to move, has no placement."""


@pytest.fixture(scope="module")
def venv() -> Iterator[Venv]:
    with installed(PLUGIN) as v:
        yield v


def test_the_plugin_is_installed_outside_the_toolkit(venv: Venv) -> None:
    assert_installed_outside(venv, "boardgames_othello")


def test_games_lists_othello_with_its_option_and_capabilities(venv: Venv) -> None:
    done = venv.boardgames("games", "--json")
    assert done.returncode == 0 and "Warning" not in done.stderr, done.stderr
    entry = {g["name"]: g for g in json.loads(done.stdout)["games"]}["othello"]
    assert entry["kind"] == "game" and entry["title"] == "Othello" and "problem" not in entry
    assert [(o["name"], o["default"]) for o in entry["options"]] == [("size", 6)]
    offered = {"rules", "text", "notation", "svg", "actions", "evaluation", "kernels"}
    assert set(entry["capabilities"]) == offered
    odd = venv.boardgames("analyse", "othello", "--size", "5")
    assert odd.returncode == 2 and "size must be 4, 6 or 8, got 5" in odd.stderr


def test_play_the_program_against_itself_to_a_result(venv: Venv) -> None:
    args = ["play", "othello", "--size", "4", "--first", "program", "--second", "program"]
    done = venv.boardgames(*args, "--depth", "2", "--record", str(venv.base / "game.txt"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert RESULT.fullmatch(done.stdout.strip().splitlines()[-1]), done.stdout[-500:]
    assert (venv.base / "game.txt").read_text().startswith("# boardgames play othello")


def test_analyse_answers_and_finds_the_forced_pass(venv: Venv) -> None:
    done = venv.boardgames("analyse", "othello", "b3 b4", "--depth", "3", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["to_move"] == "Black" and report["depth"] == 3
    assert re.fullmatch(r"[a-f][1-6]", report["move"]), report
    stuck = venv.boardgames("analyse", "othello", "--size", "4", PASS_4X4, "--json")
    assert stuck.returncode == 0 and json.loads(stuck.stdout)["move"] == "pass", stuck.stderr
    bad = venv.boardgames("analyse", "othello", "b3 b3")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert "'b3' is not legal here; the legal moves: b2 d2 b4" in bad.stderr


def test_compare_runs_numba_alphabeta_and_mcts(venv: Venv) -> None:
    args = ["compare", "othello", "--size", "4", "--depth", "3", "--positions", "2"]
    done = venv.boardgames(*args, "--strategies", "alphabeta,mcts", "--engines", "numba", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    rows = {(r["strategy"], r["engine"]) for r in report["results"]}
    assert rows == {("alphabeta", "numba"), ("mcts", "numba")} and report["agree"], report


def test_the_web_api_serves_it(venv: Venv) -> None:
    assert venv.script(web_script("othello", "b3")).strip().endswith("ok")


def test_the_learning_environments_serve_it(venv: Venv) -> None:
    assert venv.script(envs_script("othello", size=4)).strip().endswith("ok")


CONFORMANCE = """
from boardgames.core.registry import plugin
from boardgames.testing import check_game, rule_setups

spec = plugin("othello")
for options in [*rule_setups(spec), *$more]:  # the default 6x6 and 4x4 (and 8x8: slow)
    check_game(spec.make(**options))  # every law, the kernels' included
print("ok")
"""


@pytest.mark.parametrize(
    "more", ["()", pytest.param("({'size': 8},)", marks=pytest.mark.slow, id="8x8")]
)
def test_check_game_passes_on_it(venv: Venv, more: str) -> None:
    script = CONFORMANCE.replace("$more", more)
    assert venv.script(script, timeout=300).strip() == "ok"


PERFT = """
import numpy as np
from boardgames.core.registry import make_game
from boardgames_othello import kernels
from boardgames_othello.kernels import OVER, kernel_spec

def perft(game, state, depth):
    if depth == 0:
        return 1
    return sum(perft(game, game.play(state, m)[0], depth - 1) for m in game.legal_moves(state))

def kernel_perft(game, depth):
    spec = kernel_spec(game)
    start = game.initial_state()
    params = np.array([game.size], dtype=np.int64)
    states = np.zeros((depth + 1, start.size), dtype=np.int64)
    states[0] = start
    moves = np.zeros((depth + 1, game.size ** 2), dtype=np.int64)

    def walk(ply):
        if ply == depth:
            return 1
        total = 0
        for i in range(kernels.gen_moves(states, ply, params, moves)):
            code = kernels.apply_move(states, ply, moves[ply, i], params)
            assert (code == OVER) == (game.outcome(states[ply + 1]) is not None)
            total += walk(ply + 1)
        return total

    assert spec.cells == start.size
    return walk(0)

small = make_game("othello", size=4)
assert len(small.legal_moves(small.initial_state())) == 4
board = make_game("othello", size=8)
A124004 = [4, 12, 56, 244, 1396]  # OEIS A124004: Othello perft from the start
assert [perft(board, board.initial_state(), d) for d in range(1, 6)] == A124004
assert [kernel_perft(board, d) for d in range(1, 6)] == A124004
for size, depth in ((4, 7), (6, 5)):  # through forced passes and finished games on 4x4
    game = make_game("othello", size=size)
    assert kernel_perft(game, depth) == perft(game, game.initial_state(), depth), size
print("ok")
"""


def test_perft_against_the_published_counts_in_python_and_numba(venv: Venv) -> None:
    assert venv.script(PERFT, timeout=300).strip() == "ok"


FORCED_PASS = """
import re
from boardgames.core.capabilities import legal_mask, parse_position
from boardgames.core.protocol import GameError
from boardgames.core.registry import make_game

game = make_game("othello", size=4)
state = parse_position(game, "$moves")
assert game.to_move(state) == 0 and game.legal_moves(state) == [16] and game.outcome(state) is None
assert game.format_move(16) == "pass" and game.parse_move(" Pass ", state) == 16
try:
    game.parse_move("d1", state)
except GameError as e:
    assert "legal moves: pass" in str(e) and "\\n" not in str(e)
else:
    raise AssertionError("d1 accepted")
svg = str(game.svg(state, last=0))
assert re.findall(r'data-move="(\\d+)"', svg) == ["16"], svg
assert list(legal_mask(game, state)).index(1) == 16 and game.num_actions == 17
after, again = game.play(state, 16)
assert not again and game.to_move(after) == 1 and 16 not in game.legal_moves(after)
print("ok")
"""


def test_a_forced_pass_is_a_move(venv: Venv) -> None:
    assert venv.script(FORCED_PASS.replace("$moves", PASS_4X4)).strip() == "ok"


def test_the_generic_command_tests_pass_for_it(venv: Venv) -> None:
    tests = ROOT / "tests" / "cli" / "test_generic_commands.py"
    args = ["-m", "pytest", str(tests), "-k", "othello", "-q", "-p", "no:cacheprovider", "-n", "0"]
    done = venv.run(*args, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
