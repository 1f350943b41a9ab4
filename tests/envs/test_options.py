"""One option set: every environment of a registered two-player game (PettingZoo's
``make`` and ``<name>_v0``, the Gymnasium id, the OpenSpiel game) takes exactly the game's
plugin options (and ``reward``, ``opening`` and the adapter's own), checked by
``Option.convert``, and builds the game the registry builds from them, for every
rule-changing option set; and the Gymnasium ``opponent=`` is a player of
:func:`boardgames.core.players.find_player`."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the [rl] extra is not installed")

import boardgames.envs  # noqa: E402
from boardgames.core import registry  # noqa: E402
from boardgames.core.players import find_player, player_names  # noqa: E402
from boardgames.envs.games import env_options, extras, games_with_actions, title  # noqa: E402
from boardgames.envs.single import OWN_KEYWORDS, GameEnv  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")

GAMES = games_with_actions()
RULE_SETS: list[tuple[str, dict[str, Any]]] = [
    ("kalah", {}),
    ("kalah", {"rules": "etudes"}),
    ("kalah", {"capture": "empty"}),
    ("kalah", {"pits": 3}),
    ("nim", {}),
    ("nim", {"misere": True}),
    ("nim", {"rows": (1, 2)}),
    ("connect4", {}),
    ("connect4", {"width": 5, "height": 4}),
]
"""Every rule-changing option set of the built-in games with action ids."""
SLOW_PLAYERS = ("strong", "perfect")
"""Players that think a second or more a move: resolved, not played."""


def spiel_value(option: registry.Option, value: Any) -> Any:
    """An option's value as an OpenSpiel parameter (several numbers joined by ``;``)."""
    if option.kind == "ints":
        return ";".join(map(str, value)) + (";" if len(value) == 1 else "")
    return value


def spiel_name(name: str, options: dict[str, Any]) -> str:
    spec = registry.plugin(name)
    words = [f"{k}={spiel_value(spec.option(k), v)}" for k, v in options.items()]
    return f"python_boardgames_{name}" + (f"({','.join(words)})" if words else "")


def old_module(name: str) -> Any:
    """``boardgames.envs.<name>_v0`` where the package has one, else None."""
    try:
        return importlib.import_module(f"boardgames.envs.{name}_v0")
    except ModuleNotFoundError:
        return None


def all_games(name: str, options: dict[str, Any]) -> list[Any]:
    """The game of every environment of ``name`` made with ``options``."""
    found = [
        boardgames.envs.make(name, **options).unwrapped.game,
        gymnasium.make(f"boardgames/{title(name)}-v0", opponent="random", **options).unwrapped.game,
    ]
    module = old_module(name)
    if module is not None:
        found.append(module.env(**options).unwrapped.game)
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

        from boardgames.envs import spiel
    except ImportError:
        return found
    spiel.register()
    found.append(pyspiel.load_game(spiel_name(name, options)).new_initial_state().setup.game)
    return found


def test_the_rule_sets_cover_every_game() -> None:
    assert {name for name, _ in RULE_SETS} == {"kalah", "nim", "connect4"} <= set(GAMES)


@pytest.mark.parametrize(("name", "options"), RULE_SETS, ids=str)
def test_every_environment_builds_the_registrys_game(name: str, options: dict[str, Any]) -> None:
    want = registry.make_game(name, **options)
    assert all(game == want for game in all_games(name, options))


def test_kalah_has_six_seeds_a_pit_by_default_everywhere() -> None:
    """RULES.md: six stones a pit (the environments said four before they took the
    plugin's options)."""
    games = all_games("kalah", {})
    assert {(g.pits, g.seeds, g.rules, g.empty_capture) for g in games} == {
        (6, 6, "classic", False)
    }


def bad_value(option: registry.Option) -> Any:
    """A value ``option`` refuses."""
    if option.kind == "choice":
        return "nonsense"
    if option.kind == "bool":
        return "maybe"
    if option.kind == "ints":
        return "1 x"
    return 10**6 if option.high is None else option.high + 1


def refusal(option: registry.Option, value: Any) -> str:
    """``Option.convert``'s own one-line message for ``value``."""
    with pytest.raises(ValueError) as e:
        option.convert(value)
    return str(e.value)


@pytest.mark.parametrize("name", GAMES)
def test_the_environments_take_exactly_the_plugins_options(name: str) -> None:
    spec = registry.plugin(name)
    general = [o.name for o in env_options(extras(name))]
    assert general == ["reward", "opening"]
    mine = [o.name for o in spec.options]
    zoo = f"{name} has no option 'colour'; its options: {', '.join([*mine, *general])}"
    makers = {
        f"{zoo}, render_mode": lambda **o: boardgames.envs.make(name, **o),
        f"{zoo}, {', '.join(OWN_KEYWORDS)}": lambda **o: GameEnv(name, opponent="random", **o),
    }
    module = old_module(name)
    if module is not None:
        makers[f"{zoo}, render_mode"] = module.env
    for message, make in makers.items():
        with pytest.raises(ValueError) as e:
            make(colour="red")
        assert str(e.value) == message
        for option in (*spec.options, *env_options(extras(name))):
            value = bad_value(option)
            with pytest.raises(ValueError) as e:
                make(**{option.name: value})
            assert str(e.value) == refusal(option, value)
        make(**spec.defaults())  # every option by name, at its default


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_takes_the_plugins_options_and_reward(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from boardgames.envs import spiel

    spiel.register()
    spec = registry.plugin(name)
    reward = env_options(extras(name))[0]
    assert set(spiel.parameters(name)) == {*(o.name for o in spec.options), "reward"}
    for option in (*spec.options, reward):
        value = bad_value(option)
        if option.kind == "bool":
            continue  # OpenSpiel itself refuses a text for a bool parameter
        with pytest.raises(ValueError) as e:
            pyspiel.load_game(f"python_boardgames_{name}({option.name}={value})")
        assert str(e.value) == refusal(
            option, value.replace(";", " ") if option.kind == "ints" else value
        )
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game(f"python_boardgames_{name}(colour=red)")


def test_numpy_values_are_options_too() -> None:
    env = boardgames.envs.make("nim", rows=np.array([1, 2]), misere=np.bool_(True))
    assert env.unwrapped.game == registry.make_game("nim", rows=(1, 2), misere=True)
    assert boardgames.envs.make("kalah", pits=np.int64(3)).unwrapped.game.pits == 3


# --- opponents --------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_player_of_the_game_is_an_opponent(name: str) -> None:
    """The ``opponent`` names are :func:`find_player`'s (the generic players and the
    game's own); ``program`` is the player ``depth=N`` as it always was (the name of
    Kalah's own default-time program, which ``program`` does not reach here); the default
    is the game's."""
    game = registry.make_game(name)
    for player in [*(n for n in player_names(game) if n != "program"), "depth=2"]:
        env = GameEnv(name, opponent=player)
        want = find_player(game, player)
        assert (type(env.opponent), env.opponent.name) == (type(want), want.name)
    assert GameEnv(name, opponent="program", depth=3).opponent.name == "depth=3"
    default = extras(name).default_opponent
    spec = f"depth={2}" if default == "program" else default
    assert GameEnv(name).opponent.name == find_player(game, spec).name


@pytest.mark.parametrize("name", GAMES)
def test_the_replies_are_the_players_moves(name: str) -> None:
    """Each reply is the whole turn the player chooses (``Answer.moves``)."""
    env = GameEnv(name, opponent="easy", learner="second")
    game = env.game
    player = find_player(game, "easy")
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=1)
    state = game.initial_state()
    assert info["opponent_moves"] == replies(game, player, state)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        before = env.state.copy()
        _, _, done, _, info = env.step(action)
        after, _ = game.play(before, game.move_of(before, action))
        if game.outcome(after) is None and game.to_move(after) != env.side:
            assert info["opponent_moves"] == replies(game, player, after)


def replies(game: Any, player: Any, state: Any) -> list[int]:
    """The player's moves until the other side is to move, as action ids."""
    actions = []
    mover = game.to_move(state)
    while game.outcome(state) is None and game.to_move(state) == mover:
        for move in player.choose(game, state).moves():
            actions.append(game.action_of(state, move))
            state, _ = game.play(state, move)
    return actions


@pytest.mark.parametrize("name", GAMES)
def test_a_random_opponent_repeats_with_the_seed(name: str) -> None:
    """The random player draws from a seed taken from the environment's generator."""

    def episode(seed: int) -> list[list[int]]:
        env = GameEnv(name, opponent="random")
        _, info = env.reset(seed=seed)
        seen, done = [], False
        while not done:
            _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            seen.append(info.get("opponent_moves", []))
        return seen

    assert episode(4) == episode(4)
    assert len({str(episode(s)) for s in range(6)}) > 1


@pytest.mark.parametrize(("name", "player"), [("kalah", "classic"), ("nim", "bouton")])
def test_the_games_own_players_are_their_default_opponents(name: str, player: str) -> None:
    game = registry.make_game(name)
    try:
        want = find_player(game, player)
    except ValueError:
        pytest.skip(f"{player} is not a player of {name} (yet)")
    assert extras(name).default_opponent == player
    env = gymnasium.make(f"boardgames/{title(name)}-v0").unwrapped
    assert type(env.opponent) is type(want) and env.opponent.name == want.name


@pytest.mark.parametrize(("options", "cells"), [({}, 42), ({"width": 5, "height": 4}, 20)])
def test_the_plugins_length_bound_reaches_the_environments(
    options: dict[str, int], cells: int
) -> None:
    """Connect Four declares its bound on the plugin (one disc a cell), not on the game:
    the environments (OpenSpiel's max_game_length) take it from there."""
    from boardgames.core.registry import plugin
    from boardgames.envs.games import setup

    assert plugin("connect4").length_bound(plugin("connect4").make(**options)) == cells
    assert setup("connect4", options).max_game_length == cells
