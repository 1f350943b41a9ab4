"""Kalah's own part of the web page (``boardgames serve``): hooks of the generic tabs, a
sowing shown stone by stone on the Play tab and ``.klh`` records read on the Play and
Review tabs (:mod:`~boardgames.kalah.web.extras` holds them and the
:class:`~boardgames.web.extras.WebExtras` that Kalah's plugin names)."""
