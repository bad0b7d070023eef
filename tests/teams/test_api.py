"""The team competition API: the table with shared victory points as "3.5", a team with its
line-ups and substitutions, line-ups read and set (validation and permissions), leagues and
teams created by their owner."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from clubs.services import personal_club
from teams.models import League, LineUp
from tests.teams.helpers import finish_day
from tests.teams.played import Played, played_league
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice: User) -> Played:
    return played_league(alice)


def test_table_shape_and_shared_points(played: Played, public_api: APIClient) -> None:
    # Series 1 closed, series 2 not played: the day is provisional, the table empty; the
    # players' closed series count, tied players share their place.
    data = public_api.get("/api/v1/leagues/liga/table/").json()
    assert data["teams"] == []
    (group,) = data["groups"]
    assert group["played"] and not group["final"]
    assert (
        sorted((p["place"], p["shared"], p["points"]) for p in data["players"])
        == [(1, True, 1)] * 8 + [(9, True, -1)] * 8
    )
    finish_day(played.group)
    data = public_api.get("/api/v1/leagues/liga/table/").json()
    assert [(t["name"], t["victory_points"], t["points"], t["place"]) for t in data["teams"]] == [
        ("T0", "3.5", 4, 1), ("T1", "3.5", 4, 1), ("T2", "1.5", -4, 3), ("T3", "1.5", -4, 3),
    ]  # fmt: skip
    (group,) = data["groups"]
    assert group["final"] and group["tournament"] == played.group.tournament.slug
    assert sorted(line["series_points"][0] for line in group["lines"]) == [-4, -4, 4, 4]
    assert len(data["players"]) == 16


def test_team_detail_lists_squad_line_ups_and_substitutions(
    played: Played, public_api: APIClient
) -> None:
    team, members = played.teams[0], played.players[0]
    data = public_api.get(f"/api/v1/leagues/liga/teams/{team.pk}/").json()
    assert [p["id"] for p in data["squad"]] == sorted(
        (m.pk for m in members), key=lambda pk: Player.objects.get(pk=pk).last_name
    )
    (day,) = data["days"]
    assert day["result"]["victory_points"] == "3.5"
    second = day["line_ups"][1]
    assert (second["came_in"], second["went_out"]) == ([members[4].pk], [members[0].pk])
    assert "email" not in str(data) and "ddv" not in str(data)


def test_line_ups_read_and_set(played: Played, alice_api: APIClient, bob_api: APIClient) -> None:
    url = f"/api/v1/leagues/liga/groups/{played.group.pk}/line-ups/"
    assert len(alice_api.get(url).json()) == 8  # four teams, two series
    team, members = played.teams[1], played.players[1]
    chosen = [m.pk for m in members[:4]]
    body = {"series": 2, "team": team.pk, "players": chosen}
    assert bob_api.post(url, body, format="json").status_code == 403
    response = alice_api.post(url, body, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["players"] == body["players"]
    for wrong, status in (
        ({**body, "players": chosen[:2]}, 400),  # too few
        ({**body, "series": 1}, 409),  # drawn already
        ({**body, "team": 999999}, 400),  # not in the group
        ({**body, "players": ["x"]}, 400),
        ({**body, "extra": 1}, 400),  # strict input
    ):
        answer = alice_api.post(url, wrong, format="json")
        assert answer.status_code == status, (wrong, answer.json())
        assert "error" in answer.json()
    beyond = alice_api.post(url, {**body, "series": 9}, format="json")
    assert beyond.status_code == 400
    assert (beyond.json()["error"]["code"], beyond.json()["error"]["field"]) == (
        "no_such_series",
        "series",
    )
    assert LineUp.objects.filter(group=played.group, team=team, series_number=2).count() == 4


def test_create_league_and_team(alice: User, alice_api: APIClient, public_api: APIClient) -> None:
    assert public_api.post("/api/v1/leagues/", {"name": "X"}, format="json").status_code == 401
    response = alice_api.post(
        "/api/v1/leagues/",
        {"name": "Pokal", "scoring_overrides": {"tie_rule": "nonsense"}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "tie_rule"
    response = alice_api.post("/api/v1/leagues/", {"name": "Pokal"}, format="json")
    assert response.status_code == 201 and response.json()["slug"] == "pokal"
    hans = Player.objects.create(
        owner=alice, registry_club=personal_club(alice), first_name="Hans", last_name="Huber"
    )
    response = alice_api.post(
        "/api/v1/leagues/pokal/teams/", {"name": "Füchse", "players": [hans.pk]}, format="json"
    )
    assert response.status_code == 201
    assert [p["name"] for p in response.json()["squad"]] == ["Hans Huber"]
    stranger = Player.objects.create(first_name="Fremd", last_name="Ling")
    response = alice_api.post(
        "/api/v1/leagues/pokal/teams/", {"name": "Dachse", "players": [stranger.pk]}, format="json"
    )
    assert response.status_code == 404
    assert not League.objects.get(slug="pokal").teams.filter(name="Dachse").exists()


def test_a_private_league_is_not_found_for_others(alice: User, bob_api: APIClient) -> None:
    played_league(alice, slug="geheim", is_public=False)
    for path in ("/api/v1/leagues/geheim/", "/api/v1/leagues/geheim/table/"):
        assert bob_api.get(path).status_code == 404
    assert all(row["slug"] != "geheim" for row in bob_api.get("/api/v1/leagues/").json()["results"])
