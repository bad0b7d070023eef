"""The order of players by points before a series, for a draw by standings."""

from __future__ import annotations

from tournaments.models import Tournament


def start_numbers_by_standing(tournament: Tournament, before_series: int) -> tuple[int, ...]:
    """Start numbers, leader first. Until results are stored this is the start-number order;
    the results app replaces it with the standings of the closed series."""
    try:
        from scoring.standings import points_before_series
    except ImportError:
        points: dict[int, int] = {}
    else:
        points = points_before_series(tournament, before_series)
    numbers = tournament.registrations.values_list("start_number", flat=True)
    return tuple(sorted(numbers, key=lambda n: (-points.get(n, 0), n)))
