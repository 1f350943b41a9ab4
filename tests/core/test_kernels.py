"""The generic kernels' building blocks: scores, table arithmetic, table size."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.core import kernels as K
from boardgames.core.protocol import terminal_score


@settings(deadline=None)
@given(st.integers(-480, 480), st.integers(0, 2000))
def test_terminal_equals_protocol(result: int, ply: int) -> None:
    assert K.terminal(result, ply) == terminal_score(result, ply)


@settings(deadline=None)
@given(st.integers(-480, 480), st.integers(0, 500), st.integers(0, 400))
def test_table_values_move_with_the_ply(result: int, ply: int, back: int) -> None:
    """A terminal score stored at one ply reads back as the same game end at another."""
    v = terminal_score(result, ply + back)
    stored = K._to_table(v, ply)
    assert K._from_table(stored, ply) == v
    assert K._from_table(stored, 0) == terminal_score(result, back) or abs(result) == 0


@settings(deadline=None, max_examples=30)
@given(st.floats(0.001, 256))
def test_table_stays_within_its_size(mib: float) -> None:
    tt = K.TranspositionTable(mib)
    assert tt.nbytes <= max(mib * (1 << 20), 2 * K.ENTRY_BYTES)
    assert tt.entries & (tt.entries - 1) == 0  # a power of two
    if mib >= 1:
        assert tt.nbytes > mib * (1 << 20) / 2  # and uses at least half of it


def test_bad_table_size() -> None:
    with pytest.raises(ValueError):
        K.TranspositionTable(0)


def test_workspace_refuses_values_beyond_its_zobrist_table() -> None:
    ws = K.Workspace(3, 2, 10, tt_mib=0.01)
    with pytest.raises(ValueError):
        ws.reset(np.array([11, 0, 0]))
