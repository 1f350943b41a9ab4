"""Nim's own part of the web page (``boardgames serve``): Bouton's binary table, a side
panel of the Play tab (:mod:`~boardgames.nim.web.panel` holds it and the
:class:`~boardgames.web.extras.WebExtras` that Nim's plugin names; ``static/`` its style)."""
