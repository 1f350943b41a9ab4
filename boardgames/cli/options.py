"""Options every game's commands share, one definition each: ``--json``, ``--cluster``
and the two checkpoints (``--checkpoint FILE`` of a task list, ``--checkpoint-dir DIR`` of
a search's proven bounds).

A game's own shared options (Kalah's board and rules, say) live in its ``cli`` package
(``boardgames/kalah/cli/options.py``). Importing this module is cheap: click and the
cluster layer's spec parser only, no dask, numpy or numba.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from boardgames.core.cluster.spec import ENV_VAR, ClusterError, parse_cluster
from boardgames.core.files import not_a_regular_file, output_problem

F = TypeVar("F", bound=Callable[..., Any])

JSON_HELP = "Print one JSON object instead."


def say_written(what: str, path: Path, to_stderr: bool = False, after: str = "") -> None:
    """One line saying that ``what`` ("Picture", "Plot", ...) was written to ``path``: on
    standard output, or on standard error when standard output holds JSON (``to_stderr``)."""
    from rich.text import Text

    from boardgames.core.console import make_console
    from boardgames.core.text import printable

    make_console(stderr=to_stderr).print(
        Text(f"{what} written to {printable(str(path))}{after}."),
        highlight=False,
        soft_wrap=True,  # a long path is not cut across lines
    )


class OutputFile(click.ParamType):
    """An output file's name as a Path, checked before any work
    (:func:`boardgames.core.files.output_problem`): the text is read as given, so ``new/``
    is refused as a folder instead of becoming a file ``new``."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        from boardgames.core.files import output_problem

        if isinstance(value, Path):
            return value
        text = str(value)
        if not text.strip():
            self.fail("the file name is empty; give one", param, ctx)
        problem = output_problem(text)
        if problem is not None:
            self.fail(problem, param, ctx)
        return Path(text)


OUTPUT_FILE = OutputFile()
SEED = click.IntRange(0, 2**63 - 1)
"""A seed a file keeps: it must fit an int64 (numpy saves a larger one as an object,
which ``numpy.load`` refuses)."""


class Folder(click.ParamType):
    """A folder's name as a Path (it may not exist yet): an empty name or a file is
    refused, where ``click.Path`` would take ``""`` for the current folder."""

    name = "folder"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if isinstance(value, Path):
            return value
        text = str(value)
        if not text.strip():
            self.fail("the folder name is empty; give one", param, ctx)
        if Path(text).exists() and not Path(text).is_dir():
            self.fail(f"{text} is a file; give a folder", param, ctx)
        return Path(text)


FOLDER = Folder()


def json_option(help: str = JSON_HELP) -> Callable[[F], F]:
    """``--json``: the command prints one JSON object (for scripts); arrives as ``as_json``."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def cluster_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """click callback of ``--cluster``: a :class:`~boardgames.core.cluster.ClusterSpec`,
    None when blank."""
    if value is None or not value.strip():
        return None
    try:
        return parse_cluster(value)
    except ClusterError as e:
        raise click.BadParameter(e.message.removeprefix("bad --cluster ")) from None


LOCAL_PROCESSES = "worker processes on this machine, local:N for N of them"


def cluster_option(
    what: str,
    *,
    local: str = LOCAL_PROCESSES,
    scheduler: str = "a running dask scheduler",
    otherwise: str = "in this process",
) -> Callable[[F], F]:
    """``--cluster SPEC`` (default ``$BOARDGAMES_CLUSTER``): run ``what`` as Dask tasks;
    arrives as ``cluster``, a ClusterSpec or None. ``local``, ``scheduler`` and
    ``otherwise`` say what ``local``, a scheduler address and no cluster mean for it."""
    return click.option(
        "--cluster",
        envvar=ENV_VAR,
        callback=cluster_callback,
        metavar="SPEC",
        help=f"Run {what} as Dask tasks: local ({local}), tcp://HOST:PORT ({scheduler}) or "
        f"a scheduler file. Default: ${ENV_VAR}, else {otherwise}.",
    )


def _file_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """A checkpoint FILE: a name, and not a device, a folder or a pipe (those would be
    read without end, or not at all), checked before any work starts."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("the file name is empty; give one, e.g. count.ckpt")
    problem = not_a_regular_file(value) or output_problem(value)
    if problem is not None:
        raise click.BadParameter(problem)
    return Path(value)


def checkpoint_option(what: str) -> Callable[[F], F]:
    """``--checkpoint FILE``: a task list's finished results, appended as they come, so
    that a rerun runs only the missing tasks of ``what``; arrives as ``checkpoint``."""
    return click.option(
        "--checkpoint",
        callback=_file_callback,
        metavar="FILE",
        help=f"Append each finished task's result to FILE; run again with the same FILE and "
        f"only the missing tasks of {what} run (a file of another job is refused).",
    )


def checkpoint_dir_option(help: str) -> Callable[[F], F]:
    """``--checkpoint-dir DIR``: a folder a search keeps what it proved in (a database,
    not a task list: hence another name than ``--checkpoint``); arrives as
    ``checkpoint_dir``."""
    return click.option(
        "--checkpoint-dir",
        type=FOLDER,
        default=None,
        metavar="DIR",
        help=help,
    )


def cluster_options(what: str, otherwise: str = "in this process") -> Callable[[F], F]:
    """``--cluster`` and ``--checkpoint FILE`` together, for a command that spreads the
    tasks of ``what`` (e.g. "the games") over workers; ``otherwise``: where they run
    without a cluster."""

    def decorate(f: F) -> F:
        return cluster_option(what, otherwise=otherwise)(checkpoint_option(what)(f))

    return decorate
