"""Guessers are refused, honest users never: wrong passwords lock the account for a
cool-down (django-axes); failed captain links, registration links and API credentials are
refused per address past a limit; successful requests are never counted or refused.
Time is moved with freezegun, never slept."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from freezegun import freeze_time
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import running_table
from tournaments.models import Table, Tournament

LOCKED = "Too many wrong passwords for this account."


def login(client: Client, username: str, password: str) -> object:
    return client.post(
        "/login/", {"username": username, "password": password}, HTTP_ACCEPT_LANGUAGE="en"
    )


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_wrong_passwords_lock_the_account_for_the_cool_down(
    client: Client, alice: User, bob: User, settings
) -> None:
    assert settings.AXES_FAILURE_LIMIT == 10
    cool_down = settings.AXES_COOLOFF_TIME
    with freeze_time("2026-11-28 10:00:00") as clock:
        for attempt in range(1, 10):
            response = login(client, "alice", f"wrong-{attempt}")
            assert response.status_code == 200, attempt  # the form with its error
            assert LOCKED not in response.content.decode()
        tenth = login(client, "alice", "wrong-10")
        assert tenth.status_code == 429
        eleventh = login(client, "alice", "wrong-11")
        assert eleventh.status_code == 429
        assert LOCKED in eleventh.content.decode()
        assert "15 minutes" in eleventh.content.decode()

        right = login(client, "alice", "pw-alice-123")  # refused during the cool-down
        assert right.status_code == 429 and LOCKED in right.content.decode()
        assert not logged_in(client)

        other = Client(HTTP_USER_AGENT="Bob's phone")  # same hall address, another device
        assert login(other, "bob", "pw-bob-123").status_code == 302

        clock.tick(cool_down - datetime.timedelta(seconds=30))
        assert login(client, "alice", "pw-alice-123").status_code == 429
        clock.tick(cool_down + datetime.timedelta(seconds=1))
        response = login(client, "alice", "pw-alice-123")
        assert response.status_code == 302
        assert logged_in(client)


def test_lockout_page_speaks_german_by_default(client: Client, alice: User) -> None:
    for attempt in range(11):
        response = client.post("/login/", {"username": "alice", "password": f"x{attempt}"})
    html = response.content.decode()
    assert response.status_code == 429
    assert 'lang="de"' in html and 'role="alert"' in html
    assert 'name="username"' in html and 'value="alice"' in html


def test_one_device_trying_many_accounts_is_locked(client: Client, alice: User, bob: User) -> None:
    for attempt in range(10):
        login(client, f"someone-{attempt}", "guess")
    assert login(client, "bob", "pw-bob-123").status_code == 429
    assert login(Client(HTTP_USER_AGENT="another phone"), "bob", "pw-bob-123").status_code == 302


def test_a_success_resets_the_count(client: Client, alice: User) -> None:
    for _ in range(2):
        for attempt in range(9):
            assert login(client, "alice", f"wrong-{attempt}").status_code == 200
        assert login(client, "alice", "pw-alice-123").status_code == 302
        client.logout()


HALL = {"REMOTE_ADDR": "203.0.113.7", "HTTP_USER_AGENT": "Mozilla/5.0 (iPhone) Safari/604.1"}


def test_a_stranger_on_the_hall_wifi_cannot_lock_out_the_organizers_phone(
    alice: User, bob: User
) -> None:
    """The director logged in on her phone before. A stranger behind the same NAT address,
    with the same common phone browser, tries her account ten times and ten other accounts:
    account and device are locked for everyone else, never for her phone; her login
    there clears the account's lock for her other devices too."""
    phone = Client(**HALL)
    assert login(phone, "alice", "pw-alice-123").status_code == 302
    assert phone.cookies["doko_device"]["httponly"]
    phone.post("/logout/")  # Client.logout() would drop every cookie

    stranger = Client(**HALL)
    for attempt in range(10):
        login(stranger, "alice", f"guess-{attempt}")
        login(stranger, f"someone-{attempt}", "guess")
    assert login(stranger, "alice", "pw-alice-123").status_code == 429
    assert login(Client(**HALL), "bob", "pw-bob-123").status_code == 429  # same device
    laptop = Client(REMOTE_ADDR="198.51.100.1")
    assert login(laptop, "alice", "pw-alice-123").status_code == 429

    assert login(phone, "alice", "pw-alice-123").status_code == 302
    assert logged_in(phone)
    assert login(laptop, "alice", "pw-alice-123").status_code == 302


def test_a_known_device_of_another_account_or_a_forged_cookie_counts_for_nothing(
    alice: User, bob: User
) -> None:
    bobs_phone = Client(**HALL)
    assert login(bobs_phone, "bob", "pw-bob-123").status_code == 302
    bobs_phone.post("/logout/")
    for attempt in range(10):
        login(Client(**HALL), "alice", f"guess-{attempt}")
    assert login(bobs_phone, "alice", "pw-alice-123").status_code == 429
    forged = Client(**HALL)
    forged.cookies["doko_device"] = "eyJ1IjoxLCJkIjoieCJ9:forged:signature"
    assert login(forged, "alice", "pw-alice-123").status_code == 429


def test_a_stolen_known_device_cookie_gives_no_unlimited_guessing(alice: User) -> None:
    phone = Client(**HALL)
    assert login(phone, "alice", "pw-alice-123").status_code == 302
    phone.post("/logout/")
    for attempt in range(10):
        assert login(phone, "alice", f"guess-{attempt}").status_code == 200, attempt
    # The device's own limit is spent: now it counts as any device, and axes locks.
    for attempt in range(10):
        login(phone, "alice", f"more-{attempt}")
    assert login(phone, "alice", "pw-alice-123").status_code == 429


@pytest.fixture
def limit(settings, throttle_window: None) -> int:
    settings.TOKEN_FAILURE_LIMIT = 5
    settings.TOKEN_FAILURE_WINDOW = 600
    return 5


@pytest.fixture
def table(tournament: Tournament) -> Table:
    return running_table(tournament)


def table_client(token: str, **extra: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}", **extra)
    return client


def test_guessed_table_tokens_get_429_after_the_limit(limit: int, table: Table) -> None:
    for guess in range(limit):
        response = table_client(f"guess{guess}").get("/api/v1/captain/")
        assert response.status_code == 401, guess
    response = table_client("guess-more").get("/api/v1/captain/")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert 0 < int(response["Retry-After"]) <= 600


def test_guessed_api_tokens_and_broken_headers_count_too(limit: int, db: None) -> None:
    client = APIClient()
    statuses = []
    for header in ["Token nope", "Token", "Token a b", "Token also-wrong", "Token 0"]:
        client.credentials(HTTP_AUTHORIZATION=header)
        statuses.append(client.post("/api/v1/tournaments/", {}, format="json").status_code)
    assert statuses == [401] * 5
    client.credentials(HTTP_AUTHORIZATION="Token one-more")
    assert client.get("/api/v1/players/").status_code == 429
    client.credentials(HTTP_AUTHORIZATION="Table a b")  # a broken table header
    assert client.get("/api/v1/captain/").status_code == 429


def test_missing_or_foreign_credentials_are_no_guess(limit: int, table: Table) -> None:
    """No credentials, or a valid table token where a user is needed: 401, never 429."""
    anonymous = APIClient()
    captain = table_client(table.captain_token)
    for _ in range(3 * limit):
        assert anonymous.post("/api/v1/tournaments/", {}, format="json").status_code == 401
        assert captain.post("/api/v1/tournaments/", {}, format="json").status_code == 401


def test_guessed_captain_links_get_429_after_the_limit(limit: int, table: Table) -> None:
    client = Client()
    for guess in range(limit):
        assert client.get(f"/tisch/guess{guess}/").status_code == 404
    response = client.get("/tisch/guess-more/spiel/")
    assert response.status_code == 429
    assert "Retry-After" in response


def test_guessed_registration_links_get_429_after_the_limit(
    limit: int, tournament: Tournament
) -> None:
    client = Client()
    for guess in range(limit):
        assert client.get(f"/turniere/herbst/anmeldung/guess{guess}/").status_code == 404
    assert client.get("/turniere/herbst/anmeldung/guess-more/").status_code == 429


def test_the_window_ends(limit: int, table: Table) -> None:
    with freeze_time("2026-11-28 10:00:00") as clock:
        for guess in range(limit + 1):
            response = table_client(f"guess{guess}").get("/api/v1/captain/")
        assert response.status_code == 429
        clock.tick(datetime.timedelta(seconds=601))
        assert table_client("after").get("/api/v1/captain/").status_code == 401


def test_failures_are_counted_per_address(limit: int, table: Table) -> None:
    for guess in range(limit + 1):
        table_client(f"guess{guess}", REMOTE_ADDR="10.0.0.1").get("/api/v1/captain/")
    other = table_client("guess", REMOTE_ADDR="10.0.0.2").get("/api/v1/captain/")
    assert other.status_code == 401


def test_hall_behind_one_address_is_never_throttled(
    limit: int, tournament: Tournament, table: Table, alice: User
) -> None:
    """Many tables through one NAT address, with a guesser among them: every request with
    a valid link or token succeeds, before and after the address passed the limit."""
    tables = [table] + [running_table(tournament, number=n) for n in range(2, 6)]
    organizer = APIClient()
    organizer.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    browser = Client()
    for round_ in range(12):
        for t in tables:
            assert table_client(t.captain_token).get("/api/v1/captain/").status_code == 200
            assert browser.get(f"/tisch/{t.captain_token}/").status_code == 200
            # A valid link to a missing game is the captain's slip, not a guess.
            assert browser.get(f"/tisch/{t.captain_token}/spiel/99/").status_code == 404
            # A valid table token where an organizer is needed: refused, not a guess.
            assert table_client(t.captain_token).post(
                "/api/v1/tournaments/", {}, format="json"
            ).status_code in (401, 403)
        assert organizer.get("/api/v1/players/").status_code == 200
        table_client(f"guess{round_}").get("/api/v1/captain/")  # the guesser
    assert table_client("guess-more").get("/api/v1/captain/").status_code == 429
    assert table_client(table.captain_token).get("/api/v1/captain/").status_code == 200
