"""A draw by standings is one results use case (``scoring.services.draw``): it reads the
points before the series under the series' lock, and the page and the API both call it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from scoring.services.deductions import add_deduction
from scoring.services.draw import draw_by_chance_or_standings, standings_order
from tests.factories import add_players, make_tournament
from tournaments.models import Series, Tournament
from tournaments.services.lifecycle import mark_closed, start_series


@pytest.fixture
def played(tournament: Tournament, alice: User) -> Tournament:
    """Series 1 of eight players closed; player k lost k points (deductions), so the
    standings before series 2 are 1, 2, ..., 8."""
    registrations = add_players(tournament, 8)
    first = tournament.series.get(number=1)
    draw_by_chance_or_standings(first, seed=3)
    start_series(first)
    actor = Actor(ORGANIZER, user=alice)
    for registration in registrations:
        add_deduction(first, registration, -registration.start_number, "Test", actor)
    mark_closed(first)
    return tournament


def _tables(series: Series) -> list[set[int]]:
    return [
        {seat.registration.start_number for seat in table.seats.select_related("registration")}
        for table in series.tables.order_by("number")
    ]


def test_order_follows_points_then_start_number(played: Tournament) -> None:
    second = played.series.get(number=2)
    assert standings_order(second) == (1, 2, 3, 4, 5, 6, 7, 8)


def test_the_page_draws_by_standings(played: Tournament, alice_client: Client) -> None:
    response = alice_client.post(
        "/verwaltung/herbst/serie/2/auslosen/", {"seed": "7", "mode": "standings"}
    )
    assert response.status_code == 302
    second = played.series.get(number=2)
    assert second.status == "drawn" and second.draw_mode == "standings"
    assert _tables(second)[0] == {1, 2, 3, 4}


def test_the_page_keeps_the_form_and_its_errors(played: Tournament, alice_client: Client) -> None:
    response = alice_client.post("/verwaltung/herbst/serie/2/auslosen/", {"mode": "nonsense"})
    assert response.status_code == 200
    assert 'name="mode"' in response.content.decode()
    assert played.series.get(number=2).status == "planned"


def test_the_api_draws_by_standings(played: Tournament, alice_api: APIClient) -> None:
    response = alice_api.post(
        "/api/v1/tournaments/herbst/series/2/draw/",
        {"seed": 7, "mode": "standings"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "drawn"
    assert _tables(played.series.get(number=2))[0] == {1, 2, 3, 4}


def test_a_standings_draw_needs_the_previous_series_closed(db: None) -> None:
    tournament = make_tournament(slug="frueh")
    add_players(tournament, 8)
    draw_by_chance_or_standings(tournament.series.get(number=1), seed=1)
    with pytest.raises(ServiceError) as refused:
        draw_by_chance_or_standings(tournament.series.get(number=2), seed=1, mode="standings")
    assert refused.value.code == "previous_not_closed"
