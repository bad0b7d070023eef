"""What the API tests share besides the personas (``tests/conftest.py``): the addresses of a
table's resources, a valid game, a phone that posts games, a whole series of games."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tests.factories import RE_ANNOUNCES_AND_WINS as NORMAL
from tournaments.models import Table

API = "/api/v1"


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
