"""Players belong to a registry (design decision 7): Bob, organizer of another tournament,
can neither take over, see nor be offered Alice's players, by API, form, import or the
public link; a DDV number tells nothing across registries."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from clubs.services import personal_club
from tests.factories import organize
from tournaments.models import Player, Tournament

API = "/api/v1"


@pytest.fixture
def karla(alice: User, tournament: Tournament) -> Player:
    """A player of Alice's registry, in her (private) tournament."""
    tournament.is_public = False
    tournament.save()
    player = Player.objects.create(
        first_name="Karla", last_name="Kreuz", club="Dulle", ddv_number="4711",
        email="karla@example.org", owner=alice, registry_club=personal_club(alice),
    )  # fmt: skip
    tournament.registrations.create(player=player, start_number=1)
    return player


def test_api_registration_cannot_take_over_another_registrys_player(
    bob_api: APIClient, karla: Player, other_tournament: Tournament
) -> None:
    url = f"{API}/tournaments/{other_tournament.slug}/registrations/"
    foreign = bob_api.post(url, {"player": karla.pk}, format="json")
    unknown = bob_api.post(url, {"player": 999_999}, format="json")
    assert foreign.status_code == unknown.status_code == 400
    assert foreign.json()["error"]["code"] == unknown.json()["error"]["code"] == "does_not_exist"
    assert not other_tournament.registrations.exists()


def test_api_player_of_another_registry_does_not_exist(
    bob_api: APIClient, karla: Player, other_tournament: Tournament
) -> None:
    url = f"{API}/players/{karla.pk}/"
    assert bob_api.get(url).status_code == 404
    assert bob_api.patch(url, {"first_name": "Gekapert"}, format="json").status_code == 404
    listed = bob_api.get(f"{API}/players/").json()
    assert "karla@example.org" not in str(listed) and "4711" not in str(listed)
    karla.refresh_from_db()
    assert karla.first_name == "Karla"


def test_ddv_number_tells_nothing_across_registries(
    bob_api: APIClient, karla: Player, other_tournament: Tournament
) -> None:
    url = f"{API}/tournaments/{other_tournament.slug}/registrations/"
    data = {"first_name": "Kurt", "last_name": "Kreuz", "ddv_number": "4711"}
    response = bob_api.post(url, data, format="json")
    assert response.status_code == 201, response.json()
    assert Player.objects.get(pk=response.json()["player"]["id"]).owner.username == "bob"


def test_form_offers_no_merge_with_another_registrys_player(
    bob_client: Client, karla: Player, other_tournament: Tournament
) -> None:
    url = f"/verwaltung/{other_tournament.slug}/spieler/"
    response = bob_client.post(
        url, {"name_form": "full", "first_name": "Karla", "last_name": "Kreuz"}
    )
    html = response.content.decode()
    assert response.status_code == 302, html  # no candidate: registered as new at once
    assert other_tournament.registrations.get().player != karla
    assert "4711" not in bob_client.get(url).content.decode()


def test_form_refuses_a_forged_merge(
    bob_client: Client, karla: Player, other_tournament: Tournament
) -> None:
    url = f"/verwaltung/{other_tournament.slug}/spieler/"
    response = bob_client.post(
        url,
        {
            "name_form": "full",
            "first_name": "Karla",
            "last_name": "Kreuz",
            "merge_with": str(karla.pk),
        },
    )
    assert response.status_code == 200
    assert not other_tournament.registrations.exists()


def test_import_neither_offers_nor_merges_another_registrys_player(
    bob_client: Client, karla: Player, other_tournament: Tournament
) -> None:
    url = f"/verwaltung/{other_tournament.slug}/import/"
    upload = io.BytesIO(b"Vorname;Nachname;DDV-Nr\nKarla;Kreuz;4711\n")
    upload.name = "liste.csv"
    html = bob_client.post(url, {"file": upload}).content.decode()
    assert f'<option value="{karla.pk}">' not in html
    bob_client.post(url, {"confirm": "1", "merge-2": str(karla.pk)})
    assert not other_tournament.registrations.filter(player=karla).exists()


def test_own_merges_still_work(alice_client: Client, karla: Player, tournament: Tournament) -> None:
    second = Tournament.objects.create(
        name="Winter", slug="winter", starts_on=tournament.starts_on, series_count=1
    )
    organize(second, karla.owner)
    url = "/verwaltung/winter/spieler/"
    response = alice_client.post(
        url, {"name_form": "full", "first_name": "karla", "last_name": "KREUZ"}
    )
    assert f'value="{karla.pk}"' in response.content.decode()
    assert "4711" in response.content.decode()  # her own registry: details shown
    alice_client.post(
        url,
        {"name_form": "full", "first_name": "Karla", "last_name": "Kreuz", "merge_with": karla.pk},
    )
    assert second.registrations.get().player == karla


def test_self_registration_links_only_inside_the_registry(
    client: Client, karla: Player, other_tournament: Tournament
) -> None:
    other_tournament.registration_open = True
    other_tournament.save()
    url = f"/turniere/{other_tournament.slug}/anmeldung/{other_tournament.registration_token}/"
    response = client.post(
        url,
        {"name_form": "full", "first_name": "Karla", "last_name": "Kreuz", "ddv_number": "4711"},
    )
    assert response.status_code == 200
    registered = other_tournament.registrations.get().player
    assert registered != karla
    assert registered.owner == other_tournament.organizers.get()


def test_demo_owns_its_players_and_runs_twice(db: None) -> None:
    from scoring.demo import build_demo

    build_demo(players=8, series=1, extras=False)
    first = set(Player.objects.values_list("pk", flat=True))
    tournament = build_demo(players=8, series=1, extras=False)
    assert set(Player.objects.values_list("pk", flat=True)) == first
    owner = tournament.organizers.get()
    assert set(Player.objects.values_list("owner", flat=True)) == {owner.pk}
