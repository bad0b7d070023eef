"""The Celery app without a broker: tasks run eagerly and nothing warns about a host."""

from __future__ import annotations

import logging

import pytest
from django.conf import settings

from config.celery import app


def test_without_a_broker_tasks_run_eagerly_and_kombu_is_given_a_host(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # An eager .delay() still takes a producer from kombu; a connection without a host made
    # kombu log "No hostname was supplied. Reverting to default 'localhost'" on `make run`.
    if settings.CELERY_BROKER_URL:
        pytest.skip("a broker is configured (CELERY_BROKER_URL); this checks the embedded default")
    assert app.conf.task_always_eager
    with (
        caplog.at_level(logging.DEBUG, logger="kombu"),
        app.connection_for_write() as connection,
    ):
        info = connection.info()
    assert info["hostname"] == "localhost"
    assert info["transport"] == "memory"
    assert not [r for r in caplog.records if "hostname" in r.getMessage()]
