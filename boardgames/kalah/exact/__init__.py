"""Exact Kalah: the solver, endgame tables and the sizing rules that choose between them.

Imports nothing from ``play``, ``jobs``, ``analysis`` or ``cli``: the layers above ask
this one for exact values, never the other way round (docs/ARCHITECTURE.md).
"""
