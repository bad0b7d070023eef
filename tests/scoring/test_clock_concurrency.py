"""Two organizers pause the hall at the same moment, on PostgreSQL: one pause is made, the
other is told the clock is already paused. A retried Nachspielzeit racing its original is
granted once."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection

from common.actors import API, ORGANIZER, Actor
from common.services import ServiceError
from scoring.models import Extension, Pause
from scoring.services.clock import extend_table, pause_hall, resume_hall
from tests.concurrency import race
from tests.factories import build_world
from tournaments.models import Series, Table, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]


def test_two_pauses_at_once_make_one(tournament: Tournament, alice: User) -> None:
    world = build_world(tournament, (4, 4))
    Series.objects.filter(pk=world.series.pk).update(
        starts_at=datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)
    )
    actor = Actor(ORGANIZER, user=alice)
    for _ in range(5):
        series = Series.objects.get(pk=world.series.pk)
        outcomes = race(
            lambda s=series: pause_hall(s, reason="a", actor=actor),  # type: ignore[misc]
            lambda s=series: pause_hall(s, reason="b", actor=actor),  # type: ignore[misc]
        )
        refused = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(refused) == 1 and refused[0].code == "already_paused"
        assert Pause.objects.filter(series=series, ended_at__isnull=True).count() == 1
        resume_hall(series, actor=actor)


def test_a_retried_extension_racing_its_original_is_granted_once(
    tournament: Tournament, alice: User
) -> None:
    """A phone resends a request whose answer was lost while the first is still running:
    with the same Idempotency-Key one extension is made, the other answer is its replay."""
    world = build_world(tournament, (4, 4))
    Series.objects.filter(pk=world.series.pk).update(
        starts_at=datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)
    )
    actor = Actor(API, user=alice)
    for attempt in range(5):
        table = Table.objects.select_related("series__tournament").get(pk=world.tables[0].pk)

        def grant(table: Table = table, key: str = f"retry-{attempt}") -> object:
            return extend_table(table, minutes=3, reason="R", actor=actor, idempotency_key=key)

        outcomes = race(grant, grant)
        assert sorted(o.replayed for o in outcomes) == [False, True]  # type: ignore[union-attr]
        assert Extension.objects.filter(table=table).count() == attempt + 1
