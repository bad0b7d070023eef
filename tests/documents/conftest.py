"""Fixtures for the documents tests: a small tournament built through the ORM."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import pytest

from tournaments.models import Player, Registration, Seat, Series, Table, Tournament

NAMES = [
    ("Anna", "Albers"), ("Bernd", "Bäcker"), ("Carla", "Czerwinski"), ("Dieter", "Dörfler"),
    ("Erika", "Eichhorn"), ("Fritz", "Fischer"), ("Gisela", "Groß"), ("Hans", "Hübner"),
    ("Ida", "Iwanowa"), ("Jürgen", "Jäger"), ("Karin", "Krüger"), ("Lothar", "Löwenthal"),
    ("Maria", "Müller"),
]  # fmt: skip


@dataclass
class World:
    tournament: Tournament
    series: Series
    tables: list[Table]
    organizer: object
    players: list[Player]


@pytest.fixture(autouse=True)
def _media(settings, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def world(django_user_model) -> World:
    """Series 1 of a 13-player tournament: tables 1 and 2 with four players, table 3 with
    five."""
    organizer = django_user_model.objects.create_user("orga", password="pw-orga-123")
    tournament = Tournament.objects.create(
        name="Herbstturnier Köln", slug="herbst", starts_on=dt.date(2026, 10, 3), venue="Nippes"
    )
    tournament.organizers.add(organizer)
    players = [Player.objects.create(first_name=first, last_name=last) for first, last in NAMES]
    registrations = [
        Registration.objects.create(tournament=tournament, player=p, start_number=i + 1)
        for i, p in enumerate(players)
    ]
    series = Series.objects.create(tournament=tournament, number=1, status="drawn")
    tables = [Table.objects.create(series=series, number=n) for n in (1, 2, 3)]
    sizes = [4, 4, 5]
    index = 0
    for table, size in zip(tables, sizes, strict=True):
        for position in range(1, size + 1):
            Seat.objects.create(
                table=table, series=series, position=position, registration=registrations[index]
            )
            index += 1
    return World(tournament, series, tables, organizer, players)
