"""A team captain names his team's line-ups through his team's private link, without an
account; the link reaches his team only, and nothing after the draw."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from teams.models import LeagueChange, LineUp
from teams.services import draw_team_series, make_match_days
from tests.factories import page_client
from tests.teams.helpers import league_with_teams, line_up_all, organizer

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(alice: User):  # type: ignore[no-untyped-def]
    league, teams, players = league_with_teams(alice, 4, squad=5, days=1, series_per_day=2)
    make_match_days(league, actor=organizer(alice))
    return league, teams, players, league.match_days.get().groups.get()


def url(team) -> str:  # type: ignore[no-untyped-def]
    return reverse("teams:captain", args=[team.captain_token])


def field(group, series: int) -> str:  # type: ignore[no-untyped-def]
    return f"g{group.pk}s{series}-players"


def test_the_captain_names_a_line_up(league) -> None:  # type: ignore[no-untyped-def]
    _league, teams, players, group = league
    client = page_client(language="en")
    page = client.get(url(teams[0]))
    assert page.status_code == 200 and "T0" in page.content.decode()
    chosen = [p.pk for p in players[0][1:5]]
    done = client.post(url(teams[0]), {"group": group.pk, "series": 1, field(group, 1): chosen})
    assert done.status_code == 302
    line_up = LineUp.objects.filter(group=group, team=teams[0], series_number=1)
    assert sorted(line_up.values_list("player_id", flat=True)) == sorted(chosen)
    assert line_up.first().set_by is None  # type: ignore[union-attr]
    change = LeagueChange.objects.filter(action="teams.line_up.set").latest("pk")
    assert change.via == "team captain link" and change.user is None


def test_errors_stay_next_to_the_field_with_the_choice(league) -> None:  # type: ignore[no-untyped-def]
    _league, teams, players, group = league
    chosen = [players[0][0].pk, players[0][1].pk]
    page = page_client(language="en").post(
        url(teams[0]), {"group": group.pk, "series": 1, field(group, 1): chosen}
    )
    html = page.content.decode()
    assert page.status_code == 400 and "Name 4 players" in html
    assert f'value="{chosen[0]}" id=' in html and "checked" in html
    assert not LineUp.objects.exists()


def test_the_link_reaches_its_own_team_only(league) -> None:  # type: ignore[no-untyped-def]
    _league, teams, players, group = league
    client = page_client(language="en")
    # Another team's players are no choice on this form: the field refuses them.
    other = [p.pk for p in players[1][:4]]
    refused = client.post(url(teams[0]), {"group": group.pk, "series": 1, field(group, 1): other})
    assert refused.status_code == 400 and not LineUp.objects.exists()
    assert client.get(reverse("teams:captain", args=["guessed"])).status_code == 404
    assert client.get(reverse("teams:captain", args=["x" * 300])).status_code == 404
    junk = client.post(url(teams[0]), {"group": "abc", "series": "1"})
    assert junk.status_code == 302 and not LineUp.objects.exists()


def test_a_drawn_series_is_shown_not_changed(league, alice: User) -> None:  # type: ignore[no-untyped-def]
    _league, teams, players, group = league
    line_up_all(group, teams, players, 1, alice)
    draw_team_series(group.tournament.series.get(number=1))
    client = page_client(language="en")
    html = client.get(url(teams[0])).content.decode()
    assert "Drawn: the line-up stays as it is." in html
    late = client.post(
        url(teams[0]),
        {"group": group.pk, "series": 1, field(group, 1): [p.pk for p in players[0][1:5]]},
    )
    assert late.status_code == 400 and "drawn already" in late.content.decode()


def test_guessed_team_links_get_429_while_real_ones_pass(league, settings, throttle_window) -> None:  # type: ignore[no-untyped-def]
    """Unknown team captain links count as failures of the address (as table links do);
    the captains of real teams behind the same address are never refused."""
    settings.TOKEN_FAILURE_LIMIT = 3
    _league, teams, _players, _group = league
    client = page_client(language="en")
    for guess in range(3):
        assert client.get(f"/mannschaft/guess{guess}/").status_code == 404
        assert client.get(url(teams[0])).status_code == 200
    refused = client.get("/mannschaft/guess-more/")
    assert refused.status_code == 429 and "Retry-After" in refused
    assert client.get(url(teams[1])).status_code == 200
