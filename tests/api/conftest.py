"""Personas and builders for the API tests (built in code, no JSON fixtures).

Alice organizes the tournament under test, Bob organizes another one; the captain holds the
token of table 1, the other captain that of table 2; the public has no credentials.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import add_players, make_tournament, seat_table
from tournaments.models import Series, Table, Tournament

API = "/api/v1"

NORMAL = {"contract": "normal", "re": [1, 3], "announcements": {"re": "ansage"}, "re_points": 130}


def client_for(
    *, token: str | None = None, table: Table | None = None, lang: str = "", device: str = ""
) -> APIClient:
    """An API client with a token, a table's captain token, a language and a phone's
    ``Device-Id``, as given."""
    client = APIClient()
    credentials: dict[str, str] = {}
    if device:
        credentials["HTTP_DEVICE_ID"] = device
    if token is not None:
        credentials["HTTP_AUTHORIZATION"] = f"Token {token}"
    if table is not None:
        credentials["HTTP_AUTHORIZATION"] = f"Table {table.captain_token}"
    if lang:
        credentials["HTTP_ACCEPT_LANGUAGE"] = lang
    client.credentials(**credentials)
    return client


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob")


@pytest.fixture
def organizer(alice: User) -> APIClient:
    return client_for(token=Token.objects.create(user=alice).key)


@pytest.fixture
def other_organizer(bob: User) -> APIClient:
    make_tournament(slug="bobs-cup").organizers.add(bob)
    return client_for(token=Token.objects.create(user=bob).key)


@pytest.fixture
def public(db: None) -> APIClient:
    return client_for()


@pytest.fixture
def tournament(alice: User) -> Tournament:
    tournament = make_tournament(slug="herbst")
    tournament.organizers.add(alice)
    return tournament


@pytest.fixture
def tables(tournament: Tournament) -> list[Table]:
    """Series 1 running with two tables of four."""
    series = tournament.series.get(number=1)
    players = add_players(tournament, 8)
    result = [seat_table(series, players[:4], 1), seat_table(series, players[4:], 2)]
    series.status = Series.Status.RUNNING
    series.save(update_fields=["status"])
    return result


@pytest.fixture
def table(tables: list[Table]) -> Table:
    return tables[0]


@pytest.fixture
def captain(table: Table) -> APIClient:
    return client_for(table=table, device="captain-phone")


@pytest.fixture
def other_captain(tables: list[Table]) -> APIClient:
    return client_for(table=tables[1])


def table_url(table: Table) -> str:
    series = table.series
    return (
        f"{API}/tournaments/{series.tournament.slug}/series/{series.number}/tables/{table.number}/"
    )


def games_url(table: Table, number: int | None = None) -> str:
    url = f"{table_url(table)}games/"
    return url if number is None else f"{url}{number}/"


def sheet_url(table: Table, action: str = "") -> str:
    url = f"{table_url(table)}sheet/"
    return f"{url}{action}/" if action else url


class Entry:
    """Posts games like a phone does: a fresh idempotency key and the last seen version."""

    def __init__(self, client: APIClient, table: Table) -> None:
        self.client = client
        self.table = table
        self.version = 0
        self.count = 0

    def post(self, payload: dict[str, Any], dealer: int, **extra: Any) -> Any:
        self.count += 1
        response = self.client.post(
            games_url(self.table),
            {**payload, "dealer": dealer},
            format="json",
            HTTP_IF_MATCH=str(self.version),
            HTTP_IDEMPOTENCY_KEY=f"{self.table.pk}-{self.count}",
            **extra,
        )
        if response.status_code in (200, 201):
            self.version = response.json()["sheet"]["version"]
        return response


def full_series() -> list[tuple[dict[str, Any], int]]:
    """24 valid games at a four-player table: 20 normal games, then four forced solos."""
    games: list[tuple[dict[str, Any], int]] = []
    dealer = 1
    for _ in range(20):
        games.append((NORMAL, dealer))
        dealer = dealer % 4 + 1
    for _ in range(4):
        forced = dealer % 4 + 1
        solo = {"contract": "solo", "solo": "damen", "compulsory": True, "forced": True,
                "re": [forced], "re_points": 121}  # fmt: skip
        games.append((solo, dealer))
        dealer = dealer % 4 + 1
    return games
