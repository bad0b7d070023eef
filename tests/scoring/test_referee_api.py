"""Referee calls through the REST API: the captain (his table's token) calls and withdraws;
the club's referees read the open calls, take one (409 naming who has it) and rule it; to
anybody else signed in the calls do not exist (404). A retry with the same Idempotency-Key
answers the first answer and writes nothing twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from clubs.models import Membership
from scoring.models import AuditEntry, Deduction, Extension, RefereeCall
from tests.factories import api_client, make_tournament, make_user, play
from tournaments.models import Table, Tournament

CAPTAIN_CALL = "/api/v1/captain/referee-call/"
CALLS = "/api/v1/tournaments/herbst/referee-calls/"


@pytest.fixture
def rudi(tournament: Tournament) -> User:
    """A referee of the club that owns Alice's tournament."""
    user = make_user("rudi")
    Membership.objects.create(club=tournament.club, user=user, role="referee")
    return user


@pytest.fixture
def referee(rudi: User) -> APIClient:
    return api_client(user=rudi)


def _call(captain: APIClient, key: str = "", **body: Any) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    body = body or {"reason": "Karte verworfen", "game_number": 1}
    return captain.post(CAPTAIN_CALL, body, format="json", **headers)


def test_the_captain_calls_and_a_retry_answers_the_same_call(
    captain_api: APIClient, table: Table
) -> None:
    assert captain_api.get(CAPTAIN_CALL).json() == {"call": None}
    first = _call(captain_api, key="call-1")
    assert first.status_code == 201, first.json()
    body = first.json()
    assert (body["status"], body["table"], body["game_number"]) == ("called", 1, 1)
    assert body["taken_by"] is None
    retry = _call(captain_api, key="call-1")
    assert retry.status_code == 201 and retry.json() == body
    assert retry["Idempotent-Replayed"] == "true"
    double_tap = _call(captain_api)  # no key: the open call, nothing written
    assert double_tap.status_code == 200 and double_tap.json()["id"] == body["id"]
    assert RefereeCall.objects.count() == 1
    assert AuditEntry.objects.filter(action="scoring.referee.called").count() == 1
    assert captain_api.get(CAPTAIN_CALL).json()["call"]["id"] == body["id"]

    withdrawn = captain_api.post(CAPTAIN_CALL + "withdraw/", format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    # The same key after the call was withdrawn still answers that call: no second call.
    assert _call(captain_api, key="call-1").json()["id"] == body["id"]
    assert RefereeCall.objects.count() == 1


def test_a_referee_takes_and_rules_and_a_retried_ruling_writes_nothing(
    captain_api: APIClient, referee: APIClient, alice_api: APIClient, table: Table
) -> None:
    play(table, [{"contract": "normal", "re": [1, 3], "re_points": 130, "dealer": 1}])
    call = _call(captain_api).json()
    open_calls = referee.get(CALLS).json()
    assert [c["id"] for c in open_calls["results"]] == [call["id"]]
    assert open_calls["results"][0]["concerned_game"] == 1

    taken = referee.post(f"{CALLS}{call['id']}/take/", format="json")
    assert taken.status_code == 200
    assert (taken.json()["status"], taken.json()["taken_by"]) == ("taken", "rudi")
    other = alice_api.post(f"{CALLS}{call['id']}/take/", format="json")
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "already_taken"
    assert other.json()["error"]["taken_by"] == "rudi"
    assert "rudi" in other.json()["error"]["message"]

    ruling = {"ruling": "Karte gilt als gespielt.", "extension_minutes": 4,
              "deduction": {"seat": 2, "points": -10}}  # fmt: skip
    url = f"{CALLS}{call['id']}/rule/"
    ruled = referee.post(url, ruling, format="json", HTTP_IDEMPOTENCY_KEY="rule-1")
    assert ruled.status_code == 200, ruled.json()
    body = ruled.json()
    assert (body["status"], body["verdict"], body["ruled_game"]) == ("ruled", "confirmed", 1)
    assert body["extension_minutes"] == 4 and body["deduction"]["points"] == -10
    retry = referee.post(url, ruling, format="json", HTTP_IDEMPOTENCY_KEY="rule-1")
    assert retry.status_code == 200 and retry.json() == body
    assert Extension.objects.filter(table=table).count() == 1
    assert Deduction.objects.count() == 1
    again = referee.post(url, ruling, format="json", HTTP_IDEMPOTENCY_KEY="rule-2")
    assert again.status_code == 409 and again.json()["error"]["code"] == "call_closed"
    other_body = {**ruling, "ruling": "Anders."}
    reused = referee.post(url, other_body, format="json", HTTP_IDEMPOTENCY_KEY="rule-1")
    assert reused.status_code == 422
    assert referee.get(CALLS).json()["count"] == 0
    assert captain_api.get(CAPTAIN_CALL).json()["call"]["ruled_by"] is None  # no names


@pytest.mark.parametrize(
    ("lang", "words"),
    [("de", "kleiner oder gleich 60"), ("en", "less than or equal to 60")],
)
def test_a_bad_ruling_is_refused_on_its_field_in_both_languages(
    captain_api: APIClient, rudi: User, table: Table, lang: str, words: str
) -> None:
    play(table, [{"contract": "normal", "re": [1, 3], "re_points": 130, "dealer": 1}])
    call = _call(captain_api).json()
    client = api_client(user=rudi, lang=lang)
    url = f"{CALLS}{call['id']}/rule/"
    response = client.post(url, {"ruling": "Weiter", "extension_minutes": 99}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "extension_minutes" and words in error["message"]
    wrong_game = {"ruling": "Korrigiert", "correction": {"contract": "normal", "re": [1, 3],
                                                        "re_points": 300}}  # fmt: skip
    response = client.post(url, wrong_game, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "correction.re_points"
    missing = client.post(url, {"extension_minutes": 3}, format="json")
    assert missing.status_code == 400 and missing.json()["error"]["field"] == "ruling"
    assert RefereeCall.objects.get().status == "called"


def test_a_bad_call_is_refused_on_its_field(captain_api: APIClient) -> None:
    response = _call(captain_api, reason="", game_number=0)
    assert response.status_code == 400
    fields = {d["field"] for d in response.json()["error"]["details"]}
    assert fields == {"reason", "game_number"}
    assert not RefereeCall.objects.exists()


def test_the_calls_do_not_exist_for_another_clubs_people(
    captain_api: APIClient, bob: User, tournament: Tournament, table: Table
) -> None:
    """Another club's referee and organizer, this club's cashier: 404; no credentials: 401;
    a captain token is not a referee's."""
    call = _call(captain_api).json()
    other = make_tournament("anderes", organizers=[bob])
    otto, carla = make_user("otto"), make_user("carla")
    Membership.objects.create(club=other.club, user=otto, role="referee")
    Membership.objects.create(club=tournament.club, user=carla, role="cashier")
    for user in (otto, bob, carla):
        client = api_client(user=user)
        assert client.get(CALLS).status_code == 404
        assert client.get(f"{CALLS}{call['id']}/").status_code == 404
        assert client.post(f"{CALLS}{call['id']}/take/", format="json").status_code == 404
        ruling = {"ruling": "Weiter"}
        assert client.post(f"{CALLS}{call['id']}/rule/", ruling, format="json").status_code == 404
    assert api_client().get(CALLS).status_code == 401
    assert captain_api.post(f"{CALLS}{call['id']}/take/", format="json").status_code == 401
    assert (
        api_client(user=bob).post(CAPTAIN_CALL, {"reason": "x"}, format="json").status_code == 401
    )
    assert RefereeCall.objects.get().status == "called"
