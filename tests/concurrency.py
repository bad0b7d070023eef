"""Two requests at the same moment: each call in its own thread and database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at the same moment, each in its own thread and database connection;
    each outcome is the call's result or the exception it raised (a ServiceError is an
    outcome; a test fails on any other)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except BaseException as exc:
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    return outcomes
