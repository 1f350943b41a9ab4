"""numba's kernel cache (issue 34, classes 5 and 6).

- A ``NUMBA_CACHE_DIR`` that cannot be written (under a file, in /proc, read-only) is said
  once on stderr and replaced by a private folder in the temporary folder, kept for the
  next runs; nothing is ever written into the installed package.
- ``cache clean --numba`` removes only the kernels boardgames wrote: in a shared
  ``NUMBA_CACHE_DIR`` (even ``/``) the subfolders of this installation's sources, nothing
  of other programs; and it goes on past an entry it cannot remove (status 1, one line
  for each).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import boardgames

PACKAGE = Path(boardgames.__file__).resolve().parent
KERNEL_FILES = (".nbi", ".nbc")


def boardgames_run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardgames", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "100", **env},
        timeout=600,
    )


def kernel_files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.suffix in KERNEL_FILES}


COUNT = ("queens", "count", "-n", "6", "--method", "numba")
"""The command whose kernels these tests compile: the smallest a command compiles."""


@pytest.fixture(scope="module")
def temp_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TMPDIR of the commands: its private kernel folder holds the count's kernels,
    compiled once for the module."""
    temp = tmp_path_factory.mktemp("tmpdir")
    private = temp / f"boardgames-kernels-{os.getuid()}"
    r = boardgames_run(*COUNT, env={"NUMBA_CACHE_DIR": str(private), "TMPDIR": str(temp)})
    assert r.returncode == 0, r.stderr
    return temp


@pytest.fixture()
def compiled(temp_home: Path, tmp_path: Path) -> Path:
    """A NUMBA_CACHE_DIR that other programs share, holding this installation's kernels."""
    folder = tmp_path / "shared-numba"
    shutil.copytree(temp_home / f"boardgames-kernels-{os.getuid()}", folder)
    return folder


def add_foreign(folder: Path) -> set[Path]:
    """Another program's kernels and files beside ours."""
    files = set()
    for name in (
        "other_0123456789abcdef0123456789abcdef01234567/f.g-1.py311.nbi",
        "other_0123456789abcdef0123456789abcdef01234567/f.g-1.py311.1.nbc",
        "queens_ffffffffffffffffffffffffffffffffffffffff/kernels.x-1.py311.nbi",
        "loose.nbi",
        "notes.txt",
    ):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"not ours")
        files.add(path)
    return files


@pytest.mark.parametrize(
    "unwritable", ["file", "proc", "nested-file"], ids=["under-a-file", "in-proc", "deeper"]
)
def test_an_unwritable_kernel_cache_is_said_once_and_replaced(
    tmp_path: Path, temp_home: Path, unwritable: str
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    folder = {
        "file": a_file / "numba",
        "proc": Path("/proc/boardgames-numba"),
        "nested-file": a_file / "deeper" / "numba",
    }[unwritable]
    temp = temp_home
    before = kernel_files(PACKAGE)
    env = {"NUMBA_CACHE_DIR": str(folder), "TMPDIR": str(temp)}
    r = boardgames_run(*COUNT, env=env)
    assert r.returncode == 0, r.stderr
    notes = [line for line in r.stderr.splitlines() if "cannot be written" in line]
    assert len(notes) == 1 and str(folder) in notes[0]
    private = temp / f"boardgames-kernels-{os.getuid()}"
    assert notes[0].endswith(f"they are kept in {private} instead.")
    assert kernel_files(private), "the kernels are in the private folder"
    assert kernel_files(PACKAGE) == before, "nothing is written into the package"
    again = boardgames_run(*COUNT, env=env)
    assert again.returncode == 0 and "4 solutions" in again.stdout, again


def test_clean_in_a_shared_cache_removes_only_ours(compiled: Path) -> None:
    foreign = add_foreign(compiled)
    assert kernel_files(compiled) - foreign, "the count's kernels are in the shared folder"
    env = {"NUMBA_CACHE_DIR": str(compiled)}
    dry = boardgames_run("cache", "clean", "--numba", "--dry-run", env=env)
    ours = kernel_files(compiled) - foreign  # (listing the tables compiled their cache key)
    assert dry.returncode == 0 and f"Would remove {len(ours)} compiled-kernel files" in dry.stdout
    r = boardgames_run("cache", "clean", "--numba", env={"NUMBA_CACHE_DIR": str(compiled)})
    assert r.returncode == 0, r.stderr
    assert all(p.exists() for p in foreign), "another program's files are never removed"
    assert not any(p.exists() for p in ours)


def our_subfolders(folder: Path) -> list[Path]:
    """numba's subfolders of this installation's sources under ``folder``: NAME_SHA1 of
    each source folder's absolute path (numba's naming)."""
    out = []
    for source in {p.parent for p in PACKAGE.rglob("*.py")}:
        path = os.path.abspath(source)
        sub = folder / f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"
        if sub.is_dir():
            out.append(sub)
    return out


def test_clean_of_the_root_folder_lists_nothing_of_other_programs() -> None:
    """NUMBA_CACHE_DIR=/ : only kernels in this installation's own subfolders (normally
    none) would be removed, never the thousands of files elsewhere under /."""
    expected = sum(len(kernel_files(sub)) for sub in our_subfolders(Path("/")))
    r = boardgames_run("cache", "clean", "--numba", "--dry-run", env={"NUMBA_CACHE_DIR": "/"})
    assert r.returncode == 0, r.stderr
    if expected:
        assert f"Would remove {expected} compiled-kernel files" in r.stdout
    else:
        assert "compiled-kernel files" not in r.stdout


def test_clean_goes_on_past_a_table_it_cannot_remove(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    stuck = cache / "kalah-endgame-classic-3p-4s-000000000000.npy"
    stuck.mkdir()  # a folder with a table's name: unlink fails
    (stuck / "inside").write_text("x")
    removable = cache / "kalah-endgame-classic-2p-3s-000000000000.npy"
    removable.write_bytes(b"\x93NUMPY old table")
    r = boardgames_run("cache", "clean", "--all", env={"BOARDGAMES_CACHE": str(cache)})
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert not removable.exists() and stuck.exists()
    errors = [line for line in r.stderr.splitlines() if line.strip()]
    assert any(line.startswith("Could not remove kalah-endgame-classic-3p-4s") for line in errors)
    assert errors[-1] == "Error: 1 of the files could not be removed (above)"
    assert "Traceback" not in r.stderr
