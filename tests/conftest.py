"""Fixtures shared by the whole suite."""

from __future__ import annotations

import copy
import os
import uuid

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

# Hypothesis runs are repeatable: the examples come from a hash of the test, not from chance,
# no example database replays failures of an earlier run, and no deadline depends on the speed
# of the machine. A test's own @settings override single values and keep the rest of the
# profile. HYPOTHESIS_PROFILE=explore searches with new random examples (run it on purpose,
# then pin what it finds with @example).
hypothesis_settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile("explore", derandomize=False, deadline=None, max_examples=500)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
