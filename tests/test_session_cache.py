"""The test session's cache folder (tests/conftest.py): tables that tests build go to a
temporary folder of the session, never to the user's cache; the compiled kernels stay in
numba's usual folder, so that a run does not compile them again."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from boardgames import cache_dir
from boardgames.kalah.exact import endgame
from boardgames.kalah.game import Kalah
from boardgames.kalah.play import program


def test_tables_go_to_a_temporary_folder_of_the_session(user_caches) -> None:
    folder = cache_dir()
    assert "BOARDGAMES_CACHE" not in os.environ
    assert folder == Path(os.environ["XDG_CACHE_HOME"]) / "boardgames"
    assert folder.is_relative_to(tempfile.gettempdir())
    for real in (user_caches.boardgames, Path.home() / ".cache"):
        assert not folder.is_relative_to(real) and not real.is_relative_to(folder)
    assert endgame.cache_path(3, 5, "classic").parent == folder


def test_the_tables_of_the_program_are_built_there(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table the engine's proofs use (``program.proof_table``, which a test once read
    and wrote in the user's cache) is saved in the session's folder."""
    monkeypatch.setattr(program, "_TABLES", {})  # not one this process loaded before
    game = Kalah(2, 2)
    table = program.proof_table(game)
    assert table is not None
    stones = max(endgame.cached_stones(2, "classic"))
    assert endgame.cache_path(2, stones, "classic").is_file()
    assert endgame.cache_path(2, stones, "classic").is_relative_to(cache_dir())


def test_commands_the_tests_start_use_it_too() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "boardgames", "cache", "path"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert Path(r.stdout.strip()) == cache_dir()


def test_compiled_kernels_stay_where_they_were(user_caches) -> None:
    """Where they are outside the tests (the user's NUMBA_CACHE_DIR, else what ``import
    boardgames`` sets: the user's cache folder's numba/), not in the session's folder,
    which goes with the session."""
    numba = Path(os.environ["NUMBA_CACHE_DIR"])
    assert numba == user_caches.numba
    assert not numba.is_relative_to(cache_dir().parent)


def test_a_test_may_still_choose_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "boardgames"
    monkeypatch.setenv("BOARDGAMES_CACHE", str(tmp_path / "own"))
    assert cache_dir() == tmp_path / "own"
