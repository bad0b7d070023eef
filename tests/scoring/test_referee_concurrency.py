"""Two referees take one call at the same moment, on PostgreSQL: one takes it, the other is
told who did. A captain's double tap sent twice at once makes one call."""

from __future__ import annotations

import pytest
from django.db import connection

from clubs.models import Membership
from common.actors import Actor
from common.services import ServiceError
from scoring.doors import REFEREE
from scoring.models import AuditEntry, RefereeCall
from scoring.services.referee import call_referee, take_call
from tests.concurrency import race
from tests.factories import CAPTAIN, build_world, make_user
from tournaments.models import Table, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]


def _table(pk: int) -> Table:
    return Table.objects.select_related("series__tournament").get(pk=pk)


def test_two_referees_take_one_call_at_once(tournament: Tournament) -> None:
    world = build_world(tournament, (4, 4))
    rudi, rita = make_user("rudi"), make_user("rita")
    for user in (rudi, rita):
        Membership.objects.create(club=tournament.club, user=user, role="referee")
    table = world.tables[0]
    for attempt in range(5):
        call = call_referee(
            _table(table.pk), reason=f"Ruf {attempt}", actor=CAPTAIN, link=table.captain_token
        ).call
        outcomes = race(
            lambda pk=call.pk: take_call(  # type: ignore[misc]
                RefereeCall.objects.get(pk=pk), actor=Actor(REFEREE, user=rudi)
            ),
            lambda pk=call.pk: take_call(  # type: ignore[misc]
                RefereeCall.objects.get(pk=pk), actor=Actor(REFEREE, user=rita)
            ),
        )
        refused = [o for o in outcomes if isinstance(o, ServiceError)]
        taken = [o for o in outcomes if isinstance(o, RefereeCall)]
        assert len(refused) == 1 and refused[0].code == "already_taken", outcomes
        assert len(taken) == 1
        call.refresh_from_db()
        assert call.taken_by == taken[0].taken_by
        assert refused[0].message.startswith(call.taken_by.username)
        assert AuditEntry.objects.filter(action="scoring.referee.taken").count() == attempt + 1
        RefereeCall.objects.filter(pk=call.pk).update(status="withdrawn")


def test_a_double_tap_sent_twice_at_once_makes_one_call(tournament: Tournament) -> None:
    world = build_world(tournament, (4, 4))
    table = world.tables[0]
    for attempt in range(5):
        outcomes = race(
            lambda: call_referee(
                _table(table.pk), reason="Streit", actor=CAPTAIN, link=table.captain_token
            ),
            lambda: call_referee(
                _table(table.pk), reason="Streit", actor=CAPTAIN, link=table.captain_token
            ),
        )
        assert not any(isinstance(o, BaseException) for o in outcomes), outcomes
        assert sorted(o.created for o in outcomes) == [False, True]
        assert outcomes[0].call.pk == outcomes[1].call.pk
        assert RefereeCall.objects.filter(table=table).count() == attempt + 1
        RefereeCall.objects.filter(table=table).update(status="withdrawn")
