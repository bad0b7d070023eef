"""Fixtures shared by the whole suite."""

from __future__ import annotations

import copy
import uuid

import pytest


@pytest.fixture(autouse=True)
def _celery_eager(request: pytest.FixtureRequest):
    """Tasks run in-process in tests, even when a broker is configured, except in tests
    marked ``broker`` that exercise the real round trip."""
    from config.celery import app

    if request.node.get_closest_marker("broker"):
        yield
        return
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _own_cache(settings) -> None:  # type: ignore[no-untyped-def]
    """Each test counts failed links and credentials in a cache of its own: the Redis cache of
    the PostgreSQL run is shared by tests, workers and runs, and is never flushed."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches
