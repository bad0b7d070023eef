"""Every action of a league's owner pages through the API (issue #29 item 5): the league's
settings, squads, the match days, dates and venues, the team draw. Each: the owner's happy
path, the refusal for another club's owner (403 for a public league, 404 for a private one,
as every owned thing), a bad input (400 naming the field, in German and in English).

``test_every_page_action_has_an_api_counterpart`` lists the actions of the owner's pages and
fails for one without an entry in ``PAGE_ACTIONS``."""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import URLPattern, resolve, reverse
from rest_framework.test import APIClient

from clubs.services import personal_club
from config import api_urls
from teams import urls as team_urls
from teams.models import Group, League, LeagueChange, MatchDay, SquadMember, Team
from teams.services import make_match_days
from tests.factories import api_client
from tests.teams.helpers import league_with_teams, line_up_all, organizer
from tournaments.models import Player, Series

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
L = "/api/v1/leagues/liga/"


@pytest.fixture
def league(alice: User) -> tuple[League, list[Team], list[list[Player]]]:
    """Alice's public league "liga": four teams of five, no match days yet."""
    return league_with_teams(alice, 4, squad=5, slug="liga", days=2, series_per_day=2)


def _error(response: Any) -> dict[str, Any]:
    error: dict[str, Any] = response.json()["error"]
    return error


# -- the league's settings -----------------------------------------------------------------


def test_owner_changes_the_league(league: Any, alice_api: APIClient, bob_api: APIClient) -> None:
    response = alice_api.patch(L, {"name": "Bundesliga Nord", "squad_max": 6}, format="json")
    assert response.status_code == 200, response.json()
    assert (response.json()["name"], response.json()["squad_max"]) == ("Bundesliga Nord", 6)
    assert response.json()["days"] == 2  # left out: as it was
    saved = League.objects.get(slug="liga")
    assert saved.name == "Bundesliga Nord" and saved.series_per_day == 2
    assert LeagueChange.objects.filter(league=saved, action="teams.league.changed").exists()
    full = alice_api.put(L, {"name": "Liga", "description": "Saison 2027"}, format="json")
    assert full.status_code == 200 and full.json()["description"] == "Saison 2027"
    refused = bob_api.patch(L, {"name": "Meine"}, format="json")
    assert (refused.status_code, _error(refused)["code"]) == (403, "not_league_owner")
    assert League.objects.get(slug="liga").name == "Liga"


def test_league_change_refusals_name_the_field(league: Any, alice: User) -> None:
    german, english = api_client(user=alice), api_client(user=alice, lang="en")
    body = {"squad_max": 3}  # fewer than the four players of a series
    answer = german.patch(L, body, format="json")
    assert answer.status_code == 400
    assert _error(answer)["field"] == "squad_max"
    assert "mindestens" in _error(answer)["message"]
    assert "at least" in _error(english.patch(L, body, format="json"))["message"]
    assert german.put(L, {"days": 3}, format="json").status_code == 400  # PUT needs the name
    assert _error(german.patch(L, {"club": "fremd"}, format="json"))["field"] == "club"
    make_match_days(League.objects.get(slug="liga"), actor=organizer(alice))
    fixed = german.patch(L, {"days": 3}, format="json")
    assert (fixed.status_code, _error(fixed)["code"]) == (400, "fixed_by_schedule")
    assert _error(fixed)["field"] == "days"


def test_a_private_league_does_not_exist_for_another_owner(alice: User, bob_api: APIClient) -> None:
    league_with_teams(alice, 4, slug="geheim", is_public=False)
    team = Team.objects.filter(league__slug="geheim").first()
    assert team is not None
    for method, path in (
        ("patch", "/api/v1/leagues/geheim/"),
        ("post", "/api/v1/leagues/geheim/match-days/"),
        ("post", "/api/v1/leagues/geheim/match-days/places/"),
        ("get", "/api/v1/leagues/geheim/candidates/?q=T"),
        ("post", f"/api/v1/leagues/geheim/teams/{team.pk}/squad/"),
    ):
        assert getattr(bob_api, method)(path, {}, format="json").status_code == 404, path


# -- squads ----------------------------------------------------------------------------------


def test_candidates_are_the_owners_players_of_no_squad(
    league: Any, alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    Player.objects.create(
        owner=alice,
        registry_club=personal_club(alice),
        first_name="Hans",
        last_name="Müller",
        club="DK Kassel",
    )
    found = alice_api.get(L + "candidates/?q=muller").json()
    assert [(p["first_name"], p["club"]) for p in found] == [("Hans", "DK Kassel")]
    assert alice_api.get(L + "candidates/?q=T0").json() == []  # T0's players have a squad
    assert alice_api.get(L + "candidates/").json() == []
    assert bob_api.get(L + "candidates/?q=Hans").status_code == 403


def test_a_player_of_the_registry_joins_and_leaves_a_squad(
    league: Any, alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    _league, teams, players = league
    hans = Player.objects.create(
        owner=alice, registry_club=personal_club(alice), first_name="Hans", last_name="Huber"
    )
    url = f"{L}teams/{teams[0].pk}/squad/"
    assert bob_api.post(url, {"player": hans.pk}, format="json").status_code == 403
    response = alice_api.post(url, {"player": hans.pk}, format="json")
    assert response.status_code == 201, response.json()
    assert "Hans Huber" in [p["name"] for p in response.json()["squad"]]
    assert response.json()["captain_token"] == teams[0].captain_token
    for wrong, status, code in (
        ({"player": hans.pk}, 400, "player_in_other_team"),  # in T0's squad already
        ({"player": players[1][0].pk}, 400, "player_in_other_team"),
        ({"player": 999_999}, 404, "player_not_found"),
        ({"player": "x"}, 400, "invalid"),
        ({}, 400, "required"),
    ):
        answer = alice_api.post(f"{L}teams/{teams[1].pk}/squad/", wrong, format="json")
        assert (answer.status_code, _error(answer)["code"]) == (status, code), wrong
    remove = url + "remove/"
    assert bob_api.post(remove, {"player": hans.pk}, format="json").status_code == 403
    response = alice_api.post(remove, {"player": hans.pk}, format="json")
    assert response.status_code == 200
    assert not SquadMember.objects.filter(player=hans).exists()
    again = alice_api.post(remove, {"player": hans.pk}, format="json")
    assert (again.status_code, _error(again)["field"]) == (404, "player")


def test_a_lined_up_player_stays_in_the_squad(league: Any, alice: User) -> None:
    league_row, teams, players = league
    make_match_days(league_row, actor=organizer(alice))
    group = Group.objects.filter(match_day__league=league_row).first()
    assert group is not None
    line_up_all(group, teams, players, 1, alice)
    team = next(t for t in teams if group.group_teams.filter(team=t).exists())
    first = players[teams.index(team)][0]
    answer = api_client(user=alice).post(
        f"{L}teams/{team.pk}/squad/remove/", {"player": first.pk}, format="json"
    )
    assert (answer.status_code, _error(answer)["code"]) == (409, "player_lined_up")


def test_a_new_player_goes_into_the_registry_and_the_squad(
    league: Any, alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    _league, teams, _players = league
    url = f"{L}teams/{teams[2].pk}/squad/new/"
    body = {"first_name": "Greta", "last_name": "Gans", "club": "DK Fulda"}
    assert bob_api.post(url, body, format="json").status_code == 403
    response = alice_api.post(url, body, format="json")
    assert response.status_code == 201, response.json()
    assert Player.objects.get(first_name="Greta").owner == alice
    assert len(response.json()["squad"]) == 6
    missing = alice_api.post(url, {"first_name": "Ida"}, format="json")
    assert (missing.status_code, _error(missing)["field"]) == (400, "last_name")
    full = League.objects.get(slug="liga")
    full.squad_max = 6
    full.save()
    over = alice_api.post(url, {"first_name": "Ida", "last_name": "Igel"}, format="json")
    assert (over.status_code, _error(over)["code"]) == (400, "squad_full")
    assert not Player.objects.filter(first_name="Ida").exists()  # one transaction


def test_a_pasted_list_all_or_nothing(
    league: Any, alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    _league, teams, _players = league
    url = f"{L}teams/{teams[3].pk}/squad/list/"
    good = {"players": "Anna Ahorn, DK Kassel\nBerta; Birke; DK Fulda"}
    assert bob_api.post(url, good, format="json").status_code == 403
    bad = alice_api.post(url, {"players": "Anna Ahorn\nNurEinWort"}, format="json")
    assert bad.status_code == 400
    error = _error(bad)
    assert (error["code"], error["field"]) == ("squad_list_invalid", "players")
    assert list(error["lines"]) == ["2"]
    assert not Player.objects.filter(last_name="Ahorn").exists()
    response = alice_api.post(url, good, format="json")
    assert response.status_code == 201, response.json()
    assert {"Anna Ahorn", "Berta Birke"} <= {p["name"] for p in response.json()["squad"]}


# -- match days, dates and venues, the draw ----------------------------------------------------


def test_match_days_made_read_and_made_again(
    league: Any, alice_api: APIClient, bob_api: APIClient, public_api: APIClient
) -> None:
    assert public_api.get(L + "match-days/").json() == {"days": [], "repeats": 0, "never_met": 6}
    assert bob_api.post(L + "match-days/", {}, format="json").status_code == 403
    assert public_api.post(L + "match-days/", {}, format="json").status_code == 401
    made = alice_api.post(L + "match-days/", {}, format="json")
    assert made.status_code == 201, made.json()
    data = made.json()
    assert [day["number"] for day in data["days"]] == [1, 2]
    assert (data["repeats"], data["never_met"]) == (6, 0)  # four teams, one group, two days
    (group,) = data["days"][0]["groups"]
    assert sorted(group["teams"]) == sorted(t.pk for t in league[1])
    assert group["tournament"] == Group.objects.get(pk=group["id"]).tournament.slug
    assert public_api.get(L + "match-days/").json() == data
    wrong = alice_api.post(L + "match-days/", {"days": 3}, format="json")
    assert (wrong.status_code, _error(wrong)["field"]) == (400, "days")


def test_too_few_teams_for_match_days(alice: User, alice_api: APIClient) -> None:
    league_with_teams(alice, 3, slug="liga")
    answer = alice_api.post(L + "match-days/", {}, format="json")
    assert answer.status_code == 409
    assert not MatchDay.objects.filter(league__slug="liga").exists()


def test_dates_and_venues_all_or_nothing(
    league: Any, alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    make_match_days(league[0], actor=organizer(alice))
    group = Group.objects.get(match_day__league=league[0], match_day__number=1)
    url = L + "match-days/places/"
    body = {
        "match_days": [{"number": 1, "date": "2027-03-06"}, {"number": 2, "date": "2027-01-09"}],
        "groups": [{"id": group.pk, "venue": "Bürgerhaus Kassel"}],
    }
    assert bob_api.post(url, body, format="json").status_code == 403
    response = alice_api.post(url, body, format="json")
    assert response.status_code == 200, response.json()
    days = response.json()["days"]
    assert [(d["date"], d["dated_before"]) for d in days] == [
        ("2027-03-06", None),
        ("2027-01-09", 1),
    ]
    assert days[0]["groups"][0]["venue"] == "Bürgerhaus Kassel"
    group.refresh_from_db()
    assert group.tournament.venue == "Bürgerhaus Kassel"
    assert group.tournament.starts_on == datetime.date(2027, 3, 6)
    for wrong, field in (
        ({"match_days": [{"number": 1, "date": "2027-04-01"}, {"number": 2, "date": "x"}]},
         "match_days.1.date"),
        ({"match_days": [{"number": 1, "date": None}, {"number": 7, "date": None}]},
         "match_days.1.number"),
        ({"match_days": [{"number": 1, "date": None}],
          "groups": [{"id": group.pk, "venue": "x" * 201}]}, "groups.0.venue"),
        ({"groups": [{"id": 999_999, "venue": "Halle"}]}, "groups.0.id"),
    ):  # fmt: skip
        answer = alice_api.post(url, wrong, format="json")
        assert (answer.status_code, _error(answer)["field"]) == (400, field), wrong
    # Nothing of a refused body was saved.
    assert MatchDay.objects.get(league=league[0], number=1).date == datetime.date(2027, 3, 6)


def test_the_team_draw_of_a_group_series(
    league: Any, alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    league_row, teams, players = league
    make_match_days(league_row, actor=organizer(alice))
    group = Group.objects.get(match_day__league=league_row, match_day__number=1)
    url = f"{L}groups/{group.pk}/series/1/draw/"
    missing = alice_api.post(url, {}, format="json")
    assert (missing.status_code, _error(missing)["code"]) == (409, "line_up_missing")
    line_up_all(group, teams, players, 1, alice)
    assert bob_api.post(url, {}, format="json").status_code == 403
    assert alice_api.post(url, {"seed": -1}, format="json").status_code == 400
    assert (
        alice_api.post(f"{L}groups/{group.pk}/series/9/draw/", {}, format="json").status_code == 404
    )
    response = alice_api.post(url, {"seed": 7}, format="json")
    assert response.status_code == 200, response.json()
    assert (response.json()["status"], response.json()["draw_mode"]) == ("drawn", "teams")
    assert (response.json()["table_count"], response.json()["seed"]) == (4, 7)
    assert Series.objects.get(tournament=group.tournament, number=1).status == "drawn"


def test_the_captain_link_is_for_the_keepers_only(
    league: Any, alice_api: APIClient, bob_api: APIClient
) -> None:
    mine = alice_api.get(L + "teams/").json()[0]
    assert mine["captain_token"] and mine["captain_url"].endswith(
        f"/mannschaft/{mine['captain_token']}/"
    )
    theirs = bob_api.get(L + "teams/").json()[0]
    assert (theirs["captain_token"], theirs["captain_url"]) == (None, None)
    assert bob_api.get(f"{L}teams/{mine['id']}/").json()["captain_token"] is None


# -- every action of the owner's pages has its API ---------------------------------------------

#: (page URL name, the form's ``action``, or "" for a form without one) → (API URL name,
#: method). A new form on an owner page fails the test below until it is listed here.
PAGE_ACTIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("teams:create", ""): ("api:league-list", "post"),
    ("teams:edit", ""): ("api:league-detail", "put"),
    ("teams:teams", "add_team"): ("api:league-teams", "post"),
    ("teams:teams", "change_clubs"): ("api:league-team", "patch"),
    ("teams:teams", "search"): ("api:league-candidates", "get"),
    ("teams:teams", "add_player"): ("api:league-squad", "post"),
    ("teams:teams", "new_player"): ("api:league-squad-new", "post"),
    ("teams:teams", "add_list"): ("api:league-squad-list", "post"),
    ("teams:teams", "remove_player"): ("api:league-squad-remove", "post"),
    ("teams:schedule", ""): ("api:league-match-days", "post"),
    ("teams:schedule", "places"): ("api:league-places", "post"),
    ("teams:group", ""): ("api:league-line-ups", "post"),
    ("teams:group", "draw"): ("api:league-group-draw", "post"),
    ("teams:knockout", "start"): ("api:league-knockout-start", "post"),
    ("teams:knockout", "decide"): ("api:league-knockout-decide", "post"),
    ("teams:knockout", "advance"): ("api:league-knockout-next", "post"),
}
#: The owner's pages: each URL name with its template.
OWNER_PAGES = {
    "teams:create": "templates/teams/organizer/league_form.html",
    "teams:edit": "templates/teams/organizer/league_form.html",
    "teams:teams": "templates/teams/organizer/teams.html",
    "teams:schedule": "templates/teams/organizer/schedule.html",
    "teams:group": "templates/teams/organizer/group.html",
    "teams:knockout": "templates/teams/organizer/knockout.html",
}
_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
_ACTION = re.compile(r'name="action" value="([a-z_]+)"')


def _page_actions(template: str) -> set[str]:
    """The actions of a page's forms: a POST form's ``action`` field ("" without one), a
    GET form is the page's "search"."""
    found = set()
    for attributes, body in _FORM.findall((ROOT / template).read_text()):
        if 'method="get"' in attributes:
            found.add("search")
        else:
            found.update(_ACTION.findall(body) or [""])
    return found


def test_every_page_action_has_an_api_counterpart() -> None:
    # Every page of the owner is listed, with the forms its template holds.
    owner_views = {
        f"teams:{p.name}"
        for p in team_urls.urlpatterns
        if isinstance(p, URLPattern)
        and p.callback.__module__ in ("teams.views.organizer", "teams.views.knockout")
        and p.name not in ("bracket", "bracket-pdf")  # the public bracket, its PDF
    }
    assert owner_views == set(OWNER_PAGES)
    actions = {
        (name, action) for name, path in OWNER_PAGES.items() for action in _page_actions(path)
    }
    assert actions == set(PAGE_ACTIONS), "an owner page's action without its API (or stale)"
    kwargs = {"league": "liga", "team": 1, "group": 1, "number": 1}
    for name, method in PAGE_ACTIONS.values():
        pattern = resolve(reverse(name, kwargs=_params(name, kwargs)))
        view = pattern.func.view_class  # type: ignore[attr-defined]
        assert hasattr(view, method), (name, method)


def test_each_owner_action_is_in_the_openapi_schema(public_api: APIClient) -> None:
    schema = public_api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = schema.json()["paths"]
    routes = {p.name: str(p.pattern) for p in api_urls.urlpatterns if isinstance(p, URLPattern)}
    for name, method in PAGE_ACTIONS.values():
        path = "/api/v1/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", routes[name.removeprefix("api:")])
        assert method in paths[path], (name, method)
        assert paths[path][method]["responses"], (name, method)


def _params(name: str, values: dict[str, Any]) -> dict[str, Any]:
    from tests.test_route_matrix import ROUTES

    (route,) = [r for r in ROUTES if r.name == name]
    return {key: values[key] for key in route.params}
