"""boardgames: classic board games and puzzles (Kalah, Nim, N queens) with fast game search."""

import os as _os
from collections.abc import Callable as _Callable
from pathlib import Path as _Path
from typing import Any as _Any

__version__ = "0.1.0"


def cache_dir() -> _Path:
    """The folder of boardgames' caches (endgame tables, compiled kernels): ``$BOARDGAMES_CACHE``,
    else ``$XDG_CACHE_HOME/boardgames``, else ``~/.cache/boardgames``; read from the
    environment at each call."""
    own = _os.environ.get("BOARDGAMES_CACHE")
    if own:
        return _Path(own)
    base = _os.environ.get("XDG_CACHE_HOME") or _os.path.join(_os.path.expanduser("~"), ".cache")
    return _Path(base) / "boardgames"


def _writable(folder: str) -> bool:
    """True when a file can be created in ``folder``; a real write, since permission bits
    say nothing for root or on a read-only file system. Folders made for the check are
    removed again: a command that compiles nothing leaves no trace."""
    import tempfile

    missing = []
    path = _os.path.abspath(folder)
    while not _os.path.exists(path) and path != _os.path.dirname(path):
        missing.append(path)
        path = _os.path.dirname(path)
    try:
        _os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False
    finally:
        for made in missing:  # deepest first
            try:
                _os.rmdir(made)
            except OSError:
                break


def _kernel_cache() -> None:
    """Point numba's cache at a folder it can write: ``NUMBA_CACHE_DIR`` if the user set
    it, else boardgames' cache folder; never next to the installed modules (numba's own
    fallback), where files survive ``pip uninstall`` and shadow a later install. If that
    folder cannot be written, a private one in the temporary folder takes its place
    (kept for the next runs) and one line on stderr says so."""
    folder = _os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_dir() / "numba"))
    if _writable(folder):
        return
    import sys
    import tempfile

    private = _os.path.join(tempfile.gettempdir(), f"boardgames-kernels-{_os.getuid()}")
    if not _writable(private):
        return
    _os.environ["NUMBA_CACHE_DIR"] = private
    if sys.stderr is not None:
        sys.stderr.write(
            f"Note: compiled kernels cannot be kept in {folder!r} (it cannot be written); "
            f"they are kept in {private} instead.\n"
        )


_kernel_cache()


def lazy_exports(
    package: str, homes: dict[str, str], names: list[str]
) -> tuple[_Callable[[str], _Any], _Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of a package whose API names
    (``homes``: name -> submodule) are imported on first use, so that importing the
    package stays cheap (no numpy or numba until a name that needs them is used)."""
    import importlib
    import sys

    def __getattr__(name: str) -> _Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)  # later look-ups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return __getattr__, __dir__
