"""A played group for the pages and the API: four teams of five, one group, two series;
series 1 played with one game per table in which teams 0 and 1 are Re and win (one point
each), so that teams 0 and 1 tie first with 4 game points and share 3.5 victory points,
teams 2 and 3 tie third with -4 and share 1.5. In series 2 each team's fifth player comes in
for its first."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from teams.models import Group, League, Team
from teams.services import draw_team_series, make_match_days, set_line_up
from tests.teams.helpers import league_with_teams, organizer, play_re
from tournaments.models import Player


@dataclass
class Played:
    league: League
    teams: list[Team]
    players: list[list[Player]]
    group: Group


def played_league(owner: User, *, slug: str = "liga", is_public: bool = True) -> Played:
    league, teams, players = league_with_teams(
        owner, 4, squad=5, slug=slug, series_per_day=2, days=1, is_public=is_public
    )
    make_match_days(league, actor=organizer(owner))
    group = Group.objects.get(match_day__league=league)
    for team, members in zip(teams, players, strict=True):
        set_line_up(group, team, 1, members[:4], actor=organizer(owner))
        set_line_up(group, team, 2, members[1:], actor=organizer(owner))
    series = group.tournament.series.get(number=1)
    draw_team_series(series)
    play_re(series, teams, [(0, 1)] * 4)
    return Played(league, teams, players, group)
