"""Standings: the maintained per-series totals of every player (``SeriesTotal``) plus the
names, ranked by the pure core in ranking.py."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from scoring.models import SeriesTotal
from scoring.ranking import StandingRow, rank
from tournaments.models import DEFAULT_TIEBREAK, Registration, Series, Tournament

#: What a player's line sums over his series, as the totals name it.
COUNTED = ("games", "solos", "solos_won", "compulsory", "voluntary_won")


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
    """One row per player: his totals per series (series number → points, then COUNTED).

    The totals are read as they are kept, one row per player and series (a total without
    score rows behind it stands for no result), then the names; the pivot happens in Python.
    """
    totals = SeriesTotal.objects.filter(tournament=tournament, entries__gt=0)
    totals = (
        totals.filter(series_number=only_series)
        if only_series
        else totals.filter(series_number__lte=columns)
    )
    players: dict[int, dict[str, Any]] = {
        r["pk"]: {**r, "series": {}}
        for r in Registration.objects.filter(tournament=tournament).values(
            "pk", "start_number", "player__first_name", "player__last_name", "player__club"
        )
    }
    for registration, number, *sums in totals.values_list(
        "registration_id", "series_number", "points", *COUNTED
    ).order_by():
        players[registration]["series"][number] = sums
    return list(players.values())


def _rows(values: list[dict[str, Any]], columns: int) -> list[StandingRow]:
    rows = []
    for v in values:
        played: dict[int, list[int]] = v["series"]
        series_points = tuple(played[n][0] if n in played else None for n in range(1, columns + 1))
        # column sums over the player's series: points first, then COUNTED
        columns_summed = [sum(c) for c in zip(*played.values(), strict=True)] or [0] * 6
        sums = dict(zip(COUNTED, columns_summed[1:], strict=True))
        data = {
            "start_number": v["start_number"],
            "name": f"{v['player__first_name']} {v['player__last_name']}",
            "club": v["player__club"],
            **sums,
            "voluntary": sums["solos"] - sums["compulsory"],
        }
        total = sum(p for p in series_points if p is not None)
        rows.append(StandingRow(key=v["pk"], series_points=series_points, total=total, data=data))
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
    values = [v for v in _aggregate(series.tournament, series.number, series.number) if v["series"]]
    rows = [
        StandingRow(row.key, (row.series_points[-1],), row.total, row.data)
        for row in _rows(values, series.number)
    ]
    return _table(rank(rows, ()))


def points_before_series(tournament: Tournament, before_series: int) -> dict[int, int]:
    """Start number → total points of the series before ``before_series`` (draw by standings)."""
    totals = (
        SeriesTotal.objects.filter(
            tournament=tournament, series_number__lt=before_series, entries__gt=0
        )
        .values("registration__start_number")
        .annotate(total=Sum("points"))
        .order_by()
    )
    return {t["registration__start_number"]: t["total"] for t in totals}
