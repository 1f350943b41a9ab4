"""``boardgames play GAME``: any registered two-player game in the terminal, a person or the
program on each side (:func:`boardgames.core.engine.think`), with hint, undo and a record
of the moves saved after each one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from boardgames.cli.games import GameGroup, make_game
from boardgames.core.registry import GamePlugin

SIDES = ("human", "program")


def level_options(f: Any) -> Any:
    """``--level``, ``--time`` and ``--depth``: how hard the program thinks."""
    f = click.option(
        "--depth",
        type=click.IntRange(1, 60),
        default=None,
        help="Search exactly this many plies (overrides --level and --time).",
    )(f)
    f = click.option(
        "--time",
        "seconds",
        type=click.FloatRange(0.05, 86400),
        default=None,
        help="Seconds the program thinks a move (overrides --level).",
    )(f)
    return click.option(
        "--level",
        type=click.Choice(["easy", "medium", "strong", "perfect"]),
        default="strong",
        show_default=True,
        help="easy: 1 ply; medium: 3 plies; strong: 1 s a move; perfect: up to 10 s, the "
        "exact solver first where the game has one.",
    )(f)


def thinking(level: str, seconds: float | None, depth: int | None) -> dict[str, Any]:
    """:func:`~boardgames.core.engine.think`'s keywords for these options."""
    from boardgames.core.engine import LEVELS

    if depth is not None:
        return {"depth": depth, "seconds": None}
    if seconds is not None:
        return {"depth": None, "seconds": seconds}
    return dict(LEVELS[level])


def think_shown(game: Any, state: Any, think: dict[str, Any]) -> Any:
    """The program's answer (:func:`boardgames.core.engine.think`), with a progress line on
    stderr while it thinks for more than a second and a one-line stop on Ctrl-C."""
    import time

    from boardgames.core.console import make_console
    from boardgames.core.engine import think as engine_think
    from boardgames.core.progress import Progress, interruptible, stopped_message

    seconds, depth = think.get("seconds"), think.get("depth")
    label = f"Searching to depth {depth}" if depth is not None else "Thinking"
    total = None if depth is not None else seconds
    bar = Progress(label, total, "s" if total else "", console=make_console(stderr=True))
    t0 = time.perf_counter()

    def tick() -> bool:
        bar.update(round(time.perf_counter() - t0, 1))
        return False

    def stopped() -> str:
        return stopped_message(time.perf_counter() - t0, extra=": no move was chosen")

    with bar, interruptible(stopped):
        return engine_think(game, state, stop=tick, **think)


def _outcome_text(game: Any, spec: GamePlugin, state: Any) -> str:
    result = game.outcome(state)
    mover = game.to_move(state)
    if result == 0:
        return "The game is a draw."
    winner = mover if result > 0 else 1 - mover
    return f"{spec.player_names[winner]} wins (margin {abs(result)})."


def legal_text(game: Any, state: Any, most: int = 12) -> str:
    """The legal moves in a few words: ``1 2 3 5 6 7``, ``1 1, 1 2, ... (24 moves)``."""
    texts = [game.format_move(m) for m in game.legal_moves(state)]
    sep = ", " if any(" " in t for t in texts) else " "
    if len(texts) <= most:
        return sep.join(texts)
    return f"{sep.join(texts[:most])}{sep}... ({len(texts)} moves)"


class Session:
    """One game in the terminal."""

    def __init__(
        self,
        spec: GamePlugin,
        game: Any,
        state: Any,
        sides: tuple[str, str],
        think: dict[str, Any],
        record: Path | None,
    ) -> None:
        from boardgames.core.console import make_console

        self.spec, self.game, self.sides, self.think = spec, game, sides, think
        self.record = record
        self.history: list[tuple[Any, int]] = []  # (state before, move)
        self.state = self.start = state
        self.console = make_console()

    def say(self, text: str) -> None:
        self.console.print(text, highlight=False, soft_wrap=True)

    def save(self) -> None:
        if self.record is None:
            return
        from boardgames.core.capabilities import format_position
        from boardgames.core.files import write_atomic

        moves = [m for _, m in self.history]
        text = (
            f"# boardgames play {' '.join([self.spec.name, *self._options()])}\n"
            f"moves: {' '.join(self.game.format_move(m) for m in moves)}\n"
            f"position: {format_position(self.game, self.state, moves)}\n"
        )
        write_atomic(self.record, text.encode())

    def _options(self) -> list[str]:
        """The game's options as command-line words (for the record's first line)."""
        words: list[str] = []
        for o in self.spec.options:
            value = getattr(self.game, o.name, o.default)
            if o.kind == "bool":
                words += [o.flag] if value else []
            else:
                shown = " ".join(map(str, value)) if isinstance(value, tuple) else value
                words.append(f"{o.flag} '{shown}'" if " " in str(shown) else f"{o.flag} {shown}")
        return words

    def program_move(self) -> int:
        answer = think_shown(self.game, self.state, self.think)
        player = self.spec.player_names[self.game.to_move(self.state)]
        assert answer.move is not None
        exact = " (exact)" if answer.exact else ""
        late = "; the search overran its time" if answer.overran else ""
        self.say(
            f"Program ({player}) plays {self.game.format_move(answer.move)}   "
            f"(value {answer.value_text()}{exact}; {answer.how()}, "
            f"{answer.seconds:.2f} s{late})"
        )
        return answer.move

    def human_move(self) -> int | None:
        """The person's move; None to quit. Hint and undo are handled here."""
        from boardgames.core.console import ask
        from boardgames.core.protocol import GameError

        player = self.spec.player_names[self.game.to_move(self.state)]
        legal = legal_text(self.game, self.state)
        while True:
            text = ask(self.console, f"{player} to move ({legal}), or hint / undo / new / quit: ")
            word = text.strip().lower()
            if word in ("q", "quit", "exit"):
                return None
            if word in ("n", "new"):
                self.state, self.history = self.start, []
                self.save()
                self.say("A new game from the start position.")
                self.show()
                return self.human_move()
            if word in ("h", "hint"):
                a = think_shown(self.game, self.state, self.think)
                assert a.move is not None
                self.say(f"Hint: {self.game.format_move(a.move)} (value {a.value_text()}).")
                continue
            if word in ("u", "undo"):
                if not self._undo():
                    self.say("Nothing to undo: no move of yours has been played yet.")
                    continue
                self.show()
                return self.human_move()
            try:
                return self.game.parse_move(text, self.state)
            except GameError as e:
                self.say(f"{e}")

    def _undo(self) -> bool:
        """Take back the last move a person made and the program's replies after it."""
        for i in range(len(self.history) - 1, -1, -1):
            before, _ = self.history[i]
            if self.sides[self.game.to_move(before)] == "human":
                self.state = before
                del self.history[i:]
                self.save()
                return True
        return False

    def show(self) -> None:
        self.console.print(self.game.render(self.state))

    def run(self) -> None:
        from boardgames.core.console import EndOfInput

        self.save()
        self.show()
        try:
            while self.game.outcome(self.state) is None:
                side = self.sides[self.game.to_move(self.state)]
                move = self.program_move() if side == "program" else self.human_move()
                if move is None:
                    self.say("Left the game." + self._kept())
                    return
                before = self.state
                self.state, _ = self.game.play(self.state, move)
                self.history.append((before, move))
                self.save()
                self.show()
        except EndOfInput:
            self.say("Left the game (end of input)." + self._kept())
            return
        self.say(_outcome_text(self.game, self.spec, self.state) + self._kept())

    def _kept(self) -> str:
        return f" The record is in {self.record}." if self.record is not None else ""


def play_feature(spec: GamePlugin) -> click.Command:
    """``boardgames play GAME``'s command for one game."""

    @click.command(
        name=spec.name, help=f"Play {spec.title} against the program, or watch two programs."
    )
    @click.option(
        "--first",
        type=click.Choice(SIDES),
        default="human",
        show_default=True,
        help=f"Who plays {spec.player_names[0]}, who moves first.",
    )
    @click.option(
        "--second",
        type=click.Choice(SIDES),
        default="program",
        show_default=True,
        help=f"Who plays {spec.player_names[1]}.",
    )
    @click.option(
        "--start",
        default="",
        metavar="POSITION",
        help="Start from this position (the game's notation, or the moves from the start).",
    )
    @click.option(
        "--record",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Save the moves to this file after every move.",
    )
    @level_options
    def command(
        first: str, second: str, start: str, record: Path | None, level: str,
        seconds: float | None, depth: int | None, **options: Any,
    ) -> None:  # fmt: skip
        from boardgames.core.capabilities import parse_position
        from boardgames.core.files import check_output

        check_output("--record", record)
        game = make_game(spec, options)
        state = parse_position(game, start) if start.strip() else game.initial_state()
        session = Session(
            spec, game, state, (first, second), thinking(level, seconds, depth), record
        )
        session.say(
            f"{spec.title}: {spec.player_names[0]} ({first}) against "
            f"{spec.player_names[1]} ({second})."
        )
        session.run()

    return command


@click.group(cls=GameGroup, feature=play_feature)
def play() -> None:
    """Play any installed two-player game in the terminal, against the program or another
    person, or watch two programs ('--first program --second program').

    At a prompt: a move in the game's notation, 'hint', 'undo' or 'quit'. The program
    thinks for --level (or --time seconds, or exactly --depth plies); its values say
    'exact' only when proven, and a won or lost value found by a depth-limited search is
    a bound ('win by at least 2').
    """
