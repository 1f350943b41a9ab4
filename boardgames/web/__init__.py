"""``boardgames serve``: a local web page to play Kalah and Nim, review games, step through
the N-queens backtracking and compare search strategies ([web] extra: Starlette, uvicorn).

:mod:`boardgames.web.server` runs it; :mod:`boardgames.web.app` is the Starlette app and
its JSON API; :mod:`boardgames.web.security` the guard every request passes (token,
Host, Origin, size); :mod:`boardgames.web.jobs` runs long work in threads. The page
itself is plain JavaScript and SVG in ``static/``: no build step, nothing from the net.
"""
