"""Series and tables through the API: lifecycle actions, draw, seats, captain tokens."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.helpers import API
from tests.factories import add_players, seat_table
from tournaments.models import Series, Table, Tournament

SERIES = f"{API}/tournaments/herbst/series/"


@pytest.fixture
def drawn(tournament: Tournament) -> Series:
    series = tournament.series.get(number=1)
    players = add_players(tournament, 8)
    seat_table(series, players[:4], 1)
    seat_table(series, players[4:], 2)
    series.status = Series.Status.DRAWN
    series.save(update_fields=["status"])
    return series


def test_series_are_public(public_api: APIClient, tournament: Tournament) -> None:
    response = public_api.get(SERIES)
    assert response.status_code == 200
    assert [s["number"] for s in response.json()["results"]] == [1, 2, 3]
    assert public_api.get(f"{SERIES}1/").json()["status"] == "planned"
    assert public_api.get(f"{SERIES}9/").status_code == 404


def test_start_and_close(alice_api: APIClient, drawn: Series) -> None:
    response = alice_api.post(f"{SERIES}1/start/")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "running" and response.json()["table_count"] == 2
    again = alice_api.post(f"{SERIES}1/start/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_started"
    refused = alice_api.post(f"{SERIES}1/close/")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "unconfirmed_sheets"
    assert error["tables"] == [{"table": 1, "status": "open"}, {"table": 2, "status": "open"}]
    response = alice_api.post(f"{SERIES}1/close/", {"past_unfinished": True}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "closed"


def test_start_needs_a_draw(alice_api: APIClient, tournament: Tournament) -> None:
    response = alice_api.post(f"{SERIES}1/start/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_drawn"


def test_actions_are_for_organizers(
    public_api: APIClient, bob_api: APIClient, drawn: Series
) -> None:
    for action in ("draw", "start", "close", "swap"):
        assert public_api.post(f"{SERIES}1/{action}/", {}, format="json").status_code == 401
        response = bob_api.post(f"{SERIES}1/{action}/", {}, format="json")
        assert response.status_code == 403, action
    drawn.refresh_from_db()
    assert drawn.status == "drawn"


def test_swap_two_players(alice_api: APIClient, drawn: Series) -> None:
    response = alice_api.post(f"{SERIES}1/swap/", {"first": 1, "second": 5}, format="json")
    assert response.status_code == 200, response.json()
    table1 = Table.objects.get(series=drawn, number=1)
    numbers = [s.registration.start_number for s in table1.seats.order_by("position")]
    assert numbers == [5, 2, 3, 4]
    response = alice_api.post(f"{SERIES}1/swap/", {"first": 1, "second": 99}, format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "second"


def test_draw_input_is_checked(alice_api: APIClient, tournament: Tournament) -> None:
    for data, field in (({"seed": -1}, "seed"), ({"mode": "dice"}, "mode"), ({"x": 1}, "x")):
        response = alice_api.post(f"{SERIES}1/draw/", data, format="json")
        assert response.status_code == 400 and response.json()["error"]["field"] == field


def test_draw_seats_the_present_players(alice_api: APIClient, tournament: Tournament) -> None:
    add_players(tournament, 9)
    data = {"seed": 42, "mode": "random", "keep_clubs_apart": True}
    response = alice_api.post(f"{SERIES}1/draw/", data, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "drawn" and body["seed"] == 42 and body["table_count"] == 2
    tables = alice_api.get(f"{SERIES}1/tables/").json()["results"]
    assert sorted(len(t["seats"]) for t in tables) == [4, 5]


def test_tables_with_seats_tokens_for_organizers_only(
    public_api: APIClient, alice_api: APIClient, tables: list[Table]
) -> None:
    response = public_api.get(f"{SERIES}1/tables/")
    assert response.status_code == 200
    first = response.json()["results"][0]
    assert [s["position"] for s in first["seats"]] == [1, 2, 3, 4]
    assert first["seats"][0]["last_name"] == "Nachname1"
    assert first["captain_token"] is None and first["captain_url"] is None
    mine = alice_api.get(f"{SERIES}1/tables/1/").json()
    assert mine["captain_token"] == tables[0].captain_token
    assert mine["captain_url"].endswith(f"/{tables[0].captain_token}/")


def test_tables_list_query_count(
    public_api: APIClient, tables: list[Table], django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(8):
        response = public_api.get(f"{SERIES}1/tables/")
    assert len(response.json()["results"]) == 2


def test_private_tournament_tables_are_hidden(
    public_api: APIClient, bob_api: APIClient, tournament: Tournament, tables: list[Table]
) -> None:
    tournament.is_public = False
    tournament.save()
    assert public_api.get(f"{SERIES}1/tables/").status_code == 404
    assert bob_api.get(f"{SERIES}1/").status_code == 404
