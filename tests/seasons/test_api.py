"""The seasons API: shape, permissions (owner, other organizer, public), strict validation."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from seasons.models import Season
from tests.seasons.helpers import played, season_of

pytestmark = pytest.mark.django_db

API = "/api/v1/seasons/"


@pytest.fixture
def cup(alice: User) -> Season:
    t1 = played(
        alice, "t1", "2026-01-10", {"Anna Albers": [10, 0], "Bernd Bäcker": [5, 5]},
        clubs={"Anna Albers": "Füchse"},
    )  # fmt: skip
    t2 = played(alice, "t2", "2026-02-10", {"Anna Albers": [20], "Bernd Bäcker": [-3]})
    return season_of(alice, [t1, t2], preset="best_n", overrides={"best_n": 1}, slug="cup")


def test_the_ranking_resource(cup: Season, public_api: APIClient) -> None:
    body = public_api.get(API + "cup/ranking/").json()
    assert body["basis"] == "tournament_total" and body["window_opens"] is None
    assert (body["count"], body["next"], body["previous"]) == (2, None, None)
    assert body["computed_at"] is not None
    anna, bernd = body["results"]
    assert (anna["name"], anna["place"], anna["value"], anna["club"]) == (
        "Anna Albers", 1, "20", "Füchse",
    )  # fmt: skip
    assert (anna["provisional"], "results" in anna) == (False, False)  # explained apart
    assert (bernd["place"], bernd["value"]) == (2, "10")
    line = public_api.get(API + f"cup/ranking/{anna['player']}/").json()
    assert (line["name"], line["place"], line["value"]) == ("Anna Albers", 1, "20")
    assert [(r["tournament"], r["why"], r["place"]) for r in line["results"]] == [
        ("t2", "counted", 1),
        ("t1", "dropped", 1),
    ]
    assert public_api.get(API + "cup/ranking/999999/").status_code == 404
    tournaments = public_api.get(API + "cup/tournaments/").json()
    assert [(t["slug"], t["players"], t["complete"]) for t in tournaments] == [
        ("t2", 2, True),
        ("t1", 2, True),
    ]
    filtered = public_api.get(API + "cup/ranking/", {"club": "Füchse"}).json()
    assert [ln["name"] for ln in filtered["results"]] == ["Anna Albers"]
    found = public_api.get(API + "cup/ranking/", {"q": "backer"}).json()
    assert [(ln["name"], ln["place"]) for ln in found["results"]] == [("Bernd Bäcker", 2)]
    for junk in ({"club": "x" * 500}, {"q": "\x00" * 3}, {"limit": "-1"}, {"offset": "x"}):
        assert public_api.get(API + "cup/ranking/", junk).status_code == 200


def test_the_ranking_comes_in_pages(cup: Season, public_api: APIClient) -> None:
    first = public_api.get(API + "cup/ranking/", {"limit": 1}).json()
    assert [ln["name"] for ln in first["results"]] == ["Anna Albers"]
    assert first["count"] == 2 and first["previous"] is None
    assert first["next"].endswith("/api/v1/seasons/cup/ranking/?limit=1&offset=1")
    second = public_api.get(first["next"]).json()
    assert [ln["name"] for ln in second["results"]] == ["Bernd Bäcker"]
    assert second["next"] is None and second["previous"] is not None
    beyond = public_api.get(API + "cup/ranking/", {"offset": 50}).json()
    assert (beyond["count"], beyond["results"]) == (2, [])


def test_create_change_attach_detach(alice_api: APIClient, alice: User, tournament) -> None:
    response = alice_api.post(
        API,
        {"name": "Rangliste", "rule_overrides": {"min_series": 12, "window_months": 12}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    season = response.json()
    assert (season["slug"], season["owner"], season["preset"]) == (
        "rangliste", "alice", "ddv_rangliste",
    )  # fmt: skip
    url = API + "rangliste/"
    assert alice_api.patch(url, {"is_public": False}, format="json").json()["is_public"] is False
    assert Season.objects.get(slug="rangliste").rule_overrides["min_series"] == 12
    attached = alice_api.post(url + "tournaments/", {"tournament": "herbst"}, format="json")
    assert attached.status_code == 201 and attached.json()["tournaments"] == ["herbst"]
    assert (
        alice_api.post(url + "tournaments/", {"tournament": "herbst"}, format="json").status_code
        == 200
    )
    assert alice_api.get(url + "tournaments/").json()[0]["slug"] == "herbst"
    assert alice_api.delete(url + "tournaments/herbst/").status_code == 204
    assert alice_api.delete(url + "tournaments/herbst/").status_code == 404


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"name": "X", "rule_overrides": {"colour": 1}}, "rule_overrides"),
        ({"name": "X", "rule_overrides": {"best_n": -2}}, "best_n"),
        ({"name": "X", "preset": "elo"}, "preset"),
        ({"name": "X", "unknown": 1}, "unknown"),
        ({"name": "X", "slug": "a b"}, "slug"),
        ({"name": ""}, "name"),
        ({"name": "X", "rule_overrides": []}, "rule_overrides"),
    ],
)
def test_validation_names_the_field(alice_api: APIClient, payload: dict, field: str) -> None:
    response = alice_api.post(API, payload, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert field in error["field"] or field in str(error), error


def test_permissions(
    cup: Season, bob_api: APIClient, public_api: APIClient, other_tournament, alice_api
) -> None:
    assert public_api.post(API, {"name": "X"}, format="json").status_code == 401
    assert public_api.patch(API + "cup/", {"name": "Y"}, format="json").status_code == 401
    assert bob_api.patch(API + "cup/", {"name": "Y"}, format="json").status_code == 403
    assert (
        bob_api.post(API + "cup/tournaments/", {"tournament": "anderes"}, format="json").status_code
        == 403
    )
    assert bob_api.delete(API + "cup/tournaments/t1/").status_code == 403
    # Alice may not attach Bob's tournament
    refused = alice_api.post(API + "cup/tournaments/", {"tournament": "anderes"}, format="json")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_own_tournament"
    Season.objects.filter(slug="cup").update(is_public=False)
    assert bob_api.get(API + "cup/").status_code == 404
    assert bob_api.get(API + "cup/ranking/").status_code == 404
    anna = Season.objects.get(slug="cup").entries.order_by("-sort_key", "player")[0].player_id
    assert bob_api.get(API + f"cup/ranking/{anna}/").status_code == 404
    assert alice_api.get(API + f"cup/ranking/{anna}/").status_code == 200
    assert bob_api.get(API).json()["results"] == []
    assert alice_api.get(API).json()["results"][0]["slug"] == "cup"
