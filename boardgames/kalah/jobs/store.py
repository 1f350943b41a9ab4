"""The job-level solve's checkpoint: every proven bound kept in SQLite as it comes, so
that a rerun starts from what is proven."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import numpy as np

STORE_FORMAT = 1
"""Version of the checkpoint's SQLite layout; a newer one is refused."""
INF = 10**9
"""No bound: a value beyond any margin."""


class StoreError(Exception):
    """A checkpoint that cannot be used (one line)."""


def position_key(state: np.ndarray, pits: int) -> str:
    """``A:4,4,...`` : the side to move and the holes in RULES.md order."""
    return "AB"[int(state[2 * pits + 2])] + ":" + ",".join(map(str, state[: 2 * pits + 2]))


def _row_crc(position: str, threshold: int, kind: str, value: int) -> int:
    return zlib.crc32(f"{position}|{threshold}|{kind}|{value}".encode())


class BoundStore:
    """Proven bounds in ``DIR/bounds.sqlite``: one row a finished job (position, the
    threshold asked, the answer: a lower or an upper bound on the mover's margin, or
    "over" its budget; positions searched and seconds), and the bounds the front end
    derived from them. Every row carries a CRC of what it proves; a row that fails it is
    skipped (its job runs again), so a damaged file never gives a wrong value. A file of
    other rules, of a newer format or that SQLite cannot read is refused in one line."""

    def __init__(self, folder: Path, game: dict[str, Any]) -> None:
        self.folder = Path(folder)
        self.path = self.folder / "bounds.sqlite"
        self.game = game
        self.skipped = 0
        self.db: sqlite3.Connection | None = None

    def open(self) -> dict[str, list[Any]]:
        """Open (or create) the store; the bounds it holds, ``key -> [lo, hi, over]``."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"checkpoint {self.folder}: {e.strerror or e}") from None
        if self.folder.exists() and not self.folder.is_dir():
            raise StoreError(f"checkpoint {self.folder} is a file; give a folder")
        try:
            db = sqlite3.connect(self.path, timeout=1.0, isolation_level=None)
            self.db = db
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(str(check[0]) if check else "unreadable")
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            if not meta:
                db.execute("BEGIN")
                db.execute("INSERT INTO meta VALUES ('format', ?)", (str(STORE_FORMAT),))
                db.execute("INSERT INTO meta VALUES ('game', ?)", (json.dumps(self.game),))
                db.execute(
                    "CREATE TABLE bounds (position TEXT, threshold INTEGER, kind TEXT, "
                    "value INTEGER, nodes INTEGER, seconds REAL, crc INTEGER)"
                )
                db.execute("COMMIT")
                meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            self._check_meta(meta)
            rows = db.execute("SELECT position, threshold, kind, value, crc FROM bounds")
            known: dict[str, list[Any]] = {}
            for position, threshold, kind, value, crc in rows:
                ok = (
                    isinstance(position, str)
                    and isinstance(value, int)
                    and isinstance(threshold, int)
                    and kind in ("lower", "upper", "over")
                    and crc == _row_crc(position, threshold, kind, value)
                )
                if not ok:
                    self.skipped += 1
                    continue
                entry = known.setdefault(position, [-INF, INF, 0])
                if kind == "lower":
                    entry[0] = max(entry[0], value)
                elif kind == "upper":
                    entry[1] = min(entry[1], value)
                else:
                    entry[2] += 1
            return known
        except sqlite3.DatabaseError as e:
            self.close()
            raise StoreError(
                f"checkpoint {self.path} cannot be read ({e}); it is damaged: give another folder"
            ) from None

    def _check_meta(self, meta: dict[str, str]) -> None:
        try:
            fmt = int(meta.get("format", ""))
            game = json.loads(meta.get("game", ""))
        except ValueError:
            raise StoreError(f"{self.path} is not a boardgames solve checkpoint") from None
        if fmt > STORE_FORMAT:
            raise StoreError(
                f"checkpoint {self.path} has format {fmt}, written by a newer boardgames "
                f"(this one reads format {STORE_FORMAT}); upgrade, or give another folder"
            )
        if fmt != STORE_FORMAT:
            raise StoreError(f"checkpoint {self.path} has format {fmt}, not {STORE_FORMAT}")
        if game != self.game:
            theirs = ", ".join(
                f"{k}={game.get(k)}" for k, v in self.game.items() if game.get(k) != v
            )
            ours = ", ".join(f"{k}={v}" for k, v in self.game.items() if game.get(k) != v)
            raise StoreError(
                f"checkpoint {self.path} belongs to another game (it holds {theirs}; this "
                f"solve has {ours}); give another folder"
            )

    def add(
        self, position: str, threshold: int, kind: str, value: int, nodes: int, seconds: float
    ) -> None:
        """One proven bound (committed at once)."""
        if self.db is None:
            return
        self.db.execute(
            "INSERT INTO bounds VALUES (?, ?, ?, ?, ?, ?, ?)",
            (position, threshold, kind, value, nodes, seconds,
             _row_crc(position, threshold, kind, value)),
        )  # fmt: skip

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
