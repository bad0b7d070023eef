"""The season's end on the pages and in the API: the places going up, down and into the
relegation play-off are the league's settings (owner's page and API, refused next to the
field in German and English when they do not fit into the league's teams); the public table
marks them with a symbol and a word, "provisional" until every match day is final, and
"decision needed" for a shared place across a cut. A Spielgemeinschaft is shown as
"SG Club A / Club B" on the public pages and in the API; its squad holds players of both
clubs."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from common.services import ServiceError
from teams.forms import LeagueForm
from teams.models import Group, League, LeagueChange, Team
from teams.services import (
    LeagueData,
    add_squad_member,
    add_team,
    change_league,
    create_league,
    draw_team_series,
    make_match_days,
    set_line_up,
)
from tests.factories import api_client, page_client
from tests.teams.helpers import finish_day, league_with_teams, organizer, play_re
from tests.teams.played import Played, played_league
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def _places(league: League, owner: User, up: int, down: int, playoff: int = 0) -> League:
    data = LeagueForm.initial_for(league)
    data.update(promotion_places=up, relegation_places=down, playoff_places=playoff)
    return change_league(league, LeagueData(**data), actor=organizer(owner))


@pytest.fixture
def finished(alice: User) -> Played:
    """One match day of four teams, final: T0 and T1 share place 1, T2 and T3 place 3."""
    played = played_league(alice)
    finish_day(played.group)
    return played


def _table(client: Client, slug: str = "liga") -> str:
    body: str = client.get(f"/ligen/{slug}/").content.decode()
    return body[
        body.index('class="striped league-table"') : body.index('<section class="match-day">')
    ]


# -- the marks on the public page and in the API -----------------------------------------------


def test_final_marks_with_symbol_and_word(finished: Played, alice: User) -> None:
    _places(finished.league, alice, up=2, down=2)
    response = page_client(language="en").get("/ligen/liga/")
    assert [line.mark.zone for line in response.context["table"].teams] == [
        "up", "up", "down", "down",
    ]  # fmt: skip
    table = _table(page_client(language="en"))
    # Each mark twice: in its column, and under the team's name for phones (one is hidden).
    assert table.count('<span aria-hidden="true">▲</span> Promotion') == 2 * 2
    assert table.count('<span aria-hidden="true">▼</span> Relegation') == 2 * 2
    assert "(provisional)" not in table
    assert "Final: every match day is final." in table
    german = _table(page_client())
    assert german.count("▲</span> Aufstieg") == 4 and german.count("▼</span> Abstieg") == 4
    api = api_client().get("/api/v1/leagues/liga/table/").json()
    assert [(line["mark"], line["mark_between"]) for line in api["teams"]] == [
        ("up", []), ("up", []), ("down", []), ("down", []),
    ]  # fmt: skip
    assert api["season_end"] == {
        "promotion_places": 2, "relegation_places": 2, "playoff_places": 0,
        "final": True, "undecided": False, "problem": "",
    }  # fmt: skip


def test_a_shared_place_across_the_cut_needs_a_decision(finished: Played, alice: User) -> None:
    """One goes up, one down, but two teams share each end of the table."""
    _places(finished.league, alice, up=1, down=1)
    table = _table(page_client(language="en"))
    assert table.count("Decision needed") >= 4
    assert "Promotion" not in table.split("</thead>")[1].split("Season end:")[0]
    german = _table(page_client())
    assert german.count("Entscheidung nötig") >= 4
    api = api_client().get("/api/v1/leagues/liga/table/").json()
    assert [line["mark"] for line in api["teams"]] == ["undecided"] * 4
    assert api["teams"][0]["mark_between"] == ["up", "stay"]
    assert api["teams"][3]["mark_between"] == ["stay", "down"]
    assert api["season_end"]["undecided"] is True


def test_no_places_set_shows_no_column(finished: Played) -> None:
    table = _table(page_client(language="en"))
    assert "Season end" not in table
    api = api_client().get("/api/v1/leagues/liga/table/").json()
    assert [line["mark"] for line in api["teams"]] == [None] * 4


def test_marks_are_provisional_until_every_match_day_is_final(alice: User) -> None:
    league, teams, players = league_with_teams(
        alice, 4, squad=4, slug="zwei", series_per_day=2, days=2,
        promotion_places=2, relegation_places=1, playoff_places=1,
    )  # fmt: skip
    make_match_days(league, actor=organizer(alice))
    first = Group.objects.get(match_day__league=league, match_day__number=1)
    for team, members in zip(teams, players, strict=True):
        set_line_up(first, team, 1, members, actor=organizer(alice))
    draw_team_series(first.tournament.series.get(number=1))
    play_re(first.tournament.series.get(number=1), teams, [(0, 1), (0, 1), (0, 1), (0, 2)])
    finish_day(first)  # day 1 final, day 2 not played
    response = page_client(language="en").get("/ligen/zwei/")
    end = response.context["table"].season_end
    assert end.provisional
    assert [line.mark.zone for line in response.context["table"].teams] == [
        "up", "up", "playoff", "down",
    ]  # fmt: skip
    table = _table(page_client(language="en"), "zwei")
    assert table.count("(provisional)") == 4 * 2  # column and phone line
    assert "Provisional: not every match day is final yet" in table
    assert _table(page_client(), "zwei").count("(vorläufig)") == 4 * 2
    api = api_client().get("/api/v1/leagues/zwei/table/").json()
    assert api["season_end"]["final"] is False
    # Day 2 final too: the marks are the season's.
    second = Group.objects.get(match_day__league=league, match_day__number=2)
    for team, members in zip(teams, players, strict=True):
        set_line_up(second, team, 1, members, actor=organizer(alice))
    draw_team_series(second.tournament.series.get(number=1))
    play_re(second.tournament.series.get(number=1), teams, [(0, 1), (0, 1), (0, 1), (0, 2)])
    finish_day(second)
    assert page_client().get("/ligen/zwei/").context["table"].season_end.final
    assert "(vorläufig)" not in _table(page_client(), "zwei")
    assert api_client().get("/api/v1/leagues/zwei/table/").json()["season_end"]["final"]


# -- the settings ------------------------------------------------------------------------------


def test_places_must_fit_into_the_league(finished: Played, alice: User) -> None:
    with pytest.raises(ServiceError) as refused:
        _places(finished.league, alice, up=3, down=2)
    assert (refused.value.code, refused.value.field) == (
        "too_many_season_end_places",
        "relegation_places",
    )
    with pytest.raises(ServiceError) as refused:
        _places(finished.league, alice, up=2, down=1, playoff=2)
    assert refused.value.field == "playoff_places"
    assert _places(finished.league, alice, up=2, down=1, playoff=1).playoff_places == 1


def test_a_league_without_teams_takes_any_places(alice: User) -> None:
    league = create_league(
        LeagueData(name="Neu", promotion_places=2, relegation_places=2, playoff_places=1),
        actor=organizer(alice),
    )
    assert (league.promotion_places, league.relegation_places, league.playoff_places) == (2, 2, 1)


def _settings(league: League, **changes: Any) -> dict[str, Any]:
    data = {k: v for k, v in LeagueForm.initial_for(league).items() if v is not None}
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "The league has 4 teams: at most 4 places can go up, go down or play"),
        ("de", "Die Liga hat 4 Mannschaften: Höchstens 4 Plätze"),
    ],
)
def test_settings_page_refuses_next_to_the_field(
    finished: Played, alice: User, language: str, message: str
) -> None:
    client = page_client(alice, language=language)
    url = "/verwaltung/ligen/liga/bearbeiten/"
    response = client.post(url, _settings(finished.league, promotion_places=3, relegation_places=2))
    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["relegation_places"]
    assert message in form.errors["relegation_places"][0]
    response = client.post(url, _settings(finished.league, promotion_places=-1))
    assert list(response.context["form"].errors) == ["promotion_places"]
    response = client.post(url, _settings(finished.league, promotion_places=2, playoff_places=1))
    assert response.status_code == 302
    finished.league.refresh_from_db()
    assert (finished.league.promotion_places, finished.league.playoff_places) == (2, 1)
    assert 'value="2"' in client.get(url).content.decode()


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "The league has 4 teams: at most 4 places"),
        ("de", "Die Liga hat 4 Mannschaften: Höchstens 4 Plätze"),
    ],
)
def test_api_changes_the_places_and_refuses_next_to_the_field(
    finished: Played, alice: User, lang: str, message: str
) -> None:
    api = api_client(user=alice, lang=lang)
    url = "/api/v1/leagues/liga/"
    refused = api.patch(url, {"promotion_places": 3, "relegation_places": 2}, format="json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["field"] == "relegation_places" and message in error["message"]
    bad = api.patch(url, {"playoff_places": -1}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "playoff_places"
    bad = api.patch(url, {"promotion_places": 21}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "promotion_places"
    saved = api.patch(url, {"promotion_places": 1, "relegation_places": 2}, format="json")
    assert saved.status_code == 200, saved.json()
    assert (saved.json()["promotion_places"], saved.json()["relegation_places"]) == (1, 2)
    assert saved.json()["playoff_places"] == 0


# -- Spielgemeinschaft --------------------------------------------------------------------------


def test_a_spielgemeinschaft_is_named_with_both_clubs(finished: Played, alice: User) -> None:
    team = finished.teams[0]
    Team.objects.filter(pk=team.pk).update(club="TSV Nord", partner_club="SV Süd")
    body = page_client().get("/ligen/liga/").content.decode()
    assert "SG TSV Nord / SV Süd" in body
    team_page = page_client().get(f"/ligen/liga/teams/{team.pk}/").content.decode()
    assert "SG TSV Nord / SV Süd" in team_page
    teams = api_client().get("/api/v1/leagues/liga/teams/").json()
    assert (teams[0]["club"], teams[0]["partner_club"], teams[0]["club_label"]) == (
        "TSV Nord",
        "SV Süd",
        "SG TSV Nord / SV Süd",
    )
    assert teams[1]["club_label"] == "Club 1" and teams[1]["partner_club"] == ""
    table = api_client().get("/api/v1/leagues/liga/table/").json()
    assert {line["club_label"] for line in table["teams"]} >= {"SG TSV Nord / SV Süd"}


def test_an_sg_is_added_on_the_owners_page_and_through_the_api(alice: User) -> None:
    league = create_league(LeagueData(name="Liga", slug="liga"), actor=organizer(alice))
    client = page_client(alice, language="en")
    url = "/verwaltung/ligen/liga/mannschaften/"
    response = client.post(
        url,
        {"action": "add_team", "team-name": "SG", "team-club": "", "team-partner_club": "SV B"},
    )
    assert response.status_code == 400
    assert list(response.context["team_form"].errors) == ["club"]
    response = client.post(
        url,
        {"action": "add_team", "team-name": "SG", "team-club": "SV A", "team-partner_club": "SV B"},
    )
    assert response.status_code == 302
    assert "SG SV A / SV B" in client.get(url).content.decode()
    api = api_client(user=alice, lang="de")
    refused = api.post(
        "/api/v1/leagues/liga/teams/",
        {"name": "Zwei", "club": "SV A", "partner_club": "sv a"},
        format="json",
    )
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "partner_club"
    made = api.post(
        "/api/v1/leagues/liga/teams/",
        {"name": "Zwei", "club": "SV C", "partner_club": "SV D"},
        format="json",
    )
    assert made.status_code == 201 and made.json()["club_label"] == "SG SV C / SV D"
    assert league.teams.count() == 2


def test_an_sg_squad_holds_players_of_both_clubs(alice: User) -> None:
    league = create_league(LeagueData(name="Liga"), actor=organizer(alice))
    team = add_team(league, "SG", club="SV A", partner_club="SV B", actor=organizer(alice))
    for club in ("SV A", "SV B", "SV A", "SV B"):
        player = Player.objects.create(
            owner=alice, registry_club=league.club, first_name="P", last_name=club, club=club
        )
        add_squad_member(team, player, actor=organizer(alice))
    assert sorted(team.squad.values_list("player__club", flat=True)) == ["SV A"] * 2 + ["SV B"] * 2


def test_a_team_becomes_an_sg_on_the_owners_page(finished: Played, alice: User) -> None:
    """Two clubs join forces mid-season: the team, its squad and results stay."""
    team = finished.teams[0]
    url = "/verwaltung/ligen/liga/mannschaften/"
    prefix = f"clubs{team.pk}"
    client = page_client(alice)
    response = client.post(
        url,
        {
            "action": "change_clubs",
            "team": team.pk,
            f"{prefix}-club": "Club 0",
            f"{prefix}-partner_club": "club 0",
        },
    )
    assert response.status_code == 400
    form = response.context["teams"][0]["clubs"]
    assert form.errors["partner_club"] == ["Der zweite Verein muss ein anderer als der erste sein."]
    response = client.post(
        url,
        {
            "action": "change_clubs",
            "team": team.pk,
            f"{prefix}-club": "Club 0",
            f"{prefix}-partner_club": "Club 9",
        },
    )
    assert response.status_code == 302
    assert Team.objects.get(pk=team.pk).club_label == "SG Club 0 / Club 9"
    assert LeagueChange.objects.filter(action="teams.team.changed").count() == 1
    assert "SG Club 0 / Club 9" in page_client().get("/ligen/liga/").content.decode()


def test_api_changes_a_teams_clubs(finished: Played, alice: User, bob: User) -> None:
    team = finished.teams[1]
    url = f"/api/v1/leagues/liga/teams/{team.pk}/"
    refused = api_client(user=bob).patch(url, {"partner_club": "X"}, format="json")
    assert refused.status_code == 403
    bad = api_client(user=alice, lang="en").patch(
        url, {"club": "", "partner_club": "SV B"}, format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["field"] == "club"
    assert "Name the first club too" in bad.json()["error"]["message"]
    changed = api_client(user=alice).patch(url, {"partner_club": "SV B"}, format="json")
    assert changed.status_code == 200, changed.json()
    assert changed.json()["club_label"] == "SG Club 1 / SV B"
    undone = api_client(user=alice).patch(url, {"partner_club": ""}, format="json")
    assert undone.json()["club_label"] == "Club 1"
