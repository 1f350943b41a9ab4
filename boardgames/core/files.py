"""Writing output files the user names (a plot, a picture): checked before the work starts,
written whole or not at all, and a failed write is an error, never a silent success.
Standard library only."""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import click


class WriteFailed(click.ClickException):
    """An output file that could not be written after the work was done: status 1."""

    exit_code = 1


FAILED_WRITES: list[str] = []
"""Files this process could not write but went on without (a cache file: the work still
served this run). Each was said on stderr when it failed; the command then ends with
status 1 instead of 0 (``boardgames.cli``'s funnel), so that no failed write passes as a
success."""


def record_failed_write(what: str) -> None:
    """Note a write that failed but did not stop the work (see :data:`FAILED_WRITES`)."""
    FAILED_WRITES.append(what)


def not_a_regular_file(path: Path | str) -> str | None:
    """``PATH is not a regular file (...)`` when ``path`` exists and is a device, a folder
    or a pipe (a file a command reads would be read without end, or not at all); None for
    a regular file or a missing one (it is made) or one that cannot be looked at (opening
    it says why)."""
    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return None
    if regular:
        return None
    return f"{path} is not a regular file (a device, a folder or a pipe); give the name of a file"


def output_problem(path: Path | str) -> str | None:
    """Why ``path`` cannot take an output file, told before any work is done, or None: it
    is a folder (or, given as text, ends with a slash: ``new/`` names a folder even when
    there is none, and would otherwise be written as a file ``new``), or its folder is
    missing or is a file."""
    text = os.fspath(path)
    if not text.strip():
        return "the file name is empty; give one"
    if text.endswith((os.sep, os.altsep or os.sep)) and not os.path.isdir(text):
        return f"{text} names a folder (it ends with {text[-1]!r}); give a file name"
    path = Path(path)
    if path.is_dir():
        return f"{path} is a directory; give a file name"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.exists():
        return f"{path}: the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{path}: {folder} is not a directory"
    if not_a_regular_file(path) is None:  # a device or a pipe is written as it is
        try:  # a real write: permission bits say nothing for root or a read-only mount
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as e:
            return f"{path}: files cannot be written in {folder} ({e.strerror or e})"
    return None


def check_output(option: str, path: Path | str | None) -> None:
    """A usage error (status 2) when :func:`output_problem` finds one for ``path``."""
    if path is None:
        return
    problem = output_problem(path)
    if problem is not None:
        raise click.UsageError(f"{option}: {problem}")


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path``: a regular (or new) file through a temporary file in the
    same folder, synced and renamed over it, so it is whole or absent; a device or a pipe
    written directly. Any failure (a full disk, no permission) raises :class:`OSError`."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
        regular = stat.S_ISREG(mode)
        permissions = stat.S_IMODE(mode)  # a replaced file keeps its permissions
    except FileNotFoundError:
        regular = True
        umask = os.umask(0)
        os.umask(umask)
        permissions = 0o666 & ~umask  # as open() would make it
    if not regular:
        with open(path, "wb") as f:
            f.write(data)
            f.flush()
        return
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, permissions)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def save_figure(fig: Any, path: Path | str, **options: Any) -> None:
    """A matplotlib figure written with :func:`write_atomic` (its format from the file's
    ending, PNG without one); a failed write is :class:`WriteFailed`, one line."""
    buffer = io.BytesIO()
    suffix = Path(path).suffix.lstrip(".").lower() or "png"
    fig.savefig(buffer, format=suffix, **options)
    try:
        write_atomic(path, buffer.getvalue())
    except OSError as e:
        raise WriteFailed(f"cannot write the plot to {path}: {e.strerror or e}") from None
