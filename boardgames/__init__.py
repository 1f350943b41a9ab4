"""boardgames: classic board games and puzzles (Kalah, Nim, N queens) with fast game search."""

import os as _os
from collections.abc import Callable as _Callable
from pathlib import Path as _Path
from typing import Any as _Any

__version__ = "0.1.0"


def cache_dir() -> _Path:
    """The folder of boardgames' caches (endgame tables, compiled kernels): ``$BOARDGAMES_CACHE``,
    else ``$XDG_CACHE_HOME/boardgames``, else ``~/.cache/boardgames``; read from the
    environment at each call. An ``XDG_CACHE_HOME`` that is not an absolute path is
    ignored, as the XDG specification says."""
    own = _os.environ.get("BOARDGAMES_CACHE")
    if own:
        return _Path(own)
    base = _os.environ.get("XDG_CACHE_HOME", "")
    if not _os.path.isabs(base):  # unset, empty or relative: ignored (XDG base directories)
        base = _os.path.join(_os.path.expanduser("~"), ".cache")
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
    folder = _os.environ.get("NUMBA_CACHE_DIR", "").strip() or str(cache_dir() / "numba")
    _os.environ["NUMBA_CACHE_DIR"] = folder  # an empty one would be numba's own fallback
    if _writable(folder):
        return
    import tempfile

    private = _os.path.join(tempfile.gettempdir(), f"boardgames-kernels-{_os.getuid()}")
    if not _writable(private):
        return
    _os.environ["NUMBA_CACHE_DIR"] = private
    _note(
        f"compiled kernels cannot be kept in {folder!r} (it cannot be written); "
        f"they are kept in {private} instead."
    )


def _note(text: str) -> None:
    """One line ``Note: TEXT`` on stderr, if there is a stderr that can take it (characters
    its encoding lacks are escaped)."""
    import sys

    if sys.stderr is None:
        return
    line = f"Note: {text}\n"
    try:
        sys.stderr.write(line)
    except UnicodeEncodeError:
        sys.stderr.write(line.encode("ascii", "backslashreplace").decode("ascii"))
    except (OSError, ValueError):
        pass


_THREADING_LAYERS = ("default", "safe", "threadsafe", "forksafe", "tbb", "omp", "workqueue")
_TBB = {"win32": "tbb12.dll", "darwin": "libtbb.12.dylib"}


def _tbb_loads() -> bool:
    """True when Intel TBB (2021.6 or later, numba's check) can be loaded."""
    import ctypes
    import sys

    try:
        tbb = ctypes.CDLL(_TBB.get(sys.platform, "libtbb.so.12"))
        version = tbb.TBB_runtime_interface_version
        version.restype = ctypes.c_int
        return bool(version() >= 12060)
    except (OSError, AttributeError):
        return False


def _numba_environment() -> None:
    """Drop the numba settings that would make numba fail, before numba is imported; one
    line on stderr says which and why: ``NUMBA_NUM_THREADS`` that is not a whole number
    from 1 to 1024 (numba refuses 0 at its import and crashes starting 100,000 threads; it
    then uses every core), ``NUMBA_THREADING_LAYER`` or ``_PRIORITY`` naming layers numba
    does not know or TBB when it cannot be loaded (numba then chooses), and
    ``NUMBA_DISABLE_JIT`` (the kernels use parts that run only compiled)."""
    env = _os.environ
    most = max(1024, 4 * (_os.cpu_count() or 1))
    problems: dict[str, str] = {}
    threads = env.get("NUMBA_NUM_THREADS")
    if threads is not None:
        try:
            ok = 1 <= int(threads) <= most
        except ValueError:
            ok = False
        if not ok:
            problems["NUMBA_NUM_THREADS"] = (
                f"is not a number of threads from 1 to {most}; numba uses every core"
            )
    layer = env.get("NUMBA_THREADING_LAYER")
    if layer is not None:
        if layer.strip().lower() not in _THREADING_LAYERS:
            problems["NUMBA_THREADING_LAYER"] = (
                f"is not one of {', '.join(_THREADING_LAYERS)}; numba chooses the layer"
            )
        elif layer.strip().lower() in ("tbb", "safe") and not _tbb_loads():
            problems["NUMBA_THREADING_LAYER"] = (
                "needs Intel TBB (pip install tbb), which cannot be loaded; numba chooses "
                "another layer"
            )
    priority = env.get("NUMBA_THREADING_LAYER_PRIORITY")
    if priority is not None and sorted(priority.split()) != ["omp", "tbb", "workqueue"]:
        problems["NUMBA_THREADING_LAYER_PRIORITY"] = (
            "is not the three layers tbb, omp and workqueue in some order; numba's order is used"
        )
    disable = env.get("NUMBA_DISABLE_JIT", "").strip()
    if disable and disable.lstrip("+-0") != "":  # not 0 (numba reads it with int())
        problems["NUMBA_DISABLE_JIT"] = (
            "is ignored: boardgames' kernels use parts of numba that run only compiled"
        )
    for name, why in problems.items():
        _note(f"{name}={env.pop(name)!r} {why}.")


_numba_environment()
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
