"""Python's cyclic garbage collector paused around reads that build many objects at once."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection while the block builds its objects (they hold no cycles).

    A read that builds thousands of objects it keeps (the standings of 5,000 players: a
    line, its series and its rank each) triggers collections during the build, and what is
    still alive moves on to the oldest generation until a full collection walks every
    object of the process: at 5,000 players every other standings took three times its
    CPU. Paused, the young objects are collected after the block, most already freed."""
    if not gc.isenabled():  # paused already (an enclosing block or the caller)
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
