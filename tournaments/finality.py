"""Which series of a tournament are final, counted in the statement that reads the
tournaments: a season's ranking, a player's seasons and a league's table count closed series
only (``seasons.ranking.final``, ``teams.standings``)."""

from __future__ import annotations

from django.db.models import Case, Count, F, Q, Sum, Value, When
from django.db.models.expressions import Combinable, CombinedExpression

from tournaments.models import Series


def closed_series_mask(series: str = "series") -> Sum:
    """Per tournament, the sum of 2^n over its closed series n (series numbers are at most
    20, ``tournament_series_count_range``): which series are final, in the same statement.
    ``series`` is the path to the tournament's series from the rows annotated."""
    return Sum(
        Case(
            When(
                **{f"{series}__status": Series.Status.CLOSED},
                then=CombinedExpression(Value(1), Combinable.BITLEFTSHIFT, F(f"{series}__number")),
            ),
            default=Value(0),
        )
    )


def open_series_count(series: str = "series") -> Count:
    """Per tournament, its series not closed yet (0: its results are final)."""
    return Count(series, filter=~Q(**{f"{series}__status": Series.Status.CLOSED}))
