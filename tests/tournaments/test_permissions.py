"""The permission matrix: organizer of this tournament, organizer of another, anonymous."""

import pytest
from django.test import Client

from tournaments.models import Tournament

ORGANIZER_PAGES = [
    "/verwaltung/herbst/",
    "/verwaltung/herbst/bearbeiten/",
    "/verwaltung/herbst/spieler/",
    "/verwaltung/herbst/import/",
    "/verwaltung/herbst/einlass/",
    "/verwaltung/herbst/serie/1/",
]


@pytest.mark.parametrize("url", ORGANIZER_PAGES)
def test_organizer_sees_own_tournament(alice_client: Client, tournament: Tournament, url) -> None:
    assert alice_client.get(url).status_code == 200


@pytest.mark.parametrize("url", ORGANIZER_PAGES)
def test_other_organizer_gets_403(bob_client: Client, tournament: Tournament, url) -> None:
    assert bob_client.get(url).status_code == 403
    assert bob_client.post(url, {"action": "draw"}).status_code == 403


@pytest.mark.parametrize("url", ORGANIZER_PAGES)
def test_anonymous_is_sent_to_login(client: Client, tournament: Tournament, url) -> None:
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    assert client.post(url, {"action": "draw"}).status_code == 302


def test_private_tournament_hidden_from_public(
    client: Client, alice_client: Client, tournament: Tournament
) -> None:
    tournament.is_public = False
    tournament.save()
    assert client.get("/turniere/herbst/").status_code == 404
    assert "Herbstturnier" not in client.get("/turniere/").content.decode()
    assert alice_client.get("/turniere/herbst/").status_code == 200


def test_create_tournament_makes_creator_organizer(alice_client: Client, alice) -> None:
    response = alice_client.post(
        "/verwaltung/neu/",
        {
            "name": "Winterpokal",
            "slug": "winter",
            "starts_on": "2027-01-09",
            "ruleset": "ddv",
            "series_count": "4",
            "is_public": "on",
            "entry_mode": "entry",
            "tiebreak": ["best_series", "last_series"],
        },
    )
    assert response.status_code == 302, response.content.decode()
    tournament = Tournament.objects.get(slug="winter")
    assert list(tournament.organizers.all()) == [alice]
    assert list(tournament.series.values_list("number", flat=True)) == [1, 2, 3, 4]


def test_create_tournament_keeps_input_on_error(alice_client: Client) -> None:
    response = alice_client.post(
        "/verwaltung/neu/",
        {"name": "Winterpokal", "slug": "winter", "starts_on": "2027-01-09",
         "ends_on": "2027-01-01", "ruleset": "ddv", "series_count": "4"},
    )  # fmt: skip
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="Winterpokal"' in html
    assert "Der letzte Tag kann nicht vor dem ersten Tag liegen." in html
