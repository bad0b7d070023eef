"""Two organizers pause the hall at the same moment, on PostgreSQL: one pause is made, the
other is told the clock is already paused."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection

from scoring.models import Pause
from scoring.services import Actor, Door
from scoring.services.clock import pause_hall, resume_hall
from tests.factories import build_world
from tests.scoring.test_concurrency import race
from tournaments.models import Series, Tournament
from tournaments.services import ServiceError

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
    actor = Actor(Door.ORGANIZER, user=alice)
    for _ in range(5):
        series = Series.objects.get(pk=world.series.pk)
        outcomes = race(
            lambda: pause_hall(series, reason="a", actor=actor),
            lambda: pause_hall(series, reason="b", actor=actor),
        )
        refused = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(refused) == 1 and refused[0].code == "already_paused"
        assert Pause.objects.filter(series=series, ended_at__isnull=True).count() == 1
        resume_hall(series, actor=actor)
