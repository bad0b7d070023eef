"""Builders shared by the test suite (data built in code, never JSON dumps)."""

from __future__ import annotations

import datetime

from tournaments.models import Player, Registration, Seat, Series, Table, Tournament
from tournaments.permissions import registry_owner
from tournaments.services.lifecycle import ensure_series


def add_players(
    tournament: Tournament, count: int, *, checked_in: bool = True
) -> list[Registration]:
    start = tournament.registrations.count()
    owner = registry_owner(tournament)
    registrations = []
    for i in range(start + 1, start + count + 1):
        player = Player.objects.create(
            first_name=f"Vorname{i}",
            last_name=f"Nachname{i}",
            club=f"Verein {i % 5}",
            owner_id=owner,
        )
        registrations.append(
            Registration.objects.create(
                tournament=tournament, player=player, start_number=i, checked_in=checked_in
            )
        )
    return registrations


def make_tournament(slug: str = "cup", series_count: int = 2, **fields: object) -> Tournament:
    tournament = Tournament.objects.create(
        name=f"Turnier {slug}",
        slug=slug,
        starts_on=datetime.date(2026, 11, 28),
        series_count=series_count,
        **fields,
    )
    ensure_series(tournament)
    return tournament


def seat_table(series: Series, registrations: list[Registration], number: int = 1) -> Table:
    """A table with the players in seat order (seat 1 first), without drawing."""
    table = Table.objects.create(series=series, number=number)
    Seat.objects.bulk_create(
        Seat(table=table, series=series, position=i, registration=r)
        for i, r in enumerate(registrations, start=1)
    )
    return table


def running_table(tournament: Tournament, size: int = 4, number: int = 1) -> Table:
    """Series 1 running with one table of ``size`` fresh players."""
    series = tournament.series.get(number=1)
    table = seat_table(series, add_players(tournament, size), number)
    series.status = Series.Status.RUNNING
    series.save(update_fields=["status"])
    return table
