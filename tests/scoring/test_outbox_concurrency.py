"""Two sends of one outbox game at the same moment (two tabs, or a retry that overtakes
the first request), on PostgreSQL: one game, both told it is theirs."""

from __future__ import annotations

import pytest
from django.db import connection

from common.actors import Actor
from scoring import doors
from scoring.models import AuditEntry, Game, OutboxConflict
from scoring.services.outbox import Synced, sync_game
from tests.factories import RE_WINS as FACTS
from tests.factories import make_tournament
from tests.scoring.test_concurrency import load, race, sheet_with

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]

TRIALS = 10
PHONE = Actor(doors.CAPTAIN, seat=4, device="phone-a-0123456789")
FIELDS = {"contract": "normal", "re_players": ["1", "3"], "re_points": "130"}


def send(table_id: int, key: str, version: int | None) -> Synced:
    return sync_game(
        load(table_id), FACTS, fields=FIELDS, key=key, number=3, expected_version=version,
        actor=PHONE,
    )  # fmt: skip


@pytest.mark.parametrize("version", [2, None])
def test_the_same_key_twice_at_once_is_one_game(version: int | None) -> None:
    tournament = make_tournament(slug=f"outbox-race-{version}")
    for n in range(1, TRIALS + 1):
        table_id = sheet_with(tournament, n, 2)
        key = f"race-key-{n:04d}"
        outcomes = race(
            lambda t=table_id, k=key: send(t, k, version),
            lambda t=table_id, k=key: send(t, k, version),
        )
        for outcome in outcomes:
            assert isinstance(outcome, Synced), outcome
        assert sorted(o.status for o in outcomes) == ["accepted", "replayed"]
        assert {o.entered.game["number"] for o in outcomes if o.entered} == {3}
        assert Game.objects.filter(table_id=table_id).count() == 3
        assert AuditEntry.objects.filter(table_id=table_id, idempotency_key=key).count() == 1
    assert not OutboxConflict.objects.exists()
