"""Reads of team competitions: a group's day result, the league table, a team's page. Each
in a constant number of queries, whatever the number of teams, days and games. (The
individual ranking is ``teams.individual_standings``.)

A team's points in a series are the sum of its line-up players' totals of that series in
the group's tournament (``scoring.SeriesTotal``: deductions included); the pure
``teams.scoring`` places the teams and hands out victory points.

Only what is final counts in the league: a group's day gives victory points and game points
to the table once every series of its tournament is closed (``GroupResult.final``; until
then its result is shown as provisional). The same rule as a season's
(``seasons.ranking``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Exists, F, OuterRef, QuerySet

from scoring.models import SeriesTotal
from teams import scoring as team_scoring
from teams import season_end as season_end_core
from teams.models import (
    IN_GROUP_STAGE,
    Group,
    GroupTeam,
    League,
    LineUp,
    MatchDay,
    SquadMember,
    Team,
)
from teams.rules import team_scoring as scoring_of
from teams.services import Substitution, substitutions_from
from tournaments.finality import open_series_count
from tournaments.models import Player
from tournaments.names import by_name


@dataclass(frozen=True)
class TeamDayLine:
    """A team's match day in its group: points per series (1, 2, …; 0 where nothing was
    entered), their sum, the place (the best place of a tie) and the victory points."""

    team: Team
    series_points: tuple[int, ...]
    points: int
    place: int
    shared: bool
    victory_points: Fraction


@dataclass(frozen=True)
class GroupResult:
    """A group's day, best team first. ``played``: some game of the group is entered (a
    group not played yet is listed with every team on 0 and is left out of the table)."""

    group: Group
    lines: tuple[TeamDayLine, ...]
    played: bool
    final: bool = False  # every series of the group's tournament closed: it counts

    @property
    def provisional(self) -> bool:
        """Played, but a series still runs: shown, not counted in the table."""
        return self.played and not self.final


@dataclass(frozen=True)
class LeagueLine:
    """A team's line of the league table; ``days`` its day lines, match day by match day."""

    team: Team
    place: int
    shared: bool
    victory_points: Fraction
    points: int
    day_wins: int
    best_day: int
    days: tuple[tuple[MatchDay, TeamDayLine], ...]
    mark: season_end_core.Mark | None = None  # up, down, play-off, or undecided at a cut


@dataclass(frozen=True)
class LeagueTable:
    league: League
    teams: tuple[LeagueLine, ...]
    groups: tuple[GroupResult, ...]
    season_end: season_end_core.SeasonEnd | None = None  # None: the table is empty


@dataclass(frozen=True)
class GroupStage:
    """Whether a league's group stage is over (``season_final``'s rule, read without the
    table): ``days_missing`` match days not made yet, ``open_groups`` the groups made but not
    final (nothing entered yet, or a series still open), by match day."""

    days_missing: int
    open_groups: tuple[Group, ...]
    made: bool  # some group of the group stage exists

    @property
    def final(self) -> bool:
        return self.made and not self.days_missing and not self.open_groups


@dataclass(frozen=True)
class SeriesLineUp:
    series_number: int
    players: tuple[Player, ...]


@dataclass(frozen=True)
class TeamDay:
    """A team's match day: its group, line-ups per series, substitutions and result."""

    match_day: MatchDay
    group: Group
    line_ups: tuple[SeriesLineUp, ...]
    substitutions: tuple[Substitution, ...]
    result: TeamDayLine | None
    played: bool
    final: bool = False  # every series closed: the day counts in the table


@dataclass(frozen=True)
class TeamPage:
    team: Team
    squad: tuple[Player, ...]
    days: tuple[TeamDay, ...]


def _with_finality(groups: QuerySet[Group]) -> QuerySet[Group]:
    """The groups with ``open_series`` (its tournament's series not closed yet), in the
    same statement."""
    return groups.annotate(open_series=open_series_count("tournament__series"))


def with_finality(groups: QuerySet[Group]) -> QuerySet[Group]:
    """``groups`` ready for ``group_results``: whether each series is closed, annotated."""
    return _with_finality(groups)


def group_results(
    league: League, groups: Sequence[Group], scoring: team_scoring.TeamScoring
) -> dict[int, GroupResult]:
    """The results of ``groups`` (loaded by ``with_finality``) placed by ``scoring``, in
    three queries (the knockout's matches, ranked as any group is)."""
    return _results(league, groups, scoring)[0]


def _results(
    league: League, groups: Sequence[Group], scoring: team_scoring.TeamScoring | None = None
) -> tuple[dict[int, GroupResult], list[LineUp], dict[tuple[int, int], SeriesTotal]]:
    """The results of ``groups`` (of one league, their match days loaded) in three queries;
    also the line-ups and totals they were made from."""
    scoring = scoring or scoring_of(league)
    ids = [group.pk for group in groups]
    entries = list(
        GroupTeam.objects.filter(group__in=ids).select_related("team").order_by("group", "order")
    )
    line_ups = list(
        LineUp.objects.filter(group__in=ids)
        .select_related("player")
        .order_by("group", "series_number", "team", "order")
    )
    totals = {
        (total.registration_id, total.series_number): total
        for total in SeriesTotal.objects.filter(
            tournament__in=[group.tournament_id for group in groups]
        )
    }
    series_count = league.series_per_day
    points: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0] * series_count)
    played: set[int] = set()
    for line in line_ups:
        total = totals.get((line.registration_id, line.series_number))
        if total is None or not 1 <= line.series_number <= series_count:
            continue
        points[(line.group_id, line.team_id)][line.series_number - 1] += total.points
        if total.entries:
            played.add(line.group_id)
    teams_of: dict[int, list[Team]] = defaultdict(list)
    for entry in entries:
        teams_of[entry.group_id].append(entry.team)
    results: dict[int, GroupResult] = {}
    for group in groups:
        teams = {team.pk: team for team in teams_of[group.pk]}
        day = [
            team_scoring.TeamResult(team=pk, player_points=tuple(points[(group.pk, pk)]))
            for pk in teams
        ]
        ranked = team_scoring.rank_group(day, scoring) if day else ()
        results[group.pk] = GroupResult(
            group=group,
            lines=tuple(
                TeamDayLine(
                    team=teams[line.team],
                    series_points=tuple(points[(group.pk, line.team)]),
                    points=line.points,
                    place=line.place,
                    shared=line.shared,
                    victory_points=line.victory_points,
                )
                for line in ranked
            ),
            played=group.pk in played,
            final=group.pk in played and getattr(group, "open_series", 1) == 0,
        )
    return results, line_ups, totals


def group_result(group: Group) -> GroupResult:
    """One group's day: per team its points per series and in all, its place and victory
    points (four queries)."""
    group = _with_finality(Group.objects.select_related("match_day__league")).get(pk=group.pk)
    results, _line_ups, _totals = _results(group.match_day.league, [group])
    return results[group.pk]


def league_table(league: League) -> LeagueTable:
    """The league table over every played group (``teams.scoring.rank_season``: victory
    points, game points, then the league's tie-breaks). Five queries."""
    groups = list(
        _with_finality(Group.objects.filter(IN_GROUP_STAGE, match_day__league=league))
        .select_related("match_day")
        .order_by("match_day__number", "number")
    )
    results, _line_ups, _totals = _results(league, groups)
    teams = {team.pk: team for team in Team.objects.filter(league=league)}
    by_day: dict[int, list[GroupResult]] = defaultdict(list)
    for group in groups:
        if results[group.pk].final:  # a running day is shown, not counted
            by_day[group.match_day.number].append(results[group.pk])
    days = [by_day[number] for number in sorted(by_day)]
    season = team_scoring.rank_season(
        [
            [
                [
                    team_scoring.TeamResult(team=line.team.pk, player_points=line.series_points)
                    for line in result.lines
                ]
                for result in day
            ]
            for day in days
        ],
        scoring_of(league),
    )
    day_lines: dict[int, list[tuple[MatchDay, TeamDayLine]]] = defaultdict(list)
    for day in days:
        for result in day:
            for line in result.lines:
                day_lines[line.team.pk].append((result.group.match_day, line))
    end = (
        season_end_core.season_end(
            [season_end_core.TableEntry(line.team, line.place) for line in season],
            places_of(league),
            final=season_final(league, [results[group.pk] for group in groups]),
        )
        if season
        else None
    )
    marks = {mark.team: mark for mark in end.marks} if end else {}
    team_lines = tuple(
        LeagueLine(
            team=teams[line.team],
            place=line.place,
            shared=line.shared,
            victory_points=line.victory_points,
            points=line.points,
            day_wins=line.day_wins,
            best_day=line.best_day,
            days=tuple(day_lines[line.team]),
            mark=marks.get(line.team),
        )
        for line in season
    )
    return LeagueTable(
        league=league,
        teams=team_lines,
        groups=tuple(results[group.pk] for group in groups),
        season_end=end,
    )


def group_stage(league: League) -> GroupStage:
    """Whether every match day of ``league``'s group stage is made and final, and what is
    missing: one query, whatever the number of days, groups and games. A group counts as
    played as in ``group_results``: a lined-up player's total of one of the day's series
    has an entry."""
    played = LineUp.objects.filter(
        group=OuterRef("pk"),
        series_number__gte=1,
        series_number__lte=league.series_per_day,
        registration__series_totals__series_number=F("series_number"),
        registration__series_totals__entries__gt=0,
    )
    groups = list(
        _with_finality(Group.objects.filter(IN_GROUP_STAGE, match_day__league=league))
        .annotate(played=Exists(played))
        .select_related("match_day")
        .order_by("match_day__number", "number")
    )
    days = {group.match_day.number for group in groups}
    return GroupStage(
        days_missing=max(league.days - len(days), 0),
        open_groups=tuple(
            group
            for group in groups
            if not (getattr(group, "played", False) and getattr(group, "open_series", 1) == 0)
        ),
        made=bool(groups),
    )


def places_of(league: League) -> season_end_core.Places:
    """The league's setting of the places going up, down and into the play-off."""
    return season_end_core.Places(
        up=league.promotion_places,
        down=league.relegation_places,
        playoff=league.playoff_places,
    )


def season_final(league: League, results: Sequence[GroupResult]) -> bool:
    """Every match day of the season made and final (each of its groups' series closed):
    the marks are the season's; before that they are provisional."""
    numbers = {result.group.match_day.number for result in results}
    return bool(results) and len(numbers) >= league.days and all(result.final for result in results)


def team_page(team: Team) -> TeamPage:
    """A team's squad, and per match day its group, line-ups per series with the
    substitutions between them, and its result. Six queries."""
    team = Team.objects.select_related("league").get(pk=team.pk)
    squad = tuple(
        by_name(
            member.player
            for member in SquadMember.objects.filter(team=team)
            .select_related("player")
            .order_by("player__pk")
        )
    )
    groups = list(
        _with_finality(Group.objects.filter(IN_GROUP_STAGE, group_teams__team=team))
        .select_related("match_day")
        .order_by("match_day__number", "number")
    )
    results, line_ups, _totals = _results(team.league, groups)
    own: dict[int, dict[int, dict[int, Player]]] = defaultdict(lambda: defaultdict(dict))
    ordered: dict[int, dict[int, list[Player]]] = defaultdict(lambda: defaultdict(list))
    for line in line_ups:
        if line.team_id == team.pk:
            own[line.group_id][line.series_number][line.player_id] = line.player
            ordered[line.group_id][line.series_number].append(line.player)
    days = []
    for group in groups:
        result = results[group.pk]
        days.append(
            TeamDay(
                match_day=group.match_day,
                group=group,
                line_ups=tuple(
                    SeriesLineUp(number, tuple(players))
                    for number, players in sorted(ordered[group.pk].items())
                ),
                substitutions=tuple(substitutions_from(team, own[group.pk])),
                result=next((line for line in result.lines if line.team.pk == team.pk), None),
                played=result.played,
                final=result.final,
            )
        )
    return TeamPage(team=team, squad=squad, days=tuple(days))
