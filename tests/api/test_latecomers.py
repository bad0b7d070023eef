"""Latecomers through the API: preview, seat, and a start that needs confirmation."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.helpers import API
from tests.factories import add_players, seat_table
from tournaments.models import Seat, Series, Tournament

SERIES = f"{API}/tournaments/herbst/series/"


@pytest.fixture
def drawn(tournament: Tournament) -> Series:
    """Series 1 drawn with two tables of four; player 9 checked in afterwards."""
    series = tournament.series.get(number=1)
    players = add_players(tournament, 9)
    seat_table(series, players[:4], 1)
    seat_table(series, players[4:8], 2)
    series.status = Series.Status.DRAWN
    series.save(update_fields=["status"])
    return series


def test_preview_then_seat(alice_api: APIClient, drawn: Series) -> None:
    preview = alice_api.get(f"{SERIES}1/latecomers/")
    assert preview.status_code == 200, preview.json()
    body = preview.json()
    assert body["placements"] == [
        {"start_number": 9, "name": "Vorname9 Nachname9", "table": 1, "seat": 5, "from_table": None}
    ]
    assert body["new_tables"] == [] and body["repeat_pairs"] == [] and body["repeats"] == 0
    assert Seat.objects.filter(series=drawn).count() == 8
    response = alice_api.post(f"{SERIES}1/latecomers/")
    assert response.status_code == 200 and response.json() == body
    assert Seat.objects.filter(series=drawn, table__number=1).count() == 5
    again = alice_api.post(f"{SERIES}1/latecomers/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "no_latecomers"


def test_start_needs_confirmation(alice_api: APIClient, drawn: Series) -> None:
    response = alice_api.post(f"{SERIES}1/start/", {}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "unseated_players"
    drawn.refresh_from_db()
    assert drawn.status == "drawn"
    response = alice_api.post(f"{SERIES}1/start/", {"allow_unseated": True}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "running"
    late = alice_api.post(f"{SERIES}1/latecomers/")
    assert late.status_code == 409 and late.json()["error"]["code"] == "series_started"


@pytest.mark.parametrize(
    ("data", "field"), [({"allow_unseated": "maybe"}, "allow_unseated"), ({"x": 1}, "x")]
)
def test_start_input_is_checked(alice_api: APIClient, drawn: Series, data, field) -> None:
    response = alice_api.post(f"{SERIES}1/start/", data, format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == field


def test_latecomers_are_for_organizers(
    public_api: APIClient, bob_api: APIClient, drawn: Series
) -> None:
    for method in ("get", "post"):
        assert getattr(public_api, method)(f"{SERIES}1/latecomers/").status_code == 401
        assert getattr(bob_api, method)(f"{SERIES}1/latecomers/").status_code == 403
    assert Seat.objects.filter(series=drawn).count() == 8


def test_no_split_is_a_conflict(alice_api: APIClient, drawn: Series, tournament) -> None:
    add_players(tournament, 1)  # 10 players: two tables of five
    assert alice_api.get(f"{SERIES}1/latecomers/").status_code == 200
    add_players(tournament, 1)  # 11: no split
    response = alice_api.post(f"{SERIES}1/latecomers/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "no_table_split"
    assert Seat.objects.filter(series=drawn).count() == 8
