"""Kalah's endgame tables in the cache folder, as ``boardgames cache list|clean|verify``
see them (:class:`boardgames.core.cachefiles.CacheFiles`; Kalah's plugin names
:data:`TABLES`).

The files are ``kalah-endgame-RULES-Pp-Ss-FINGERPRINT.npy`` (:func:`endgame.cache_path`)
and the hidden temporary files of tables being saved. A table is *current* when its
fingerprint is that of today's rule kernels (only those are ever read) and *stale*
otherwise. Telling which compiles a small kernel: :mod:`endgame` (numba) is imported only
when a classic table is there to be told; the rest reads file names, headers and trailers
(NumPy and xxhash).
"""

from __future__ import annotations

import re
from pathlib import Path

from boardgames.core.cachefiles import CacheEntry, CacheFiles, Checked, Selector, last_used
from boardgames.kalah.exact import tablefile
from boardgames.kalah.game import MAX_PITS, MIN_PITS

TABLE_SPEC = re.compile(
    r"(?:(?P<variant>classic|empty-capture)-)?(?P<pits>[0-9]{1,2})p(?P<stones>[0-9]{1,2})s"
)
"""A ``--table NAME``: ``6p22s``, ``classic-6p22s``, ``empty-capture-6p22s``."""

STAMP_ROOM = 2**20
"""Bytes free beyond a table's size that stamping it needs (it writes a copy)."""


def table_name(pits: int, stones: int, empty_capture: bool) -> str:
    """How the commands name a table: 6p22s (empty-capture-6p22s)."""
    return f"{'empty-capture-' if empty_capture else ''}{pits}p{stones}s"


def _entry(path: Path, temporary: bool) -> tuple[tuple[bool, int, int, bool], CacheEntry] | None:
    """The entry of one table or temporary file and where ``cache list`` puts it (biggest
    board last, temporary files after the tables); None when it was removed meanwhile."""
    try:
        stat = path.stat()
    except OSError:
        return None
    writer = tablefile.temp_writer(path) if temporary else None
    # the temporary file of kalah-endgame-....npy is .kalah-endgame-....npy.PID.tmp
    named = Path(path.name[1:].rsplit(".", 2)[0]) if temporary else path
    fields = tablefile.name_fields(named)
    rules, empty_capture = "?", False
    pits: int | None = None
    stones: int | None = None
    current = False
    if fields is not None:
        rules, empty_capture, pits, stones, _ = fields
        if rules == "classic" and MIN_PITS <= pits <= MAX_PITS and not temporary:
            from boardgames.kalah.exact import endgame  # numba: the rules' fingerprint

            current = path == endgame.cache_path(pits, stones, rules, empty_capture)
    order = (temporary, pits or 0, stones or 0, empty_capture)
    return order, CacheEntry(
        path=path,
        name=path.name
        if pits is None or stones is None
        else table_name(pits, stones, empty_capture),
        nbytes=stat.st_size,
        last_used=last_used(stat),
        detail=rules + (", empty capture" if empty_capture else ""),
        current=current,
        temporary=temporary,
        writer=writer,
        writing=temporary and (writer is None or tablefile.writer_runs(writer)),
        fields={"pits": pits, "stones": stones, "rules": rules, "empty_capture": empty_capture},
    )


class EndgameTables:
    """Kalah's endgame tables: the :class:`boardgames.core.cachefiles.CacheFiles` of
    Kalah's plugin."""

    kind = "endgame table"
    detail = "rules"
    name_help = "write PITSpSTONESs, e.g. 6p22s or empty-capture-6p22s"
    rebuilt_by = "the next kalah solve"

    def scan(self, folder: Path) -> list[CacheEntry]:
        """Every table and temporary table file in ``folder``: the tables by board,
        stones and rule variant, then the temporary files."""
        if not folder.is_dir():
            return []
        found = [
            entry
            for paths, temporary in (
                (sorted(folder.glob("kalah-endgame-*.npy")), False),
                (sorted(folder.glob(".kalah-endgame-*.tmp")), True),
            )
            for path in paths
            if (entry := _entry(path, temporary)) is not None
        ]
        found.sort(key=lambda item: item[0])  # stable: by name within a board
        return [entry for _, entry in found]

    def select(self, name: str) -> Selector | None:
        m = TABLE_SPEC.fullmatch(name.strip())
        if m is None:
            return None
        variant, pits, stones = m["variant"], int(m["pits"]), int(m["stones"])

        def chosen(entry: CacheEntry) -> bool:
            if (entry.fields.get("pits"), entry.fields.get("stones")) != (pits, stones):
                return False
            ec = entry.fields.get("empty_capture") is True
            return variant is None or (variant == "empty-capture") == ec

        return chosen

    def checksum(self, entry: CacheEntry) -> str:
        try:
            return "yes" if tablefile.inspect_table(entry.path).checked else "no"
        except (OSError, ValueError):
            return "bad file"

    def verify(self, entry: CacheEntry) -> tuple[Checked, str | None]:
        try:
            _, checked = tablefile._read_table(entry.path)
        except (OSError, ValueError) as error:
            from boardgames.kalah.exact.endgame import _reason

            return "damaged", _reason(error)
        return ("good" if checked else "unverified"), None

    def stamp_problem(self, entry: CacheEntry, folder: Path) -> str | None:
        if tablefile.free_disk_space(folder) < entry.nbytes + STAMP_ROOM:
            return "not stamped: too little free disk space for a copy"
        return None

    def stamp(self, entry: CacheEntry) -> None:
        tablefile.stamp_table(entry.path)


TABLES: CacheFiles = EndgameTables()
"""What Kalah's plugin names as its ``cache``."""
