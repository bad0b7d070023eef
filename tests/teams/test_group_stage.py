"""Whether a league's group stage is over (``teams.standings.group_stage``): what the owner's
knockout page and the knockout's start ask, in one query instead of the whole table; its
answer is the table's (``season_final``) at every step of a season."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from scoring.models import SeriesTotal
from teams.models import Group, League, Team
from teams.services import make_match_days
from teams.standings import group_stage, league_table, season_final
from tests.teams.helpers import league_with_teams, organizer
from tests.teams.knockouts import give_result, group_stage_done
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def _read(league: League, max_queries: Any) -> Any:
    """The group stage read in at most one query; the same answer as the table's."""
    with max_queries(1):
        stage = group_stage(league)
    assert stage.final == season_final(league, league_table(league).groups)
    return stage


def test_a_finished_group_stage_is_final(alice: User, django_assert_max_num_queries: Any) -> None:
    league, _teams, _squads = group_stage_done(alice, 8)
    stage = _read(league, django_assert_max_num_queries)
    assert stage.final and stage.made
    assert (stage.days_missing, stage.open_groups) == (0, ())


def test_a_group_day_still_running_is_missing(
    alice: User, django_assert_max_num_queries: Any
) -> None:
    league, _teams, squads = group_stage_done(alice, 8)
    group = Group.objects.filter(match_day__league=league).order_by("number").first()
    assert group is not None
    scores = {t.name: 0 for t in Team.objects.filter(league=league)}
    give_result(group, scores, squads, alice, final=False)
    stage = _read(league, django_assert_max_num_queries)
    assert not stage.final
    assert [g.pk for g in stage.open_groups] == [group.pk]
    give_result(group, scores, squads, alice)
    assert _read(league, django_assert_max_num_queries).final


def test_days_not_made_or_not_played_are_missing(
    alice: User, django_assert_max_num_queries: Any
) -> None:
    league, teams, players = league_with_teams(alice, 4, series_per_day=1, days=2)
    stage = _read(league, django_assert_max_num_queries)
    assert (stage.final, stage.made, stage.days_missing) == (False, False, 2)
    make_match_days(league, actor=organizer(alice))
    squads: dict[int, list[Player]] = {
        team.pk: members for team, members in zip(teams, players, strict=True)
    }
    scores = {team.name: 10 * i for i, team in enumerate(teams)}
    first, second = Group.objects.filter(match_day__league=league).order_by("match_day__number")
    give_result(first, scores, squads, alice)
    stage = _read(league, django_assert_max_num_queries)
    assert stage.days_missing == 0 and [g.pk for g in stage.open_groups] == [second.pk]
    assert stage.open_groups[0].match_day.number == 2  # loaded with the group
    give_result(second, scores, squads, alice)
    assert _read(league, django_assert_max_num_queries).final
    # A total whose last game was deleted (no entry left) is no result: not played.
    SeriesTotal.objects.filter(tournament=second.tournament).update(entries=0)
    stage = _read(league, django_assert_max_num_queries)
    assert [g.pk for g in stage.open_groups] == [second.pk]
