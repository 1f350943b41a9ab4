"""A game's own files in the cache folder, as ``boardgames cache list|clean|verify`` see
them (Kalah's endgame tables, for instance).

A game that keeps files in the cache folder (:func:`boardgames.cache_dir`) names, in its
plugin's ``cache`` field, an object of the :class:`CacheFiles` protocol: it finds its
files (:class:`CacheEntry`, finished files and the temporary files of saves), says which
ones a ``--table NAME`` means, and checks or stamps a file's checksums. The ``cache``
commands loop over the games that have one (``GamePlugin.cache_files()``) and do the
rest (the tables on screen, the JSON, removing files, the totals) the same way for every
game.

This module imports neither numpy, the registry nor any game (the registry names its
types).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

Checked = Literal["good", "unverified", "damaged"]
"""What :meth:`CacheFiles.verify` found: the checksums match, the file has none (saved
before checksums), or it must not be used."""


@dataclass(frozen=True)
class CacheEntry:
    """One file of a game in the cache folder: a finished file, or the hidden temporary
    file of a save (``temporary``), being written by process ``writer`` or left by a save
    that was stopped."""

    path: Path
    name: str
    """How the commands name it (``cache list``'s first column, ``--table NAME``)."""
    nbytes: int
    last_used: float
    """The file's access time, or its modification time if later (:func:`last_used`)."""
    detail: str = "?"
    """What the file is for, in a few words (the column :attr:`CacheFiles.detail` heads)."""
    current: bool = False
    """Read by today's code; a finished file that is not is *stale* (never read again)."""
    temporary: bool = False
    writer: int | None = None
    """Temporary file: the process writing it, if its name says."""
    writing: bool = False
    """Temporary file: its writer still runs (it is never removed then)."""
    fields: Mapping[str, object] = field(default_factory=dict)
    """The game's own fields in ``cache list --json`` (after ``table``)."""

    def status(self) -> str:
        """``current``, ``stale``, ``being written (process N)`` or ``left by a stopped
        save``."""
        if self.temporary:
            if self.writing:
                return f"being written (process {self.writer})"
            return "left by a stopped save"
        return "current" if self.current else "stale"


Selector = Callable[[CacheEntry], bool]
"""Which entries one ``--table NAME`` means."""


class CacheFiles(Protocol):
    """A game's own files in the cache folder.

    The entries are files: ``cache clean`` removes an entry by removing its ``path``
    (never a temporary file whose writer runs).
    """

    @property
    def kind(self) -> str:
        """What one file is, singular and lower case (``endgame table``): titles and
        messages say "Endgame tables in FOLDER", "No endgame table 6p22s in FOLDER"."""
        ...

    @property
    def detail(self) -> str:
        """The heading of :attr:`CacheEntry.detail`'s column in ``cache list`` (``rules``)."""
        ...

    @property
    def name_help(self) -> str:
        """How to write a ``--table NAME``, for the error on a bad one (``write
        PITSpSTONESs, e.g. 6p22s``)."""
        ...

    @property
    def rebuilt_by(self) -> str:
        """What builds a removed file again, for messages (``the next kalah solve``)."""
        ...

    def scan(self, folder: Path) -> list[CacheEntry]:
        """The game's files in ``folder`` (which may not exist), finished ones then
        temporary ones, in the order ``cache list`` shows them."""
        ...

    def select(self, name: str) -> Selector | None:
        """The entries ``--table name`` means, or None when ``name`` is not written like
        one of this game's names."""
        ...

    def checksum(self, entry: CacheEntry) -> str:
        """Whether a finished file carries checksums, cheaply (its header and trailer
        only): ``yes``, ``no`` (saved before checksums) or ``bad file``."""
        ...

    def verify(self, entry: CacheEntry) -> tuple[Checked, str | None]:
        """Read a finished file whole against its checksums: the result and, when it is
        ``damaged``, why (a few words). Ctrl-C (KeyboardInterrupt) passes through."""
        ...

    def stamp_problem(self, entry: CacheEntry, folder: Path) -> str | None:
        """Why an ``unverified`` file cannot be stamped now (``not stamped: ...``), or
        None."""
        ...

    def stamp(self, entry: CacheEntry) -> None:
        """Give an ``unverified`` current file the checksums of what it holds now."""
        ...


def last_used(stat: os.stat_result) -> float:
    """When a file was last used: its access time, or its modification time if later
    (most systems update the access time once a day at most)."""
    return max(stat.st_atime, stat.st_mtime)
