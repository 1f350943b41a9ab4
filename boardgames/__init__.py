"""boardgames: classic board games and puzzles (Kalah, Nim, N queens) with fast game search."""

import os as _os

__version__ = "0.1.0"

# numba caches compiled kernels in the user's cache directory rather than next to the
# installed modules: files left inside site-packages would survive `pip uninstall` and
# shadow a later (editable) install of the package. NUMBA_CACHE_DIR set by the user wins.
_os.environ.setdefault(
    "NUMBA_CACHE_DIR",
    _os.path.join(
        _os.environ.get("XDG_CACHE_HOME") or _os.path.join(_os.path.expanduser("~"), ".cache"),
        "boardgames",
        "numba",
    ),
)
