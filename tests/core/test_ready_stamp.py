"""The compiled-kernels "ready" stamp covers an outside plugin's sources and version
(issue 48: after a plugin's kernels changed, ``cache list`` still said ready)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgames.core import registry, warmup

PLUGIN = """
from boardgames.core.registry import GamePlugin
PLUGIN = GamePlugin(name="stampgame", title="T", kind="game", summary="s",
                    factory="stamppkg.game:Nim", kernels="stamppkg.kernels:kernel_spec")
"""


def _version(folder: Path, version: str) -> None:
    info = folder / "stampgame-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: stampgame\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINT_GROUP}]\nstampgame = stamppkg:PLUGIN\n"
    )


@pytest.fixture
def outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    package = tmp_path / "stamppkg"
    package.mkdir()
    (package / "__init__.py").write_text(PLUGIN)
    (package / "game.py").write_text("from boardgames.nim.game import Nim\n")
    (package / "kernels.py").write_text("def kernel_spec(game): return 1\n")
    _version(tmp_path, "1.0")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.reset()
    warmup._plugin_sources.cache_clear()
    yield tmp_path
    registry.reset()
    warmup._plugin_sources.cache_clear()


def _fresh(group: str) -> str:
    """The group's stamp as a new process computes it."""
    warmup._plugin_sources.cache_clear()
    return warmup.group_stamp(group)


def test_an_edit_or_an_upgrade_of_a_plugin_changes_its_stamp_only(outside: Path) -> None:
    assert "stampgame" in registry.plugins()
    before, kalah = _fresh("stampgame"), _fresh("kalah")
    assert before != kalah  # the outside package's sources count
    (outside / "stamppkg" / "kernels.py").write_text("def kernel_spec(game): return 2\n")
    edited = _fresh("stampgame")
    assert edited != before
    assert _fresh("stampgame.mcts") == edited  # a step's marker goes with its game
    _version(outside, "1.1")
    assert _fresh("stampgame") != edited
    assert _fresh("kalah") == kalah == warmup.stamp()  # a built-in game's: the toolkit's
    assert warmup.marker("stampgame").name == f"stampgame-{warmup.group_stamp('stampgame')}"


def test_a_step_compiled_aside_runs_as_cache_warm_runs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """compile_aside's process runs a step through the plugin's warm steps: a generic step
    (here the batched environment's, which every two-player game with kernels lists) is
    given the game's name, and it is marked in every group that lists it; a step no game
    lists is refused."""
    import importlib

    from boardgames.core.hooks import BATCH_WARM_STEP

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    batch = importlib.import_module("boardgames.envs.batch")  # the module, not the function
    seen: list[str] = []
    monkeypatch.setattr(batch, "warm_kernels", seen.append)
    step = BATCH_WARM_STEP[1]
    warmup._run_steps([step])
    listing = [g for g, steps in warmup.warm_steps().items() if any(t == step for _, t in steps)]
    assert {"connect4", "kalah", "nim"} <= set(listing)
    assert seen == listing[:1]  # run once, with a game's name
    assert all(warmup.step_ready(g, step) for g in listing)
    with pytest.raises(SystemExit, match="no game lists the warm step"):
        warmup._run_steps(["boardgames.nim.warm:no_such_step"])
