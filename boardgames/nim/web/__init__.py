"""Nim's own part of the web page (``boardgames serve``): the Nim tab, with Bouton's
binary table beside the rows. :mod:`~boardgames.nim.web.api` holds its routes and the
:class:`~boardgames.web.extras.WebExtras` that Nim's plugin names; ``static/`` the tab."""
