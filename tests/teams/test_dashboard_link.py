"""A group's tournament is managed from its league: its dashboard links back to the group's
line-ups and team draw; an ordinary tournament's dashboard has no such link."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from teams.services import make_match_days
from tests.factories import make_tournament, page_client
from tests.teams.helpers import league_with_teams, organizer

pytestmark = pytest.mark.django_db


def test_the_dashboard_of_a_group_links_to_its_league(alice: User) -> None:
    league, _teams, _players = league_with_teams(alice, 4, days=1, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    group = league.match_days.get().groups.get()
    html = (
        page_client(alice, language="en")
        .get(reverse("tournaments:manage", args=[group.tournament.slug]))
        .content.decode()
    )
    assert reverse("teams:group", args=[league.slug, group.pk]) in html
    assert "Liga, match day 1, group 1" in html
    plain = make_tournament("plain", organizers=[alice])
    other = page_client(alice, language="en").get(reverse("tournaments:manage", args=[plain.slug]))
    assert 'class="team-group"' not in other.content.decode()
