"""Fixtures shared by the whole suite."""

from __future__ import annotations

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
