"""Links the apps above contribute to lower apps' pages (``common.links``): each page shows
the same links, in the same order, as when its template named the upper apps itself."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from common.links import Link, Place, place
from teams.services import make_match_days
from tests.factories import add_players, make_tournament, page_client, running_table
from tests.teams.helpers import league_with_teams, organizer

pytestmark = pytest.mark.django_db


def shows_in_order(html: str, anchors: list[str]) -> None:
    """The anchors appear in this order (white space as a browser reads it)."""
    html, anchors = squeeze(html), [squeeze(anchor) for anchor in anchors]
    places = [html.find(anchor) for anchor in anchors]
    assert -1 not in places, [a for a, p in zip(anchors, places, strict=True) if p == -1]
    assert places == sorted(places)


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def a(url: str, label: str, *, download: bool = False) -> str:
    return f'<a href="{url}"{" download" if download else ""}>{label}</a>'


def test_my_tournaments_link_imports_seasons_and_leagues(alice: User) -> None:
    html = page_client(alice, language="en").get(reverse("tournaments:mine")).content.decode()
    shows_in_order(
        html,
        [
            a(reverse("archive:import"), "Import a tournament"),
            a(reverse("seasons:mine"), "My seasons"),
            a(reverse("teams:mine"), "My team competitions"),
        ],
    )


def test_the_standings_link_their_exports(alice: User) -> None:
    tournament = make_tournament("cup", organizers=[alice])
    add_players(tournament, 4)
    client = page_client(language="en")
    games = reverse("archive:games", args=["cup"])
    for page, standings in [
        (reverse("scoring:standings", args=["cup"]), reverse("archive:standings", args=["cup"])),
        (
            reverse("scoring:series-standings", args=["cup", 1]),
            reverse("archive:series-standings", args=["cup", 1]),
        ),
    ]:
        html = client.get(page).content.decode()
        shows_in_order(
            html,
            [
                "Download:\n" + a(standings, "standings (CSV)", download=True),
                " · " + a(f"{standings}?format=xlsx", "standings (Excel)", download=True),
                " · " + a(games, "all games (CSV)", download=True),
                " · " + a(f"{games}?format=xlsx", "all games (Excel)", download=True) + "</small>",
            ],
        )


def test_a_players_page_links_his_results_in_all_tournaments(alice: User) -> None:
    tournament = make_tournament("cup", organizers=[alice])
    registration = add_players(tournament, 4)[0]
    page = reverse("scoring:player", args=["cup", registration.start_number])
    html = page_client(language="en").get(page).content.decode()
    url = reverse("seasons:player", args=[registration.player_id])
    shows_in_order(html, [" · " + a(url, "results in all tournaments") + "</p>"])


def test_a_group_links_its_tournaments_pages(alice: User) -> None:
    league, _teams, _players = league_with_teams(alice, 4, days=1, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    group = league.match_days.get().groups.get()
    slug = group.tournament.slug
    public = page_client(language="en").get(reverse("teams:detail", args=[league.slug]))
    shows_in_order(
        public.content.decode(),
        [
            a(reverse("tournaments:detail", args=[slug]), "Seating")
            + " · "
            + a(reverse("scoring:standings", args=[slug]), "Standings")
            + " · "
            + a(reverse("hall:display", args=[slug]), "Hall display"),
        ],
    )
    kept = page_client(alice, language="en").get(
        reverse("teams:group", args=[league.slug, group.pk])
    )
    shows_in_order(
        kept.content.decode(),
        [
            a(reverse("tournaments:manage", args=[slug]), "Tournament administration")
            + " · "
            + a(reverse("scoring:standings", args=[slug]), "Standings")
            + " · "
            + a(reverse("hall:manage", args=[slug]), "Hall display")
            + "</small>",
        ],
    )


def test_the_organizers_menu_and_series_page_link_scoring_and_documents(alice: User) -> None:
    tournament = make_tournament("cup", organizers=[alice])
    table = running_table(tournament)
    client = page_client(alice, language="en")
    audit = reverse("scoring:audit", args=["cup"])
    series = client.get(reverse("tournaments:series", args=["cup", 1])).content.decode()
    shows_in_order(
        series,
        [
            a(reverse("tournaments:checkin", args=["cup"]), "Check-in"),
            a(audit, "Change log"),
            a(reverse("tournaments:edit", args=["cup"]), "Settings"),
            '<div class="action-group">'
            + f'<a href="{reverse("documents:series", args=["cup", 1])}" role="button" '
            + 'class="secondary outline">Print pack (PDF)</a></div>',
            " · " + a(reverse("scoring:sheet", args=["cup", table.pk]), "sheet") + "</header>",
        ],
    )
    assert 'aria-current="page">Change log' not in series
    log = client.get(audit).content.decode()
    assert f'<a href="{audit}" aria-current="page">Change log</a>' in log


def test_a_place_orders_its_links_and_replaces_a_contribution() -> None:
    probe = Place("tests.probe", "a number")
    probe.contribute("b", lambda n: [Link(f"b{n}", "/b/")], order=20)
    probe.contribute("a", lambda n: [Link(f"a{n}", "/a/")], order=20)
    probe.contribute("z", lambda n: [Link("first", "/z/")], order=10)
    probe.contribute("b", lambda n: [Link(f"B{n}", "/b/")], order=20)
    assert [link.label for link in probe.links(1)] == ["first", "a1", "B1"]
    assert place("tests.probe") is probe
    with pytest.raises(ValueError, match="declared twice"):
        Place("tests.probe", "again")
    with pytest.raises(KeyError):
        place("tests.nowhere")
