"""Two additions to a squad with one place left, at the same moment: the team row is locked,
so exactly one gets the place and the other is told the squad is full; two teams taking the
same player at once: one gets him, the other is refused (the database's one-team rule); the
knockout started twice or advanced twice at once: one start, one round."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection

from clubs.services import personal_club
from common.services import ServiceError
from teams.knockout_services import KnockoutSettings, advance_knockout, start_knockout
from teams.models import MatchDay, SquadMember
from teams.services import add_squad_member
from tests.concurrency import race
from tests.teams.helpers import league_with_teams, organizer
from tests.teams.knockouts import give_result, group_stage_done, round_groups
from tournaments.models import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]

TRIALS = 10


def test_the_last_place_of_a_squad_goes_once(alice: User) -> None:
    _league, teams, _players = league_with_teams(alice, TRIALS, squad=3, squad_max=4)
    for trial, team in enumerate(teams):
        first, second = (
            Player.objects.create(
                owner=alice,
                registry_club=personal_club(alice),
                first_name=f"R{trial}",
                last_name=name,
            )
            for name in ("A", "B")
        )
        outcomes = race(
            lambda p=first, t=team: add_squad_member(t, p, actor=organizer(alice)),
            lambda p=second, t=team: add_squad_member(t, p, actor=organizer(alice)),
        )
        refused = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(refused) == 1 and refused[0].code == "squad_full", outcomes
        assert SquadMember.objects.filter(team=team).count() == 4


def test_one_player_taken_by_two_teams_at_once_plays_for_one(alice: User) -> None:
    _league, teams, _players = league_with_teams(alice, 2 * TRIALS, squad=0)
    for trial in range(TRIALS):
        player = Player.objects.create(
            owner=alice, registry_club=personal_club(alice), first_name=f"S{trial}", last_name="X"
        )
        a, b = teams[2 * trial], teams[2 * trial + 1]
        outcomes = race(
            lambda t=a, p=player: add_squad_member(t, p, actor=organizer(alice)),
            lambda t=b, p=player: add_squad_member(t, p, actor=organizer(alice)),
        )
        refused = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(refused) == 1 and refused[0].code == "player_in_other_team", outcomes
        assert SquadMember.objects.filter(player=player).count() == 1


def test_the_knockout_starts_once_and_makes_each_round_once(alice: User) -> None:
    league, _teams, squads = group_stage_done(alice, 8)
    outcomes = race(
        lambda: start_knockout(league, KnockoutSettings(), actor=organizer(alice)),
        lambda: start_knockout(league, KnockoutSettings(), actor=organizer(alice)),
    )
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(refused) == 1 and refused[0].code == "knockout_started", outcomes
    assert MatchDay.objects.filter(league=league, knockout_round=1).count() == 1
    first = round_groups(league, 1)
    assert len(first) == 2
    for group in first:
        names = [e.team.name for e in group.group_teams.select_related("team")]
        give_result(group, {name: 10 * i for i, name in enumerate(names)}, squads, alice)
    outcomes = race(
        lambda: advance_knockout(league, actor=organizer(alice)),
        lambda: advance_knockout(league, actor=organizer(alice)),
    )
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(refused) == 1 and refused[0].code == "round_undecided", outcomes
    assert MatchDay.objects.filter(league=league, knockout_round=2).count() == 1
    assert len(round_groups(league, 2)) == 1
