"""The order of players by points before a series, for a draw by standings."""

from __future__ import annotations

from tournaments.models import Tournament


def start_numbers_by_standing(tournament: Tournament, before_series: int) -> tuple[int, ...]:
    """Start numbers, leader first; equal points keep start-number order."""
    from scoring.standings import points_before_series  # results live in the scoring app

    points = points_before_series(tournament, before_series)
    numbers = tournament.registrations.values_list("start_number", flat=True)
    return tuple(sorted(numbers, key=lambda n: (-points.get(n, 0), n)))
