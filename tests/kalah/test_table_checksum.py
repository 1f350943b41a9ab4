"""The endgame tables' block checksums: the definition, hashed by any number of threads,
and what they catch in a saved file.

A level's checksum is the XXH64 of the XXH64s of its blocks (``endgame.BLOCK`` bytes from
the level's first byte, as little-endian 8-byte words). The reference here is that
definition computed one block after another with ``endgame.xxh64``, which the reference
digests of xxHash pin down (tests/kalah/test_cache.py).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.kalah import endgame


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("BOARDGAMES_CACHE", str(cache))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # never the real cache
    return cache


def serial_checksums(data: np.ndarray, bounds: list[int], block: int) -> list[int]:
    """The definition, one block after another."""
    out = []
    for lo, hi in itertools.pairwise(bounds):
        digests = [endgame.xxh64(data[a : min(a + block, hi)].copy()) for a in range(lo, hi, block)]
        out.append(endgame.xxh64(np.array(digests, dtype="<u8")))
    return out


def flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x10
    path.write_bytes(bytes(data))


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
@given(arrays_and_levels(), st.integers(1, 4))
def test_parallel_hashing_equals_the_serial_definition(case, threads: int) -> None:
    data, bounds, block = case
    want = serial_checksums(data, bounds, block)
    b = np.array(bounds)
    assert endgame._run_blocks(None, data, b, True, threads, block) == want
    copy = np.zeros_like(data)
    assert endgame._run_blocks(data, copy, b, True, threads, block) == want  # copy and hash
    assert np.array_equal(copy, data)
    again = np.zeros_like(data)
    assert endgame._run_blocks(data, again, b, False, threads, block) == []  # copy only
    assert np.array_equal(again, data)


def test_the_real_block_size_on_a_table(folder: Path) -> None:
    """Levels of several 1 MiB blocks (6 pits, 12 stones: 2.7 MB) on two threads."""
    table = endgame.load_or_build(6, 12).table
    bounds = [int(x) for x in endgame.level_bounds(6, 12)]
    assert bounds[-1] - bounds[-2] > endgame.BLOCK  # the top level has two blocks
    want = serial_checksums(table, bounds, endgame.BLOCK)
    assert endgame._run_blocks(None, table, np.array(bounds), True, 2) == want
    assert endgame.level_checksums(table, 6, 12) == want
    path = endgame.cache_path(6, 12, "classic")
    info = endgame.inspect_table(path)
    assert info.kind == endgame.CHECKSUM and info.checksums == want


@pytest.mark.parametrize("cached", [1.0, 0.0], ids=["in the page cache", "on the disk"])
def test_a_flipped_byte_in_any_block_is_caught(
    folder: Path, monkeypatch: pytest.MonkeyPatch, cached: float
) -> None:
    """Every block of every level (blocks of 1 MiB: the top levels of 6 pits, 12 stones
    have several), one byte at a random place in it, in memory and mapped. A load reads
    a file that is mostly on the disk another way (read(), each block hashed after its
    read) than one in the page cache (mapped, copied and hashed in one pass): both."""
    monkeypatch.setattr(endgame, "_resident", lambda mapping: cached)
    endgame.load_or_build(6, 12)
    path = endgame.cache_path(6, 12, "classic")
    start = endgame.inspect_table(path).data_start
    bounds = endgame.level_bounds(6, 12)
    rng = np.random.default_rng(12)
    blocks = 0
    for level, (lo, hi) in enumerate(itertools.pairwise(int(b) for b in bounds)):
        for a in range(lo, hi, endgame.BLOCK):
            at = start + int(rng.integers(a, min(a + endgame.BLOCK, hi)))
            flip(path, at)
            for mapped in (False, True):
                with pytest.raises(endgame.DamagedTable, match=f"^level {level} does not match"):
                    endgame.load_cached(6, 12, mmap=mapped)
            flip(path, at)
            blocks += 1
    assert blocks == sum(-(-int(s) // endgame.BLOCK) for s in endgame.level_sizes(6, 12))
    assert endgame.load_cached(6, 12).verified is True


@pytest.mark.parametrize("cut", [1, 1000, "half"])
def test_a_truncated_file_is_refused(folder: Path, cut: int | str) -> None:
    endgame.load_or_build(4, 9)
    path = endgame.cache_path(4, 9, "classic")
    data = path.read_bytes()
    keep = len(data) // 2 if cut == "half" else len(data) - int(cut)
    path.write_bytes(data[:keep])
    for mapped in (False, True):
        with pytest.raises(endgame.DamagedTable):
            endgame.load_cached(4, 9, mmap=mapped)


def test_a_file_of_the_first_trailer_is_still_checked(folder: Path) -> None:
    """The first trailer held the XXH64 of each whole level: such files load verified,
    and a flipped byte in them is caught."""
    table = endgame.build(3, 7).table
    path = endgame.cache_path(3, 7, "classic")
    path.parent.mkdir(parents=True)
    bounds = [int(b) for b in endgame.level_bounds(3, 7)]
    levels = [endgame.xxh64(table[lo:hi].copy()) for lo, hi in itertools.pairwise(bounds)]
    fields = {"checksum": "xxh64", "pits": 3, "stones": 7, "levels": [f"{h:016x}" for h in levels]}
    with open(path, "wb") as f:
        np.save(f, table)
        f.write(b"\nkalah-endgame-checksums\n" + json.dumps(fields).encode() + b"\n")
    for mapped in (False, True):
        loaded = endgame.load_cached(3, 7, mmap=mapped)
        assert loaded.verified is True and np.array_equal(loaded.table, table)
    start = endgame.inspect_table(path).data_start
    flip(path, start + bounds[5] + 3)
    for mapped in (False, True):
        with pytest.raises(endgame.DamagedTable, match="level 5 does not match"):
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
    start = endgame.inspect_table(small).data_start
    flip(small, start + int(endgame.level_bounds(3, 5)[4]) + 1)
    with pytest.raises(endgame.DamagedTable, match="level 4 does not match"):
        endgame.build(3, 8, base=(small, 5))


def test_ctrl_c_during_a_load_stops_every_thread(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C reaches the calling thread between two batches of blocks: the load stops,
    no copying thread is left running, and the next load is whole."""
    import threading

    endgame.load_or_build(6, 12)
    path = endgame.cache_path(6, 12, "classic")
    info = endgame.inspect_table(path)
    table = np.zeros(info.entries, dtype=np.int8)
    source = np.fromfile(path, dtype=np.int8, count=info.entries, offset=info.data_start)
    monkeypatch.setattr(endgame, "BLOCK", 4096)  # many batches
    real = endgame._copy_blocks
    calls = []

    def copy_blocks(*args: object) -> None:
        calls.append(threading.current_thread() is threading.main_thread())
        if len(calls) == 5:
            raise KeyboardInterrupt
        real(*args)

    monkeypatch.setattr(endgame, "_copy_blocks", copy_blocks)
    with pytest.raises(KeyboardInterrupt):
        endgame._run_blocks(source, table, endgame.level_bounds(6, 12), True, threads=3)
    assert len(calls) < 20  # stopped within a batch a thread (of about 80 batches)
    assert [t for t in threading.enumerate() if t.name.startswith("table-")] == []
    monkeypatch.undo()
    monkeypatch.setenv("BOARDGAMES_CACHE", str(folder))
    assert endgame.load_cached(6, 12).verified is True
