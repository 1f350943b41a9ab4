"""boardgames: classic board games and puzzles (Kalah, Nim, N queens) with fast game search."""

import os as _os
from pathlib import Path as _Path

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


# numba caches compiled kernels in the user's cache directory rather than next to the
# installed modules: files left inside site-packages would survive `pip uninstall` and
# shadow a later (editable) install of the package. NUMBA_CACHE_DIR set by the user wins.
_os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_dir() / "numba"))
