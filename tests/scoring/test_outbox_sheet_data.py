"""The data the captain page sends ahead for its outbox (``sheet_data`` in its context)."""

from __future__ import annotations

import pytest
from django.test import Client

from common.actors import Actor
from scoring import doors
from scoring.services.entry import save_game
from tests.factories import RE_WINS as NORMAL
from tests.factories import make_tournament, running_table
from tournaments.models import Series, Table


@pytest.fixture
def table(db: None) -> Table:
    return running_table(make_tournament())


def test_the_captain_page_gets_the_outbox_data(client: Client, table: Table) -> None:
    save_game(table, NORMAL, actor=Actor(doors.CAPTAIN, seat=1))
    response = client.get(f"/tisch/{table.captain_token}/")
    data = response.context["page"].sheet_data
    assert data["table"] == table.pk
    assert data["token_path"] == f"/tisch/{table.captain_token}/"
    assert data["sync_url"] == f"/tisch/{table.captain_token}/ausgang/"
    assert data["next_number"] == 2 and data["sheet_version"] == 1
    assert data["open"] is True and data["seats_count"] == 4
    assert set(data["seat_names"]) == {"1", "2", "3", "4"}
    assert data["mode"] == "entry"
    assert "dealer" not in data and "value" not in data  # nothing the rules decide


def test_a_closed_series_is_not_open(client: Client, table: Table) -> None:
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.CLOSED)
    data = client.get(f"/tisch/{table.captain_token}/").context["page"].sheet_data
    assert data["open"] is False


def test_the_organizer_door_gets_none(alice_client: Client, tournament) -> None:  # type: ignore[no-untyped-def]
    table = running_table(tournament)
    response = alice_client.get(f"/verwaltung/{tournament.slug}/tisch/{table.pk}/")
    assert response.status_code == 200 and response.context["page"].sheet_data is None
