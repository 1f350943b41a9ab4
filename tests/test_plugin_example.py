"""The example plugin (examples/tictactoe-plugin/) installed as a third party installs it:
into a fresh virtual environment, where every generic feature then serves the game.

The environment is built once for the module: ``python -m venv`` (no pip of its own), a
``.pth`` file that adds this interpreter's site-packages (``boardgames`` and its
dependencies, pip and setuptools: nothing is installed again), and ``pip install`` of a
copy of the plugin (the source tree is left as it is). Every check runs as a subprocess
of that environment's Python; the in-process ones are the small scripts below.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from string import Template

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "examples" / "tictactoe-plugin"
SKIP = 77
"""Exit status of a script that found a feature not there yet (its last line: the reason)."""

RESULT_LINES = ("O wins (margin 1).", "The game is a draw.")


def offline_build_possible() -> bool:
    """Whether setuptools here can build a wheel with no download: setuptools >= 70.1, or
    an older one with the ``wheel`` package (it provides ``bdist_wheel``)."""
    if importlib.util.find_spec("wheel") is not None:
        return True
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    major, minor = (int(part) for part in version.split(".")[:2])
    return (major, minor) >= (70, 1)


class Venv:
    """The temporary environment: its Python, a folder to work in, and a runner."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.python = base / "venv" / "bin" / "python"
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        self.env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", COLUMNS="100")

    def run(
        self, *args: str, stdin: str = "", timeout: float = 120, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.python), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd or self.base,
            env=self.env,
        )

    def script(self, source: str, timeout: float = 120) -> str:
        """Run ``source`` with the environment's Python; its output. Exit status
        :data:`SKIP` skips the test with the script's last line as the reason."""
        path = self.base / "check.py"
        path.write_text(source)
        done = self.run(str(path), timeout=timeout)
        if done.returncode == SKIP:
            pytest.skip(done.stdout.strip().splitlines()[-1])
        assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
        return done.stdout

    def boardgames(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return self.run("-m", "boardgames", *args, stdin=stdin)


@contextmanager
def installed(plugin: Path) -> Iterator[Venv]:
    """A fresh environment with the example plugin in folder ``plugin`` installed; the
    module-scoped ``venv`` fixture of this module and of ``test_othello_example``."""
    with tempfile.TemporaryDirectory(prefix="boardgames-plugin-") as tmp:
        v = Venv(Path(tmp))
        subprocess.run(
            [sys.executable, "-m", "venv", "--without-pip", str(v.base / "venv")], check=True
        )
        purelib = v.run("-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
        parents = [p for p in site.getsitepackages() if Path(p).is_dir()]
        parents.append(sysconfig.get_paths()["purelib"])
        # addsitedir (not a bare path): the parent's own .pth files run too, such as the
        # finder of an editable install of boardgames
        adds = "; ".join(f"site.addsitedir({p!r})" for p in dict.fromkeys(parents))
        line = f"import site; {adds}"
        Path(purelib.stdout.strip(), "_boardgames_parent.pth").write_text(line + "\n")
        # a copy, so that the build's egg-info and build/ stay out of the source tree
        source = v.base / plugin.name
        litter = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
        shutil.copytree(plugin, source, ignore=litter)
        pip = ["-m", "pip", "install", "--no-deps", "--quiet"]
        if offline_build_possible():
            done = v.run(*pip, "--no-build-isolation", "--no-index", str(source), timeout=300)
        else:
            # setuptools < 70.1 without `wheel` cannot build a wheel: let pip fetch the
            # build requirements from the package index, as a user's `pip install` does
            done = v.run(*pip, str(source), timeout=300)
            if done.returncode != 0 and "No matching distribution found" in done.stderr:
                pytest.skip(
                    "cannot build the plugin offline (setuptools < 70.1 and no `wheel` "
                    "package here) and the package index cannot be reached"
                )
        assert done.returncode == 0, f"pip install failed:\n{done.stdout}\n{done.stderr}"
        yield v


@pytest.fixture(scope="module")
def venv() -> Iterator[Venv]:
    with installed(PLUGIN) as v:
        yield v


def assert_installed_outside(venv: Venv, package: str) -> None:
    """``package`` imports from the environment, ``boardgames`` from the parent's."""
    where = venv.script(
        f"import {package}, boardgames\nprint({package}.__file__)\nprint(boardgames.__file__)\n"
    ).splitlines()
    assert where[0].startswith(str(venv.base / "venv")), where
    assert not where[1].startswith(str(venv.base)), where  # the parent's boardgames


def test_the_plugin_is_installed_outside_the_toolkit(venv: Venv) -> None:
    assert_installed_outside(venv, "boardgames_tictactoe")


def test_games_lists_tictactoe_with_its_capabilities(venv: Venv) -> None:
    done = venv.boardgames("games", "--json")
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr, done.stderr  # every plugin loaded
    games = {g["name"]: g for g in json.loads(done.stdout)["games"]}
    assert {"kalah", "nim", "tictactoe"} <= set(games)
    entry = games["tictactoe"]
    assert entry["kind"] == "game" and entry["title"] == "Tic-tac-toe"
    assert entry["options"] == [] and "problem" not in entry
    offered = {"rules", "text", "notation", "svg", "actions", "evaluation", "kernels"}
    assert set(entry["capabilities"]) == offered
    table = venv.boardgames("games")
    assert table.returncode == 0 and "tictactoe" in table.stdout


def _last_line(output: str) -> str:
    return output.strip().splitlines()[-1]


def test_play_refuses_bad_moves_and_the_perfect_program_never_loses(venv: Venv) -> None:
    # X tries the cells in order, an occupied one refused each time: whatever the program
    # answers, the next free cell is played
    tries = ["10", "x", "5", "5", *[str(c) for c in range(1, 10)] * 2]
    done = venv.boardgames("play", "tictactoe", "--level", "perfect", stdin="\n".join(tries) + "\n")
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "Traceback" not in out + done.stderr
    assert _last_line(out).startswith(RESULT_LINES), out
    assert "X wins" not in out
    # each bad move: one line, then the prompt again (the prompt and the reply share a
    # line, since stdin is not a terminal)
    assert "'10' is not a cell: type 1 to 9" in out
    assert "'x' is not a cell: type 1 to 9" in out
    assert "cell 5 holds X; the empty cells:" in out
    for reason in ("is not a cell", "holds"):
        for line in out.splitlines():
            if reason in line:
                assert line.startswith("X to move ("), line


def test_play_a_drawn_game_the_program_against_itself(venv: Venv) -> None:
    args = ["play", "tictactoe", "--first", "program", "--second", "program"]
    done = venv.boardgames(*args, "--level", "perfect", "--record", str(venv.base / "game.txt"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert _last_line(done.stdout).startswith("The game is a draw."), done.stdout
    record = (venv.base / "game.txt").read_text().splitlines()
    assert record[0].startswith("# boardgames play tictactoe") and len(record[1].split()) == 10


def test_analyse_a_position_given_as_moves(venv: Venv) -> None:
    # by depth, not by the time: 7 plies are left, so the search reaches every end on
    # any machine and is exact (a loaded machine once ran out of the default 1 s)
    done = venv.boardgames("analyse", "tictactoe", "5,1", "--json", "--depth", "7")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["to_move"] == "X" and report["exact"] is True
    assert report["value_text"] == "draw" and report["engine"] == "python"
    assert report["move"] in {"2", "3", "4", "6", "7", "8", "9"}
    text = venv.boardgames("analyse", "tictactoe", "5,1")
    assert text.returncode == 0 and "Best move:" in text.stdout
    bad = venv.boardgames("analyse", "tictactoe", "5,5")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert "move 2 ('5'): cell 5 holds X" in bad.stderr


NEVER_LOSES = """
import random
from boardgames.core.engine import think
from boardgames.core.registry import make_game

game = make_game("tictactoe")
start = game.initial_state()
answer = think(game, start, depth=9)  # 9 plies: every line ends, so exact
assert answer.exact and answer.value == 0 and answer.engine == "python", answer
for move in game.legal_moves(start):  # the program (O) after each first move of X
    state, again = game.play(start, move)
    answer = think(game, state, depth=9)
    assert not again and answer.exact and answer.value >= 0, (move, answer)
rng = random.Random(20240917)
for _ in range(30):
    state = start
    while game.outcome(state) is None:
        if game.to_move(state) == 0:
            move = rng.choice(game.legal_moves(state))
        else:
            move = think(game, state, depth=9).move
        state, _ = game.play(state, move)
    result = game.outcome(state)  # for the player to move
    assert (result if game.to_move(state) == 1 else -result) >= 0, state
print("ok")
"""


def test_the_program_never_loses_as_o(venv: Venv) -> None:
    assert venv.script(NEVER_LOSES).strip() == "ok"


CAPABILITIES = """
import re
import numpy as np
from boardgames.core.capabilities import ActionCodec, Drawing, legal_mask, parse_position
from boardgames.core.protocol import Game, GameError
from boardgames.core.registry import make_game

game = make_game("tictactoe")
assert isinstance(game, Game) and isinstance(game, Drawing) and isinstance(game, ActionCodec)
state = parse_position(game, "5 1")
assert state.dtype == np.int64 and state.shape == (10,) and game.to_move(state) == 0
svg = str(game.svg(state))
moves = sorted(int(m) for m in re.findall(r'<rect[^>]*data-move="(\\d)"', svg))
assert moves == game.legal_moves(state) == [1, 2, 3, 5, 6, 7, 8], moves
won = parse_position(game, "1 4 2 5 3")
assert game.outcome(won) == -1 and not re.search(r"<rect[^>]*data-move", game.svg(won))
assert game.num_actions == 9 and game.observation_high == 1
obs = game.observation(state, 0)
assert obs.shape == game.observation_shape == (2, 3, 3)
assert obs[0, 1, 1] == 1 and obs[1, 0, 0] == 1 and obs.sum() == 2
assert (game.observation(state, 1) == obs[::-1]).all()
assert list(legal_mask(game, state)) == [0, 1, 1, 1, 0, 1, 1, 1, 1]
for action in (0, 4, 9, -1, 2.0, "3", None, True):
    assert game.move_of(state, action) is None, action
assert game.move_of(state, np.int64(8)) == 8
for text in ("0", "10", "", "a", "1 2", "٣"):
    try:
        game.parse_move(text, state)
    except GameError as e:
        assert "\\n" not in str(e)
    else:
        raise AssertionError(text)
print("ok")
"""


def test_the_capabilities_from_the_installed_plugin(venv: Venv) -> None:
    assert venv.script(CAPABILITIES).strip() == "ok"


WEB = """
import sys, warnings
GAME, POSITION = $game, $position
try:
    from starlette.testclient import TestClient
except ImportError:
    print("starlette is not installed (the [web] extra)")
    sys.exit(77)
from boardgames.web.app import create_app

TOKEN, PORT = "plugin-test-token", 8765
BASE = f"http://127.0.0.1:{PORT}"
guard, web = create_app(TOKEN, PORT)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    client = TestClient(guard, base_url=BASE, raise_server_exceptions=False)
try:
    assert client.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
    listed = client.get("/api/games")
    if listed.status_code == 404:
        print("no /api/games yet: the web page's generic games API is not there")
        sys.exit(77)
    assert listed.status_code == 200, listed.text
    body = listed.json()
    games = body["games"] if isinstance(body, dict) else body
    names = [g if isinstance(g, str) else g["name"] for g in games]
    assert GAME in names, names
    asked = client.post(
        f"/api/games/{GAME}/position", json={"position": POSITION}, headers={"Origin": BASE}
    )
    if asked.status_code == 404:
        print(f"no /api/games/{GAME}/position yet: the web page lists games only")
        sys.exit(77)
    assert asked.status_code == 200, asked.text
    assert "data-move" in asked.text, asked.text[:300]
finally:
    web.jobs.close()
    client.close()
print("ok")
"""


def web_script(game: str, position: str) -> str:
    """:data:`WEB` for ``game`` and a ``position`` of it."""
    return Template(WEB).substitute(game=repr(game), position=repr(position))


def test_the_web_api_serves_it(venv: Venv) -> None:
    assert venv.script(web_script("tictactoe", "5 1")).strip().endswith("ok")


ENVS = """
import sys, warnings
try:
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test
except ImportError:
    print("PettingZoo or Gymnasium is not installed (the [rl] extra)")
    sys.exit(77)
import boardgames.envs

GAME, KWARGS = $game, $kwargs

if not hasattr(boardgames.envs, "make"):
    print("boardgames.envs has no make() yet: no generic environments")
    sys.exit(77)
warnings.simplefilter("ignore", UserWarning)  # api_test's advice for classic games
api_test(boardgames.envs.make(GAME, **KWARGS), num_cycles=100)
if hasattr(boardgames.envs, "register_gymnasium"):
    boardgames.envs.register_gymnasium()
env = gymnasium.make(f"boardgames/{GAME.capitalize()}-v0", **KWARGS)
check_env(env.unwrapped)
env.close()
try:
    import pyspiel
except ImportError:
    pyspiel = None  # OpenSpiel is optional in the [rl] extra
if pyspiel is not None:
    import boardgames.envs.spiel  # registers the games

    params = ",".join(f"{k}={v}" for k, v in KWARGS.items())
    spiel = pyspiel.load_game(f"python_boardgames_{GAME}" + (f"({params})" if params else ""))
    pyspiel.random_sim_test(spiel, num_sims=3, serialize=False, verbose=False)
print("ok")
"""


def envs_script(game: str, **options: object) -> str:
    """:data:`ENVS` for ``game`` built with ``options``."""
    return Template(ENVS).substitute(game=repr(game), kwargs=repr(options))


def test_the_learning_environments_serve_it(venv: Venv) -> None:
    assert venv.script(envs_script("tictactoe")).strip().endswith("ok")


CONFORMANCE = """
from boardgames.core.registry import make_game
from boardgames.testing import LAWS, check_game

check_game(make_game("tictactoe"))  # every law, the kernels' included
print(len(LAWS), "laws")
"""


def test_check_game_passes_on_it(venv: Venv) -> None:
    """The one call the tutorial gives an author: the conformance laws, kernels included."""
    assert venv.script(CONFORMANCE, timeout=300).strip().endswith("laws")


KERNELS = """
from boardgames.core.mcts import MctsSearcher
from boardgames.core.registry import make_game
from boardgames.core.strategies import EXACT_STRATEGIES, numba_searcher

game = make_game("tictactoe")
start = game.initial_state()
searcher = numba_searcher(game)
for name in EXACT_STRATEGIES:  # every numba strategy: a draw, searched to the end
    found = searcher.run(name, start, 9)
    assert found.value == 0 and found.best_move in range(9), (name, found)
state, _ = game.play(start, 0)
state, _ = game.play(state, 3)
found = MctsSearcher(game).search(state, playouts=3000, seed=1)
assert found.move in game.legal_moves(state), found
print("ok")
"""


def test_the_numba_strategies_and_mcts_run_on_its_kernels(venv: Venv) -> None:
    """Step two of the tutorial: the optional kernels serve every numba strategy and MCTS."""
    assert venv.script(KERNELS, timeout=300).strip() == "ok"


def test_the_generic_command_tests_pass_for_it(venv: Venv) -> None:
    """The conformance tests of the generic commands, run where the plugin is installed:
    each test parametrized over the installed games runs for tictactoe too."""
    tests = ROOT / "tests" / "cli" / "test_generic_commands.py"
    quiet = ["-q", "-p", "no:cacheprovider", "-n", "0"]  # one process: a few tests
    args = ["-m", "pytest", str(tests), "-k", "tictactoe", *quiet]
    done = venv.run(*args, timeout=240, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
