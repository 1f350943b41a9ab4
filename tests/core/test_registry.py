"""The game registry: games found through entry points, options checked, a broken plugin
reported in one line while the rest of the toolkit works, and ``--help`` kept cheap."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from boardgames.cli import cli
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


def _fake_distribution(folder: Path, name: str, value: str, entry: str | None = None) -> None:
    """A distribution on ``folder`` (put on PYTHONPATH) whose one entry point (``entry``,
    else ``name``) is ``value``."""
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entry or name} = {value}\n")


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
    assert len(lines) == 1 and "brokengame" in lines[0] and "left out" in lines[0]
    assert "kalah" in result.stdout and "nim" in result.stdout
    # the other commands still work
    result = _run(["analyse", "nim", "--depth", "1"], tmp_path)
    assert result.returncode == 0 and "Best move" in result.stdout
    assert len(result.stderr.strip().splitlines()) == 1 and "brokengame" in result.stderr


def test_an_entry_point_that_is_not_a_plugin_is_refused(tmp_path: Path) -> None:
    _fake_distribution(tmp_path, "notaplugin", "os:path")
    result = _run(["games", "--json"], tmp_path)
    assert result.returncode == 0
    assert "notaplugin" in result.stderr and "it is not a GamePlugin" in result.stderr
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


# --- fault containment: one test per class of broken plugin (issue 48) --------------------

GOOD = """
from boardgames.core.registry import GamePlugin, Option
PLUGIN = GamePlugin(name={name!r}, title="T", kind="game", summary="s",
                    factory="boardgames.nim.game:Nim", {extra})
"""


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``install(dist, source, name=dist)``: a distribution on sys.path whose one entry
    point ``name`` names ``PLUGIN`` of a module holding ``source``; the registry reloads."""
    from boardgames.core import registry

    def add(dist: str, source: str, name: str | None = None) -> None:
        module = f"fake_{dist}_{abs(hash(source)) % 10**8}"
        (tmp_path / f"{module}.py").write_text(source)
        _fake_distribution(tmp_path, dist, f"{module}:PLUGIN", entry=name or dist)
        registry.reset()

    monkeypatch.syspath_prepend(str(tmp_path))
    yield add
    registry.reset()


def _left_out(capsys: pytest.CaptureFixture[str], dist: str) -> str:
    """The one warning line about ``dist``; the built-in games are all still there."""
    found = plugins()
    assert {"kalah", "nim", "queens", "connect4"} <= set(found)
    lines = [line for line in capsys.readouterr().err.splitlines() if line]
    assert len(lines) == 1, lines
    assert dist in lines[0] and len(lines[0]) < 300 and "\x1b" not in lines[0]
    return lines[0]


@pytest.mark.parametrize(
    "source, words",
    [
        ("import sys\nsys.exit(3)\n", "sys.exit(3)"),
        ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
        ("print('hello ' * 1000)\nraise KeyError('x')\n", "KeyError"),
        ("raise ValueError('\\x1b[31mred\\nsecond line\\n' * 500)\n", "ValueError"),
        ("PLUGIN = 3\n", "not a GamePlugin"),
        ("PLUGINS = 3\n", "its entry point names fake_badimport_"),
        ("import os\nos.no_such_thing\n", "AttributeError: module 'os' has no attribute"),
    ],
    ids=[
        "sys-exit",
        "raises",
        "prints",
        "multiline-coloured",
        "not-a-plugin",
        "no-such-object",
        "attribute-error-of-its-own",
    ],
)
def test_a_plugin_whose_import_misbehaves_is_one_line(
    install: Any, capsys: pytest.CaptureFixture[str], source: str, words: str
) -> None:
    install("badimport", source)
    line = _left_out(capsys, "badimport")
    assert words in line
    if source == "PLUGINS = 3\n":
        assert line.endswith(":PLUGIN, and 'PLUGIN' is not there"), line
    assert "hello" not in capsys.readouterr().out  # its printing was captured


@pytest.mark.parametrize(
    "name, extra, words",
    [
        ("bad", "options=(3,)", "options are not a tuple of Option"),
        ("bad", "options=[Option('x', 'int', 1, 'h', 1, 2)]", "options are not a tuple"),
        ("bad", "options=(Option('x', 'int', 5, 'h', 1, 2),)", "default is not allowed"),
        ("bad", "options=(Option('x', 'size', 5, 'h'),)", "kind 'size'"),
        (3, "", "its name 3"),
        ("Bad Name", "", "its name 'Bad Name'"),
        ("bad", "player_names=('only one',)", "player_names"),
        ("bad", "player_names=('X', 'X')", "player_names"),
        ("bad", "cli='not a path'", "its cli 'not a path'"),
        ("bad", "examples=(1,)", "examples are not text"),
    ],
)
def test_a_plugin_with_unusable_fields_is_left_out(
    install: Any, capsys: pytest.CaptureFixture[str], name: object, extra: str, words: str
) -> None:
    install("badfields", GOOD.format(name=name, extra=extra), name="bad")
    assert words in _left_out(capsys, "badfields")
    assert "bad" not in plugins()


def test_a_name_taken_by_a_built_in_is_refused_for_the_newcomer(
    install: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    install("evilkalah", GOOD.format(name="kalah", extra=""), name="kalah")
    line = _left_out(capsys, "evilkalah")
    assert "'kalah' is taken by boardgames" in line and line.index("evilkalah") < line.index(
        "taken"
    )
    assert plugins()["kalah"].factory == "boardgames.kalah.game:make"  # the built-in kept


def test_a_name_taken_by_another_outside_plugin_names_both(
    install: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    install("aaagame", GOOD.format(name="twin", extra=""), name="twin")
    install("bbbgame", GOOD.format(name="twin", extra=""), name="twin")
    line = _left_out(capsys, "bbbgame")
    assert "taken by aaagame" in line


def _use(spec: GamePlugin, hook: str) -> object:
    """Hook ``hook`` of ``spec`` through its typed method (``warm``: every step run)."""
    if hook == "warm":
        return [step.run() for step in spec.warm_steps()]
    return spec.typed_hook(hook, plugin("nim").make())


ALL_HOOKS = ("kernels", "solver", "players", "commentary", "records", "cli", "compare", "web")
ALL_HOOKS += ("cache", "envs")


@pytest.mark.parametrize("hook", ALL_HOOKS)
def test_a_path_to_no_module_is_one_line_when_used(
    install: Any, capsys: pytest.CaptureFixture[str], hook: str
) -> None:
    from boardgames.core.registry import PluginError

    install("nomodule", GOOD.format(name="nomod", extra=f"{hook}='no_such_mod_xyz:f'"))
    spec = plugins()["nomod"]  # it loads: a path is imported when first used
    assert hook in spec.provides
    with pytest.raises(PluginError, match=rf"game 'nomod': its {hook} 'no_such_mod_xyz:f'") as e:
        _use(spec, hook)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "hook, path, words",
    [
        ("kernels", "math:pi", "is a float, not a function"),
        ("kernels", "builtins:repr", "returned a str, not a KernelSpec"),
        ("solver", "boardgames.nim.players:PLAYERS", "is a NimPlayers, not a function"),
        ("players", "boardgames.nim.players:solve", "is a function, not a GamePlayers"),
        ("players", "math:pi", "is a float, not a GamePlayers"),
        ("commentary", "math:pi", "is a float, not an object with after/why/describe/final"),
        ("records", "boardgames.nim.players:PLAYERS", "not a RecordFormat"),
        ("cli", "math:pi", "is a float, not a click group"),
        ("compare", "boardgames.nim.players:solve", "is a function, not a click command"),
        ("web", "boardgames.nim.envs:ENVS", "is an EnvExtras, not a WebExtras"),
        ("cache", "boardgames.nim.players:PLAYERS", "not a CacheFiles"),
        ("envs", "boardgames.nim.players:PLAYERS", "is a NimPlayers, not an EnvExtras"),
        ("warm", "math:pi", "its warm step 'math:pi' is not a function"),
    ],
)
def test_a_path_to_the_wrong_kind_of_object_is_one_line_and_the_rest_works(
    install: Any, hook: str, path: str, words: str
) -> None:
    from boardgames.core.registry import PluginError

    extra = f"warm=(('step', {path!r}),)" if hook == "warm" else f"{hook}={path!r}"
    install("wrongkind", GOOD.format(name="wrong", extra=extra))
    spec = plugins()["wrong"]  # it loads: what a path names is checked when used
    with pytest.raises(PluginError) as e:
        _use(spec, hook)
    message = str(e.value)
    assert message.startswith("game 'wrong': its ") and words in message, message
    assert "\n" not in message and len(message) < 200
    # every other game keeps working, this hook included
    nim = plugin("nim")
    assert nim.exact_solver() is not None and nim.game_players() is not None
    assert nim.kernel_spec(nim.make()) is not None
    assert make_game("kalah").name == "kalah"


def test_every_typed_hook_gives_its_kind_for_every_built_in_game() -> None:
    import click

    from boardgames.core.hooks import EnvExtras, KernelSpec, WarmStep
    from boardgames.core.registry import BUILT_IN, distribution
    from boardgames.web.extras import WebExtras

    def same(value: object, field: str | None) -> bool:
        return (value is None) == (field is None)

    for name, p in plugins().items():
        if distribution(name) != BUILT_IN:
            continue
        game = p.make()
        spec = p.kernel_spec(game)
        assert same(spec, p.kernels) and (spec is None or isinstance(spec, KernelSpec)), name
        solve = p.exact_solver()
        assert same(solve, p.solver) and (solve is None or solve is load(str(p.solver)))
        players = p.game_players()
        assert same(players, p.players)
        if players is not None:
            assert all(player.name == key for key, player in players.named(game).items())
        commentary = p.game_commentary()
        assert same(commentary, p.commentary)
        if commentary is not None:  # every method answers, those the plugin leaves out None
            state = game.initial_state()
            move = game.legal_moves(state)[0]
            for said in (commentary.why(game, state, move), commentary.describe(game, state, move)):
                assert said is None or isinstance(said, str)
            assert commentary.final(game, state) is None  # not over: nothing to say
        records = p.record_format()
        assert same(records, p.records) and (records is None or records.suffix.startswith("."))
        command = p.command()
        assert same(command, p.cli) and (command is None or isinstance(command, click.Group))
        own = p.compare_command()
        assert same(own, p.compare) and (own is None or isinstance(own, click.Command))
        web = p.web_extras()
        assert same(web, p.web) and (web is None or isinstance(web, WebExtras))
        cache = p.cache_files()
        assert same(cache, p.cache) and (cache is None or isinstance(cache.kind, str))
        assert cache is None or callable(cache.scan)
        envs = p.env_extras()
        assert same(envs, p.envs) and (envs is None or isinstance(envs, EnvExtras))
        steps = p.warm_steps()
        assert bool(steps) == bool(p.warm or p.kernels), name
        assert all(isinstance(s, WarmStep) and callable(s.run) for s in steps)


def test_the_typed_hooks_keep_the_plugins_objects() -> None:
    kalah = plugin("kalah")
    assert kalah.record_format() is load("boardgames.kalah.record:RECORDS")
    assert kalah.game_players() is load("boardgames.kalah.players:PLAYERS")
    assert kalah.cache_files() is load("boardgames.kalah.exact.cachefiles:TABLES")
    assert kalah.env_extras() is load("boardgames.kalah.envs:ENVS")
    assert plugin("nim").compare_command() is load("boardgames.nim.cli:compare_command")


def test_a_game_with_kernels_and_no_steps_warms_with_the_generic_step_bound_to_it(
    install: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    from boardgames.core import engine
    from boardgames.core.hooks import BATCH_WARM_STEP, GENERIC_WARM_STEP

    batch = importlib.import_module("boardgames.envs.batch")  # the module, not the function
    install(
        "warmgame", GOOD.format(name="warmy", extra="kernels='boardgames.nim.kernels:kernel_spec'")
    )
    seen: list[str] = []
    monkeypatch.setattr(engine, "warm_kernels", seen.append)
    monkeypatch.setattr(batch, "warm_kernels", lambda name: seen.append(f"batch {name}"))
    generic, batched = plugins()["warmy"].warm_steps()  # a two-player game: the batch's too
    assert (generic.label, generic.target) == GENERIC_WARM_STEP
    assert (batched.label, batched.target) == BATCH_WARM_STEP
    generic.run()
    batched.run()
    assert seen == ["warmy", "batch warmy"]  # called with no argument: the name is bound
    assert plugin("queens").warm_steps()[0].target == plugin("queens").warm[0][1]


def test_every_warm_step_of_every_game_runs_with_the_arguments_it_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """connect4 lists the generic step beside its own; run with no argument, it failed
    ('warm_kernels() missing 1 required positional argument'), and so did `cache warm`.
    Each step's function is replaced by a recorder of the same signature (nothing
    compiles) and run as `cache warm` runs it."""
    import importlib
    import inspect

    from boardgames.core.hooks import NAMED_WARM_STEPS

    for name, p in plugins().items():
        for step in p.warm_steps():
            module_name, attr = step.target.split(":")
            module = importlib.import_module(module_name)
            real = getattr(module, attr)
            calls: list[tuple[Any, ...]] = []

            def record(*args: Any, _calls: list[tuple[Any, ...]] = calls) -> None:
                _calls.append(args)

            record.__signature__ = inspect.signature(real)  # type: ignore[attr-defined]
            monkeypatch.setattr(module, attr, record)
            step.run()
            inspect.signature(real).bind(*calls[0])  # the arguments it takes, no more
            named = step.target in NAMED_WARM_STEPS
            assert calls == [(name,) if named else ()], (name, step.target)


def test_a_commentary_may_leave_methods_out_and_keep_words_of_its_own(
    install: Any, tmp_path: Path
) -> None:
    (tmp_path / "fake_words.py").write_text(
        "class Words:\n"
        "    def why(self, game, state, move):\n"
        "        return 7\n"
        "    def value(self, game, state, value, exact):\n"
        "        return 'own words'\n"
        "WORDS = Words()\n"
    )
    install("wordsgame", GOOD.format(name="wordy", extra="commentary='fake_words:WORDS'"))
    said = plugins()["wordy"].game_commentary()
    assert said is not None
    assert said.why(None, None, 0) == "7"  # an answer is text
    assert said.after(None, None, 0, None) is None and said.final(None, None) is None
    assert getattr(said, "value", None)(None, None, 0, True) == "own words"  # as the page asks


def test_the_old_hook_method_still_works_with_a_deprecation_note() -> None:
    nim = plugin("nim")
    with pytest.warns(DeprecationWarning, match="exact_solver"):
        assert nim.hook("solver") is nim.exact_solver()
    with pytest.warns(DeprecationWarning):
        assert nim.hook("records") is None


def test_the_typed_hooks_are_what_mypy_sees(tmp_path: Path) -> None:
    """A typo at a call site of a typed hook is a type error: the methods return the hook
    protocols, not Any."""
    pytest.importorskip("mypy")
    source = tmp_path / "uses_hooks.py"
    source.write_text(
        "from boardgames.core.registry import plugin\n"
        "solve = plugin('nim').exact_solver()\n"
        "assert solve is not None\n"
        "solve(None, None, wek=True)\n"
        "players = plugin('nim').game_players()\n"
        "assert players is not None\n"
        "players.nmed(None)\n"
        "reveal_type(plugin('nim').record_format())\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--follow-imports=silent", str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = result.stdout
    assert 'Unexpected keyword argument "wek"' in out, out
    assert '"GamePlayers" has no attribute "nmed"' in out, out
    assert "RecordFormat | None" in out, out


def test_a_factory_that_raises_or_builds_another_game_is_one_line(install: Any) -> None:
    from boardgames.core.registry import PluginError

    install("renamed", GOOD.format(name="renamed", extra=""))  # builds Nim: named 'nim'
    with pytest.raises(PluginError, match="builds a game named 'nim'"):
        plugins()["renamed"].make()
    source = GOOD.format(name="raising", extra="").replace(
        "boardgames.nim.game:Nim", "builtins:open"
    )
    install("raising", source)
    with pytest.raises(PluginError, match="its factory failed: TypeError"):
        plugins()["raising"].make()


def test_the_environments_serve_the_other_games_beside_a_renamed_one(install: Any) -> None:
    from boardgames.envs.games import games_with_actions

    install("renamedenv", GOOD.format(name="renamedenv", extra=""))
    assert "renamedenv" in plugins()
    assert {"kalah", "nim", "connect4"} <= set(games_with_actions())


def test_a_missing_cache_module_leaves_cache_list_working(tmp_path: Path) -> None:
    module = tmp_path / "fake_cachegame.py"
    module.write_text(GOOD.format(name="cachegame", extra="cache='no_such_cache_mod:T'"))
    _fake_distribution(tmp_path, "cachegame", "fake_cachegame:PLUGIN")
    result = _run(["cache", "list", "--json"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cachegame" in lines[0] and "no_such_cache_mod" in lines[0]


def test_help_games_and_a_plugin_cli_to_no_module_with_a_plugin_that_exits(
    tmp_path: Path,
) -> None:
    (tmp_path / "fake_exiting.py").write_text("import sys\nprint('hi')\nsys.exit(0)\n")
    _fake_distribution(tmp_path, "exiting", "fake_exiting:PLUGIN")
    (tmp_path / "fake_nocli.py").write_text(GOOD.format(name="nocli", extra="cli='nocli_x:g'"))
    _fake_distribution(tmp_path, "nocli", "fake_nocli:PLUGIN")
    result = _run(["--help"], tmp_path)
    assert result.returncode == 0 and "Commands" in result.stdout, result.stderr
    assert "exiting" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    result = _run(["games", "--json"], tmp_path)
    assert result.returncode == 0 and '"kalah"' in result.stdout
    result = _run(["nocli", "--help"], tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "its cli 'nocli_x:g' does not load" in result.stderr


def test_the_typed_interface_lists_hooks_without_importing_them() -> None:
    nim = plugin("nim")
    assert {"kernels", "solver", "players", "commentary", "cli"} <= nim.provides
    assert "records" not in nim.provides and "cache" not in nim.provides
    assert nim.record_format() is None and callable(nim.exact_solver())
    assert plugin("kalah").length_bound(make_game("kalah")) is None or True


def test_the_web_game_list_and_games_listing_leave_a_plugin_with_bad_options_out(
    install: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Options that are not Options emptied the page's game list (a 500) and killed
    ``boardgames games``: the plugin is left out, the rest listed."""
    from boardgames.cli.games import describe

    install("badoptions", GOOD.format(name="badopts", extra="options=('rows',)"))
    listed = [describe(p)["name"] for p in plugins().values()]
    assert "badopts" not in listed and {"kalah", "nim"} <= set(listed)
    pytest.importorskip("starlette")
    from boardgames.web.play import catalogue

    names = [g["name"] for g in catalogue({})["games"]]
    assert "badopts" not in names and {"kalah", "nim", "connect4"} <= set(names)
    assert "badoptions" in capsys.readouterr().err


BROKEN_RULES = """
from dataclasses import dataclass

from boardgames.core.registry import GamePlugin
from boardgames.nim.game import Nim


@dataclass(frozen=True)
class Broken(Nim):
    name: str = "brokenrules"

    def legal_moves(self, state):
        raise RuntimeError("boom in legal_moves")


def explode(**options):
    raise RuntimeError("factory boom")


PLUGIN = GamePlugin(name="brokenrules", title="T", kind="game", summary="s",
                    factory=__name__ + ":{factory}")
"""


@pytest.mark.parametrize(
    ("factory", "words"),
    [
        ("Broken", "failed in its own code: RuntimeError: boom in legal_moves ("),
        ("explode", "its factory failed: RuntimeError: factory boom"),
    ],
    ids=["rules-raise", "factory-raises"],
)
@pytest.mark.parametrize("command", [["analyse"], ["play", "--second", "human"]])
def test_an_outside_game_failing_in_a_command_is_one_line_and_the_rest_works(
    install: Any, factory: str, words: str, command: list[str]
) -> None:
    """A game's own code that raises during a command (its rules, its factory) ends the
    command with one line naming the game and its distribution (for its rules, the line of
    its code), status 1, no traceback; the built-in games are untouched."""
    install("brokenrules", BROKEN_RULES.replace("{factory}", factory), name="brokenrules")
    result = CliRunner().invoke(cli, [command[0], "brokenrules", *command[1:]], input="")
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1 and words in lines[0], result.stderr
    assert "'brokenrules'" in lines[0] and "Traceback" not in result.output
    if factory == "Broken":
        assert "distribution brokenrules" in lines[0] and "in legal_moves)" in lines[0]
    nim = CliRunner().invoke(cli, ["analyse", "nim", "--depth", "1"])
    assert nim.exit_code == 0 and "Best move" in nim.stdout


def test_games_lists_a_game_that_cannot_be_built_and_says_why_in_one_line(install: Any) -> None:
    install("brokenrules", BROKEN_RULES.replace("{factory}", "explode"), name="brokenrules")
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    assert "broken (said below)" in result.stdout and "factory boom" not in result.stdout
    (line,) = [x for x in result.stderr.splitlines() if "brokenrules" in x]
    assert line.startswith("Warning: game 'brokenrules': its factory failed: ")
    assert "factory boom" in line
    assert "kalah" in result.stdout and "nim" in result.stdout
    listed = json.loads(CliRunner().invoke(cli, ["games", "--json"]).stdout)
    (entry,) = [g for g in listed["games"] if g["name"] == "brokenrules"]
    assert "factory boom" in entry["problem"]


@pytest.mark.parametrize(
    "extra, words",
    [
        ("cli='boardgames.testing:check_game'", "its cli 'boardgames.testing:check_game' is a "
         "function, not a click group"),
        ("players='boardgames.testing:check_game'", "its players 'boardgames.testing:"
         "check_game' is a function, not a GamePlayers (methods named, parse)"),
    ],
    ids=["cli", "players"],
)  # fmt: skip
def test_games_says_which_hook_of_an_outside_game_is_broken(
    install: Any, extra: str, words: str
) -> None:
    """A plugin author's review: a ``cli`` hook naming a function was listed as working
    ("commands"), and a bad ``players`` hook said the game "cannot be built"."""
    source = (
        "from dataclasses import dataclass\n"
        "from boardgames.core.registry import GamePlugin\n"
        "from boardgames.nim.game import Nim\n"
        "@dataclass(frozen=True)\n"
        "class Hooked(Nim):\n"
        "    name: str = 'badhook'\n"
        f"PLUGIN = GamePlugin(name='badhook', title='T', kind='game', summary='s',\n"
        f"    factory=__name__ + ':Hooked', {extra})\n"
    )
    install("badhook", source, name="badhook")
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    row = next(x for x in result.stdout.splitlines() if x.startswith("badhook"))
    assert "broken (said below)" in row and "commands" not in row
    (line,) = [x for x in result.stderr.splitlines() if "badhook" in x]
    assert line == f"Warning: game 'badhook': {words}", line


def test_a_fault_in_the_toolkits_code_is_never_blamed_on_a_plugin_that_uses_it(
    install: Any,
) -> None:
    """A plugin whose factory is one of the toolkit's (``boardgames.nim.game:Nim``) does not
    make the toolkit's own modules its code: an error raised there keeps its traceback (no
    one-line blame), while its own module's code is still blamed on it."""
    from boardgames.core import registry

    install("reuser", GOOD.format(name="reuser", extra=""), name="reuser")
    assert "reuser" in plugins()
    with pytest.raises(ValueError) as raised:
        make_game("nim", rows="x")  # raised in boardgames.core.registry
    assert registry.blame(raised.value) is None
    assert registry.blame(registry.PluginError("its factory failed")) == "its factory failed"
