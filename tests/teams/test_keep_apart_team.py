"""Keep-apart pairs in a team draw: players of different teams never share a table, every
table still seats one player of each team."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from teams.models import Group
from teams.services import make_match_days
from tests.teams.helpers import league_with_teams, line_up_all, organizer, team_of_seat
from tournaments.models import Registration
from tournaments.services.draw import seat_series
from tournaments.services.keep_apart import add_pair, not_honoured

pytestmark = pytest.mark.django_db


def test_the_team_draw_keeps_pairs_apart(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=1, series_per_day=4)
    make_match_days(league, actor=organizer(alice))
    group = Group.objects.get(match_day__league=league, match_day__number=1)
    tournament = group.tournament
    line_up_all(group, teams, players, 1, alice)

    def registration(team: int, member: int) -> Registration:
        return tournament.registrations.get(player=players[team][member])

    pairs = [(registration(0, 0), registration(1, 0)), (registration(2, 1), registration(3, 2))]
    for a, b in pairs:
        add_pair(tournament, a, b, actor=organizer(alice))
    for number in range(1, 5):
        if number > 1:
            line_up_all(group, teams, players, number, alice)
        series = tournament.series.get(number=number)
        plan = seat_series(series)
        assert plan.unhonoured == ()
        table_of = {
            seat.registration_id: seat.table.number for seat in series.seats.select_related("table")
        }
        for a, b in pairs:
            assert table_of[a.pk] != table_of[b.pk]
        for table in series.tables.all():
            assert sorted(team_of_seat(table, teams).values()) == [0, 1, 2, 3]
        assert not_honoured(series) == []
