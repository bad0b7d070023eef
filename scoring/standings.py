"""Standings: the maintained totals of every player (``TournamentTotal`` over the tournament,
``SeriesTotal`` per series) with the names, ranked by the pure core in ranking.py."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from django.db import connection
from django.db.models import Sum

from common.collector import collector_paused
from scoring.models import SeriesTotal, TournamentTotal
from scoring.ranking import Ranked, StandingRow, rank
from tournaments.models import DEFAULT_TIEBREAK, Player, Registration, Seat, Series, Tournament
from tournaments.publication import AnonymousLabels, retention_expired, shown_name

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


def _row(
    name: Sequence[Any],
    series_points: tuple[int | None, ...],
    counts: Sequence[int],
    shown: Shown,
) -> StandingRow:
    """A player's figures: ``name`` as NAMES, his points per series, the sums of COUNTED.
    Its data is already his line of the table, but for the place (``_table``); the name as
    ``shown`` (the viewer and the player's consent) decide."""
    pk, start_number, first_name, last_name, club, name_form = name
    games, solos, solos_won, compulsory, voluntary_won = counts
    total = sum(filter(None, series_points))
    line = {
        "place": 0,
        "shared": False,
        "registration": pk,
        "total": total,
        "series": list(series_points),
        "start_number": start_number,
        "name": shown.name(first_name, last_name, name_form, start_number),
        "club": club,
        "games": games,
        "solos": solos,
        "solos_won": solos_won,
        "compulsory": compulsory,
        "voluntary_won": voluntary_won,
        "voluntary": solos - compulsory,
    }
    return StandingRow(pk, series_points, total, line)


def _overall_sql() -> str:
    registrations, players, totals, series = (
        m._meta.db_table for m in (Registration, Player, TournamentTotal, Series)
    )
    return f"""
        SELECT r.id, r.start_number, p.first_name, p.last_name, p.club, p.name_form,
               COALESCE(t.games, 0), COALESCE(t.solos, 0), COALESCE(t.solos_won, 0),
               COALESCE(t.compulsory, 0), COALESCE(t.voluntary_won, 0),
               CAST(t.series_points AS text),
               (SELECT max(s.number) FROM {series} s
                 WHERE s.tournament_id = %s AND s.status <> %s)
          FROM {registrations} r
          JOIN {players} p ON p.id = r.player_id
          LEFT JOIN {totals} t ON t.registration_id = r.id
         WHERE r.tournament_id = %s
    """  # table names come from the models; every value is a parameter


def _overall_rows(tournament: Tournament, shown: Shown) -> list[StandingRow] | None:
    """Every player's line from his tournament total, read in one statement with his name
    and the number of columns (as ``_series_with_results``); None if a total holds a series
    beyond the columns (then only the series totals can say).

    The overall standings are the most read page of a running tournament: one plain
    statement, its series points as JSON text decoded in one call for all players. (Through
    the ORM, building the query and converting the rows took as long as reading the
    registrations; so did decoding each player's list on its own.)"""
    with connection.cursor() as cursor:
        cursor.execute(_overall_sql(), [tournament.pk, Series.Status.PLANNED.value, tournament.pk])
        found = cursor.fetchall()
    every = json.loads("[" + ",".join(row[11] or "[]" for row in found) + "]")
    columns = (found[0][12] or 0) if found else 0
    missing = (None,) * columns
    rows = []
    for row, played in zip(found, every, strict=True):
        if len(played) > columns:
            return None
        rows.append(_row(row[:6], (*played, *missing[len(played) :]), row[6:11], shown))
    return rows


def _series_rows(
    tournament: Tournament, columns: int, shown: Shown, only_series: int | None = None
) -> list[StandingRow]:
    """Every player's line from his series totals up to ``columns``; with ``only_series``
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
    rows = []
    for name in Registration.objects.filter(tournament=tournament).values_list(*NAMES).order_by():
        mine = played.get(name[0], {})
        if only_series and not mine:
            continue
        numbers = (only_series,) if only_series else range(1, columns + 1)
        series_points = tuple(mine[n][0] if n in mine else None for n in numbers)
        counts = [sum(v[i] for v in mine.values()) for i in range(1, len(COUNTED) + 1)]
        rows.append(_row(name, series_points, counts, shown))
    return rows


def _table(ranked: list[Ranked]) -> list[dict[str, Any]]:
    """The lines in rank order with their places."""
    lines = []
    for r in ranked:
        line = r.row.data
        line["place"], line["shared"] = r.place, r.shared
        lines.append(line)
    return lines


class Shown:
    """How the names of one table are shown: in full to the registry's ``keeper``, else as
    each player consented (``tournaments.publication``), all anonymous once the
    tournament's publication period is over. ``name(first, last, name_form, start_number)``
    is ``shown_name`` with these settings (a partial: one call less for each line)."""

    def __init__(self, tournament: Tournament, *, keeper: bool) -> None:
        self.keeper = keeper
        self.expired = not keeper and retention_expired(tournament)
        self.name: Callable[[str, str, str, int | None], str] = partial(
            shown_name, keeper=keeper, expired=self.expired, labels=AnonymousLabels()
        )


def overall_standings(
    tournament: Tournament, *, up_to: int | None = None, keeper: bool = False
) -> list[dict[str, Any]]:
    """All players by total points over the series so far (penalties included); the names
    as published (``keeper``: in full, for the tournament's organizers' own pages)."""
    shown = Shown(tournament, keeper=keeper)
    with collector_paused():  # a line's objects per player
        rows = _overall_rows(tournament, shown) if up_to is None else None
        if rows is None:
            rows = _series_rows(tournament, _series_with_results(tournament, up_to), shown)
        return _table(rank(rows, tournament.tiebreak or DEFAULT_TIEBREAK))


def series_standings(series: Series, *, keeper: bool = False) -> list[dict[str, Any]]:
    """The players of one series by their points in it (names as ``overall_standings``)."""
    shown = Shown(series.tournament, keeper=keeper)
    with collector_paused():
        rows = _series_rows(series.tournament, series.number, shown, series.number)
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
