"""Builders shared by the test suite (data built in code, never JSON dumps)."""

from __future__ import annotations

from tournaments.models import Player, Registration, Tournament


def add_players(tournament: Tournament, count: int, *, checked_in: bool = True) -> list[Registration]:
    start = tournament.registrations.count()
    registrations = []
    for i in range(start + 1, start + count + 1):
        player = Player.objects.create(
            first_name=f"Vorname{i}", last_name=f"Nachname{i}", club=f"Verein {i % 5}"
        )
        registrations.append(
            Registration.objects.create(
                tournament=tournament, player=player, start_number=i, checked_in=checked_in
            )
        )
    return registrations
