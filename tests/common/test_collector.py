"""The collector's pause around reads that build many objects."""

from __future__ import annotations

import gc

import pytest

from common.collector import collector_paused


def test_the_collector_runs_again_after_the_block_even_on_an_error() -> None:
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled()


def test_an_inner_block_leaves_the_pause_to_the_outer_one() -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
