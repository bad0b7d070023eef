"""Dates of match days and venues of groups (several venues on one day), set by the owner on
the match days page: all or nothing, errors next to the field with what was typed."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from common.services import ServiceError
from teams.models import LeagueChange
from teams.services import change_places, make_match_days
from tests.factories import make_user, page_client
from tests.teams.helpers import league_with_teams, organizer
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(alice: User):  # type: ignore[no-untyped-def]
    league, _teams, _players = league_with_teams(alice, 8, days=2, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    return league


def test_the_page_sets_dates_and_two_venues_on_one_day(league, alice: User) -> None:  # type: ignore[no-untyped-def]
    day = league.match_days.get(number=1)
    first, second = day.groups.order_by("number")
    url = reverse("teams:schedule", args=[league.slug])
    data = {
        "action": "places",
        f"day{day.pk}-date": "2026-12-05",
        f"group{first.pk}-venue": "Bürgerhaus Nord",
        f"group{second.pk}-venue": "Kolpinghaus",
    }
    answer = page_client(alice, language="en").post(url, data)
    assert answer.status_code == 302
    day.refresh_from_db()
    assert day.date == datetime.date(2026, 12, 5)
    tournaments = Tournament.objects.filter(team_group__match_day=day)
    tournaments = tournaments.order_by("team_group__number")
    assert [(t.venue, t.starts_on) for t in tournaments] == [
        ("Bürgerhaus Nord", datetime.date(2026, 12, 5)),
        ("Kolpinghaus", datetime.date(2026, 12, 5)),
    ]
    assert LeagueChange.objects.filter(action="teams.group.changed").count() == 2


def test_a_wrong_field_saves_nothing_and_keeps_the_input(league, alice: User) -> None:  # type: ignore[no-untyped-def]
    day = league.match_days.get(number=1)
    group = day.groups.order_by("number")[0]
    url = reverse("teams:schedule", args=[league.slug])
    data = {"action": "places", f"day{day.pk}-date": "31.02.", f"group{group.pk}-venue": "Halle"}
    answer = page_client(alice, language="en").post(url, data)
    html = answer.content.decode()
    assert answer.status_code == 400 and "Enter a valid date." in html
    assert 'value="Halle"' in html
    group.refresh_from_db()
    assert group.venue == "" and not LeagueChange.objects.filter(action="teams.group.changed")


def test_only_the_owner_and_only_his_league(league, alice: User, bob: User) -> None:  # type: ignore[no-untyped-def]
    day = league.match_days.get(number=1)
    with pytest.raises(ServiceError):
        change_places(league, dates={day.pk: None}, venues={}, actor=organizer(bob))
    other, _t, _p = league_with_teams(make_user("carol"), 4, name="Andere", days=1)
    make_match_days(other, actor=organizer(other.owner))
    foreign = other.match_days.get()
    with pytest.raises(ServiceError) as refused:
        change_places(league, dates={foreign.pk: None}, venues={}, actor=organizer(alice))
    assert refused.value.code == "not_in_league"
