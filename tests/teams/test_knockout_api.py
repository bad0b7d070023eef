"""The knockout through the API: the bracket public as the league's table (404 for a
private league to others), start / decide / next round for the owner only, refusals as
409 with their codes and 400 naming the field (German and English)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from teams.models import League, LeagueChange
from tests.factories import api_client
from tests.teams.knockouts import give_result, group_stage_done, round_groups

pytestmark = pytest.mark.django_db

K = "/api/v1/leagues/liga/knockout/"


def _error(response: Any) -> dict[str, Any]:
    error: dict[str, Any] = response.json()["error"]
    return error


def test_the_knockout_through_the_api(
    alice: User, alice_api: APIClient, bob_api: APIClient
) -> None:
    league, teams, squads = group_stage_done(alice, 8, slug="liga")
    named = {t.name: t for t in teams}
    before = api_client().get(K)
    assert before.status_code == 200 and before.json()["started"] is False
    refused = bob_api.post(f"{K}start/", {}, format="json")
    assert (refused.status_code, _error(refused)["code"]) == (403, "not_league_owner")
    bad = api_client(user=alice, lang="en").post(
        f"{K}start/", {"match_size": 2, "advance": 2}, format="json"
    )
    assert (bad.status_code, _error(bad)["field"]) == (400, "advance")
    assert "Of 2 teams, 1 advances" in _error(bad)["message"]
    unknown = alice_api.post(f"{K}start/", {"rounds": 3}, format="json")
    assert unknown.status_code == 400
    started = alice_api.post(f"{K}start/", {"seeding": "table", "seed": 3}, format="json")
    assert started.status_code == 201, started.json()
    body = started.json()
    assert body["started"] and body["seed"] == 3 and len(body["seeds"]) == 8
    first = body["rounds"][0]
    assert [len(m["teams"]) for m in first["matches"]] == [4, 4]
    assert body["rounds"][1]["final"] and body["rounds"][1]["matches"][0]["group"] is None
    twice = alice_api.post(f"{K}start/", {}, format="json")
    assert (twice.status_code, _error(twice)["code"]) == (409, "knockout_started")
    early = alice_api.post(f"{K}next-round/", {}, format="json")
    assert (early.status_code, _error(early)["code"]) == (409, "round_undecided")
    groups = round_groups(league, 1)
    give_result(groups[0], {"T0": 50, "T5": 30, "T3": 30, "T7": 0}, squads, alice)
    give_result(groups[1], {"T6": 90, "T1": 70, "T2": 60, "T4": 0}, squads, alice)
    tie = api_client().get(K).json()["rounds"][0]["matches"][0]
    assert tie["status"] == "tie_at_cut"
    assert sorted(t["name"] for t in tie["teams"] if t["tied"]) == ["T3", "T5"]
    wrong = alice_api.post(
        f"{K}decide/", {"group": groups[0].pk, "order": [named["T3"].pk]}, format="json"
    )
    assert (wrong.status_code, _error(wrong)["code"], _error(wrong)["field"]) == (
        400,
        "wrong_order",
        "order",
    )
    assert "gleichauf" in _error(wrong)["message"]
    nothing = alice_api.post(
        f"{K}decide/", {"group": groups[1].pk, "order": [named["T1"].pk]}, format="json"
    )
    assert (nothing.status_code, _error(nothing)["code"]) == (409, "no_tie_at_cut")
    stranger = bob_api.post(
        f"{K}decide/",
        {"group": groups[0].pk, "order": [named["T3"].pk, named["T5"].pk]},
        format="json",
    )
    assert stranger.status_code == 403
    decided = alice_api.post(
        f"{K}decide/",
        {"group": groups[0].pk, "order": [named["T3"].pk, named["T5"].pk]},
        format="json",
    )
    assert decided.status_code == 200
    match = decided.json()["rounds"][0]["matches"][0]
    assert match["decided_by_league"] and match["status"] == "decided"
    made = alice_api.post(f"{K}next-round/", {}, format="json")
    assert made.status_code == 200
    final = made.json()["rounds"][1]["matches"][0]
    assert final["group"] is not None and [t["name"] for t in final["teams"]] == [
        "T0",
        "T1",
        "T3",
        "T6",
    ]
    (final_group,) = round_groups(league, 2)
    give_result(final_group, {"T6": 50, "T0": 40, "T1": 30, "T3": 20}, squads, alice)
    done = alice_api.post(f"{K}next-round/", {}, format="json")
    assert done.json()["champion"] == named["T6"].pk and done.json()["finished"]
    over = alice_api.post(f"{K}next-round/", {}, format="json")
    assert (over.status_code, _error(over)["code"]) == (409, "knockout_finished")
    assert LeagueChange.objects.filter(league=league, via__startswith="api").count() >= 4


def test_a_private_leagues_bracket_is_its_owners(
    alice: User, bob_api: APIClient, alice_api: APIClient
) -> None:
    group_stage_done(alice, 4, slug="liga", is_public=False)
    assert api_client().get(K).status_code == 404
    assert bob_api.get(K).status_code == 404
    assert bob_api.post(f"{K}start/", {}, format="json").status_code == 404
    assert alice_api.get(K).status_code == 200
    League.objects.filter(slug="liga").update(is_public=True)
    assert api_client().get(K).status_code == 200
