"""The connection health check before a request (config/postgresql/base.py): a healthy
reused connection is taken as it is, without a round trip; one the server dropped is
noticed and replaced."""

from __future__ import annotations

import select
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, connections
from django.db.backends.postgresql import base as django_base

from config.postgresql.base import DatabaseWrapper

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backend"),
]


@pytest.fixture
def other() -> Iterator[Any]:
    """A connection of its own (the test's connection holds the test's transaction)."""
    wrapper = connections.create_connection("default")
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Django's own check (``SELECT 1``), recorded each time it is asked."""
    asked: list[str] = []
    original = django_base.DatabaseWrapper.is_usable

    def ask(self: Any) -> bool:
        asked.append("SELECT 1")
        return bool(original(self))

    monkeypatch.setattr(django_base.DatabaseWrapper, "is_usable", ask)
    return asked


def test_the_project_uses_the_backend() -> None:
    assert isinstance(connections["default"], DatabaseWrapper)


def test_a_healthy_connection_costs_no_round_trip(other: Any, round_trips: list[str]) -> None:
    with other.cursor() as cursor:
        cursor.execute("SELECT 1")
    assert other.is_usable() is True
    assert round_trips == []


def test_a_connection_the_server_dropped_is_unusable(other: Any, round_trips: list[str]) -> None:
    pid = other.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    # The server's goodbye arrives on the socket; wait for it (at most 10 s), not for a time.
    poller = select.poll()
    poller.register(other.connection.pgconn.socket, select.POLLIN)
    assert poller.poll(10_000)
    assert other.is_usable() is False
    assert round_trips == ["SELECT 1"]


def test_a_closed_connection_is_unusable_without_asking(other: Any, round_trips: list[str]) -> None:
    other.connection.close()
    assert other.is_usable() is False
    assert round_trips == []
