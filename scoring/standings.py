"""Standings: one aggregate query over PlayerScore, ranked by the pure core in ranking.py."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce

from scoring.models import PlayerScore
from scoring.ranking import DEFAULT_TIEBREAK, StandingRow, rank
from tournaments.models import Registration, Series, Tournament


def _series_with_results(tournament: Tournament, up_to: int | None) -> int:
    """The highest series number with any result (the columns of the table)."""
    numbers = tournament.series.exclude(status=Series.Status.PLANNED).values_list(
        "number", flat=True
    )
    started = [n for n in numbers if up_to is None or n <= up_to]
    return max(started, default=0)


def _aggregate(
    tournament: Tournament, columns: int, only_series: int | None
) -> list[dict[str, Any]]:
    """One row per registration with points per series and solo counts: one query."""
    scope = (
        Q(scores__series_number=only_series)
        if only_series
        else Q(scores__series_number__lte=columns)
    )
    per_series = {
        f"s{n}": Sum("scores__points", filter=Q(scores__series_number=n))
        for n in range(1, columns + 1)
    }
    played_in = {
        f"p{n}": Count("scores", filter=Q(scores__series_number=n))  # any row: sitters too
        for n in range(1, columns + 1)
    }
    return list(
        Registration.objects.filter(tournament=tournament)
        .values(
            "pk", "start_number", "player__first_name", "player__last_name", "player__club",
            "withdrawn_from_series",
        )
        .annotate(
            total=Coalesce(
                Sum("scores__points", filter=scope), Value(0), output_field=IntegerField()
            ),
            games=Count("scores", filter=scope & Q(scores__played=True)),
            solos=Count("scores", filter=scope & Q(scores__solo=True)),
            solos_won=Count("scores", filter=scope & Q(scores__solo=True, scores__won=True)),
            compulsory=Count("scores", filter=scope & Q(scores__compulsory=True)),
            voluntary_won=Count(
                "scores",
                filter=scope & Q(scores__solo=True, scores__compulsory=False, scores__won=True),
            ),
            **per_series,
            **played_in,
        )
        .order_by()
    )  # fmt: skip


def _rows(values: list[dict[str, Any]], columns: int) -> list[StandingRow]:
    rows = []
    for v in values:
        series_points = tuple(
            (v[f"s{n}"] or 0) if v[f"p{n}"] or v[f"s{n}"] else None for n in range(1, columns + 1)
        )
        data = {
            "start_number": v["start_number"],
            "name": f"{v['player__first_name']} {v['player__last_name']}",
            "club": v["player__club"],
            "games": v["games"],
            "solos": v["solos"],
            "solos_won": v["solos_won"],
            "compulsory": v["compulsory"],
            "voluntary": v["solos"] - v["compulsory"],
            "voluntary_won": v["voluntary_won"],
        }
        rows.append(
            StandingRow(key=v["pk"], series_points=series_points, total=v["total"], data=data)
        )
    return rows


def _table(ranked: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "place": r.place,
            "shared": r.shared,
            "registration": r.row.key,
            "total": r.row.total,
            "series": list(r.row.series_points),
            **r.row.data,
        }
        for r in ranked
    ]


def overall_standings(tournament: Tournament, *, up_to: int | None = None) -> list[dict[str, Any]]:
    """All players by total points over the series so far (penalties included)."""
    columns = _series_with_results(tournament, up_to)
    rows = _rows(_aggregate(tournament, columns, None), columns)
    return _table(rank(rows, tournament.tiebreak or DEFAULT_TIEBREAK))


def series_standings(series: Series) -> list[dict[str, Any]]:
    """The players of one series by their points in it."""
    columns = series.number
    values = [
        v
        for v in _aggregate(series.tournament, columns, series.number)
        if v[f"p{series.number}"] or v[f"s{series.number}"]
    ]
    rows = [
        StandingRow(row.key, (row.series_points[-1],), row.total, row.data)
        for row in _rows(values, columns)
    ]
    return _table(rank(rows, ()))


def points_before_series(tournament: Tournament, before_series: int) -> dict[int, int]:
    """Start number → total points of the series before ``before_series`` (draw by standings)."""
    totals = (
        PlayerScore.objects.filter(tournament=tournament, series_number__lt=before_series)
        .values("registration__start_number")
        .annotate(total=Sum("points"))
        .order_by()
    )
    return {t["registration__start_number"]: t["total"] for t in totals}
