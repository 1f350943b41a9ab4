"""The types of a plugin's hooks: what each typed method of
:class:`boardgames.core.registry.GamePlugin` returns.

One signature per kind of hook:

- ``kernels``: a function ``kernel_spec(game) -> KernelSpec`` (the numba engine);
- ``solver``: a :class:`Solve`, ``solve(game, state, *, weak=False, stop=None) ->
  SearchResult``, exact;
- ``players``: a :class:`GamePlayers` (named :class:`Player` objects, each choosing an
  :class:`Answer`);
- ``commentary``: a :class:`Commentary` (a plugin's object may leave any method out: the
  registry fills the gaps, :func:`complete_commentary`);
- ``records``: a :class:`RecordFormat`;
- ``envs``: an :class:`EnvExtras`;
- ``warm``: :class:`WarmStep` objects, each run with no argument.

The others are types of their own layers: ``cli`` and ``compare`` click commands, ``web``
a :class:`boardgames.web.extras.WebExtras`, ``cache`` a
:class:`boardgames.core.cachefiles.CacheFiles`.

The types live here, not beside the code that uses them, so that the registry can name
them: this module imports neither numpy (only for annotations) nor anything that imports
the registry. The modules that use them export them too (``core.strategies.KernelSpec``,
``core.engine.Answer``, ``core.players.Player``, ``core.players.GamePlayers``,
``core.commentary.Commentary``, ``core.records.RecordFormat``, ``envs.games.EnvExtras``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from boardgames.core.protocol import SearchResult, State

Stop = Callable[[], bool] | None
"""A caller's "stop now" (Ctrl-C, a Cancel, a closed page), polled by long work."""


# --- kernels and solver ------------------------------------------------------------------


class KernelSpec(NamedTuple):
    """What a game's kernels module tells the numba engine (see ``kernel_spec``)."""

    kernels: Any  # core.kernels.GameKernels
    params: Callable[[State], np.ndarray]
    cells: int
    max_moves: int
    max_value: int
    fast: Any = None
    """Optional rule kernels specialised to this game's settings, used by plain
    ``alphabeta`` only (the other kernels measured slower with them; see
    docs/sections/engine.md). None: ``kernels`` everywhere."""


class Solve(Protocol):
    """What a plugin's ``solver`` path names: the game's exact solver."""

    def __call__(
        self, game: Any, state: State, *, weak: bool = False, stop: Stop = None
    ) -> SearchResult:
        """The exact value of ``state`` (``exact=True``) and a best move; ``weak``: the
        result's sign only is needed; ``stop`` polled (SearchStopped when it fires)."""
        ...


# --- players ------------------------------------------------------------------------------


@dataclass
class Answer:
    """What the program found: a move (None when the game is over), the value for the
    player to move, whether it is exact, and how it was found."""

    move: int | None
    value: int
    exact: bool
    depth: int | None
    """Plies searched; None: to the end of the game (or a solver's value)."""
    nodes: int
    seconds: float
    engine: str
    """``solver``, ``numba`` or ``python``."""
    pv: list[int] = field(default_factory=list)
    overran: bool = False
    """True when the answer took longer than the time it was given (a search that cannot
    be cut before its first depth)."""
    turn: tuple[int, ...] = ()
    """The whole turn when the same side moves again (Kalah's compound move), else empty:
    :meth:`moves`."""
    note: str = ""
    """How the answer was found in the game's own words (``endgame tables``), if any."""
    words: str = ""
    """The value in the game's own unit (Kalah's Tseitin evaluation in stones), if any."""

    def moves(self) -> tuple[int, ...]:
        """The moves to play now: the whole turn, or just :attr:`move`."""
        if self.turn:
            return self.turn
        return () if self.move is None else (self.move,)

    def value_text(self) -> str:
        """``win by 3`` (exact), ``win by at least 2`` (a bound), ``+14`` (heuristic)."""
        from boardgames.core.protocol import describe_score

        return self.words or describe_score(self.value, self.exact)

    def short(self) -> str:
        from boardgames.core.protocol import short_score

        return short_score(self.value, self.exact)

    def how(self) -> str:
        """How the answer was found, in a few words."""
        if self.note:
            return self.note
        if self.engine == "solver":
            return "exact solver"
        where = "to the end" if self.depth is None else f"depth {self.depth}"
        return f"{self.engine} search, {where}, {self.nodes:,} positions"

    def as_json(self, game: Any) -> dict[str, Any]:
        from boardgames.core.protocol import is_terminal_score

        return {
            "move": None if self.move is None else game.format_move(self.move),
            "value": self.value,
            "value_text": self.value_text(),
            "exact": self.exact,
            "bound": None
            if self.exact or not is_terminal_score(self.value)
            else ("lower" if self.value > 0 else "upper"),
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "engine": self.engine,
            "pv": [game.format_move(m) for m in self.pv],
        }


@runtime_checkable
class Player(Protocol):
    """A move chooser: its name (what a user types), one line on what it is, and
    :meth:`choose`."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def choose(self, game: Any, state: State, *, stop: Stop = None) -> Answer:
        """The move for the side to move in ``state`` (``Answer.turn``: the whole turn
        when the same side moves again), its value and how it was found. ``stop`` (Ctrl-C,
        a Cancel, a closed page) ends the thinking within a second:
        :class:`boardgames.core.engine.Cancelled` when no move was found yet."""
        ...


class GamePlayers(Protocol):
    """What a plugin's ``players`` path names: the game's own players."""

    def named(self, game: Any) -> dict[str, Player]:
        """The game's own players by name (a generic name here replaces the generic
        player: a stronger program for that level)."""
        ...

    def parse(self, game: Any, text: str) -> Player | None:
        """A player from a spec of the game's own (``depth=5,eval=store``), None when
        ``text`` is not one of its specs; GameError (one line) for a bad spec of its own."""
        ...


# --- commentary and records ---------------------------------------------------------------


class Commentary(Protocol):
    """A game's words about moves (each method may return None: nothing to say)."""

    def after(self, game: Any, before: State, move: int, after: State) -> str | None:
        """A remark on ``move``, played in ``before`` and leading to ``after``."""
        ...

    def why(self, game: Any, state: State, move: int) -> str | None:
        """Why ``move`` is a good choice in ``state`` (a program's or a hint's move)."""
        ...

    def describe(self, game: Any, state: State, move: int) -> str | None:
        """``move`` in words (Nim's ``take 2 from row 1``), beside its notation."""
        ...

    def final(self, game: Any, state: State) -> str | None:
        """The result of the finished game ``state`` in the game's own words (Kalah's
        final score), instead of the generic "A wins (margin 8)."."""
        ...

    def value(self, game: Any, state: State, value: int, exact: bool) -> str | None:
        """A search's ``value`` (for the player to move in ``state``; proven when
        ``exact``, else a bound or an estimate) in the game's own words (Connect Four's
        "1 wins with their 12th disc"), instead of the generic "win by 5"."""
        ...


COMMENTARY_METHODS = ("after", "why", "describe", "final", "value")
"""The methods of :class:`Commentary`; a plugin's object may leave any of them out."""


class _Completed:
    """A plugin's commentary object with the methods it leaves out answering None; any
    other attribute is the object's own (a game's extra words, asked for by name)."""

    def __init__(self, own: object) -> None:
        self.own = own

    def __getattr__(self, name: str) -> Any:
        return getattr(self.own, name)

    def _ask(self, method: str, *args: Any) -> str | None:
        found = getattr(self.own, method, None)
        answer = None if found is None else found(*args)
        return None if answer is None else str(answer)

    def after(self, game: Any, before: State, move: int, after: State) -> str | None:
        return self._ask("after", game, before, move, after)

    def why(self, game: Any, state: State, move: int) -> str | None:
        return self._ask("why", game, state, move)

    def describe(self, game: Any, state: State, move: int) -> str | None:
        return self._ask("describe", game, state, move)

    def final(self, game: Any, state: State) -> str | None:
        return self._ask("final", game, state)

    def value(self, game: Any, state: State, value: int, exact: bool) -> str | None:
        return self._ask("value", game, state, value, exact)


def complete_commentary(own: object) -> Commentary:
    """``own`` (an object with any of :data:`COMMENTARY_METHODS`) as a whole
    :class:`Commentary`: a method it leaves out answers None, an answer is text, and its
    other attributes stay reachable."""
    return _Completed(own)


class RecordFormat(Protocol):
    """A game's own record format."""

    suffix: str
    """The file name's ending (``.klh``)."""

    def text(
        self, game: Any, start: State, moves: Sequence[int], players: tuple[str, str]
    ) -> str | None:
        """The record of ``moves`` played from ``start`` by ``players`` (their names as
        the record shows them); None when the format cannot hold this game (a start it
        cannot write): the generic record is used then."""
        ...

    def read(self, game: Any, text: str) -> tuple[State, list[int]] | None:
        """The start position and the moves of a record in this format, or None when
        ``text`` is not one; GameError (one line) for a broken record of this format."""
        ...


# --- environments -------------------------------------------------------------------------

REWARDS = ("margin", "result")
"""``margin``: the final margin (Kalah: in stones); ``result``: +1 win, 0 draw, -1 loss."""
PROGRAM = "program"
"""The program as a player's name: ``play``'s side at ``--level``, ``match``'s at the strong
level (:func:`boardgames.core.players.players`), the Gymnasium opponent ``depth=N`` (N the
``depth`` option)."""


@dataclass(frozen=True)
class EnvExtras:
    """What the environments ask a game for beyond its rules; every field is optional.

    - ``rgb(game, state) -> RGB``: the picture of ``render_mode="rgb_array"`` (else
      :func:`~boardgames.envs.boards.grid_rgb`);
    - ``random_state(game, rng, mover) -> State``: a random position with ``mover`` to
      move, for the Gymnasium option ``start="random"``;
    - ``labeller(game) -> Labeller``: exact labels, for
      :class:`~boardgames.envs.labels.PerfectPlayLoss`;
    - ``max_margin(game) -> int``: the largest final margin; a game without it has only
      ``reward="result"``;
    - ``max_game_length(game) -> int``: a proven bound on a game's moves (OpenSpiel needs
      one); else the plugin's ``max_game_length``, else the game's attribute, else
      :data:`~boardgames.envs.games.DEFAULT_MAX_GAME_LENGTH`;
    - ``default_reward``: ``result``, or ``margin`` for a game with ``max_margin``;
    - ``default_opponent``: the Gymnasium opponent when none is given, a player name
      (:func:`boardgames.core.players.find_player`) or :data:`PROGRAM`.

    The object and its module import no learning library.
    """

    rgb: Callable[[Any, State], npt.NDArray[np.uint8]] | None = None
    random_state: Callable[[Any, np.random.Generator, int], State] | None = None
    labeller: Callable[[Any], Any] | None = None
    max_margin: Callable[[Any], int] | None = None
    max_game_length: Callable[[Any], int] | None = None
    default_reward: str = "result"
    default_opponent: str = PROGRAM

    def __post_init__(self) -> None:
        if self.default_reward not in self.rewards:
            raise ValueError(f"default_reward must be one of {', '.join(self.rewards)}")

    @property
    def rewards(self) -> tuple[str, ...]:
        """The rewards the game offers: ``margin`` only with a ``max_margin``."""
        return REWARDS if self.max_margin is not None else ("result",)


# --- cache warm ---------------------------------------------------------------------------

GENERIC_WARM_STEP = (
    "the search strategies and Monte Carlo tree search",
    "boardgames.core.engine:warm_kernels",
)
"""The warm step of a game whose plugin names kernels but no steps of its own (a plugin
may also list it among its steps): its function takes the game's name
(:meth:`GamePlugin.warm_steps` binds it)."""

BATCH_WARM_STEP = (
    "the batched environment (boardgames.envs.batch)",
    "boardgames.envs.batch:warm_kernels",
)
"""The warm step every two-player game with kernels gets after its own steps: the batched
environment's kernels, so that a first ``boardgames.envs.batch(GAME, n)`` on a warmed
machine compiles nothing (about 7-15 s otherwise). Its function takes the game's name."""

NAMED_WARM_STEPS = (GENERIC_WARM_STEP[1], BATCH_WARM_STEP[1])
"""The warm steps whose function is given the game's name."""


class WarmStep(NamedTuple):
    """One step of ``cache warm GAME``: its label, its ``"module:function"`` (a step's
    ready marker is named after the function) and :attr:`run`, which imports the function
    and calls it with no argument."""

    label: str
    target: str
    run: Callable[[], object]
