"""Checkpoints: an append-only JSON-lines file of finished tasks, so that a rerun of the
same job computes only what is missing."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from boardgames.core.cluster.spec import ClusterError
from boardgames.core.files import not_a_regular_file

CHECKPOINT_FORMAT = 1
FSYNC_SECONDS = 2.0
"""A checkpoint is flushed after every record and synced to disk at most this often."""


def _crc(key: str, result: Any) -> int:
    return zlib.crc32(json.dumps([key, result], sort_keys=True, separators=(",", ":")).encode())


def package_version() -> str:
    """The installed boardgames version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("boardgames")
    except PackageNotFoundError:  # run from a source tree without installing
        return "unknown"


class Checkpoint:
    """An append-only file of finished tasks: a header line ``{"boardgames_checkpoint": 1,
    "version": ..., "job": {...}}`` then one line ``{"task": KEY, "result": ..., "crc": ...}``
    a task, flushed as it is written. Opening a file of another job (or version) is an
    error; a damaged record (a truncated last line, garbage, a wrong CRC) is skipped with
    a warning and its task runs again, so a damaged file never gives a wrong total. The file
    is locked while a run uses it."""

    def __init__(self, path: Path, job: dict[str, Any]) -> None:
        self.path = Path(path)
        self.job = job
        self.done: dict[str, Any] = {}
        self.warnings: list[str] = []
        self._file: IO[str] | None = None
        self._synced = time.monotonic()

    def open(self, keys: Iterable[str] | None = None) -> dict[str, Any]:
        """Read what the file holds (creating it with its header if it is new or empty),
        lock it and keep it open for :meth:`add`. ``keys``: the job's task keys; a record of
        another key is skipped with a warning. Returns the finished results by key."""
        header = {"boardgames_checkpoint": CHECKPOINT_FORMAT, "version": package_version(),
                  "job": self.job}  # fmt: skip
        problem = not_a_regular_file(self.path)
        if problem is not None:
            raise ClusterError(f"checkpoint {problem}", bad_input=True)
        try:
            f = self.path.open("a+", encoding="utf-8", newline="\n")
        except OSError as e:
            raise ClusterError(f"checkpoint {self.path}: {e.strerror or e}") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise ClusterError(
                f"checkpoint {self.path} is in use by another run; wait for it or give "
                "another file",
                bad_input=True,
            ) from None
        self._file = f
        with self.path.open("rb") as raw:
            data = raw.read()
        if not data.strip():
            f.truncate(0)
            self._write(json.dumps(header, sort_keys=True))
            return self.done
        lines = data.split(b"\n")
        self._check_header(lines[0], header)
        tail = lines.pop()  # b"" when the file ends with a newline
        if tail:
            # a record cut short (the run was killed while writing it): dropped, so that
            # the next record starts on a line of its own; its task runs again
            f.truncate(len(data) - len(tail))
            self.warnings.append("the last record was cut short")
        wanted = set(keys) if keys is not None else None
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            record = self._record(line)
            if record is None:
                self.warnings.append(f"line {number} is damaged")
                continue
            key, result = record
            if wanted is not None and key not in wanted:
                self.warnings.append(f"line {number} names task {key!r}, not one of this job's")
                continue
            if key in self.done and self.done[key] != result:
                raise ClusterError(
                    f"checkpoint {self.path} holds two different results for task {key!r}: "
                    "it is damaged; start a new one"
                )
            self.done[key] = result
        return self.done

    def _check_header(self, line: bytes, header: dict[str, Any]) -> None:
        try:
            got = json.loads(line)
            ok = isinstance(got, dict) and got.get("boardgames_checkpoint") == CHECKPOINT_FORMAT
        except ValueError:
            ok = False
        if not ok:
            raise ClusterError(
                f"{self.path} is not a boardgames checkpoint (its first line is not the "
                "header); give another file",
                bad_input=True,
            )
        if got.get("job") != self.job:
            job = got.get("job")
            theirs = job if isinstance(job, dict) else {}
            diff = [
                f"{k} {theirs[k]}, not {self.job[k]}" if k in theirs else f"no {k}"
                for k in self.job
                if theirs.get(k) != self.job[k]
            ]
            raise ClusterError(
                f"checkpoint {self.path} belongs to another job ({'; '.join(diff)}); give "
                "another file",
                bad_input=True,
            )
        if got.get("version") != header["version"]:
            raise ClusterError(
                f"checkpoint {self.path} was written by boardgames {got.get('version')}, "
                f"this is {header['version']}; give another file",
                bad_input=True,
            )

    @staticmethod
    def _record(line: bytes) -> tuple[str, Any] | None:
        try:
            got = json.loads(line)
        except ValueError:
            return None
        if not isinstance(got, dict) or set(got) != {"task", "result", "crc"}:
            return None
        key, result = got["task"], got["result"]
        if not isinstance(key, str) or got["crc"] != _crc(key, result):
            return None
        return key, result

    def _write(self, line: str) -> None:
        assert self._file is not None
        self._file.write(line + "\n")
        self._file.flush()
        now = time.monotonic()
        if now - self._synced >= FSYNC_SECONDS:
            os.fsync(self._file.fileno())
            self._synced = now

    def add(self, key: str, result: Any) -> None:
        """Append one finished task (flushed at once)."""
        self.done[key] = result
        record = {"task": key, "result": result, "crc": _crc(key, result)}
        self._write(json.dumps(record, separators=(",", ":")))

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.flush()
                os.fsync(self._file.fileno())
            self._file.close()  # releases the lock
            self._file = None
