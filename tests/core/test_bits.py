"""top_bit, the count-leading-zeros intrinsic, against Python's int.bit_length; popcount,
LLVM's ctpop, against int.bit_count."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from boardgames.core.bits import popcount, top_bit


@njit(cache=True)
def _top(x: np.uint64) -> np.uint64:
    return top_bit(x)


@njit(cache=True)
def _top_signed(x: np.int64) -> np.uint64:
    return top_bit(x)


def test_every_single_bit() -> None:
    for k in range(64):
        assert _top(np.uint64(1 << k)) == k


@given(st.integers(min_value=1, max_value=2**64 - 1))
def test_highest_set_bit_of_any_nonzero_word(x: int) -> None:
    assert _top(np.uint64(x)) == x.bit_length() - 1


@given(st.integers(min_value=1, max_value=2**63 - 1))
def test_signed_words_as_their_bits(x: int) -> None:
    assert _top_signed(np.int64(x)) == x.bit_length() - 1
    assert _top_signed(np.int64(-x)) == 63  # the sign bit is the highest


@njit(cache=True)
def _count(x: np.uint64) -> np.int64:
    return popcount(x)


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_popcount_of_any_word(x: int) -> None:
    assert _count(np.uint64(x)) == x.bit_count()
