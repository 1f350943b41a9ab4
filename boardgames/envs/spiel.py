"""OpenSpiel games ``python_boardgames_<name>`` for every registered two-player game with
action ids, registered with ``pyspiel.register_game`` when this module is imported, so
that OpenSpiel's algorithms (and ``pyspiel.load_game``) run on them::

    import pyspiel
    import boardgames.envs.spiel  # registers the games
    game = pyspiel.load_game("python_boardgames_nim(rows=1;2;3)")

Parameters are the game's options, as in every environment of the game
(:func:`boardgames.envs.games.setup`): its plugin options (several whole numbers, such as
Nim's rows, are written with ``;``: ``rows=3;4;5``, one as ``rows=7;``), checked as
everywhere else, and ``reward`` (the game's default: Kalah's ``margin``, so that its
returns are the final margins in stones; else ``result``, +1/0/-1).

One action is one move, numbered by the game's action codec (the mover's own view, as in
the PettingZoo and Gymnasium environments); after an extra turn the same player moves
again. ``action_to_string`` is the game's move notation (``format_move``). An illegal
action is a ``ValueError`` naming it and the legal ones. The observation tensor is the
game's observation for the observer (float32). ``max_game_length`` is a proven bound:
the game's extras' (Kalah's from :func:`boardgames.kalah.envs.max_sowings`, Nim's one
move a chip), else the game's ``max_game_length`` attribute, else
:data:`~boardgames.envs.games.DEFAULT_MAX_GAME_LENGTH` moves, beyond which a game stops
with an error rather than break the bound.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np

from boardgames.core.registry import plugin
from boardgames.envs.games import (
    DEFAULT_MAX_GAME_LENGTH,
    PLAYERS,
    Setup,
    env_options,
    extras,
    games_with_actions,
    setup,
    title,
)
from boardgames.envs.libs import require

require("pyspiel", "pip install open_spiel")
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: E402

PREFIX = "python_boardgames_"


def _parameter(kind: str, default: Any) -> Any:
    """An option's default as an OpenSpiel parameter (int, bool or str)."""
    if kind == "ints":
        return ";".join(map(str, default)) + (";" if len(default) == 1 else "")
    return default


def parameters(name: str) -> dict[str, Any]:
    """Game ``name``'s OpenSpiel parameters and their defaults: its plugin options and
    ``reward`` (not ``opening``: an OpenSpiel game starts at the start)."""
    reward = [o for o in env_options(extras(name)) if o.name == "reward"]
    return {o.name: _parameter(o.kind, o.default) for o in (*plugin(name).options, *reward)}


def _game_type(name: str, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"{title(name)} (boardgames)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """A registered game for OpenSpiel; each game has a subclass naming it
    (:func:`register` makes them, ``<Name>Game``)."""

    game_name: ClassVar[str]
    defaults: ClassVar[dict[str, Any]]
    game_type: ClassVar[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**self.defaults, **(params or {})}
        self.setup = self.make_setup(p)
        game = self.setup.game
        high = float(self.setup.max_margin if self.setup.reward == "margin" else 1)
        self.max_length = self.setup.max_game_length or DEFAULT_MAX_GAME_LENGTH
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-high,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(self.game_type, info, p)

    def make_setup(self, params: dict[str, Any]) -> Setup:
        """The game of these parameters, each checked by its option (one-line error)."""
        ints = {o.name for o in plugin(self.game_name).options if o.kind == "ints"}
        values = {
            key: value.replace(";", " ") if key in ints and isinstance(value, str) else value
            for key, value in params.items()
        }
        return setup(self.game_name, values)

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        return SpielObserver(self.setup, iig_obs_type, params)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A position; ``board`` is the toolkit's own state array."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.setup = game.setup
        self.max_length = game.max_length
        self.board = self.setup.game.initial_state()

    def current_player(self) -> int:
        if self.setup.game.outcome(self.board) is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.setup.game.to_move(self.board))

    def _legal_actions(self, player: int) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.setup.mask(self.board))]

    def _apply_action(self, action: int) -> None:
        game = self.setup.game
        move = game.move_of(self.board, int(action))
        if move is None:
            mover = PLAYERS[game.to_move(self.board)]
            raise ValueError(
                f"action {action} is not legal for {mover}; legal now: "
                f"{self.setup.legal_text(self.board)}"
            )
        if self.move_number() >= self.max_length:
            raise RuntimeError(f"{game.name} played past its {self.max_length}-move bound")
        self.board, _ = game.play(self.board, move)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.setup.game
        if game.outcome(self.board) is None and game.to_move(self.board) == player:
            move = game.move_of(self.board, int(action))
            if move is not None:
                return str(game.format_move(move))
        return f"{PLAYERS[player]} action {action}"

    def is_terminal(self) -> bool:
        return self.setup.game.outcome(self.board) is not None

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [self.setup.reward_of(self.board, p) for p in (0, 1)]

    def __str__(self) -> str:
        return self.setup.text(self.board)


class SpielObserver:
    """OpenSpiel's PyObserver: the game's observation for the observer; the information
    state (perfect recall) is the moves so far."""

    def __init__(self, board: Setup, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.setup = board
        self.history = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        shape = board.game.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor[:] = np.asarray(self.setup.game.observation(state.board, player)).ravel()

    def string_from(self, state: SpielState, player: int) -> str:
        if self.history:
            return f"{PLAYERS[player]}: moves {' '.join(map(str, state.history()))}"
        view = np.asarray(self.setup.game.observation(state.board, player)).ravel()
        return f"{PLAYERS[player]}: {' '.join(map(str, view))}"


def register() -> list[str]:
    """Register ``python_boardgames_<name>`` for every registered game with action ids not
    registered yet, each a subclass ``<Name>Game`` of :class:`SpielGame`; the names
    registered."""
    done = set(pyspiel.registered_names())
    names = []
    for name in games_with_actions():
        if PREFIX + name in done:
            continue
        attributes = {"game_name": name, "defaults": parameters(name)}
        cls = cast("type[SpielGame]", type(f"{title(name)}Game", (SpielGame,), attributes))
        if not isinstance(globals().get(cls.__name__), type):
            globals()[cls.__name__] = cls  # pickles by name
        cls.game_type = _game_type(name, cls.defaults)
        pyspiel.register_game(cls.game_type, cls)
        names.append(PREFIX + name)
    return names


register()
