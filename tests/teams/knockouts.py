"""A knockout's test world: a league whose group stage is one final match day, and results
of groups given as each team's points. The points are written as the series totals the
standings read (one total per lined-up player: the first carries the team's points), so a
test states a match's result in one line; how games become totals is the scoring tests'."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User

from scoring.models import SeriesTotal
from teams.knockout_services import KnockoutSettings, start_knockout
from teams.models import Group, Knockout, League, LineUp, MatchDay, Team
from teams.services import make_match_days, set_line_up
from tests.teams.helpers import league_with_teams, organizer
from tournaments.models import Player, Series


def give_result(
    group: Group,
    points: Mapping[str, int],
    squads: Mapping[int, list[Player]],
    owner: User,
    *,
    final: bool = True,
) -> None:
    """``points``: team name → its points in the group's (single) series; every team of the
    group names its first four players; the series closed when ``final``."""
    series = Series.objects.get(tournament=group.tournament, number=1)
    for entry in group.group_teams.select_related("team"):
        team = entry.team
        members = squads[team.pk][:4]
        lines = list(LineUp.objects.filter(group=group, team=team, series_number=1))
        if not lines:
            lines = set_line_up(group, team, 1, members, actor=organizer(owner))
        for index, line in enumerate(lines):
            SeriesTotal.objects.update_or_create(
                series=series,
                registration=line.registration,
                defaults={
                    "tournament": group.tournament,
                    "series_number": 1,
                    "entries": 1,
                    "points": points[team.name] if index == 0 else 0,
                },
            )
    status = Series.Status.CLOSED if final else Series.Status.RUNNING
    Series.objects.filter(pk=series.pk).update(status=status)


def group_stage_done(
    owner: User, teams: int, points: Mapping[str, int] | None = None, **settings: Any
) -> tuple[League, list[Team], dict[int, list[Player]]]:
    """A league of ``teams`` teams "T0", "T1", … whose one match day is played and final;
    by default T0 scores most, then T1, … (the schedule's seed is fixed: the same groups, so
    the same table, every run)."""
    league, made, players = league_with_teams(owner, teams, series_per_day=1, days=1, **settings)
    League.objects.filter(pk=league.pk).update(seed=1)  # the same groups every run
    league.refresh_from_db()
    make_match_days(league, actor=organizer(owner))
    squads = {team.pk: members for team, members in zip(made, players, strict=True)}
    scores = dict(points or {team.name: 100 - 10 * i for i, team in enumerate(made)})
    for group in Group.objects.filter(match_day__league=league):
        give_result(group, scores, squads, owner)
    return league, made, squads


def start(owner: User, league: League, **settings: Any) -> Knockout:
    return start_knockout(league, KnockoutSettings(**settings), actor=organizer(owner))


def round_groups(league: League, number: int) -> list[Group]:
    return list(
        Group.objects.filter(
            match_day__league=league,
            match_day__stage=MatchDay.Stage.KNOCKOUT,
            match_day__knockout_round=number,
        ).order_by("number")
    )


def names(group: Group) -> list[str]:
    return [e.team.name for e in group.group_teams.select_related("team").order_by("order")]
