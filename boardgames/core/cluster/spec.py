"""Where tasks run: the ``--cluster`` spec (``local[:N]``, a scheduler address or file,
``BOARDGAMES_CLUSTER``), its click options, and the one-line :class:`ClusterError`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

ENV_VAR = "BOARDGAMES_CLUSTER"
"""The default of ``--cluster``."""
MAX_LOCAL_WORKERS = 256
CONNECT_SECONDS = 5.0
"""How long to wait for a scheduler (or for a lost one to come back) before giving up."""
POLL_SECONDS = 0.002
"""How often the client looks for finished tasks (and sees a Ctrl-C): often enough that a
worker is never kept waiting for its next task."""
REFRESH_SECONDS = 2.0
"""How often the number of workers (shown, and sizing the window of submitted tasks) is
asked of the scheduler."""


class ClusterError(click.ClickException):
    """Something about the cluster or the checkpoint went wrong: one line for the user.
    Status 2 for bad input (a bad spec, another job's checkpoint), else 1."""

    def __init__(self, message: str, bad_input: bool = False) -> None:
        super().__init__(message)
        # click declares exit_code a ClassVar; an instance attribute is what it reads
        self.exit_code = 2 if bad_input else 1  # type: ignore[misc]


@dataclass(frozen=True)
class ClusterSpec:
    """Where tasks run: ``kind`` is ``local``, ``address`` or ``file``."""

    text: str
    kind: str
    workers: int | None = None
    target: str = ""

    def __str__(self) -> str:
        return self.text


def _scheduler_file(path: Path) -> bool:
    """True when ``path`` holds what a Dask scheduler file holds: a JSON object with the
    scheduler's ``address`` (only its first MiB is read)."""
    import json

    try:
        with open(path, "rb") as f:
            data = json.loads(f.read(2**20))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and isinstance(data.get("address"), str)


def parse_cluster(text: str) -> ClusterSpec:
    """A :class:`ClusterSpec` from the text of ``--cluster``; ClusterError if it is none."""
    value = text.strip()
    allowed = "use local, local:N (1 to 256 workers), tcp://HOST:PORT or a scheduler file"
    if value == "local":
        return ClusterSpec(value, "local")
    if value.startswith("local:"):
        count = value[6:]
        if count.isascii() and count.isdigit() and 1 <= int(count) <= MAX_LOCAL_WORKERS:
            return ClusterSpec(value, "local", int(count))
        raise ClusterError(f"bad --cluster {value[:60]!r}: {allowed}", bad_input=True)
    if "://" in value:
        scheme, _, rest = value.partition("://")
        host, sep, port = rest.rpartition(":")
        bracketed = host.startswith("[") == host.endswith("]")
        if (
            scheme in ("tcp", "tls")
            and sep
            and host
            and bracketed
            and port.isascii()
            and port.isdigit()
            and 0 < int(port) < 65536
        ):
            return ClusterSpec(value, "address", target=value)
        raise ClusterError(f"bad --cluster {value[:60]!r}: {allowed}", bad_input=True)
    if value and Path(value).is_file():
        if not _scheduler_file(Path(value)):
            raise ClusterError(
                f"--cluster {value[:60]!r} is not a Dask scheduler file (a JSON object with the "
                "scheduler's \"address\", as 'dask scheduler --scheduler-file FILE' writes it)",
                bad_input=True,
            )
        return ClusterSpec(value, "file", target=value)
    if value and Path(value).is_dir():
        raise ClusterError(
            f"--cluster {value[:60]!r} is a folder; give a scheduler file", bad_input=True
        )
    if value and ("/" in value or value.endswith(".json")):
        raise ClusterError(f"--cluster {value[:60]!r}: no such scheduler file", bad_input=True)
    raise ClusterError(f"bad --cluster {value[:60]!r}: {allowed}", bad_input=True)
