"""The endgame tables' file format: a one-dimensional int8 ``.npy`` file followed by a
trailer of per-level checksums (XXH3 of 1 MiB blocks); reading with the checksums
computed as the blocks arrive, mapping a file into memory, saving atomically, and the disk
space a table needs. NumPy and xxhash only: no numba."""

from __future__ import annotations

import contextlib
import itertools
import json
import mmap
import os
import queue
import re
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import xxhash

from boardgames.core.memory import huge_zeros
from boardgames.core.progress import format_bytes
from boardgames.kalah.exact.index import MAX_TABLE_STONES, level_bounds, table_entries

IO_CHUNK = 64 * 2**20
"""Bytes read, written or filled in one call: a Ctrl-C waits for one such call at most."""

# --- checksums: XXH3 of each level, by blocks --------------------------------------------
#
# A level (the positions of one stone count) is cut into blocks of BLOCK bytes from its
# first byte; its checksum is the XXH3-64 (seed 0) of its blocks' XXH3-64s, as
# little-endian 8-byte words (CHECKSUM). The hash is the xxhash package's: the reference
# C implementation, vectorised, about 16 GB/s a core here against 3-9 GB/s for the XXH64
# written in numba that it replaced (its XXH3 port did not vectorise). A checked load
# (:func:`_read_table`) hashes each block as soon as a reader thread has read it, so
# that the disk works while the hash computes: measured here
# (benchmarks/table_checksum.py), that adds about 5% to a read() of the file from the
# disk. Files saved with the two earlier trailers are still checked: CHECKSUM_BLOCKS64
# (the same construction with XXH64) and CHECKSUM_V1 (XXH64 of each whole level).

BLOCK = 2**20
"""Bytes of a checksum block (the last block of a level is shorter)."""

_BLOCK_HASHES: dict[str, Callable[[Any], int]] = {
    "xxh3-blocks": xxhash.xxh3_64_intdigest,
    "xxh64-blocks": xxhash.xxh64_intdigest,
}


def _level_blocks(bounds: np.ndarray, block: int) -> list[tuple[int, int]]:
    """The checksum blocks of levels ``bounds[i]..bounds[i+1]``, level after level:
    (start, end) byte pairs."""
    return [
        (start, min(start + block, int(hi)))
        for lo, hi in itertools.pairwise(bounds)
        for start in range(int(lo), int(hi), block)
    ]


def _combine(
    digests: list[int], bounds: np.ndarray, block: int, digest: Callable[[Any], int]
) -> list[int]:
    """Each level's checksum from its blocks' digests (level after level)."""
    levels = []
    first = 0
    for lo, hi in itertools.pairwise(bounds):
        k = -(-(int(hi) - int(lo)) // block)
        levels.append(digest(np.array(digests[first : first + k], dtype="<u8").tobytes()))
        first += k
    return levels


def checksums(
    data: np.ndarray, bounds: np.ndarray, kind: str | None = None, block: int = BLOCK
) -> list[int]:
    """The checksum of each level ``data[bounds[i]:bounds[i+1]]``: the XXH3-64 of the
    XXH3-64s of its ``block``-byte blocks (``kind``: :data:`CHECKSUM` unless given;
    :data:`CHECKSUM_BLOCKS64` and :data:`CHECKSUM_V1` are the earlier trailers'). Ctrl-C
    stops it between two blocks."""
    kind = CHECKSUM if kind is None else kind
    raw = memoryview(np.ascontiguousarray(data).reshape(-1).view(np.uint8))  # type: ignore[arg-type]
    if kind == CHECKSUM_V1:
        return [xxhash.xxh64_intdigest(raw[lo:hi]) for lo, hi in itertools.pairwise(bounds)]
    digest = _BLOCK_HASHES[kind]
    digests = [digest(raw[lo:hi]) for lo, hi in _level_blocks(bounds, block)]
    return _combine(digests, bounds, block, digest)


def level_checksums(table: np.ndarray, pits: int, stones: int) -> list[int]:
    """The checksum of each level of a table (level ``n``: the positions of ``n`` stones),
    as a saved table's trailer holds them (:func:`checksums`)."""
    return checksums(table, level_bounds(pits, stones))


# --- table files ------------------------------------------------------------------------

CHECKSUM_MAGIC = b"\nkalah-endgame-checksums\n"
"""Starts the trailer after a table's entries; a line of JSON follows."""
CHECKSUM = "xxh3-blocks"
"""The trailer's checksums since version 3 of it: see :func:`level_checksums`."""
CHECKSUM_BLOCKS64 = "xxh64-blocks"
"""The second trailer's checksums (the same blocks, hashed with XXH64): still checked."""
CHECKSUM_V1 = "xxh64"
"""The first trailer's checksums (XXH64 of each whole level): still checked on load."""
MAX_TRAILER = 64 * 2**10


class DamagedTable(ValueError):
    """A table file that must not be used; its message is one line."""


@dataclass
class TableFile:
    """What a table file's header and trailer say, read without its entries."""

    path: Path
    entries: int
    data_start: int  # byte where the entries start
    pits: int | None = None  # None (with checksums): saved before checksums
    stones: int | None = None
    checksums: list[int] | None = None
    kind: str | None = None
    """:data:`CHECKSUM` or an earlier trailer's kind, or None (saved before checksums)."""
    block: int = BLOCK
    """Bytes of a checksum block (the block kinds)."""

    @property
    def checked(self) -> bool:
        """Whether the file carries checksums (False: saved before them, unverified)."""
        return self.checksums is not None


TABLE_NAME = re.compile(
    r"kalah-endgame-(?P<variant>[a-z]+(?:-empty-capture)?)-(?P<pits>[0-9]{1,3})p-"
    r"(?P<stones>[0-9]{1,3})s-(?P<key>[0-9a-z]+)\.npy"
)
"""A table's file name in the cache (:func:`cache_path`)."""


def name_fields(path: Path) -> tuple[str, bool, int, int, str] | None:
    """(rules, empty capture, pits, stones, fingerprint) from a table's file name, or None."""
    m = TABLE_NAME.fullmatch(path.name)
    if m is None:
        return None
    variant = m["variant"]
    empty_capture = variant.endswith("-empty-capture")
    rules = variant.removesuffix("-empty-capture")
    return rules, empty_capture, int(m["pits"]), int(m["stones"]), m["key"]


def inspect_table(path: Path) -> TableFile:
    """Read a table file's header and trailer. Raises :class:`DamagedTable` for a file
    that is not a table, is cut short or has a damaged trailer (OSError if unreadable)."""
    with open(path, "rb") as f:
        fmt = np.lib.format
        try:
            version = fmt.read_magic(f)
            header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, _, dtype = header(f)
        except (ValueError, OSError, SyntaxError, EOFError) as e:
            raise DamagedTable("not an endgame table (no .npy header)") from e
        if len(shape) != 1 or dtype != np.int8:
            raise DamagedTable(f"not an endgame table (shape {shape}, {dtype})")
        info = TableFile(path, int(shape[0]), f.tell())
        size = os.fstat(f.fileno()).st_size
        end = info.data_start + info.entries
        if size < end:
            raise DamagedTable(f"truncated: {size:,} bytes where its header says {end:,} at least")
        if size == end:
            return info  # saved before checksums
        f.seek(end)
        trailer = f.read(MAX_TRAILER + 1)
    if not trailer.startswith(CHECKSUM_MAGIC) or len(trailer) > MAX_TRAILER:
        raise DamagedTable("longer than its header says")
    if not trailer.endswith(b"\n"):  # written whole, with its last byte
        raise DamagedTable("truncated: its checksum record is cut short")
    try:
        fields = json.loads(trailer[len(CHECKSUM_MAGIC) :].decode("ascii"))
        info.pits, info.stones = int(fields["pits"]), int(fields["stones"])
        info.checksums = [int(h, 16) for h in fields["levels"]]
        info.kind = fields["checksum"]
        if info.kind in _BLOCK_HASHES:
            info.block = int(fields["block"])
            ok = 4096 <= info.block <= 2**30 and info.block & (info.block - 1) == 0
        else:
            ok = info.kind == CHECKSUM_V1
        ok = ok and len(info.checksums) == info.stones + 1
        ok = ok and 1 <= info.pits <= 200 and 0 <= info.stones <= MAX_TABLE_STONES
    except (ValueError, KeyError, TypeError, AttributeError):
        ok = False
    if not ok or table_entries(info.pits or 1, info.stones or 0) != info.entries:
        raise DamagedTable("its checksum record is damaged")
    return info


def _check(info: TableFile, digests: list[int]) -> None:
    """Raise :class:`DamagedTable` for the first level whose checksum does not match."""
    assert info.checksums is not None
    for level, (got, want) in enumerate(zip(digests, info.checksums, strict=True)):
        if got != want:
            raise DamagedTable(f"level {level} does not match its checksum")


def _map_file(path: Path, info: TableFile, writable: bool) -> tuple[mmap.mmap, np.ndarray]:
    """The file mapped (copy-on-write if ``writable``, so that the array is of the type
    numba compiled the solver for; else read-only) and its entries as an int8 array.
    Raises :class:`DamagedTable` if the file is shorter than its header says."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < info.data_start + info.entries:
            raise DamagedTable(f"truncated: {size:,} bytes")
        mapping = None
        if writable:
            try:
                mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
            except OSError:  # strict overcommit: a private writable map counts as memory
                mapping = None
        if mapping is None:
            mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    array = np.frombuffer(mapping, dtype=np.int8, count=info.entries, offset=info.data_start)
    return mapping, array


def _verify(info: TableFile, table: np.ndarray) -> None:
    """Check ``table`` (the file's entries, in memory or mapped) against its checksums."""
    assert info.pits is not None and info.stones is not None and info.kind is not None
    _check(info, checksums(table, level_bounds(info.pits, info.stones), info.kind, info.block))


def _read_table(
    path: Path, into: np.ndarray | None = None, verify: bool = True
) -> tuple[np.ndarray, bool]:
    """A saved table read onto huge pages (or into ``into``, which must have its length),
    and whether its checksums were checked (False: a file saved before checksums, or
    ``verify`` False). Raises :class:`DamagedTable` if a level does not match.

    To be checked, the file is read by a thread and each block hashed as soon as it is
    in (:func:`_read_hashing`); without the check it is read() in large chunks."""
    info = inspect_table(path)
    n = info.entries
    if into is not None and into.shape != (n,):
        raise DamagedTable(f"it holds {n:,} entries, expected {into.shape[0]:,}")
    table = huge_zeros(n, np.int8) if into is None else into
    check = verify and info.checksums is not None
    if check and info.kind in _BLOCK_HASHES:
        _read_hashing(path, info, table)
        return table, True
    view = memoryview(table)  # type: ignore[arg-type]
    with open(path, "rb") as f:
        f.seek(info.data_start)
        for lo in range(0, n, IO_CHUNK):
            hi = min(n, lo + IO_CHUNK)
            if f.readinto(view[lo:hi]) != hi - lo:
                raise DamagedTable("truncated")
    if check:
        _verify(info, table)  # the first trailer: whole levels, after the read
    return table, check


def _resident(mapping: mmap.mmap) -> float:
    """The share of a mapped file's pages in the page cache (mincore), 0 if unknown."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        page = mmap.PAGESIZE
        pages = -(-len(mapping) // page)
        where = np.frombuffer(mapping, dtype=np.uint8)
        vec = np.zeros(pages, dtype=np.uint8)
        code = libc.mincore(
            ctypes.c_void_p(where.ctypes.data),
            ctypes.c_size_t(len(mapping)),
            ctypes.c_void_p(vec.ctypes.data),
        )
        del where
    except (OSError, AttributeError, ValueError):
        return 0.0
    return float(np.count_nonzero(vec & 1)) / pages if code == 0 and pages else 0.0


_READ_AHEAD = 4 * 2**20
"""Bytes a checked load's reader thread (:func:`_read_ahead`) reads at a time, ahead of
the hashing."""


def _read_hashing(path: Path, info: TableFile, table: np.ndarray) -> None:
    """Read the file's entries into ``table``, each block hashed as soon as it is in
    (:func:`_read_ahead` for a file mostly on the disk, :func:`_read_blocks` for one in
    the page cache). Raises :class:`DamagedTable` on a mismatch."""
    assert info.pits is not None and info.stones is not None and info.kind is not None
    bounds = level_bounds(info.pits, info.stones)
    digest = _BLOCK_HASHES[info.kind]
    blocks = _level_blocks(bounds, info.block)
    view = memoryview(table)  # type: ignore[arg-type]
    fd = os.open(path, os.O_RDONLY)
    try:
        with contextlib.suppress(AttributeError, OSError):
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_SEQUENTIAL)
        cached = 0.0
        with contextlib.suppress(OSError, ValueError), mmap.mmap(fd, 0, prot=mmap.PROT_READ) as m:
            cached = _resident(m)
        read = _read_blocks if cached >= 0.5 else _read_ahead
        digests = read(fd, info, view, blocks, digest)
    finally:
        os.close(fd)
    _check(info, _combine(digests, bounds, info.block, digest))


def _read_blocks(
    fd: int,
    info: TableFile,
    view: memoryview,
    blocks: list[tuple[int, int]],
    digest: Callable[[Any], int],
) -> list[int]:
    """The blocks read() one after another by this thread, each hashed right after its
    read, still in the processor's cache: for a file in the page cache (a reader thread
    only adds handovers there). Ctrl-C stops it between two blocks."""
    digests = []
    for lo, hi in blocks:
        if os.preadv(fd, [view[lo:hi]], info.data_start + lo) != hi - lo:
            raise DamagedTable("truncated")
        digests.append(digest(view[lo:hi]))
    return digests


def _read_ahead(
    fd: int,
    info: TableFile,
    view: memoryview,
    blocks: list[tuple[int, int]],
    digest: Callable[[Any], int],
) -> list[int]:
    """A reader thread read()s the file in :data:`_READ_AHEAD` chunks while this thread
    hashes each block as soon as it is in: the disk works while the hash computes
    (read() releases the GIL, the hash does not). For a file mostly on the disk. Ctrl-C
    stops it between two blocks, the reader within a chunk."""
    n = info.entries
    read_to: queue.SimpleQueue[int] = queue.SimpleQueue()  # bytes read so far; -1: stopped
    stop = threading.Event()
    failed: list[BaseException] = []

    def reader() -> None:
        try:
            for lo in range(0, n, _READ_AHEAD):
                if stop.is_set():
                    return
                hi = min(n, lo + _READ_AHEAD)
                if os.preadv(fd, [view[lo:hi]], info.data_start + lo) != hi - lo:
                    raise DamagedTable("truncated")
                read_to.put(hi)
        except BaseException as e:  # handed to the hashing thread
            failed.append(e)
        finally:
            read_to.put(-1)

    thread = threading.Thread(target=reader, name="table-reader", daemon=True)
    thread.start()
    digests = []
    try:
        done = 0
        for lo, hi in blocks:
            while done < hi:
                done = read_to.get()
                if done < 0:
                    raise failed[0] if failed else DamagedTable("truncated")
            digests.append(digest(view[lo:hi]))
    finally:
        stop.set()
        thread.join()
    return digests


def map_table(path: Path, verify: bool = True) -> tuple[np.ndarray, bool]:
    """A saved table memory-mapped from its file instead of read into memory: its entries
    (an int8 array over a copy-on-write mapping, so that numba takes it like an in-memory
    table and compiles nothing new; nothing ever writes to it; the mapping is closed with
    the last view of the array), and whether the checksums were checked.

    With ``verify``, every block is hashed through the mapping before the table is
    returned: that reads the whole file once (and leaves it in the page cache, as far as
    memory allows), and a table that does not match raises :class:`DamagedTable`.
    ``verify=False`` maps it without reading anything: for a big table on a shared disk
    that was verified elsewhere; it is then used unchecked."""
    info = inspect_table(path)
    mapping, table = _map_file(path, info, writable=True)
    check = verify and info.checksums is not None
    if check:
        try:
            _verify(info, table)
        except BaseException:
            del table
            with contextlib.suppress(BufferError):
                mapping.close()
            raise
    return table, check


def _temp_name(path: Path) -> Path:
    """The file a table is written to before it is renamed to ``path``: hidden, with the
    writer's process id, so no glob for tables ever matches it."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def temp_writer(tmp: Path) -> int | None:
    """The process id in a temporary table file's name (:func:`_temp_name`), or None."""
    pid = tmp.name.rsplit(".", 2)[-2] if tmp.name.count(".") >= 3 else ""
    return int(pid) if pid.isdecimal() and len(pid) < 12 else None


def writer_runs(pid: int) -> bool:
    """Whether process ``pid`` runs (as any user): its temporary file is being written."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # it runs as another user, or cannot be asked: leave its file alone
    return True


def _remove_stale_temps(folder: Path) -> None:
    """Delete the temporary files of writers that no longer run (killed mid-write)."""
    for tmp in folder.glob(".kalah-endgame-*.tmp"):
        pid = temp_writer(tmp)
        if pid is not None and not writer_runs(pid):
            tmp.unlink(missing_ok=True)


def _trailer(pits: int, stones: int, checksums: list[int], kind: str = CHECKSUM) -> bytes:
    """The checksum trailer of a table file (``kind``: :data:`CHECKSUM`, or an earlier
    trailer's: :data:`CHECKSUM_V1` has no block size)."""
    fields: dict[str, object] = {"checksum": kind}
    if kind in _BLOCK_HASHES:
        fields["block"] = BLOCK
    fields |= {
        "pits": pits,
        "stones": stones,
        "levels": [f"{h:016x}" for h in checksums],
    }
    return CHECKSUM_MAGIC + json.dumps(fields, separators=(",", ":")).encode("ascii") + b"\n"


def file_bytes(pits: int, stones: int) -> int:
    """Bytes of a saved table: its entries, the .npy header and the checksum trailer."""
    return table_entries(pits, stones) + 128 + len(_trailer(pits, stones, [0] * (stones + 1)))


def save_table(
    path: Path,
    table: np.ndarray,
    pits: int | None = None,
    stones: int | None = None,
    kind: str = CHECKSUM,
) -> None:
    """Write ``table`` (of ``pits`` and ``stones``, read from a cache file name when not
    given) as ``path`` with the checksum of each level, atomically: into a temporary file
    of the same folder (in chunks, flushed to the disk), renamed only when complete.
    Interrupted (Ctrl-C, a full disk), it leaves no file behind, and a reader never sees
    a partial table. ``kind``: an earlier trailer's checksums, for tests and benchmarks."""
    if pits is None or stones is None:
        fields = name_fields(path)
        if fields is None:
            raise ValueError(f"give the pits and stones of {path.name}")
        pits, stones = fields[2], fields[3]
    if table.shape != (table_entries(pits, stones),):
        raise ValueError(f"a table of {pits} pits and {stones} stones has another length")
    bounds = level_bounds(pits, stones)
    sums = checksums(table, bounds, kind)  # before the first byte is written
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temps(path.parent)
    tmp = _temp_name(path)
    try:
        with open(tmp, "wb") as f:
            fmt = np.lib.format
            fmt.write_array_header_1_0(f, fmt.header_data_from_array_1_0(table))
            view = memoryview(np.ascontiguousarray(table))  # type: ignore[arg-type]
            for lo in range(0, table.shape[0], IO_CHUNK):
                f.write(view[lo : lo + IO_CHUNK])
            f.write(_trailer(pits, stones, sums, kind))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def stamp_table(path: Path) -> None:
    """Give a table saved before checksums the checksums of what it holds now (rewritten
    atomically, see :func:`save_table`). That cannot tell whether it was damaged before:
    rebuilding is the alternative."""
    fields = name_fields(path)
    if fields is None:
        raise DamagedTable(f"{path.name} is not named like an endgame table")
    pits, stones = fields[2], fields[3]
    table, _ = _read_table(path)
    if table.shape[0] != table_entries(pits, stones):
        raise DamagedTable(f"it holds {table.shape[0]:,} entries, not those of {stones} stones")
    save_table(path, table, pits, stones)


def free_disk_space(folder: Path) -> int:
    """Bytes free for a file in ``folder`` (or in its nearest existing parent)."""
    folder = Path(os.path.abspath(folder))
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return int(shutil.disk_usage(folder).free)


def disk_space_problem(pits: int, stones: int, folder: Path) -> str | None:
    """One line saying a table of ``stones`` cannot be saved in ``folder`` (it needs its
    size free: it is written to a temporary file, then renamed), or None if it fits."""
    need = file_bytes(pits, stones)
    free = free_disk_space(folder)
    if need <= free:
        return None
    fits = 0
    while fits + 1 < stones and file_bytes(pits, fits + 1) <= free:
        fits += 1
    return (
        f"the endgame table of {stones} stones on {pits} pits needs {format_bytes(need)} of "
        f"free disk space in {folder} and {format_bytes(free)} are free; free some "
        f"('boardgames cache clean --stale') or use --endgame {fits}"
    )
