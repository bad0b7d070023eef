"""Drawing a series, by chance or by the standings before it.

The seating itself is the tournaments app's (``tournaments.services.draw``). A draw by
standings needs the points of the earlier series, which only the results know, so this use
case lives here: it locks the series, reads the standings and draws in one transaction, and
the HTML page and the API both call it.
"""

from __future__ import annotations

from django.db import transaction

from scoring.standings import points_before_series
from tournaments import seating
from tournaments.models import Series
from tournaments.services.draw import seat_series


def standings_order(series: Series) -> tuple[int, ...]:
    """Start numbers by points before ``series``, leader first; equal points keep start-number
    order."""
    points = points_before_series(series.tournament, series.number)
    numbers = series.tournament.registrations.values_list("start_number", flat=True)
    return tuple(sorted(numbers, key=lambda n: (-points.get(n, 0), n)))


@transaction.atomic
def draw_by_chance_or_standings(
    series: Series,
    *,
    seed: int | None = None,
    mode: str = "random",
    keep_clubs_apart: bool = False,
) -> seating.Plan:
    """Draw (or redraw, before it starts) the tables of ``series``; ``mode="standings"``
    seats the players by their points before it (the previous series must be closed)."""
    series = Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)
    standings = standings_order(series) if mode == "standings" else ()
    return seat_series(
        series, seed=seed, mode=mode, keep_clubs_apart=keep_clubs_apart, standings=standings
    )
