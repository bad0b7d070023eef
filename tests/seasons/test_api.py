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
    assert [t["slug"] for t in body["tournaments"]] == ["t2", "t1"]
    anna, bernd = body["ranked"]
    assert (anna["name"], anna["place"], anna["value"], anna["club"]) == (
        "Anna Albers", 1, "20", "Füchse",
    )  # fmt: skip
    assert [(r["tournament"], r["why"], r["place"]) for r in anna["results"]] == [
        ("t2", "counted", 1),
        ("t1", "dropped", 1),
    ]
    assert (bernd["place"], bernd["value"]) == (2, "10")
    filtered = public_api.get(API + "cup/ranking/", {"club": "Füchse"}).json()
    assert [ln["name"] for ln in filtered["ranked"]] == ["Anna Albers"]
    assert public_api.get(API + "cup/ranking/", {"club": "x" * 500}).status_code == 200


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
    assert bob_api.get(API).json()["results"] == []
    assert alice_api.get(API).json()["results"][0]["slug"] == "cup"
