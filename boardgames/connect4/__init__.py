"""Connect Four (RULES.md section 6): the game (``game.ConnectFour``), its numba rule
kernels (``kernels``) and its registry entry (``plugin.PLUGIN``).

Importing the package loads nothing: the modules are imported where they are used.
"""
