"""Registrations through the API: register, merge, check in, withdraw, delete."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from clubs.services import personal_club
from tests.api.helpers import API
from tests.factories import add_players
from tournaments.models import Player, Registration, Tournament

URL = f"{API}/tournaments/herbst/registrations/"


def test_register_new_player_and_list(alice_api: APIClient, tournament: Tournament) -> None:
    response = alice_api.post(
        URL, {"first_name": "Anna", "last_name": "Schmidt", "club": "DK Köln", "checked_in": True},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["start_number"] == 1 and body["checked_in"] is True
    assert body["player"]["last_name"] == "Schmidt"
    listed = alice_api.get(URL).json()
    assert listed["count"] == 1 and listed["results"][0]["start_number"] == 1


def test_register_known_player_once(
    alice_api: APIClient, tournament: Tournament, alice: User
) -> None:
    player = Player.objects.create(
        first_name="Bert",
        last_name="Meier",
        ddv_number="123",
        owner=alice,
        registry_club=personal_club(alice),
    )
    response = alice_api.post(URL, {"player": player.pk}, format="json")
    assert response.status_code == 201
    again = alice_api.post(URL, {"player": player.pk}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "already_registered"


def test_registration_input_errors(
    alice_api: APIClient, tournament: Tournament, alice: User
) -> None:
    Player.objects.create(
        first_name="Bert",
        last_name="Meier",
        ddv_number="123",
        owner=alice,
        registry_club=personal_club(alice),
    )
    cases = [
        ({"first_name": "Anna"}, "required", "last_name"),
        ({"first_name": "A", "last_name": "B", "ddv_number": "12a"}, "invalid", "ddv_number"),
        ({"first_name": "A", "last_name": "B", "ddv_number": "123"}, "ddv_number_taken",
         "ddv_number"),
        ({"player": 999999}, "does_not_exist", "player"),
        ({"player": "eins"}, "incorrect_type", "player"),
        ({"first_name": "A", "last_name": "B", "checked_in": "vielleicht"}, "invalid",
         "checked_in"),
        ({"first_name": "A", "last_name": "B", "age": 40}, "unknown_field", "age"),
        ({"first_name": "A\x00", "last_name": "B"}, "null_characters_not_allowed", "first_name"),
    ]  # fmt: skip
    for data, code, field in cases:
        response = alice_api.post(URL, data, format="json")
        assert response.status_code == 400, data
        error = response.json()["error"]
        assert (error["code"], error["field"]) == (code, field), data
    assert not Registration.objects.exists()


def test_check_in_and_withdraw(alice_api: APIClient, tournament: Tournament) -> None:
    registration = add_players(tournament, 1, checked_in=False)[0]
    url = f"{URL}{registration.start_number}/"
    response = alice_api.post(f"{url}check-in/", {"present": True}, format="json")
    assert response.status_code == 200 and response.json()["checked_in"] is True
    response = alice_api.post(f"{url}withdraw/", {"from_series": 2}, format="json")
    assert response.status_code == 200 and response.json()["withdrawn_from_series"] == 2
    response = alice_api.post(f"{url}withdraw/", {"from_series": 4}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] | {"message": ""} == {
        "code": "series_out_of_range", "field": "from_series", "message": ""
    }  # fmt: skip
    response = alice_api.post(f"{url}withdraw/", {"from_series": None}, format="json")
    assert response.json()["withdrawn_from_series"] is None
    response = alice_api.post(f"{url}check-in/", {}, format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "present"


def test_delete_only_while_never_seated(
    alice_api: APIClient, tournament: Tournament, tables: list
) -> None:
    seated = alice_api.delete(f"{URL}1/")
    assert seated.status_code == 409 and seated.json()["error"]["code"] == "in_use"
    spare = add_players(tournament, 1)[0]
    assert alice_api.delete(f"{URL}{spare.start_number}/").status_code == 204
    assert alice_api.get(f"{URL}{spare.start_number}/").status_code == 404


def test_registrations_are_for_organizers(
    public_api: APIClient, bob_api: APIClient, tournament: Tournament
) -> None:
    add_players(tournament, 1)
    assert public_api.get(URL).status_code == 401
    response = bob_api.get(URL)
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_organizer"
    response = bob_api.post(URL, {"first_name": "A", "last_name": "B"}, format="json")
    assert response.status_code == 403
    tournament.is_public = False
    tournament.save()
    assert bob_api.get(URL).status_code == 404


def test_register_with_consent(alice_api: APIClient, tournament: Tournament) -> None:
    minor = {"first_name": "Tim", "last_name": "Jung", "name_form": "initial", "minor": True}
    refused = alice_api.post(URL, minor, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["field"] == "guardian_consent"
    response = alice_api.post(URL, {**minor, "guardian_consent": True}, format="json")
    assert response.status_code == 201, response.json()
    player = Player.objects.get(last_name="Jung")
    assert (player.name_form, player.minor, player.guardian_consent) == ("initial", True, True)
    assert player.consent_at is not None
    alice_api.post(URL, {"first_name": "Pia", "last_name": "Pik"}, format="json")
    unasked = Player.objects.get(last_name="Pik")
    assert unasked.name_form == "full" and unasked.consent_at is None
