"""Where an organizer lands after logging in: his own tournaments, one tap from the header."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from tests.factories import add_players
from tournaments.models import Tournament

EN = {"accept-language": "en"}


def test_login_lands_on_my_tournaments(client: Client, alice: User) -> None:
    response = client.post("/login/", {"username": "alice", "password": "pw-alice-123"})
    assert response.status_code == 302 and response["Location"] == "/verwaltung/"


def test_login_keeps_next(client: Client, alice: User, tournament: Tournament) -> None:
    response = client.get("/verwaltung/herbst/einlass/")
    assert response["Location"] == "/login/?next=/verwaltung/herbst/einlass/"
    response = client.post(
        "/login/",
        {"username": "alice", "password": "pw-alice-123", "next": "/verwaltung/herbst/einlass/"},
    )
    assert response["Location"] == "/verwaltung/herbst/einlass/"


def test_my_tournaments_lists_only_mine_with_links_to_manage(
    alice_client: Client, tournament: Tournament, other_tournament: Tournament
) -> None:
    add_players(tournament, 3)
    html = alice_client.get("/verwaltung/", headers=EN).content.decode()
    assert '<a href="/verwaltung/herbst/">Herbstturnier</a>' in html
    assert '<td class="num">3</td>' in html
    assert "Anderes Turnier" not in html and "/verwaltung/anderes/" not in html
    assert 'href="/verwaltung/neu/" role="button">New tournament</a>' in html


def test_my_tournaments_without_any(bob_client: Client) -> None:
    html = bob_client.get("/verwaltung/", headers=EN).content.decode()
    assert "You do not organize any tournament yet." in html
    assert 'href="/verwaltung/neu/"' in html


def test_my_tournaments_needs_a_login(client: Client) -> None:
    response = client.get("/verwaltung/")
    assert response["Location"] == "/login/?next=/verwaltung/"


def test_header_links_my_tournaments_for_logged_in_users(
    client: Client, alice_client: Client
) -> None:
    assert '<a href="/verwaltung/"' in alice_client.get("/turniere/").content.decode()
    assert 'href="/verwaltung/"' not in client.get("/turniere/").content.decode()


def test_organizer_menu_marks_the_current_page(
    alice_client: Client, tournament: Tournament
) -> None:
    html = alice_client.get("/verwaltung/herbst/spieler/").content.decode()
    assert '<a href="/verwaltung/herbst/spieler/" aria-current="page">' in html
    assert '<a href="/verwaltung/herbst/" aria-current' not in html
