"""Standings: the maintained totals of every player (``TournamentTotal`` over the tournament,
``SeriesTotal`` per series) with the names, ranked by the pure core in ranking.py."""

from __future__ import annotations

import json
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from django.db.models import Sum

from common.collector import collector_paused
from common.sql import prepared_cursor
from scoring.models import SeriesTotal, TournamentTotal
from scoring.ranking import rank_columns, series_sums
from tournaments.models import DEFAULT_TIEBREAK, Player, Registration, Seat, Series, Tournament
from tournaments.publication import AnonymousLabels, retention_expired, shown_names

#: What a player's line sums over his series, as the totals name it.
COUNTED = ("games", "solos", "solos_won", "compulsory", "voluntary_won")
NAMES = (
    "pk", "start_number", "player__first_name", "player__last_name", "player__club",
    "player__name_form",
)  # fmt: skip


def _series_with_results(tournament: Tournament, up_to: int | None) -> int:
    """The highest series number with any result (the columns of the table)."""
    numbers = tournament.series.exclude(status=Series.Status.PLANNED).values_list(
        "number", flat=True
    )
    started = [n for n in numbers if up_to is None or n <= up_to]
    return max(started, default=0)


class _Field(NamedTuple):
    """Every player's figures before the ranking, one entry per player in each: ``rows``
    hold NAMES then the sums of COUNTED (and may hold more), ``series_points`` his points
    per series (None where he has no result; each list his line's own). ``complete``: no
    None in any and at least one series (the usual table: the ranking then runs in C)."""

    rows: Sequence[Sequence[Any]]
    series_points: list[list[int | None]]
    complete: bool = False


def _lines(field: _Field, shown: Shown, tiebreak: Sequence[str]) -> list[dict[str, Any]]:
    """The lines of the table in rank order with their places, the names as ``shown``.

    Column by column and each line's dict made once, in its final order: at 5,000 players
    a row object, a ranked tuple and a call per line for the name cost as much again as the
    rest of the standings."""
    rows, points, complete = field
    totals = series_sums(points, complete)
    keys = list(map(itemgetter(0), rows))
    order = rank_columns(keys, points, totals, tiebreak, complete=complete)
    ranked = list(map(rows.__getitem__, order.indexes))
    return [
        {
            "place": place,
            "shared": shared,
            "registration": row[0],
            "total": total,
            "series": series,
            "start_number": row[1],
            "name": name,
            "club": row[4],
            "games": row[6],
            "solos": row[7],
            "solos_won": row[8],
            "compulsory": row[9],
            "voluntary_won": row[10],
            "voluntary": row[7] - row[9],
        }
        for row, series, total, name, place, shared in zip(
            ranked,
            map(points.__getitem__, order.indexes),
            map(totals.__getitem__, order.indexes),
            shown.names(ranked),
            order.places,
            order.shared,
            strict=True,
        )
    ]


def _overall_sql() -> str:
    registrations, players, totals, series = (
        m._meta.db_table for m in (Registration, Player, TournamentTotal, Series)
    )
    return f"""
        SELECT r.id, r.start_number, p.first_name, p.last_name, p.club, p.name_form,
               COALESCE(t.games, 0), COALESCE(t.solos, 0), COALESCE(t.solos_won, 0),
               COALESCE(t.compulsory, 0), COALESCE(t.voluntary_won, 0),
               COALESCE(t.series_points, '[]'),
               (SELECT max(s.number) FROM {series} s
                 WHERE s.tournament_id = %s AND s.status <> %s)
          FROM {registrations} r
          JOIN {players} p ON p.id = r.player_id
          LEFT JOIN {totals} t ON t.registration_id = r.id AND t.tournament_id = %s
         WHERE r.tournament_id = %s
    """  # table names come from the models; every value is a parameter


def _overall_rows(tournament: Tournament) -> _Field | None:
    """Every player's figures from his tournament total, read in one statement with his
    name and the number of columns (as ``_series_with_results``); None if a total holds a
    series beyond the columns (then only the series totals can say).

    The overall standings are the most read page of a running tournament: one plain
    statement, prepared once per connection, its series points kept as JSON text
    (``PointsListField``: PostgreSQL converts nothing) and decoded in one call for all
    players. (Through the ORM, building the query and converting the rows took as long as
    reading the registrations; so did decoding each player's list on its own.) The totals
    are joined by their tournament too, so that the planner reads only this tournament's
    (its index)."""
    pk = tournament.pk
    with prepared_cursor() as cursor:  # parsed and planned once per connection
        cursor.execute(_overall_sql(), [pk, Series.Status.PLANNED.value, pk, pk])
        found = cursor.fetchall()
    text = ",".join(map(itemgetter(11), found))
    every: list[list[int | None]] = json.loads(f"[{text}]")
    columns = (found[0][12] or 0) if found else 0
    lengths = set(map(len, every))
    if max(lengths, default=0) > columns:
        return None
    if lengths <= {columns}:  # every player has a figure for every column
        return _Field(found, every, bool(columns) and "null" not in text)
    missing = [None] * columns
    return _Field(found, [[*played, *missing[len(played) :]] for played in every])


def _series_rows(tournament: Tournament, columns: int, only_series: int | None = None) -> _Field:
    """Every player's figures from his series totals up to ``columns``; with ``only_series``
    the players of that series, with its points only. A total without score rows behind
    it (its last game deleted) stands for no result."""
    totals = SeriesTotal.objects.filter(tournament=tournament, entries__gt=0)
    totals = (
        totals.filter(series_number=only_series)
        if only_series
        else totals.filter(series_number__lte=columns)
    )
    played: dict[int, dict[int, list[int]]] = {}
    for registration, number, *sums in totals.values_list(
        "registration_id", "series_number", "points", *COUNTED
    ).order_by():
        played.setdefault(registration, {})[number] = sums
    rows: list[tuple[Any, ...]] = []
    points: list[list[int | None]] = []
    for name in Registration.objects.filter(tournament=tournament).values_list(*NAMES).order_by():
        mine = played.get(name[0], {})
        if only_series and not mine:
            continue
        numbers = (only_series,) if only_series else range(1, columns + 1)
        points.append([mine[n][0] if n in mine else None for n in numbers])
        counts = [sum(v[i] for v in mine.values()) for i in range(1, len(COUNTED) + 1)]
        rows.append((*name, *counts))
    return _Field(rows, points)


class Shown:
    """How the names of one table are shown: in full to the registry's ``keeper``, else as
    each player consented (``tournaments.publication``), all anonymous once the
    tournament's publication period is over."""

    def __init__(self, tournament: Tournament, *, keeper: bool) -> None:
        self.keeper = keeper
        self.expired = not keeper and retention_expired(tournament)

    def names(self, rows: Sequence[Sequence[Any]]) -> list[str]:
        """The names of ``rows`` (as NAMES) as shown (the anonymous labels translated once
        per table)."""
        first, last, name_form, start_number = (itemgetter(i) for i in (2, 3, 5, 1))
        return shown_names(
            map(first, rows),
            map(last, rows),
            map(name_form, rows),
            map(start_number, rows),
            keeper=self.keeper,
            expired=self.expired,
            labels=AnonymousLabels(),
        )


def overall_standings(
    tournament: Tournament, *, up_to: int | None = None, keeper: bool = False
) -> list[dict[str, Any]]:
    """All players by total points over the series so far (penalties included); the names
    as published (``keeper``: in full, for the tournament's organizers' own pages)."""
    shown = Shown(tournament, keeper=keeper)
    with collector_paused():  # a line's objects per player
        field = _overall_rows(tournament) if up_to is None else None
        if field is None:
            field = _series_rows(tournament, _series_with_results(tournament, up_to))
        return _lines(field, shown, tournament.tiebreak or DEFAULT_TIEBREAK)


def series_standings(series: Series, *, keeper: bool = False) -> list[dict[str, Any]]:
    """The players of one series by their points in it (names as ``overall_standings``)."""
    shown = Shown(series.tournament, keeper=keeper)
    with collector_paused():
        field = _series_rows(series.tournament, series.number, series.number)
        return _lines(field, shown, ())


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


def unconfirmed_registrations(tournament: Tournament, series: Series | None = None) -> set[int]:
    """The registrations (of ``series``, else of the whole tournament) that sat at a table
    whose sheet the organizers closed before it was confirmed: their standings lines are
    marked (one query)."""
    seats = Seat.objects.filter(
        series__tournament=tournament, table__sheet__closed_unconfirmed=True
    )
    if series is not None:
        seats = seats.filter(series=series)
    return set(seats.values_list("registration_id", flat=True))
