"""A first run on a fresh machine: the program moves at once, with the pure-Python
reference search, while the compiled engine is prepared in the background; it plays with
the engine from the move on which the engine is ready (boardgames.core.warmup)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
from boardgames.core import warmup
from boardgames.core.protocol import is_terminal_score
from boardgames.kalah.cli import analyse
from boardgames.kalah.game import Kalah
from boardgames.kalah.play.engine import EngineConfig
from boardgames.kalah.play.program import choose_compound, reference_within
from boardgames.kalah.record import read_record, replay


def random_position(game: Kalah, rng: random.Random, sowings: int):
    state = game.initial_state()
    for _ in range(sowings):
        moves = game.legal_moves(state)
        if not moves:
            break
        state, _ = game.play(state, rng.choice(moves))
    return state


@pytest.mark.parametrize("rules", ["classic", "etudes"])
def test_reference_within_plays_the_reference_programs_move_at_its_depth(rules: str) -> None:
    """The fallback is the reference program itself, deepened within the time: its move
    and value are choose_compound's at the depth it reports."""
    rng = random.Random(7)
    game = Kalah(4, 3, rules, "tseitin")
    for k in range(12):
        state = random_position(game, rng, k)
        if game.outcome(state) is not None:
            continue
        config = EngineConfig(time=0.05 * (k % 3 + 1))
        pits, result = reference_within(game, state, config)
        assert result.strategy == "reference" and result.depth is not None
        assert 1 <= result.depth <= 12
        same_pits, same = choose_compound(game, state, result.depth, evaluation="tseitin")
        assert (pits, result.value) == (same_pits, same.value)
        assert not result.exact  # a depth-limited search is never labelled exact
        if not is_terminal_score(result.value):
            assert result.depth == 12 or result.nodes > 0


def test_reference_within_keeps_to_the_depth_a_program_asks_for() -> None:
    game = Kalah(6, 6)
    _, result = reference_within(game, game.initial_state(), EngineConfig(depth=3, time=60))
    assert result.depth == 3


@pytest.mark.parametrize(
    ("compiled", "aside", "said"),
    [(False, False, True), (False, True, False), (True, False, False)],
    ids=["cold-no-background", "cold-background", "compiled"],
)
def test_play_says_when_the_first_program_move_compiles_here(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, compiled: bool, aside: bool, said: bool
) -> None:
    """With the kernels not compiled and no background compile (BOARDGAMES_BACKGROUND_WARM=0,
    or no cache folder), the program's first move compiles them in the foreground: said
    once on stderr before the game. Not said when a background compile runs (the program
    plays the reference search meanwhile), nor when compiled, nor with no program side."""
    monkeypatch.setattr(warmup, "is_ready", lambda group: compiled)
    monkeypatch.setattr(warmup, "step_ready", lambda group, target: compiled)
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: aside)
    record = str(tmp_path / "g.klh")
    # the person moves first and the input ends at once: the program never moves
    result = CliRunner().invoke(cli, ["kalah", "play", "--record", record], input="")
    assert result.exit_code == 0, result.output
    note = "its first move compiles it here, once per machine"
    assert (note in result.stderr) == said, result.stderr
    people = CliRunner().invoke(
        cli, ["kalah", "play", "--a", "human", "--b", "human", "--record", record], input=""
    )
    assert people.exit_code == 0 and note not in people.stderr


def test_play_moves_at_once_then_switches_to_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cold: the first program move comes from the reference search (said on the move's
    line); once the background compile is ready, the next move is the engine's."""
    asked: list[str] = []

    def is_ready(group: str) -> bool:
        # asked when the game starts and before the first program move: not yet; from the
        # second program move on, the background compile has finished (the program's
        # own step is never marked here)
        asked.append(group)
        return group == "kalah" and asked.count("kalah") > 2

    started: list[str] = []
    monkeypatch.setattr(warmup, "is_ready", is_ready)
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: started.append(group) or True)
    record = tmp_path / "g.klh"
    moves_seen: list[str] = []
    script = "2\n" + "0\n1\n2\n3\n4\n5\n" * 200
    result = CliRunner().invoke(
        cli, ["kalah", "play", "--time", "0.2", "--record", str(record)], input=script
    )
    assert result.exit_code == 0, result.output
    assert set(started) == {"kalah"}  # asked again while it runs: the same warm-up
    assert "The fast engine is being compiled in the background" in result.stderr
    for line in result.stdout.splitlines():
        if line.startswith("I play "):
            moves_seen.append(line)
    assert "reference search at depth" in moves_seen[0]
    assert len(moves_seen) > 1 and all("reference search" not in m for m in moves_seen[1:])
    _, final = replay(read_record(record))  # the whole game was recorded, both kinds of move
    assert Kalah(6, 6).outcome(final) is not None


def test_play_switches_once_the_programs_step_is_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The background compile marks each step it finishes: the engine takes over as soon
    as the program's step is done (its search and proofs), before the rest of the group."""
    asked: list[str] = []

    def is_ready(name: str) -> bool:
        asked.append(name)
        return name == "kalah.program_classic" and asked.count(name) > 1

    monkeypatch.setattr(warmup, "is_ready", is_ready)
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: True)
    script = "2\n" + "0\n1\n2\n3\n4\n5\n" * 200
    result = CliRunner().invoke(
        cli, ["kalah", "play", "--time", "0.2", "--record", str(tmp_path / "g.klh")], input=script
    )
    assert result.exit_code == 0, result.output
    moves = [line for line in result.stdout.splitlines() if line.startswith("I play ")]
    assert "reference search at depth" in moves[0]
    assert len(moves) > 1 and all("reference search" not in m for m in moves[1:])
    # another program than the default one waits for the whole group
    asked.clear()
    result = CliRunner().invoke(
        cli,
        ["kalah", "play", "--b", "strategy=alphabeta,depth=4", "--record", str(tmp_path / "h.klh")],
        input="2\n" + "0\n1\n2\n3\n4\n5\n" * 200,
    )
    assert result.exit_code == 0, result.output
    moves = [line for line in result.stdout.splitlines() if line.startswith("I play ")]
    assert moves and all("reference search" in m for m in moves)


def test_play_loads_the_engine_first_when_no_background_compile_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With background compiles switched off (BOARDGAMES_BACKGROUND_WARM=0, as in this
    suite), nothing would ever make the engine ready: play loads it before the game."""
    monkeypatch.setattr(warmup, "is_ready", lambda group: False)
    result = CliRunner().invoke(
        cli,
        ["kalah", "play", "--pits", "3", "--seeds", "2", "--record", str(tmp_path / "g.klh")],
        input="0\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "reference search" not in result.output
    assert "compiled in the background" not in result.output


def test_analyse_answers_with_the_reference_search_while_the_engine_compiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cold, a search of seconds: the reference program answers (and says so); a search
    the user sized (--depth) or a long one waits for the engine as before."""
    started: list[str] = []
    monkeypatch.setattr(warmup, "is_ready", lambda group: False)
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: started.append(group) or True)
    r = CliRunner().invoke(cli, ["kalah", "analyse", "--pits", "4", "--seeds", "3", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["reference_search"] is True and data["exact"] is False
    game = Kalah(4, 3, evaluation="tseitin")
    pits, same = choose_compound(game, game.initial_state(), data["depth"], evaluation="tseitin")
    assert (data["best"], data["value"]) == (list(pits), same.value)
    assert "pure-Python reference program" in r.stderr and started == ["kalah"]
    # a --depth the reference search reaches in seconds: that depth, exactly
    args = ["kalah", "analyse", "--pits", "4", "--seeds", "3", "--depth", "5", "--json"]
    data = json.loads(CliRunner().invoke(cli, args).stdout)
    pits, same = choose_compound(game, game.initial_state(), 5, evaluation="tseitin")
    assert data["reference_search"] and data["depth"] == 5
    assert (data["best"], data["value"]) == (list(pits), same.value)
    # one it would not reach in time: the engine searches it (compiled here and now)
    monkeypatch.setattr(analyse, "REFERENCE_SECONDS", 0.0)
    data = json.loads(CliRunner().invoke(cli, args).stdout)
    assert not data["reference_search"] and data["depth"] == 5
    assert data["value"] == same.value  # the same depth-5 value, by the engine
    # a long search waits for the engine too
    r = CliRunner().invoke(cli, ["kalah", "analyse", "--pits", "4", "--seeds", "3", "--time", "6"])
    assert r.exit_code == 0 and "reference" not in r.output


@pytest.mark.parametrize("rules", ["classic", "etudes"])
def test_analyse_uses_the_engine_once_the_programs_step_is_compiled(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the program's step is marked (the rest of the group still compiling): the
    engine searches; with neither marked, the reference search answers."""
    args = ["kalah", "analyse", "--pits", "4", "--seeds", "3", "--rules", rules, "--json"]
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: True)
    for marked, reference in ((f"kalah.program_{rules}", False), ("kalah.solver", True)):
        monkeypatch.setattr(warmup, "is_ready", lambda name, marked=marked: name == marked)
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["reference_search"] is reference


@pytest.mark.parametrize("ready", [False, True])
def test_compare_kalah_leaves_numba_out_while_it_compiles(
    ready: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[str] = []
    monkeypatch.setattr(warmup, "is_ready", lambda group: ready)
    monkeypatch.setattr(warmup, "warm_in_background", lambda group: started.append(group) or True)
    args = ["compare", "kalah", "--seeds", "3", "--depth", "3", "--json"]
    data = json.loads(CliRunner().invoke(cli, args).stdout)
    engines = {row["engine"] for row in data["results"]}
    assert engines == ({"python", "numba"} if ready else {"python"})
    assert data["agree"] is True
    assert started == ([] if ready else ["kalah"])
    # asked for by name, numba runs whatever the cache holds
    data = json.loads(CliRunner().invoke(cli, [*args, "--engine", "numba"]).stdout)
    assert {row["engine"] for row in data["results"]} == {"numba"}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    # a zombie (not reaped yet) has finished: only a running process counts
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


def _answered(out: bytes) -> bool:
    _, played, rest = out.partition(b"I play ")
    return bool(played) and b"to move (" in rest


def test_ctrl_c_on_a_fresh_machine_leaves_no_compiler_running(tmp_path: Path) -> None:
    """A real first run (empty kernel cache, background compiles on): the program's
    first move comes at once, the compile runs in another process, and Ctrl-C at the
    next prompt ends the command (status 130, within a second) and that compile too."""
    env = {**os.environ, "BOARDGAMES_BACKGROUND_WARM": "1", "NUMBA_CACHE_DIR": str(tmp_path / "n")}
    env["BOARDGAMES_CACHE"] = str(tmp_path / "tables")
    reader, writer = os.pipe()  # stdin that stays open: the game waits at its prompt
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardgames", "kalah", "play", "--record", str(tmp_path / "g.klh")],
        stdin=reader, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    os.close(reader)
    try:
        os.write(writer, b"2\n")
        pid_file = tmp_path / "n" / warmup.READY_FOLDER / "kalah.pid"
        out = b""
        deadline = time.monotonic() + 60
        assert proc.stdout is not None
        # the program's move, then the player's prompt again
        while not _answered(out) and time.monotonic() < deadline:
            if select.select([proc.stdout], [], [], 0.1)[0]:
                out += os.read(proc.stdout.fileno(), 65536)
        assert b"reference search at depth" in out, out
        compiler = int(pid_file.read_text())
        assert _alive(compiler)
        time.sleep(0.5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
        assert time.monotonic() - sent < 1.5
        assert proc.returncode == 130
        deadline = time.monotonic() + 3
        while _alive(compiler) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(compiler)
    finally:
        os.close(writer)
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(OSError, ValueError):
            os.killpg(int((tmp_path / "n" / warmup.READY_FOLDER / "kalah.pid").read_text()), 9)
