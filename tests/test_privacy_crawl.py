"""The privacy crawl: one visibility rule for everything a tournament, a season or a league
shows publicly (``common.ownership``, docs/api.md "Private and public").

Alice keeps public and private tournaments, seasons and leagues in every combination:

* tournaments: a public one, a private one, and one that was public when a public season
  took it and was made private afterwards;
* leagues: a public one whose groups' tournaments say "private" (the league decides: they
  are public) and a private one whose groups' tournaments say "public" (hidden);
* seasons: a public one with a public and the later-private tournament, a private one with
  a public and a private tournament.

An anonymous visitor asks every public page and every public API route (read from the
resolver, as the persona matrix does) with every object that fits its parameters. A route
of a thing the rule hides answers 404; of a thing it shows, 200; and no answer anywhere
contains the name or the short name of a hidden thing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from seasons.models import Season
from seasons.services import SeasonData, attach_tournament, change_season, create_season
from teams.models import Group, League, Team
from teams.services import LeagueData, add_team, create_league, make_match_days
from tests.factories import RE_WINS, build_world, make_tournament, make_user, page_client, play
from tests.test_route_matrix import EXPECT, OK, Route, routes
from tournaments.models import Registration, Tournament
from tournaments.permissions import TOURNAMENTS

GAME = {**RE_WINS, "dealer": 1}
SEEN, HIDDEN = 200, 404


def _played(tournament: Tournament) -> Tournament:
    """Series 1 running, one table, one game: every route below it has something to show."""
    play(build_world(tournament, (4,)).tables[0], [GAME])
    return tournament


def _league(alice: User, slug: str, name: str, *, public: bool) -> League:
    actor = Actor(ORGANIZER, user=alice)
    league = create_league(LeagueData(name=name, slug=slug, is_public=public), actor=actor)
    for team in ("A", "B", "C", "D"):
        add_team(league, f"{name} {team}", actor=actor)
    make_match_days(league, actor=actor)
    # The group's own flag says the opposite: the league decides.
    groups = Tournament.objects.filter(team_group__match_day__league=league)
    groups.update(is_public=not public)
    _played(groups.order_by("pk")[0])
    return league


@pytest.fixture
def alice(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def things(alice: User) -> dict[str, Any]:
    actor = Actor(ORGANIZER, user=alice)
    public = _played(make_tournament("offen-pokal", 2, name="Offenpokal", organizers=[alice]))
    private = _played(
        make_tournament(
            "privat-zeta", 2, name="Privatpokal Zeta", organizers=[alice], is_public=False
        )
    )
    later = _played(make_tournament("privat-spaet", 2, name="Spaetpokal Eta", organizers=[alice]))
    open_season = create_season(SeasonData(name="Offene Saison", slug="offen-saison"), actor=actor)
    attach_tournament(open_season, public, actor=actor)
    attach_tournament(open_season, later, actor=actor)
    Tournament.objects.filter(pk=later.pk).update(is_public=False)  # made private afterwards
    closed_season = create_season(
        SeasonData(name="Geheimsaison Theta", slug="privat-saison", is_public=False), actor=actor
    )
    attach_tournament(closed_season, public, actor=actor)
    attach_tournament(closed_season, private, actor=actor)
    open_league = _league(alice, "offen-liga", "Offenliga", public=True)
    closed_league = _league(alice, "privat-liga", "Geheimliga Iota", public=False)
    return {
        "tournaments": {
            t.slug: t
            for t in Tournament.objects.filter(
                Q(pk__in=[public.pk, private.pk, later.pk])
                | Q(team_group__match_day__league__owner=alice)
            )
        },
        "seasons": [open_season, closed_season],
        "leagues": [open_league, closed_league],
    }


def _hidden_words(things: dict[str, Any]) -> list[str]:
    words = []
    for tournament in things["tournaments"].values():
        if not TOURNAMENTS.is_public(tournament):
            words += [tournament.name, tournament.slug]
    for thing in (*things["seasons"], *things["leagues"]):
        if not thing.is_public:
            words += [thing.name, thing.slug]
    return words


def _paths(route: Route, things: dict[str, Any]) -> list[tuple[str, int]]:
    """Every path of the route with each object that fits, and the answer the rule says."""
    params = set(route.params)
    if not params:
        return [(reverse(route.name), SEEN)]
    found: list[tuple[str, int]] = []
    if "slug" in params:
        for tournament in things["tournaments"].values():
            registration = Registration.objects.filter(tournament=tournament).first()
            if registration is None:
                continue  # a group without players: nothing below it to ask
            values: dict[str, Any] = {"slug": tournament.slug}
            values.update(
                {"number": 1, "table": 1, "game": 1, "start_number": registration.start_number}
            )
            kwargs = {k: values[k] for k in route.params}
            expected = SEEN if TOURNAMENTS.is_public(tournament) else HIDDEN
            found.append((reverse(route.name, kwargs=kwargs), expected))
    elif "season" in params and "player" in params:  # one line of the season explained
        for season in things["seasons"]:
            for tournament in season.tournaments.order_by("pk"):
                registration = Registration.objects.filter(tournament=tournament).first()
                if registration is not None:
                    kwargs = {"season": season.slug, "player": registration.player_id}
                    expected = SEEN if season.is_public else HIDDEN
                    found.append((reverse(route.name, kwargs=kwargs), expected))
    elif "season" in params:
        for season in things["seasons"]:
            found.append(
                (
                    reverse(route.name, kwargs={"season": season.slug}),
                    SEEN if season.is_public else HIDDEN,
                )
            )
    elif "league" in params:
        for league in things["leagues"]:
            kwargs: dict[str, Any] = {"league": league.slug}
            if "team" in params:
                kwargs["team"] = Team.objects.filter(league=league).order_by("pk")[0].pk
            if "group" in params:
                kwargs["group"] = Group.objects.filter(match_day__league=league)[0].pk
            found.append((reverse(route.name, kwargs=kwargs), SEEN if league.is_public else HIDDEN))
    elif params == {"pk"}:  # a player's page: there when he played a tournament it shows
        for tournament in things["tournaments"].values():
            registration = Registration.objects.filter(tournament=tournament).first()
            if registration is not None:
                expected = SEEN if TOURNAMENTS.is_public(tournament) else HIDDEN
                found.append((reverse(route.name, kwargs={"pk": registration.player_id}), expected))
    return found


#: The routes the public may ask (GET answers 200 to an anonymous visitor in the matrix).
PUBLIC_ROUTES = [
    route
    for route in routes()
    if "get" in route.methods
    and EXPECT.get(route.name, {}).get("anonymous", (None,))[0] == OK
    and route.name not in ("login", "api-schema", "api-docs")
]


def test_the_crawl_covers_every_kind_of_public_route() -> None:
    names = {r.name for r in PUBLIC_ROUTES}
    assert {"tournaments:detail", "scoring:standings", "hall:display", "archive:standings"} <= names
    assert {"api:standings", "api:season-ranking", "seasons:detail", "teams:detail"} <= names
    assert len(PUBLIC_ROUTES) >= 40


def test_anonymous_answers_follow_the_rule_on_every_public_route(
    things: dict[str, Any],
) -> None:
    hidden = _hidden_words(things)
    # The combinations are there: hidden and shown tournaments, seasons and leagues.
    assert "Privatpokal Zeta" in hidden and "Spaetpokal Eta" in hidden
    assert "Geheimsaison Theta" in hidden and "Geheimliga Iota" in hidden
    assert "Offenpokal" not in hidden and "Offenliga" not in hidden
    groups = [t for t in things["tournaments"].values() if hasattr(t, "team_group")]
    assert {TOURNAMENTS.is_public(t) for t in groups} == {True, False}
    assert all(TOURNAMENTS.is_public(t) != t.is_public for t in groups)  # the league decides
    page, api = Client(), APIClient()
    asked, wrong = 0, []
    for route in PUBLIC_ROUTES:
        client = api if route.name.startswith("api:") else page
        for path, expected in _paths(route, things):
            response = client.get(path)
            asked += 1
            if response.status_code != expected:
                wrong.append(f"{path}: {response.status_code}, expected {expected}")
                continue
            body = b"".join(response.streaming_content) if response.streaming else response.content
            text = body.decode("utf-8", "replace")
            leaked = [word for word in hidden if word in text]
            if leaked:
                wrong.append(f"{path} shows {leaked}")
    assert asked > 150
    assert not wrong, "\n".join(wrong)


def test_a_public_season_refuses_a_private_tournament(alice: User, db: None) -> None:
    actor = Actor(ORGANIZER, user=alice)
    private = make_tournament(
        "privat-zeta", name="Privatpokal Zeta", organizers=[alice], is_public=False
    )
    season = create_season(SeasonData(name="Saison", slug="saison"), actor=actor)
    with pytest.raises(ServiceError) as refused:
        attach_tournament(season, private, actor=actor)
    assert refused.value.code == "private_tournament" and refused.value.field == "tournament"
    assert "Privatpokal Zeta" in refused.value.message
    # A private season takes it; it cannot be made public then.
    hidden = create_season(SeasonData(name="Still", slug="still", is_public=False), actor=actor)
    assert attach_tournament(hidden, private, actor=actor)
    with pytest.raises(ServiceError) as refused:
        change_season(hidden, SeasonData(name="Still", slug="still", is_public=True), actor=actor)
    assert refused.value.code == "private_tournament" and refused.value.field == "is_public"
    assert Season.objects.get(pk=hidden.pk).is_public is False


def test_the_group_of_a_private_league_is_refused_too(alice: User, db: None) -> None:
    actor = Actor(ORGANIZER, user=alice)
    league = _league(alice, "privat-liga", "Geheimliga", public=False)
    group = Tournament.objects.filter(team_group__match_day__league=league).first()
    assert group is not None and group.is_public  # its own flag says public
    season = create_season(SeasonData(name="Saison", slug="saison"), actor=actor)
    with pytest.raises(ServiceError):
        attach_tournament(season, group, actor=actor)


def test_the_attach_page_says_which_tournaments_a_public_season_refuses(
    alice: User, db: None
) -> None:
    actor = Actor(ORGANIZER, user=alice)
    make_tournament("privat-zeta", name="Privatpokal Zeta", organizers=[alice], is_public=False)
    make_tournament("offen-pokal", name="Offenpokal", organizers=[alice])
    create_season(SeasonData(name="Saison", slug="saison"), actor=actor)
    client = page_client(alice, language="en")
    text = client.get(reverse("seasons:tournaments", kwargs={"season": "saison"})).content.decode()
    assert "A private tournament cannot be added to it" in text
    assert text.count('value="attach"') == 1  # the public one only
