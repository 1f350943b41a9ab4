"""The ``boardgames`` command: one click group; each game's commands load only when used.

Keep this module light: ``boardgames --help`` must not import numpy, numba or any game.

It is also the one place that turns what a command raises into an exit status and at most
one line on standard error, the same for every command:

====  ==========================================================================
0     done
1     the work failed (methods that disagree, an output file that cannot be written)
2     bad input or usage: one line ``Error: ...`` saying what was wrong and what is allowed
130   stopped by Ctrl-C
====  ==========================================================================
"""

from __future__ import annotations

import _thread
import contextlib
import copy
import gc
import importlib
import math
import os
import re
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from boardgames.core.text import one_line

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
STOPPED_LINE = "Stopped (Ctrl-C)."

# name -> ("module:attribute", one-line help shown by `boardgames --help`): the commands of
# no game. Each game's own group (`boardgames kalah ...`) comes from its plugin in the
# registry (boardgames.core.registry); nothing here names a game.
BUILTIN_COMMANDS: dict[str, tuple[str, str]] = {
    "games": ("boardgames.cli.games:games", "The installed games: capabilities and options."),
    "play": (
        "boardgames.cli.play:play",
        "Play any two-player game against the program, or watch two programs.",
    ),
    "analyse": (
        "boardgames.cli.analyse:analyse",
        "Best move, value and principal variation of a position of any game.",
    ),
    "compare": (
        "boardgames.cli.compare:compare",
        "Compare search strategies or counting methods side by side.",
    ),
    "match": (
        "boardgames.cli.match:match",
        "Two players of any two-player game play paired games.",
    ),
    "cache": ("boardgames.cli.cache:cache", "Endgame tables and compiled kernels on disk."),
    "serve": (
        "boardgames.cli.serve:serve",
        "A local web page: play, analyse and compare every game; review games.",
    ),
}


GENERIC_GAME_COMMANDS = ("play", "analyse", "compare", "match")
"""The root's commands that take a game after them (``boardgames play connect4``)."""


def _point_to_generic(group: click.Group, game: str) -> None:
    """``boardgames connect4 play`` (a generic command after a game that has no such
    command of its own): say where the command is, not only "No such command"."""
    if getattr(group, "_points_to_generic", False):
        return
    resolve = group.resolve_command

    def resolve_command(
        ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name in GENERIC_GAME_COMMANDS and group.get_command(ctx, name) is None:
            from boardgames.core.registry import two_player

            if game in two_player():
                raise click.UsageError(
                    f"No such command {name!r}: the command is 'boardgames {name} {game}' "
                    f"({name} is one command for every game, the game second)",
                    ctx,
                )
        return resolve(ctx, args)

    group.resolve_command = resolve_command  # type: ignore[method-assign]
    group._points_to_generic = True  # type: ignore[attr-defined]


def command_table() -> dict[str, tuple[str, str]]:
    """The root's commands: :data:`BUILTIN_COMMANDS` and every plugin's own group."""
    from boardgames.core.registry import plugins

    table = {
        name: (p.cli, p.summary)
        for name, p in plugins().items()
        if p.cli and name not in BUILTIN_COMMANDS
    }
    table.update(BUILTIN_COMMANDS)
    return table


class InputError(click.ClickException):
    """Bad input that is not a misused option (a bad record file, say): one line, status 2."""

    exit_code = EXIT_BAD_INPUT


# --- numbers on the command line ---------------------------------------------------------


MAX_NUMBER_CHARACTERS = 40
"""Longer option values are not numbers worth reading (nor echoing whole in a message)."""


def _strict_number(param_type: click.ParamType) -> click.ParamType:
    """A copy of a click number type that also refuses non-ASCII digits and NaN/infinity.

    Python's ``int()`` and ``float()`` read any Unicode decimal digit ('٣' is 3) and
    ``float('nan')`` passes every range check; a board game's numbers are written with
    the digits 0-9 (RULES.md) and must be finite. A value of thousands of digits is
    refused without being converted or echoed whole. The copy keeps the original class, so
    help texts still show ranges such as ``1<=x<=200``.
    """
    strict = copy.copy(param_type)
    convert = strict.convert

    def checked(value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and len(value) > MAX_NUMBER_CHARACTERS:
            strict.fail(
                f"{value[:20]!r}... ({len(value):,} characters) is too long for a number",
                param,
                ctx,
            )
        if isinstance(value, str) and not value.isascii():
            strict.fail(f"{value!r} is not a number: write numbers with the digits 0-9", param, ctx)
        try:
            number = convert(value, param, ctx)
        except click.BadParameter:
            if isinstance(value, str) and _dashes_not_number(value):
                # '--3': click's type name ("integer range") would read as a riddle
                strict.fail(f"{value!r} is not {_allowed_numbers(strict)}", param, ctx)
            raise
        if isinstance(number, float) and not math.isfinite(number):
            strict.fail(f"{value!r} is not a finite number", param, ctx)
        return number

    strict.convert = checked  # type: ignore[method-assign]
    return strict


def _dashes_not_number(text: str) -> bool:
    """True for option text that begins with a dash and is no number (``--3``, ``-x``)."""
    if not text.strip().startswith("-"):
        return False
    try:
        float(text)
    except ValueError:
        return True
    return False


def _allowed_numbers(param_type: click.ParamType) -> str:
    """``a whole number from 1 to 12`` and the like: what a number option takes."""
    kind = "a whole number" if isinstance(param_type, click.types.IntParamType) else "a number"
    low, high = getattr(param_type, "min", None), getattr(param_type, "max", None)
    if low is not None and high is not None:
        return f"{kind} from {low:g} to {high:g}"
    if low is not None:
        return f"{kind} of at least {low:g}"
    if high is not None:
        return f"{kind} of at most {high:g}"
    return f"{kind} (digits 0-9, a sign only before them)"


def harden_numbers(command: click.Command) -> click.Command:
    """Give every int and float parameter of ``command`` (and of the commands of a group
    already registered) the checks of :func:`_strict_number`; idempotent."""
    if getattr(command, "_boardgames_numbers", False):
        return command
    for param in command.params:
        if isinstance(param.type, click.types.IntParamType | click.types.FloatParamType):
            param.type = _strict_number(param.type)
    command._boardgames_numbers = True  # type: ignore[attr-defined]
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            harden_numbers(sub)
    return command


# --- Ctrl-C -------------------------------------------------------------------------------


class _InterruptWatch:
    """Notes whether Ctrl-C (SIGINT) arrived while a command ran, even if the command
    caught the KeyboardInterrupt itself and returned normally."""

    def __init__(self) -> None:
        self.interrupted = False
        self.closed = False
        self.lock = threading.Lock()

    def handler(self, signum: int, frame: object) -> None:
        self.interrupted = True
        raise KeyboardInterrupt


@contextmanager
def _watch_interrupts() -> Iterator[_InterruptWatch]:
    """Install :class:`_InterruptWatch` as the SIGINT handler where Python's default one
    is in place (main thread only), and put the previous handler back afterwards."""
    watch = _InterruptWatch()
    installed = False
    if threading.current_thread() is threading.main_thread():
        previous = signal.getsignal(signal.SIGINT)
        if previous is signal.default_int_handler:
            signal.signal(signal.SIGINT, watch.handler)
            installed = True
    # a Ctrl-C that lands inside a C callback (numba's compiler has some) cannot be raised
    # there: Python reports it as "Exception ignored" with a traceback; it is noted instead
    previous_hook = sys.unraisablehook

    def quiet_interrupt(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            watch.interrupted = True
            # raised again where Python can raise it (sent from another thread: in this
            # hook it would be dropped too), so that the work stops at its next line of
            # Python with its own "Stopped" line instead of running on (a warm-up compiled
            # on for a minute, then ended with status 130 and no word)
            if installed and not watch.closed:
                threading.Thread(target=_interrupt_again, args=(watch,), daemon=True).start()
            return
        previous_hook(unraisable)

    global _WATCH
    outer, _WATCH = _WATCH, watch
    sys.unraisablehook = quiet_interrupt
    try:
        yield watch
    finally:
        with watch.lock:
            watch.closed = True
        _WATCH = outer
        sys.unraisablehook = previous_hook
        if installed:
            signal.signal(signal.SIGINT, previous)


_WATCH: _InterruptWatch | None = None
"""The running command's watch (None between commands)."""


def _interrupt_again(watch: _InterruptWatch) -> None:
    time.sleep(0.01)
    with watch.lock:  # never after the watch closed: nothing would catch it
        if not watch.closed:
            _thread.interrupt_main(signal.SIGINT)


def _forget_unhandled_interrupt() -> None:
    """Clear CPython's note of an "unhandled" KeyboardInterrupt, so that the status is ours.

    CPython notes one process-wide whenever code that ``exec``/``eval`` run from a string
    is left by a KeyboardInterrupt (``dataclasses`` and ``namedtuple`` build their methods
    that way while a module is imported), even when the interrupt is caught further up;
    at exit it then ends the process by SIGINT (status -2 to a parent process) instead of
    with the status given to ``sys.exit`` (a Ctrl-C during a lazy import). Every ``exec`` of
    a string starts by clearing that note, and this one ends without an exception."""
    exec("")


def ctrl_c_noted() -> bool:
    """True when Ctrl-C came while the running command ran, even one that a C callback
    (numba's compiler) dropped: an error after it is the Ctrl-C's doing, not a fault."""
    return _WATCH is not None and _WATCH.interrupted


_UNREAD_SETTING = re.compile(
    r"Environment variable '(\w+)' is defined but its associated value '(.*?)' could not be "
    r"parsed",
    re.S,
)


@contextmanager
def _settings_said_in_one_line() -> Iterator[None]:
    """numba's warning about a setting of its own it cannot read (``NUMBA_OPT=abc``; it
    then uses its default) is several lines with a traceback; while a command runs it is
    one line instead. Other warnings are shown as they are."""
    previous = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], *args: Any, **kw: Any) -> None:
        unread = _UNREAD_SETTING.match(str(message))
        if unread is None:
            previous(message, category, *args, **kw)
            return
        name, value = unread.groups()
        _say(f"Note: {name}={one_line(repr(value), 80)} cannot be read; numba uses its default.")

    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = previous


def _say(text: str) -> None:
    """One line on stderr; a stderr that cannot be written (closed, a full disk) is
    dropped, so that the exit status stays the documented one."""
    try:
        click.echo(text, err=True)
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115  (the rest of the run)


def _error(message: str) -> None:
    _say(f"Error: {one_line(message)}")


def _exit_code(code: object) -> int:
    """The status of a ``SystemExit``: None is 0; a message is printed and means 1."""
    if code is None:
        return EXIT_OK
    if isinstance(code, int):
        return code
    _say(str(code))
    return EXIT_FAILED


_KEPT: list[BaseException] = []
"""The exceptions that ended commands stopped by Ctrl-C, kept with their frames
(:func:`_keep_frames`)."""


def _keep_frames(error: BaseException) -> None:
    """Keep ``error``, and with it the frames its traceback holds, until the process ends.

    A Ctrl-C can land inside numba's compiler between two steps that hand an LLVM object
    from one owner to another (llvmlite's ``ObjectRef``); freeing that object later frees
    its memory twice, and the process dies by SIGSEGV (seen on a warm-up stopped during a
    compile: the object was freed with the frames of the exception, once the stop had
    been said). Kept here, those frames are never freed: :func:`main` ends the process
    without the interpreter's teardown after a stop (:func:`_leave_after_ctrl_c`)."""
    _KEPT.append(error)


def _after_ctrl_c(error: BaseException) -> bool:
    """True when ``error`` was raised while a Ctrl-C (KeyboardInterrupt) was handled."""
    seen: set[int] = set()
    e: BaseException | None = error
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def _plugin_fault(error: BaseException) -> str | None:
    """The one line of an outside game's failure (a PluginError, or an exception raised in
    its own code): :func:`boardgames.core.registry.blame`; None otherwise."""
    registry = sys.modules.get("boardgames.core.registry")
    return None if registry is None else registry.blame(error)


def _game_error(error: BaseException) -> bool:
    """True for the project's GameError (imported only if some command loaded it)."""
    protocol = sys.modules.get("boardgames.core.protocol")
    return protocol is not None and isinstance(error, protocol.GameError)


def _prepare_streams() -> str | None:
    """Make the standard streams safe to use; the one line to show if output is impossible.

    A closed standard input reads as empty (prompts see end of input and leave cleanly), a
    closed standard error is dropped, and a stream whose encoding cannot show every
    character (``PYTHONIOENCODING=ascii``, an old terminal) shows ``?`` for the rest
    instead of failing. Input bytes its encoding cannot read are read as U+FFFD (refused
    as any bad text is). A closed standard output is an error: the results have nowhere to
    go."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull)  # noqa: SIM115  (for the whole run)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    if sys.stdout is None:
        return "standard output is closed: there is nowhere to write the result"
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        strict = getattr(stream, "errors", None) == "strict"  # UTF-8 fails on a lone surrogate
        if (strict or encoding not in ("utf8", "utf16", "utf32")) and hasattr(
            stream, "reconfigure"
        ):
            with contextlib.suppress(ValueError, OSError, AttributeError):
                stream.reconfigure(errors="replace")
    # bytes the input's encoding cannot read ('é' under PYTHONIOENCODING=ascii, a stray
    # \xff under UTF-8) become U+FFFD: a prompt or a position refuses them as it refuses
    # any other bad text, naming the line, instead of a UnicodeDecodeError traceback
    if getattr(sys.stdin, "errors", None) == "strict" and hasattr(sys.stdin, "reconfigure"):
        with contextlib.suppress(ValueError, OSError, AttributeError):
            sys.stdin.reconfigure(errors="replace")
    return None


class _StoppedWork(Exception):
    """A Stopped (long work cut short by Ctrl-C) on its way to the funnel, past click, which
    would print an empty line before it (click does that for a bare Ctrl-C at a prompt)."""

    def __init__(self, stopped: KeyboardInterrupt) -> None:
        super().__init__(str(stopped))


def _is_stopped(error: BaseException) -> bool:
    """True for boardgames.core.progress.Stopped (imported only if some command loaded it)."""
    progress = sys.modules.get("boardgames.core.progress")
    return progress is not None and isinstance(error, progress.Stopped)


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use.

    ``commands`` maps a name to ``("module:attribute", short help)``; the short help is
    listed by ``--help`` without importing the module. Run as the program (``main``), it
    also gives every command the same exit statuses and one-line errors (module doc).
    """

    def __init__(
        self,
        *args: object,
        lazy: dict[str, tuple[str, str]] | Callable[[], dict[str, tuple[str, str]]],
        plugin_groups: bool = False,
        **kwargs: object,
    ):
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._lazy = lazy
        self.plugin_groups = plugin_groups
        """Whether the lazy commands beyond BUILTIN_COMMANDS are games' own groups."""

    @property
    def lazy(self) -> dict[str, tuple[str, str]]:
        """The lazily loaded commands (a callable is asked each time: plugins may change)."""
        return self._lazy() if callable(self._lazy) else self._lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            path = self.lazy[cmd_name][0]
            if not self.plugin_groups or cmd_name in BUILTIN_COMMANDS:
                module_name, attr = path.split(":")
                command = getattr(importlib.import_module(module_name), attr)
            else:  # a plugin's own group: one that does not load is one line, status 1
                from boardgames.core.registry import PluginError, plugin

                try:
                    command = plugin(cmd_name).command()
                except PluginError as e:
                    raise click.ClickException(str(e)) from None
        else:
            command = super().get_command(ctx, cmd_name)
        if isinstance(command, click.Group) and cmd_name not in BUILTIN_COMMANDS:
            _point_to_generic(command, cmd_name)
        return None if command is None else harden_numbers(command)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as e:
            if _is_stopped(e):
                raise _StoppedWork(e) from e
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy:
                rows.append((name, self.lazy[name][1]))
            else:
                cmd = super().get_command(ctx, name)
                if cmd is not None and not cmd.hidden:
                    rows.append((name, cmd.get_short_help_str(formatter.width)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; in standalone mode exit with the status of the module doc."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        problem = _prepare_streams()
        if problem is not None:
            _error(problem)
            sys.exit(EXIT_FAILED)
        if "boardgames.core.files" in sys.modules:  # a command run before in this process
            sys.modules["boardgames.core.files"].FAILED_WRITES.clear()
        watch = _InterruptWatch()
        try:
            with _watch_interrupts() as watch, _settings_said_in_one_line():
                code = self._run(args, prog_name, complete_var, extra, watch)
        except KeyboardInterrupt as e:
            # a Ctrl-C raised again (one a C callback had dropped: _interrupt_again) that
            # came while the command was already stopping for it: the stop is said
            _keep_frames(e)
            code = EXIT_INTERRUPTED
        if watch.interrupted:
            code = EXIT_INTERRUPTED
        files = sys.modules.get("boardgames.core.files")
        if code == EXIT_OK and files is not None and files.FAILED_WRITES:
            code = EXIT_FAILED  # a file it could not write, said on stderr when it failed
        if code != EXIT_OK and "boardgames.core.warmup" in sys.modules:
            # a background compile this command started ends with it on Ctrl-C, and a
            # compile started for this command's own use ends with it whenever it failed
            sys.modules["boardgames.core.warmup"].stop_background(
                asides_only=code != EXIT_INTERRUPTED
            )
        try:  # a stderr that cannot take the last of its output must not change the status
            sys.stderr.flush()
        except (OSError, ValueError):
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115
        # the interpreter's last garbage collection walks every object numba loaded
        # (about 0.4 s after a jitted command); frozen objects are skipped
        gc.freeze()
        _forget_unhandled_interrupt()
        sys.exit(code)

    def _run(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        complete_var: str | None,
        extra: dict[str, Any],
        watch: _InterruptWatch,
    ) -> int:
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
            # without standalone mode click returns the status of an Exit (--help: 0)
            return result if isinstance(result, int) else EXIT_OK
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()  # the help page, as click shows it
            return e.exit_code
        except click.UsageError as e:
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
            _error(e.format_message().rstrip(".") + hint)
            return EXIT_BAD_INPUT
        except click.ClickException as e:
            _error(e.format_message())
            return e.exit_code
        except _StoppedWork as e:  # long work cut short: the one line of its Stopped
            _keep_frames(e)
            _say(str(e) or STOPPED_LINE)
            return EXIT_INTERRUPTED
        except (click.Abort, KeyboardInterrupt) as e:
            # click turns Ctrl-C (and a stray EOFError) into Abort; an interrupt that says
            # how far the work got (boardgames.core.progress.Stopped) is shown as it is
            _keep_frames(e)
            cause = e if isinstance(e, KeyboardInterrupt) else e.__cause__ or e.__context__
            if isinstance(cause, EOFError):
                _say("Stopped (end of input).")
            else:
                _say(str(cause) if cause and str(cause) else STOPPED_LINE)
            return EXIT_INTERRUPTED
        except SystemExit as e:
            return _exit_code(e.code)
        except OSError as e:
            # a file the command reads or writes (a closed pipe is click's: status 1, quiet)
            where = f"{e.filename}: " if e.filename else ""
            _error(f"{where}{e.strerror or e}")
            return EXIT_FAILED
        except Exception as e:
            if _game_error(e):
                _error(str(e))
                return EXIT_BAD_INPUT
            blamed = _plugin_fault(e)
            if blamed is not None:  # an outside game's own code failed: one line naming it
                _error(blamed)
                return EXIT_FAILED
            # e.g. numba's compiler cut short by the Ctrl-C: the interrupt may have been
            # raised inside one of its callbacks, which drops it and fails later
            if _after_ctrl_c(e) or watch.interrupted:
                _keep_frames(e)
                _say(STOPPED_LINE)
                return EXIT_INTERRUPTED
            raise


@click.group(
    cls=LazyGroup,
    lazy=command_table,
    plugin_groups=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="boardgames")
def cli() -> None:
    """Classic board games and puzzles with fast game search.

    Play Kalah, Nim, Connect Four or any installed game against a strong program, count
    N-queens solutions, and compare search strategies side by side. 'boardgames games'
    lists the installed games; every command has its own --help.

    Exit status: 0 done, 1 the work failed, 2 bad input or usage, 130 stopped by Ctrl-C.
    """


def main() -> None:
    """Console-script entry point (``boardgames``, ``python -m boardgames``); exits."""
    try:
        cli.main(prog_name="boardgames")
    except SystemExit as e:
        if e.code == EXIT_INTERRUPTED and "numba" in sys.modules:
            _leave_after_ctrl_c()
        raise


def _leave_after_ctrl_c() -> None:
    """End the process with status 130 without the interpreter's teardown, which would
    free what :func:`_keep_frames` keeps. What a normal exit does before the teardown is
    done here (waiting for the threads that are not daemons, then the ``atexit``
    functions: a cluster's workers, numba's and llvmlite's shutdown), the streams are
    flushed, and the process ends at once."""
    import atexit

    with contextlib.suppress(Exception):
        getattr(threading, "_shutdown", lambda: None)()  # what Py_Finalize does first
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
