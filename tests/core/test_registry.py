"""The game registry: games found through entry points, options checked, a broken plugin
reported in one line while the rest of the toolkit works, and ``--help`` kept cheap."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames.core.registry import (
    ENTRY_POINT_GROUP,
    GamePlugin,
    Option,
    UnknownGame,
    load,
    make_game,
    plugin,
    plugins,
)


def test_the_built_in_games_register_through_entry_points() -> None:
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}
    assert {"kalah", "nim", "queens"} <= names
    for name, p in plugins().items():
        assert isinstance(p, GamePlugin) and p.name == name
        assert p.kind in ("game", "puzzle")
        # every import path names something that exists
        for path in (p.factory, p.kernels, p.solver, p.cli, p.compare):
            if path is not None:
                assert load(path) is not None, path
        for _, step in p.warm:
            assert callable(load(step))


def test_every_game_builds_with_its_defaults_and_reports_its_name() -> None:
    for name, p in plugins().items():
        assert make_game(name).name == name == p.name


def test_unknown_game_names_the_installed_ones() -> None:
    with pytest.raises(UnknownGame, match=r"installed: .*kalah"):
        plugin("chess")


@pytest.mark.parametrize(
    "option, value, expected",
    [
        (Option("pits", "int", 6, "pits", 1, 12), "7", 7),
        (Option("pits", "int", 6, "pits", 1, 12), 12, 12),
        (Option("rows", "ints", (3,), "rows", 1, 20), "3, 4 5", (3, 4, 5)),
        (Option("rows", "ints", (3,), "rows", 1, 20), [1, 2], (1, 2)),
        (Option("misere", "bool", False, "misère"), "on", True),
        (Option("misere", "bool", False, "misère"), "false", False),
        (Option("rules", "choice", "a", "r", choices=("a", "b")), "b", "b"),
    ],
)
def test_option_values_are_converted(option: Option, value: object, expected: object) -> None:
    assert option.convert(value) == expected


@pytest.mark.parametrize(
    "option, value, words",
    [
        (Option("pits", "int", 6, "pits", 1, 12), "13", "between 1 and 12"),
        (Option("pits", "int", 6, "pits", 1, 12), "1.5", "whole number"),
        (Option("pits", "int", 6, "pits", 1, 12), "٣", "whole number"),
        (Option("pits", "int", 6, "pits", 1, 12), True, "whole number"),
        (Option("pits", "int", 6, "pits", 1, 12), "9" * 5000, "whole number"),
        (Option("rows", "ints", (3,), "rows", 1, 20), "", "at least one"),
        (Option("rows", "ints", (3,), "rows", 1, 20), "3 x", "whole number"),
        (Option("misere", "bool", False, "misère"), "maybe", "on or off"),
        (Option("rules", "choice", "a", "r", choices=("a", "b")), "c", "one of a, b"),
    ],
)
def test_bad_option_values_are_one_line(option: Option, value: object, words: str) -> None:
    with pytest.raises(ValueError, match=words) as e:
        option.convert(value)
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


def test_unknown_option_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="has no option 'colour'; its options: pits"):
        plugin("kalah").make(colour="red")


def _fake_distribution(folder: Path, name: str, value: str) -> None:
    """A distribution on ``folder`` (put on PYTHONPATH) whose one entry point is ``value``."""
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{name} = {value}\n")


def _run(args: list[str], path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    return subprocess.run(
        [sys.executable, "-m", "boardgames", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_a_plugin_that_fails_to_load_is_one_line_and_the_rest_works(tmp_path: Path) -> None:
    _fake_distribution(tmp_path, "brokengame", "no_such_module_here:PLUGIN")
    result = _run(["games"], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "brokengame" in lines[0] and "failed to load" in lines[0]
    assert "kalah" in result.stdout and "nim" in result.stdout
    # the other commands still work
    result = _run(["analyse", "nim", "--depth", "1"], tmp_path)
    assert result.returncode == 0 and "Best move" in result.stdout
    assert result.stderr.count("brokengame") == 1


def test_an_entry_point_that_is_not_a_plugin_is_refused(tmp_path: Path) -> None:
    _fake_distribution(tmp_path, "notaplugin", "os:path")
    result = _run(["games", "--json"], tmp_path)
    assert result.returncode == 0
    assert "notaplugin" in result.stderr and "is not a GamePlugin" in result.stderr
    assert "notaplugin" not in result.stdout


def test_help_reads_the_registry_without_numpy_or_any_game_module() -> None:
    code = (
        "import sys\n"
        "from boardgames.cli import cli\n"
        "try:\n"
        "    cli.main(['--help'], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = [m for m in sys.modules if m in ('numpy', 'numba')\n"
        "         or (m.startswith('boardgames.') and m.count('.') >= 2\n"
        "             and not m.endswith('.plugin') and m.split('.')[1] not in ('core', 'cli'))]\n"
        "print(heavy)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
