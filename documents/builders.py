"""From the ORM to the plain data of ``documents.data``, in a fixed small number of queries."""

from __future__ import annotations

from collections import defaultdict

from django.utils import timezone

from documents.data import SeatInfo, SeriesInfo, TableInfo
from scoring.rulesets import ruleset_for
from tournaments.models import Seat, Series, Table, absolute_url


def load_series(series: Series) -> SeriesInfo:
    """Everything a print pack shows for one series: three queries whatever its size."""
    series = Series.objects.select_related("tournament").get(pk=series.pk)
    tournament = series.tournament
    ruleset = ruleset_for(tournament)
    tables = list(Table.objects.filter(series=series).order_by("number"))
    seats_by_table: dict[int, list[SeatInfo]] = defaultdict(list)
    seats = (
        Seat.objects.filter(series=series)
        .order_by("table_id", "position")
        .values_list(
            "table_id",
            "position",
            "registration__player__first_name",
            "registration__player__last_name",
            "registration__start_number",
            "registration__player__club",
        )
    )  # plain rows: building a model instance per seat cost more than the query
    for table_id, position, first_name, last_name, start_number, club in seats:
        seats_by_table[table_id].append(
            SeatInfo(
                position=position,
                first_name=first_name,
                last_name=last_name,
                start_number=start_number,
                club=club,
            )
        )
    starts_at = series.starts_at
    date = timezone.localtime(starts_at).date() if starts_at else tournament.starts_on
    return SeriesInfo(
        tournament_name=tournament.name,
        tournament_slug=tournament.slug,
        venue=tournament.venue,
        series_number=series.number,
        date=date,
        starts_at=timezone.localtime(starts_at) if starts_at else None,
        playing_minutes_4=ruleset.playing_minutes(4),
        playing_minutes_5=ruleset.playing_minutes(5),
        tables=tuple(
            TableInfo(
                number=table.number,
                entry_url=absolute_url(table.get_captain_url()),
                seats=tuple(seats_by_table[table.pk]),
                normal_games=ruleset.normal_games(len(seats_by_table[table.pk])),
                compulsory_solos=ruleset.compulsory_solos,
            )
            for table in tables
        ),
    )
