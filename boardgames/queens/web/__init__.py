"""The N-queens part of the web page (``boardgames serve``): the backtracking step by
step, the solutions and counts. :mod:`~boardgames.queens.web.api` holds its routes and
the :class:`~boardgames.web.extras.WebExtras` that the plugin names; ``static/`` the tab."""
