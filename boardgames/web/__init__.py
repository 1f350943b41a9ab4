"""``boardgames serve``: a local web page that plays, reviews and compares every registered
two-player game, with each game's own extras inside it ([web] extra: Starlette, uvicorn).

:mod:`boardgames.web.server` runs it; :mod:`boardgames.web.app` is the Starlette app, built
from the game registry; :mod:`boardgames.web.play`, :mod:`~boardgames.web.review` and
:mod:`~boardgames.web.compare` the generic tabs' APIs; :mod:`boardgames.web.extras` what a
game's plugin gives (hooks of the generic tabs, pages of its own);
:mod:`boardgames.web.security` the guard every request passes (token, Host, Origin, size);
:mod:`boardgames.web.jobs` runs long work in threads. The page itself is plain JavaScript
and SVG in ``static/``: no build step, nothing from the net. This package names no game.
"""
