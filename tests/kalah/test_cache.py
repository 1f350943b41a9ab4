"""Endgame-table files that cannot lie, and ``boardgames cache`` that lists and cleans them.

Every test works in its own cache folder ($BOARDGAMES_CACHE): the real one may hold big
tables that other tests and people use.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest
import xxhash
from click.testing import CliRunner, Result

from boardgames import cache_dir
from boardgames.cli import cli
from boardgames.core.progress import format_bytes
from boardgames.kalah.exact import endgame, index, tablefile
from boardgames.kalah.exact.solver import Solver
from boardgames.kalah.game import Kalah

DEAD_PID = 2**22 + 1
"""Above any Linux pid_max default: a process that does not run."""


def run(args: list[str], text: str | None = None) -> Result:
    return CliRunner().invoke(cli, args, input=text)


def one_error_line(result: Result, status: int = 2) -> str:
    assert "Traceback" not in result.output and result.exit_code == status, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def data_start(path: Path) -> int:
    return tablefile.inspect_table(path).data_start


# --- the checksum itself ------------------------------------------------------------------


def test_the_hashes_give_the_reference_digests() -> None:
    """Digests of the reference implementation (xxhsum -H3 and -H1), so that a table's
    checksums can be checked by other tools. A level of one block has the hash of its
    block's hash as its checksum; an empty level has no block, so the hash of nothing."""
    empty, abc = 0x2D06800538D394C2, 0x78AF5F94892F3950
    assert xxhash.xxh3_64_intdigest(b"") == empty and xxhash.xxh3_64_intdigest(b"abc") == abc
    data = np.frombuffer(b"abc", np.int8)
    assert tablefile.checksums(data, np.array([0, 0, 3])) == [
        empty,
        xxhash.xxh3_64_intdigest(abc.to_bytes(8, "little")),
    ]
    assert xxhash.xxh64_intdigest(b"abc") == 0x44BC2CF5AD770999  # the earlier trailers'


# --- damaged, foreign and old files --------------------------------------------------------


def test_a_flipped_byte_is_reported_and_the_table_rebuilt(folder: Path) -> None:
    good = endgame.load_or_build(3, 7)
    path = endgame.cache_path(3, 7, "classic")
    assert endgame.load_cached(3, 7).verified is True
    flip(path, data_start(path) + index.level_bounds(3, 7)[6] + 5)  # a level-6 entry
    with pytest.raises(tablefile.DamagedTable, match="level 6 does not match its checksum"):
        endgame.load_cached(3, 7)
    notes: list[str] = []
    rebuilt = endgame.load_or_build(3, 7, note=notes.append)
    assert rebuilt.loaded_from is None and np.array_equal(rebuilt.table, good.table)
    assert len(notes) == 1 and "is damaged (level 6 does not match its checksum)" in notes[0]
    assert endgame.load_cached(3, 7).verified is True  # saved again, whole


@pytest.mark.parametrize("damage", ["flipped byte", "truncated", "other format", "trailer"])
def test_solve_with_a_damaged_table_reports_it_and_gives_the_right_value(
    folder: Path, damage: str
) -> None:
    args = ["kalah", "solve", "--pits", "5", "--seeds", "3", "--endgame", "8", "--json"]
    first = run(args)
    assert first.exit_code == 0, first.output
    value = json.loads(first.stdout)["value"]
    path = endgame.cache_path(5, 8, "classic")
    if damage == "flipped byte":
        flip(path, data_start(path) + path.stat().st_size // 3)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:-5000])
    elif damage == "other format":
        np.save(path, np.zeros((4, 4), dtype=np.int16))
    else:
        flip(path, path.stat().st_size - 30)  # inside a level's hex digest
    again = run(args)
    assert again.exit_code == 0, again.output
    notes = [line for line in again.stderr.splitlines() if "damaged" in line]
    assert len(notes) == 1 and "it is rebuilt, not used" in notes[0], again.stderr
    assert json.loads(again.stdout)["value"] == value == 6
    assert endgame.load_cached(5, 8).verified is True


def test_a_damaged_smaller_table_is_not_built_on(folder: Path) -> None:
    endgame.load_or_build(3, 5)
    small = endgame.cache_path(3, 5, "classic")
    flip(small, data_start(small) + 20)
    notes: list[str] = []
    levels: list[int] = []
    grown = endgame.load_or_build(
        3, 8, progress=lambda n, top, done: levels.append(n), note=notes.append
    )
    assert levels[0] == 0 and np.array_equal(grown.table, endgame.build(3, 8).table)
    assert len(notes) == 1 and "5-stone endgame table is damaged" in notes[0]


def test_tables_saved_before_checksums_load_unverified_and_can_be_stamped(folder: Path) -> None:
    table = endgame.build(3, 6)
    path = endgame.cache_path(3, 6, "classic")
    path.parent.mkdir(parents=True)
    np.save(path, table.table)  # the file format before checksums
    old = endgame.load_cached(3, 6)
    assert old.verified is False and np.array_equal(old.table, table.table)
    notes: list[str] = []
    endgame.load_or_build(3, 6, note=notes.append)
    assert len(notes) == 1 and "no checksum" in notes[0] and "used unverified" in notes[0]

    listed = json.loads(run(["cache", "list", "--json"]).stdout)
    assert [t["checksum"] for t in listed["tables"]] == ["no"]
    verify = run(["cache", "verify"])
    assert verify.exit_code == 0 and "unverified" in verify.stdout and "--stamp" in verify.stdout
    declined = run(["cache", "verify", "--stamp"], text="n\n")
    assert declined.exit_code == 0 and "cannot tell whether they were damaged" in declined.stdout
    assert endgame.load_cached(3, 6).verified is False
    stamped = run(["cache", "verify", "--stamp"], text="y\n")
    assert stamped.exit_code == 0 and "1 stamped" in stamped.stdout, stamped.output
    assert endgame.load_cached(3, 6).verified is True
    assert np.array_equal(np.load(path), table.table)  # numpy still reads the file
    assert json.loads(run(["cache", "verify", "--json"]).stdout)["tables"][0]["result"] == "good"


def test_verify_reports_damage_with_status_1(folder: Path) -> None:
    endgame.load_or_build(2, 6)
    endgame.load_or_build(3, 5)
    path = endgame.cache_path(3, 5, "classic")
    flip(path, data_start(path) + 100)
    result = run(["cache", "verify", "--json"])
    assert result.exit_code == 1
    found = {t["table"]: t for t in json.loads(result.stdout)["tables"]}
    assert found["2p6s"]["result"] == "good" and found["3p5s"]["result"] == "damaged"
    assert "does not match its checksum" in found["3p5s"]["reason"]
    only = run(["cache", "verify", "--table", "2p6s"])
    assert only.exit_code == 0 and "1 good." in only.stdout and "3p5s" not in only.stdout
    missing = run(["cache", "verify", "--table", "9p9s"])
    assert missing.exit_code == 1
    assert "no table 9p9s in " in missing.output and "cached: 2p6s, 3p5s" in missing.output


# --- cache list, clean and path ------------------------------------------------------------

Files = namedtuple("Files", "current stale running_tmp dead_tmp")


def fill(folder: Path) -> Files:
    """Two current tables, two stale ones (other rule kernels, unknown rules), the
    temporary file of a save in progress (this process) and one of a stopped save."""
    endgame.load_or_build(2, 4)
    endgame.load_or_build(3, 5, empty_capture=True)
    current = [endgame.cache_path(2, 4, "classic"), endgame.cache_path(3, 5, "classic", True)]
    old = folder / "kalah-endgame-classic-3p-5s-0123456789ab.npy"
    shutil.copy(current[1], old)
    other = folder / "kalah-endgame-etudes-2p-4s-0123456789ab.npy"
    shutil.copy(current[0], other)
    running = folder / f".{endgame.cache_path(4, 9, 'classic').name}.{os.getpid()}.tmp"
    running.write_bytes(b"x" * 1000)
    dead = folder / f".{endgame.cache_path(4, 8, 'classic').name}.{DEAD_PID}.tmp"
    dead.write_bytes(b"y" * 500)
    return Files(current, [old, other], running, dead)


def test_cache_list_json_lists_what_is_there(folder: Path) -> None:
    files = fill(folder)
    data = json.loads(run(["cache", "list", "--json"]).stdout)
    assert data["folder"] == str(folder)
    tables = {t["file"]: t for t in data["tables"]}
    assert set(tables) == {p.name for p in files.current + files.stale}
    for p in files.current:
        assert tables[p.name]["status"] == "current" and tables[p.name]["checksum"] == "yes"
        assert tables[p.name]["bytes"] == p.stat().st_size
    for p in files.stale:
        assert tables[p.name]["status"] == "stale" and not tables[p.name]["current"]
    assert tables[files.current[1].name]["table"] == "empty-capture-3p5s"
    temporary = {t["file"]: t["being_written"] for t in data["temporary"]}
    assert temporary == {files.running_tmp.name: True, files.dead_tmp.name: False}
    every = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    assert data["total_bytes"] == every + data["numba"]["bytes"]
    text = run(["cache", "list"])
    assert text.exit_code == 0 and "2 stale tables" in text.stdout and "3p5s" in text.stdout


def test_cache_list_of_an_empty_cache(folder: Path) -> None:
    result = run(["cache", "list"])
    assert result.exit_code == 0 and f"No endgame tables in {folder}" in result.stdout
    assert json.loads(run(["cache", "list", "--json"]).stdout)["tables"] == []


def test_clean_stale_removes_exactly_the_stale_tables(folder: Path) -> None:
    files = fill(folder)
    freed = sum(p.stat().st_size for p in [*files.stale, files.dead_tmp])
    result = run(["cache", "clean", "--stale"])
    assert result.exit_code == 0, result.output
    left = {p.name for p in folder.iterdir() if p.is_file()}
    assert left == {p.name for p in files.current} | {files.running_tmp.name}
    assert f"process {os.getpid()} is writing it" in result.stdout
    assert f"Freed {freed / 1e3:.1f} kB." in result.stdout
    assert run(["cache", "clean", "--stale"]).stdout.strip().endswith("Nothing to remove.")


def test_dry_run_removes_nothing(folder: Path) -> None:
    fill(folder)
    before = sorted(p.name for p in folder.iterdir())
    result = run(["cache", "clean", "--all", "--dry-run"])
    assert result.exit_code == 0 and "Would remove" in result.stdout
    assert "nothing was removed (--dry-run)" in result.stdout
    assert sorted(p.name for p in folder.iterdir()) == before


def test_a_file_being_written_is_never_removed(folder: Path) -> None:
    files = fill(folder)
    result = run(["cache", "clean", "--all", "--table", "4p9s"])
    assert result.exit_code == 0
    assert [p.name for p in folder.iterdir() if p.is_file()] == [files.running_tmp.name]


def test_clean_one_table_and_say_when_there_is_none(folder: Path) -> None:
    files = fill(folder)
    result = run(["cache", "clean", "--table", "empty-capture-3p5s"])
    assert result.exit_code == 0 and not files.current[1].exists()
    assert files.current[0].exists() and all(p.exists() for p in files.stale)
    none = run(["cache", "clean", "--table", "9p9s"])
    assert none.exit_code == 0 and "No endgame table 9p9s" in none.stdout


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["cache", "clean"], "say what to remove: --stale, --all, --table"),
        (["cache", "clean", "--table", "6x22"], "'6x22' is not a table: write PITSpSTONESs"),
        (["cache", "verify", "--table", "p22s"], "is not a table"),
        (["cache", "verify", "--stamp", "--json"], "--stamp with --json cannot ask: add --yes"),
    ],
)
def test_bad_usage_is_one_line(folder: Path, args: list[str], reason: str) -> None:
    assert reason in one_error_line(run(args))


def test_cache_path_follows_the_environment(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["cache", "path"]).stdout.strip() == str(folder)
    assert endgame.cache_path(3, 5, "classic").parent == folder
    monkeypatch.delenv("BOARDGAMES_CACHE")
    assert cache_dir() == tmp_path / "xdg" / "boardgames"
    assert run(["cache", "path"]).stdout.strip() == str(tmp_path / "xdg" / "boardgames")


# --- free disk space -------------------------------------------------------------------------


def test_a_build_without_the_disk_space_is_refused_before_it_starts(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**9, 10**9 - 40_000, 40_000))
    args = ["kalah", "solve", "--pits", "5", "--seeds", "3", "--endgame", "9"]
    line = one_error_line(run(args))
    need = format_bytes(tablefile.file_bytes(5, 9))
    assert f"needs {need} of free disk space in {folder} and 40.0 kB are free" in line
    assert tablefile.file_bytes(5, 7) < 40_000 < tablefile.file_bytes(5, 8)
    assert "use --endgame 7" in line  # the largest table that fits
    assert not folder.exists() or not list(folder.glob("*.npy*"))
    # a cached table needs no space to be read
    monkeypatch.undo()
    monkeypatch.setenv("BOARDGAMES_CACHE", str(folder))
    endgame.load_or_build(5, 9)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**9, 10**9, 0))
    assert run([*args, "--json"]).exit_code == 0


def test_a_solve_with_a_stamped_table_agrees_with_no_table(folder: Path) -> None:
    state = Kalah(4, 2).initial_state()
    table = endgame.load_or_build(4, 7)
    loaded = endgame.load_cached(4, 7)
    assert loaded.verified and np.array_equal(loaded.table, table.table)
    assert Solver(4, endgame=loaded).solve(state).value == Solver(4).solve(state).value
