"""Registering players by form, by the public link, check-in and withdrawal."""

import pytest
from django.test import Client

from clubs.services import personal_club
from common.services import ServiceError
from tests.factories import add_players
from tournaments.models import Player, Tournament
from tournaments.services.registrations import PlayerData, register, withdraw


def test_register_by_form_assigns_next_start_number(
    alice_client: Client, tournament: Tournament
) -> None:
    add_players(tournament, 2)
    response = alice_client.post(
        "/verwaltung/herbst/spieler/",
        {
            "name_form": "full",
            "first_name": "Karla",
            "last_name": "Kreuz",
            "club": "Dulle e.V.",
            "checked_in": "on",
        },
    )
    assert response.status_code == 302
    registration = tournament.registrations.get(player__last_name="Kreuz")
    assert registration.start_number == 3
    assert registration.checked_in


def test_register_offers_existing_player_for_merging(
    alice_client: Client, tournament: Tournament, alice
) -> None:
    known = Player.objects.create(
        first_name="Karla",
        last_name="Kreuz",
        club="Dulle e.V.",
        owner=alice,
        registry_club=personal_club(alice),
    )
    response = alice_client.post(
        "/verwaltung/herbst/spieler/",
        {"name_form": "full", "first_name": "karla", "last_name": "KREUZ"},
    )
    assert response.status_code == 200
    assert f'name="merge_with" value="{known.pk}"' in response.content.decode()
    assert not tournament.registrations.exists()
    alice_client.post(
        "/verwaltung/herbst/spieler/",
        {
            "name_form": "full",
            "first_name": "karla",
            "last_name": "KREUZ",
            "merge_with": str(known.pk),
        },
    )
    assert tournament.registrations.get().player == known
    assert Player.objects.count() == 1


def test_register_as_new_despite_same_name(alice_client: Client, tournament: Tournament) -> None:
    Player.objects.create(first_name="Karla", last_name="Kreuz")
    alice_client.post(
        "/verwaltung/herbst/spieler/",
        {"name_form": "full", "first_name": "Karla", "last_name": "Kreuz", "create_new": "1"},
    )
    assert Player.objects.count() == 2


def test_register_field_errors_keep_input(alice_client: Client, tournament: Tournament) -> None:
    response = alice_client.post(
        "/verwaltung/herbst/spieler/",
        {
            "name_form": "full",
            "first_name": "Karla",
            "last_name": "",
            "ddv_number": "12a",
            "email": "nope",
        },
    )
    html = response.content.decode()
    assert 'value="Karla"' in html
    assert "Eine DDV-Mitgliedsnummer besteht nur aus Ziffern." in html
    assert "Dieses Feld ist erforderlich." in html


def test_same_player_cannot_register_twice(tournament: Tournament) -> None:
    (registration,) = add_players(tournament, 1)
    with pytest.raises(ServiceError) as info:
        register(tournament, PlayerData("x", "y"), existing_player=registration.player)
    assert info.value.code == "already_registered"


def test_self_registration_only_while_open(client: Client, tournament: Tournament) -> None:
    url = f"/turniere/herbst/anmeldung/{tournament.registration_token}/"
    assert "geschlossen" in client.get(url).content.decode()
    tournament.registration_open = True
    tournament.save()
    response = client.post(
        url, {"name_form": "full", "first_name": "Pia", "last_name": "Pik", "ddv_number": "42"}
    )
    assert response.status_code == 200
    assert "Startnummer 1" in response.content.decode()
    assert client.get("/turniere/herbst/anmeldung/wrong-token/").status_code == 404


def test_self_registration_links_known_player_only_on_ddv_number(
    client: Client, tournament: Tournament, alice
) -> None:
    known = Player.objects.create(
        first_name="Pia",
        last_name="Pik",
        ddv_number="42",
        owner=alice,
        registry_club=personal_club(alice),
    )
    tournament.registration_open = True
    tournament.save()
    url = f"/turniere/herbst/anmeldung/{tournament.registration_token}/"
    client.post(
        url, {"name_form": "full", "first_name": "Pia", "last_name": "Pik", "ddv_number": "42"}
    )
    assert tournament.registrations.get().player == known
    response = client.post(
        url, {"name_form": "full", "first_name": "Paul", "last_name": "Pik", "ddv_number": "42"}
    )
    assert "DDV-Mitgliedsnummer 42" in response.content.decode()


def test_checkin_toggle_with_htmx(alice_client: Client, tournament: Tournament) -> None:
    (registration,) = add_players(tournament, 1, checked_in=False)
    url = f"/verwaltung/herbst/einlass/{registration.pk}/"
    response = alice_client.post(url, {"present": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert f'id="checkin-{registration.pk}"' in response.content.decode()
    registration.refresh_from_db()
    assert registration.checked_in and registration.checked_in_at is not None


def test_checkin_search(alice_client: Client, tournament: Tournament) -> None:
    add_players(tournament, 12)
    response = alice_client.get("/verwaltung/herbst/einlass/?q=Nachname11", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "Nachname11" in html and "Nachname12" not in html


def test_withdraw_refused_for_started_series(tournament: Tournament) -> None:
    (registration,) = add_players(tournament, 1)
    tournament.series.filter(number=1).update(status="running")
    with pytest.raises(ServiceError) as info:
        withdraw(registration, 1)
    assert info.value.code == "series_already_started"
    withdraw(registration, 2)
    registration.refresh_from_db()
    assert not registration.plays_in(2) and registration.plays_in(1)
