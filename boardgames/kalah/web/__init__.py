"""Kalah's own part of the web page (``boardgames serve``): the Kalah tab (a sowing shown
stone by stone, records), the review of a game and the comparison of strategies.

:mod:`~boardgames.kalah.web.routes` holds the :class:`~boardgames.web.extras.WebExtras`
that Kalah's plugin names; ``static/`` the tabs' HTML, scripts and styles. The generic
Play tab plays Kalah too, from the plugin alone.
"""
