"""From the ORM to the plain data of ``documents.data``, in a fixed small number of queries.

A series of a team competition's group (``teams.models.Group``) prints the same documents
with the group as the title and each player's team beside his name, from the series'
line-ups."""

from __future__ import annotations

from collections import defaultdict

from django.utils import timezone
from django.utils.translation import gettext

from documents.data import SeatInfo, SeriesInfo, TableInfo
from scoring.rulesets import ruleset_for
from teams.models import Group, LineUp
from tournaments.models import Seat, Series, Table, Tournament, absolute_url


def _team_group(tournament: Tournament) -> Group | None:
    """The team competition's group the tournament is, if any (loaded with it)."""
    group = getattr(tournament, "team_group", None)  # no group: the accessor raises
    return group if isinstance(group, Group) else None


def _competition(group: Group) -> str:
    """The group's heading in the active language: "Liga, match day 2, group 3", or for a
    knockout match "Liga, knockout round 1, match 2"."""
    if group.match_day.knockout_round is not None:
        return gettext("%(league)s, knockout round %(round)d, match %(match)d") % {
            "league": group.match_day.league.name,
            "round": group.match_day.knockout_round,
            "match": group.number,
        }
    return gettext("%(league)s, match day %(day)d, group %(group)d") % {
        "league": group.match_day.league.name,
        "day": group.match_day.number,
        "group": group.number,
    }


def load_series(series: Series) -> SeriesInfo:
    """Everything a print pack shows for one series: three queries whatever its size, and
    a fourth for a team group's line-ups."""
    series = Series.objects.select_related("tournament__team_group__match_day__league").get(
        pk=series.pk
    )
    tournament = series.tournament
    group = _team_group(tournament)
    team_of: dict[int, str] = {}
    if group is not None:
        team_of = dict(
            LineUp.objects.filter(group=group, series_number=series.number).values_list(
                "registration_id", "team__name"
            )
        )
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
            "registration_id",
        )
    )  # plain rows: building a model instance per seat cost more than the query
    for table_id, position, first_name, last_name, start_number, club, registration in seats:
        seats_by_table[table_id].append(
            SeatInfo(
                position=position,
                first_name=first_name,
                last_name=last_name,
                start_number=start_number,
                club=club,
                team=team_of.get(registration, ""),
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
        competition=_competition(group) if group is not None else "",
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
