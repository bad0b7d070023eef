"""Tournaments and players through the API: visibility, creation, changes, validation."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.api.helpers import API
from tests.factories import add_players, make_tournament, organize
from tournaments.models import Tournament

NEW = {"name": "Winterpokal", "slug": "winter", "starts_on": "2027-01-09", "series_count": 3}


def slugs(response) -> set[str]:
    return {t["slug"] for t in response.json()["results"]}


def test_public_sees_public_tournaments_only(public_api: APIClient, tournament: Tournament) -> None:
    make_tournament(slug="geheim", is_public=False)
    response = public_api.get(f"{API}/tournaments/")
    assert response.status_code == 200
    assert slugs(response) == {"herbst"}
    assert public_api.get(f"{API}/tournaments/geheim/").status_code == 404


def test_organizer_sees_his_private_tournament(
    alice_api: APIClient, bob_api: APIClient, alice: User
) -> None:
    private = make_tournament(slug="geheim", is_public=False)
    organize(private, alice)
    assert "geheim" in slugs(alice_api.get(f"{API}/tournaments/"))
    assert alice_api.get(f"{API}/tournaments/geheim/").status_code == 200
    assert "geheim" not in slugs(bob_api.get(f"{API}/tournaments/"))
    assert bob_api.get(f"{API}/tournaments/geheim/").status_code == 404


def test_create_makes_the_requester_organizer(alice_api: APIClient, alice: User) -> None:
    response = alice_api.post(f"{API}/tournaments/", NEW, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "draft" and body["tiebreak"] == ["best_series", "last_series"]
    assert [s["number"] for s in body["series"]] == [1, 2, 3]
    assert Tournament.objects.get(slug="winter").organizers.get() == alice


def test_create_needs_authentication(public_api: APIClient) -> None:
    response = public_api.post(f"{API}/tournaments/", NEW, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Token"


def test_organizer_changes_series_count(alice_api: APIClient, tournament: Tournament) -> None:
    response = alice_api.patch(
        f"{API}/tournaments/herbst/", {"series_count": 4, "venue": "Bürgerhaus"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert [s["number"] for s in response.json()["series"]] == [1, 2, 3, 4]
    assert tournament.series.count() == 4


def test_others_may_not_change_a_tournament(
    public_api: APIClient, bob_api: APIClient, tournament: Tournament
) -> None:
    url = f"{API}/tournaments/herbst/"
    assert public_api.patch(url, {"venue": "x"}, format="json").status_code == 401
    response = bob_api.patch(url, {"venue": "x"}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_organizer"


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"ends_on": "2026-01-01"}, "invalid", "ends_on"),
        ({"series_count": "viele"}, "invalid", "series_count"),
        ({"series_count": 21}, "max_value", "series_count"),
        ({"ruleset": "skat"}, "invalid_choice", "ruleset"),
        ({"tiebreak": ["last_series", "last_series"]}, "duplicate", "tiebreak"),
        ({"colour": "blue"}, "unknown_field", "colour"),
        ({"slug": "herbst"}, "unique", "slug"),
        ({"name": None}, "null", "name"),
    ],
)
def test_invalid_input_is_refused_with_code_and_field(
    alice_api: APIClient, tournament: Tournament, change: dict, code: str, field: str
) -> None:
    response = alice_api.post(f"{API}/tournaments/", {**NEW, **change}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"]) == (code, field)
    assert error["message"]


def test_series_count_cannot_drop_below_a_drawn_series(
    alice_api: APIClient, tournament: Tournament
) -> None:
    tournament.series.filter(number=2).update(status="drawn")
    response = alice_api.patch(f"{API}/tournaments/herbst/", {"series_count": 1}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "series_count"


def test_players_of_own_tournaments_only(
    alice_api: APIClient, bob_api: APIClient, public_api: APIClient, tournament: Tournament
) -> None:
    registrations = add_players(tournament, 3)
    response = alice_api.get(f"{API}/players/")
    assert response.json()["count"] == 3
    assert bob_api.get(f"{API}/players/").json()["count"] == 0
    assert public_api.get(f"{API}/players/").status_code == 401
    player = registrations[0].player
    assert bob_api.get(f"{API}/players/{player.pk}/").status_code == 404
    found = alice_api.get(f"{API}/players/", {"q": player.last_name}).json()
    assert [p["id"] for p in found["results"]] == [player.pk]


def test_organizer_corrects_a_player(alice_api: APIClient, tournament: Tournament) -> None:
    first, second = (r.player for r in add_players(tournament, 2))
    second.ddv_number = "4711"
    second.save()
    url = f"{API}/players/{first.pk}/"
    response = alice_api.patch(url, {"first_name": " Anna ", "club": "DK Köln"}, format="json")
    assert response.status_code == 200
    first.refresh_from_db()
    assert (first.first_name, first.club) == ("Anna", "DK Köln")
    response = alice_api.patch(url, {"ddv_number": "4711"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "ddv_number_taken"


def test_confirmation_setting_through_the_api(alice_api) -> None:
    new = {"name": "Sommer", "slug": "sommer-conf", "starts_on": "2027-07-01",
           "confirmation": "organizer"}  # fmt: skip
    created = alice_api.post("/api/v1/tournaments/", new, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["confirmation"] == "organizer"
    assert created.json()["entry_mode"] == "entry"
    bad = alice_api.patch("/api/v1/tournaments/sommer-conf/", {"confirmation": "anyone"},
                          format="json")  # fmt: skip
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "confirmation"
