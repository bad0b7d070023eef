"""The public league page and a team's page take as many queries after two played match days
as after one: nothing on them is loaded per day, group, team or player."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from teams.models import Group, League, Team
from teams.services import draw_team_series, make_match_days
from tests.teams.helpers import league_with_teams, line_up_all, organizer, play_re
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def _play_day(
    league: League, number: int, teams: list[Team], players: list[list[Player]], owner: User
) -> None:
    """Match day ``number``: every team names its first four, the series is drawn and one
    game is entered at each table (teams 0 and 1 are Re and win)."""
    group = Group.objects.select_related("tournament").get(
        match_day__league=league, match_day__number=number
    )
    line_up_all(group, teams, players, 1, owner)
    series = group.tournament.series.get(number=1)
    draw_team_series(series)
    play_re(series, teams, [(0, 1)] * 4)


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_league_and_team_pages_take_the_same_queries_for_one_and_two_played_days(
    alice: User,
) -> None:
    league, teams, players = league_with_teams(alice, 4, squad=4, days=2, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    pages = {
        "league": reverse("teams:detail", args=[league.slug]),
        "team": reverse("teams:team", args=[league.slug, teams[0].pk]),
    }
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    _play_day(league, 1, teams, players, alice)
    one_day = {name: _queries(client, url) for name, url in pages.items()}
    _play_day(league, 2, teams, players, alice)
    two_days = {name: _queries(client, url) for name, url in pages.items()}
    assert two_days == one_day, (one_day, two_days)
    # Both days are on the pages: each table had one game, teams 0 and 1 Re (+1 for each
    # of their four players), so on each day both have 4 game points, tie first and share
    # (4 + 3) / 2 = 3.5 victory points: 7 after two days.
    team_page = client.get(pages["team"]).content.decode()
    assert team_page.count("Place 1 with 4 game points: <strong>victory points: 3.5") == 2
    table = client.get(pages["league"]).content.decode()
    assert table.count("<strong>7</strong>") == 2
