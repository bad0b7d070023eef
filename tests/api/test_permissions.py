"""The permission matrix of result entry: captain of this table, of another table, of a
closed series; organizer; other organizer; public. Public tournament unless said otherwise."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game
from tests.api.helpers import API, NORMAL, games_url, sheet_url
from tests.factories import api_client
from tournaments.models import Series, Table, Tournament

PERSONAS = ["captain", "other_captain", "organizer", "other_organizer", "public"]


@pytest.fixture
def clients(
    captain_api: APIClient,
    other_captain_api: APIClient,
    alice_api: APIClient,
    bob_api: APIClient,
    public_api: APIClient,
) -> dict[str, APIClient]:
    return {
        "captain": captain_api,
        "other_captain": other_captain_api,
        "organizer": alice_api,
        "other_organizer": bob_api,
        "public": public_api,
    }


def enter(client: APIClient, table: Table) -> Any:
    return client.post(
        games_url(table), {**NORMAL, "dealer": 1}, format="json",
        HTTP_IF_MATCH="0", HTTP_IDEMPOTENCY_KEY="perm",
    )  # fmt: skip


ENTER = {
    "captain": (201, None),
    "other_captain": (403, "wrong_table"),
    "organizer": (201, None),
    "other_organizer": (403, "not_organizer"),
    "public": (401, "not_authenticated"),
}


@pytest.mark.parametrize("persona", PERSONAS)
def test_enter_a_game(clients: dict[str, APIClient], table: Table, persona: str) -> None:
    response = enter(clients[persona], table)
    status, code = ENTER[persona]
    assert response.status_code == status, response.json()
    if code:
        assert response.json()["error"]["code"] == code
    assert Game.objects.count() == (1 if status == 201 else 0)


@pytest.mark.parametrize("persona", PERSONAS)
def test_everybody_reads_a_public_table(
    clients: dict[str, APIClient], table: Table, persona: str
) -> None:
    assert clients[persona].get(games_url(table)).status_code == 200
    assert clients[persona].get(sheet_url(table)).status_code == 200


PRIVATE = {  # persona: (read, enter a game)
    "captain": (200, 201),
    "other_captain": (404, 404),
    "organizer": (200, 201),
    "other_organizer": (404, 404),
    "public": (404, 404),
}


@pytest.mark.parametrize("persona", PERSONAS)
def test_private_tournament_table(
    clients: dict[str, APIClient], tournament: Tournament, table: Table, persona: str
) -> None:
    tournament.is_public = False
    tournament.save()
    read, write = PRIVATE[persona]
    assert clients[persona].get(games_url(table)).status_code == read
    assert enter(clients[persona], table).status_code == write


@pytest.mark.parametrize("status", [Series.Status.DRAWN, Series.Status.CLOSED])
def test_captain_only_while_the_series_runs(
    captain_api: APIClient, alice_api: APIClient, table: Table, status: str
) -> None:
    Series.objects.filter(pk=table.series_id).update(status=status)
    for response in (
        enter(captain_api, table),
        captain_api.post(sheet_url(table, "submit"), {}, format="json", HTTP_IF_MATCH="0"),
        captain_api.post(sheet_url(table, "confirm"), {"seat": 2}, format="json"),
    ):
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "series_not_running"
    assert captain_api.get(games_url(table)).status_code == 200


def test_captain_of_a_closed_series_cannot_touch_the_next_one(
    tournament: Tournament, table: Table
) -> None:
    """Series 1 closed, series 2 running: the old captain link opens nothing new."""
    old = api_client(table=table)
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.CLOSED)
    series2 = tournament.series.get(number=2)
    new_table = Table.objects.create(series=series2, number=1)
    for registration in [s.registration for s in table.seats.order_by("position")]:
        new_table.seats.create(series=series2, position=len(new_table.seats.all()) + 1,
                               registration=registration)  # fmt: skip
    Series.objects.filter(pk=series2.pk).update(status=Series.Status.RUNNING)
    response = enter(old, new_table)
    assert response.status_code == 403 and response.json()["error"]["code"] == "wrong_table"
    assert enter(api_client(table=new_table), new_table).status_code == 201


def test_invalid_table_token(table: Table) -> None:
    for header in ("Table nope", "Table", "Table a b", "Table " + "x" * 41):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        response = client.get(games_url(table))
        assert response.status_code == 401, header
        assert response.json()["error"]["code"] in ("invalid_table_token", "authentication_failed")


def test_captain_endpoint(captain_api: APIClient, public_api: APIClient, table: Table) -> None:
    response = captain_api.get(f"{API}/captain/")
    assert response.status_code == 200
    body = response.json()
    assert (body["tournament"], body["series"], body["table"]) == ("herbst", 1, 1)
    assert [s["position"] for s in body["seats"]] == [1, 2, 3, 4]
    assert body["sheet"]["version"] == 0 and body["sheet"]["next"]["dealer"] == 1
    assert body["games_url"] == games_url(table)
    assert public_api.get(f"{API}/captain/").status_code == 401


def test_session_login_works_for_organizers(alice: Any, table: Table) -> None:
    client = APIClient(enforce_csrf_checks=False)
    client.force_login(alice)
    assert enter(client, table).status_code == 201
