"""The endgame tables' block checksums: the definition, and what they catch in a saved
file.

A level's checksum is the XXH3-64 of the XXH3-64s of its blocks (``tablefile.BLOCK`` bytes
from the level's first byte, as little-endian 8-byte words). The reference here is that
definition computed with xxhash's streaming interface, one block after another; the
digests of xxHash's reference implementation pin the hash itself down
(tests/kalah/test_cache.py).
"""

from __future__ import annotations

import itertools
import json
import shutil
import threading
from pathlib import Path

import numpy as np
import pytest
import xxhash
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.kalah.exact import endgame, index, tablefile


def definition(data: np.ndarray, bounds: list[int], block: int, hasher=xxhash.xxh3_64) -> list[int]:
    """The definition, one block after another, the level's hash fed digest by digest."""
    raw = data.tobytes()
    out = []
    for lo, hi in itertools.pairwise(bounds):
        level = hasher()
        for a in range(lo, hi, block):
            level.update(hasher(raw[a : min(a + block, hi)]).intdigest().to_bytes(8, "little"))
        out.append(level.intdigest())
    return out


def flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x10
    path.write_bytes(bytes(data))


def write_old_trailer(path: Path, table: np.ndarray, pits: int, stones: int, kind: str) -> None:
    """``table`` saved as a table file of an earlier trailer (``kind``)."""
    bounds = [int(b) for b in index.level_bounds(pits, stones)]
    fields: dict[str, object] = {"checksum": kind}
    if kind == "xxh64":  # the first trailer: XXH64 of each whole level
        levels = [
            xxhash.xxh64_intdigest(table[lo:hi].tobytes()) for lo, hi in itertools.pairwise(bounds)
        ]
    else:  # the second: the same blocks, hashed with XXH64
        levels = definition(table, bounds, tablefile.BLOCK, xxhash.xxh64)
        fields["block"] = tablefile.BLOCK
    fields |= {"pits": pits, "stones": stones, "levels": [f"{h:016x}" for h in levels]}
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.save(f, table)
        f.write(b"\nkalah-endgame-checksums\n" + json.dumps(fields).encode() + b"\n")


@st.composite
def arrays_and_levels(draw: st.DrawFn) -> tuple[np.ndarray, list[int], int]:
    size = draw(st.integers(1, 5000))
    seed = draw(st.integers(0, 2**32 - 1))
    data = np.random.default_rng(seed).integers(-128, 128, size, dtype=np.int8)
    cuts = draw(st.lists(st.integers(1, size - 1), max_size=6)) if size > 1 else []
    bounds = sorted({0, size, *cuts})  # levels are never empty
    block = draw(st.sampled_from([8, 32, 40, 64, 100, 333, 4096]))
    return data, bounds, block


@settings(max_examples=60, deadline=None)
@given(arrays_and_levels())
def test_checksums_follow_the_definition(case) -> None:
    data, bounds, block = case
    got = tablefile.checksums(data, np.array(bounds), block=block)
    assert got == definition(data, bounds, block)
    old = tablefile.checksums(data, np.array(bounds), tablefile.CHECKSUM_BLOCKS64, block)
    assert old == definition(data, bounds, block, xxhash.xxh64)


@pytest.fixture(scope="module")
def built_6p12s(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file of the 6-pit, 12-stone table (2.7 MB: its top levels have several 1 MiB
    blocks), built and saved once for the tests here."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BOARDGAMES_CACHE", str(tmp_path_factory.mktemp("built")))
        endgame.load_or_build(6, 12)
        return endgame.cache_path(6, 12, "classic")


@pytest.fixture
def cached_6p12s(folder: Path, built_6p12s: Path) -> Path:
    """A copy of that file in the test's own cache folder, where a load finds it: the test
    may damage it."""
    path = endgame.cache_path(6, 12, "classic")
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(built_6p12s, path)
    return path


def test_the_real_block_size_on_a_table(cached_6p12s: Path) -> None:
    """Levels of several 1 MiB blocks (6 pits, 12 stones: 2.7 MB)."""
    table = endgame.load_or_build(6, 12).table  # the built table, from its file
    bounds = [int(x) for x in index.level_bounds(6, 12)]
    assert bounds[-1] - bounds[-2] > tablefile.BLOCK  # the top level has two blocks
    want = definition(table, bounds, tablefile.BLOCK)
    assert tablefile.level_checksums(table, 6, 12) == want
    info = tablefile.inspect_table(cached_6p12s)
    assert info.kind == tablefile.CHECKSUM and info.checksums == want


CACHED = pytest.mark.parametrize("cached", [1.0, 0.0], ids=["in the page cache", "on the disk"])
"""A load reads a file in the page cache in this thread, one mostly on the disk with a
reader thread (tablefile._read_hashing): both, whatever the file's pages really are."""


@CACHED
def test_a_flipped_byte_in_any_block_is_caught(
    cached_6p12s: Path, monkeypatch: pytest.MonkeyPatch, cached: float
) -> None:
    """Every block of every level (blocks of 1 MiB: the top levels of 6 pits, 12 stones
    have several), one byte at a random place in it, loaded into memory and mapped."""
    monkeypatch.setattr(tablefile, "_resident", lambda mapping: cached)
    path = cached_6p12s
    start = tablefile.inspect_table(path).data_start
    bounds = index.level_bounds(6, 12)
    rng = np.random.default_rng(12)
    blocks = 0
    for level, (lo, hi) in enumerate(itertools.pairwise(int(b) for b in bounds)):
        for a in range(lo, hi, tablefile.BLOCK):
            at = start + int(rng.integers(a, min(a + tablefile.BLOCK, hi)))
            flip(path, at)
            for mapped in (False, True):
                with pytest.raises(tablefile.DamagedTable, match=f"^level {level} does not match"):
                    endgame.load_cached(6, 12, mmap=mapped)
            flip(path, at)
            blocks += 1
    assert blocks == sum(-(-int(s) // tablefile.BLOCK) for s in index.level_sizes(6, 12))
    assert endgame.load_cached(6, 12).verified is True


@pytest.mark.parametrize("cut", [1, 1000, "half"])
def test_a_truncated_file_is_refused(folder: Path, cut: int | str) -> None:
    endgame.load_or_build(4, 9)
    path = endgame.cache_path(4, 9, "classic")
    data = path.read_bytes()
    keep = len(data) // 2 if cut == "half" else len(data) - int(cut)
    path.write_bytes(data[:keep])
    for mapped in (False, True):
        with pytest.raises(tablefile.DamagedTable):
            endgame.load_cached(4, 9, mmap=mapped)


@pytest.mark.parametrize("kind", ["xxh64", "xxh64-blocks"])
def test_files_of_the_earlier_trailers_are_still_checked(folder: Path, kind: str) -> None:
    """The first trailer held the XXH64 of each whole level, the second the XXH64 of its
    blocks: such files load verified, and a flipped byte in them is caught."""
    table = endgame.build(3, 7).table
    path = endgame.cache_path(3, 7, "classic")
    write_old_trailer(path, table, 3, 7, kind)
    assert tablefile.inspect_table(path).kind == kind
    for mapped in (False, True):
        loaded = endgame.load_cached(3, 7, mmap=mapped)
        assert loaded.verified is True and np.array_equal(loaded.table, table)
    start = tablefile.inspect_table(path).data_start
    flip(path, start + int(index.level_bounds(3, 7)[5]) + 3)
    for mapped in (False, True):
        with pytest.raises(tablefile.DamagedTable, match="level 5 does not match"):
            endgame.load_cached(3, 7, mmap=mapped)


def test_a_file_saved_before_checksums_is_unverified(folder: Path) -> None:
    table = endgame.build(3, 6).table
    path = endgame.cache_path(3, 6, "classic")
    path.parent.mkdir(parents=True)
    np.save(path, table)
    for mapped in (False, True):
        old = endgame.load_cached(3, 6, mmap=mapped)
        assert old.verified is False and not old.skipped and old.mapped is mapped
        assert np.array_equal(old.table, table)
        assert "no checksum" in endgame.unverified_note(old)


def test_a_load_without_verification_says_so(folder: Path) -> None:
    endgame.load_or_build(3, 6)
    for mapped in (False, True):
        table = endgame.load_cached(3, 6, mmap=mapped, verify=False)
        assert table.verified is False and table.skipped
        assert "without checking its checksums" in endgame.unverified_note(table)


def test_building_on_a_smaller_table_checks_the_levels_it_reuses(folder: Path) -> None:
    endgame.load_or_build(3, 5)
    small = endgame.cache_path(3, 5, "classic")
    start = tablefile.inspect_table(small).data_start
    flip(small, start + int(index.level_bounds(3, 5)[4]) + 1)
    with pytest.raises(tablefile.DamagedTable, match="level 4 does not match"):
        endgame.build(3, 8, base=(small, 5))


@CACHED
def test_ctrl_c_during_a_load_stops_it_between_two_blocks(
    folder: Path, cached_6p12s: Path, monkeypatch: pytest.MonkeyPatch, cached: float
) -> None:
    """Ctrl-C reaches the load between two blocks: it stops there, its reader thread
    with it, and the next load is whole and verified."""
    real = tablefile._BLOCK_HASHES[tablefile.CHECKSUM]
    calls = []

    def digest(data: object) -> int:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(data)

    monkeypatch.setitem(tablefile._BLOCK_HASHES, tablefile.CHECKSUM, digest)
    monkeypatch.setattr(tablefile, "_resident", lambda mapping: cached)
    with pytest.raises(KeyboardInterrupt):
        endgame.load_cached(6, 12)
    assert len(calls) == 2  # of the table's blocks
    assert [t for t in threading.enumerate() if t.name == "table-reader"] == []
    monkeypatch.undo()
    monkeypatch.setenv("BOARDGAMES_CACHE", str(folder))
    assert endgame.load_cached(6, 12).verified is True
