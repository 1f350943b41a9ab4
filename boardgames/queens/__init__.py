"""N queens (RULES.md section 5): enumerate, count and compare counting methods.

``solve`` holds the pure-Python solvers and symmetry helpers (no numba, so ``queens solve``
starts at once); ``kernels`` holds the numba-jitted counters, imported only when used.
"""
