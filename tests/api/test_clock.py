"""The clock through the API: its state on the server's time for every screen, and the
organizers' pause, resume and Nachspielzeit with their refusals and retries. Time is frozen."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from freezegun import freeze_time
from rest_framework.test import APIClient

from common.actors import ORGANIZER, Actor
from scoring.models import AuditEntry, Extension, Pause
from scoring.services.sheet import set_timeout
from tests.api.helpers import API
from tests.factories import SIGNAL, World, api_client, build_world, set_status, started
from tests.factories import after_signal as at
from tournaments.models import Series, Tournament

pytestmark = pytest.mark.django_db

SERIES = f"{API}/tournaments/herbst/series/1/"
CLOCK = SERIES + "clock/"
PAUSE = CLOCK + "pause/"
RESUME = CLOCK + "resume/"


def iso(moment: datetime.datetime) -> str:
    """As the API writes it: in the hall's time zone, with its offset."""
    return timezone.localtime(moment).isoformat()


def extensions(table: int) -> str:
    return f"{SERIES}tables/{table}/extensions/"


@pytest.fixture
def hall(tournament: Tournament) -> World:
    """Series 1 running since the signal: tables 1 and 2 of four, table 3 of five."""
    return started(build_world(tournament, (4, 4, 5)))


@pytest.fixture
def alice_api_en(alice: User) -> APIClient:
    """Alice's token, answers in English."""
    return api_client(user=alice, lang="en")


def post(client: APIClient, url: str, data: Any = None, **headers: str) -> Any:
    return client.post(url, data if data is not None else {}, format="json", headers=headers)


def test_the_clock_of_a_running_series(hall: World, public_api: APIClient) -> None:
    with freeze_time(at(30)):
        response = public_api.get(CLOCK)
    assert response.status_code == 200
    body = response.json()
    assert body["server_time"] == iso(at(30))
    assert body["started_at"] == iso(SIGNAL)
    assert body["paused_since"] is None and body["time_called_at"] is None
    assert body["main"] == {
        "ends_at": iso(at(100)),
        "remaining_seconds": 70 * 60,
        "stage": "running",
        "time_up": False,
    }
    assert body["tables"][2] == {
        "number": 3,
        "size": 5,
        "limit_minutes": 125,
        "extension_minutes": 0,
        "ends_at": iso(at(125)),
        "remaining_seconds": 95 * 60,
        "stage": "running",
        "time_up": False,
        "time_called": False,
    }
    assert [t["number"] for t in body["tables"]] == [1, 2, 3]
    assert body["pauses"] == []


def test_stages_time_up_and_time_called(hall: World, public_api: APIClient, alice: User) -> None:
    with freeze_time(at(86)):
        assert public_api.get(CLOCK).json()["main"]["stage"] == "last_15"
    with freeze_time(at(96)):
        assert public_api.get(CLOCK).json()["main"]["stage"] == "last_5"
    set_timeout(hall.tables[0], timeout=True, actor=Actor(ORGANIZER, user=alice))
    with freeze_time(at(101)):
        body = public_api.get(CLOCK).json()
    assert body["main"] == {
        "ends_at": iso(at(100)),
        "remaining_seconds": 0,
        "stage": "up",
        "time_up": True,
    }
    assert [(t["time_up"], t["time_called"]) for t in body["tables"]] == [
        (True, True),
        (True, False),
        (False, False),
    ]


def test_before_the_signal_there_is_no_clock_yet(
    tournament: Tournament, public_api: APIClient
) -> None:
    build_world(tournament, (4,), status=Series.Status.DRAWN)
    body = public_api.get(CLOCK).json()
    assert body["started_at"] is None and body["main"] is None and body["tables"] == []


def test_the_series_resource_links_its_clock(hall: World, public_api: APIClient) -> None:
    assert (
        public_api.get(SERIES).json()["clock_url"] == "/api/v1/tournaments/herbst/series/1/clock/"
    )
    listed = public_api.get(f"{API}/tournaments/herbst/series/").json()["results"]
    assert [s["clock_url"] for s in listed] == [
        f"/api/v1/tournaments/herbst/series/{n}/clock/" for n in (1, 2, 3)
    ]


def test_the_captain_endpoint_links_the_clock(hall: World) -> None:
    body = api_client(table=hall.tables[0]).get(f"{API}/captain/").json()
    assert body["clock_url"] == "/api/v1/tournaments/herbst/series/1/clock/"


def test_who_may_read_the_clock_of_a_private_tournament(
    hall: World, tournament: Tournament, alice_api_en: APIClient, bob_api: APIClient,
    public_api: APIClient, other_tournament: Tournament,
) -> None:  # fmt: skip
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    assert alice_api_en.get(CLOCK).status_code == 200
    assert api_client(table=hall.tables[1]).get(CLOCK).status_code == 200  # its captain
    assert public_api.get(CLOCK).status_code == 404
    assert bob_api.get(CLOCK).status_code == 404
    stranger = build_world(other_tournament, (4,)).tables[0]
    assert api_client(table=stranger).get(CLOCK).status_code == 404
    assert public_api.get(f"{API}/tournaments/herbst/series/9/clock/").status_code == 404


def test_pause_and_resume(hall: World, alice_api_en: APIClient) -> None:
    with freeze_time(at(30)):
        response = post(alice_api_en, PAUSE, {"reason": "Stromausfall"})
    assert response.status_code == 201
    body = response.json()
    assert body["paused_since"] == iso(at(30))
    assert body["pauses"] == [{"started_at": iso(at(30)), "ended_at": None,
                               "reason": "Stromausfall"}]  # fmt: skip
    with freeze_time(at(40)):
        paused = alice_api_en.get(CLOCK).json()
        assert paused["main"]["remaining_seconds"] == 70 * 60  # stands still
        response = post(alice_api_en, RESUME)
    assert response.status_code == 200
    body = response.json()
    assert body["paused_since"] is None
    assert body["main"]["ends_at"] == iso(at(110))
    assert body["pauses"][0]["ended_at"] == iso(at(40))
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", "via"))
    assert actions == [
        ("scoring.clock.paused", "api alice"),
        ("scoring.clock.resumed", "api alice"),
    ]


def test_pause_refusals(hall: World, alice_api_en: APIClient) -> None:
    response = post(alice_api_en, RESUME)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_paused"
    post(alice_api_en, PAUSE)
    response = post(alice_api_en, PAUSE)
    assert response.status_code == 409
    assert response.json()["error"] == {
        "code": "already_paused", "field": "", "message": "The clock is already paused."
    }  # fmt: skip
    response = post(alice_api_en, PAUSE, {"reason": "x" * 201})
    assert response.status_code == 400 and response.json()["error"]["field"] == "reason"
    response = post(alice_api_en, PAUSE, {"why": "Stromausfall"})
    assert response.status_code == 400 and response.json()["error"]["field"] == "why"
    set_status(hall.series, Series.Status.CLOSED)
    response = post(alice_api_en, RESUME)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "series_not_running"


def test_nachspielzeit(hall: World, alice_api_en: APIClient) -> None:
    with freeze_time(at(40)):
        response = post(alice_api_en, extensions(2), {"minutes": 6, "reason": "Reklamation"})
        again = post(alice_api_en, extensions(2), {"minutes": 4, "reason": "Schiedsgericht"})
    assert response.status_code == again.status_code == 201
    table = again.json()["tables"][1]
    assert (table["extension_minutes"], table["ends_at"]) == (10, iso(at(110)))
    assert again.json()["main"]["ends_at"] == iso(at(100))
    entries = AuditEntry.objects.filter(action="scoring.clock.extended").order_by("pk")
    assert [(e.table_id, e.after, e.reason) for e in entries] == [
        (hall.tables[1].pk, {"minutes": 6}, "Reklamation"),
        (hall.tables[1].pk, {"minutes": 4}, "Schiedsgericht"),
    ]


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({"reason": "R"}, "minutes", "required"),
        ({"minutes": 0, "reason": "R"}, "minutes", "min_value"),
        ({"minutes": 61, "reason": "R"}, "minutes", "max_value"),
        ({"minutes": 10**30, "reason": "R"}, "minutes", "max_value"),
        ({"minutes": "zehn", "reason": "R"}, "minutes", "invalid"),
        ({"minutes": 5}, "reason", "required"),
        ({"minutes": 5, "reason": ""}, "reason", "blank"),
        ({"minutes": 5, "reason": "x" * 201}, "reason", "max_length"),
        ({"minutes": 5, "reason": "R", "table": 2}, "table", "unknown_field"),
    ],
)
def test_a_wrong_extension_names_its_field(
    hall: World, alice_api_en: APIClient, data: dict[str, Any], field: str, code: str
) -> None:
    response = post(alice_api_en, extensions(1), data)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["code"]) == (field, code)
    if field == "minutes" and code != "required":
        assert error["message"] == "Nachspielzeit is 1 to 60 minutes at a time."
    assert not Extension.objects.exists()


def test_a_reason_of_blanks_is_refused_by_the_service(hall: World, alice_api_en: APIClient) -> None:
    response = post(alice_api_en, extensions(1), {"minutes": 5, "reason": "   "})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "reason"


def test_junk_bodies_are_refused_in_the_envelope(hall: World, alice_api_en: APIClient) -> None:
    for body in ([1, 2], "text", None):
        response = alice_api_en.post(extensions(1), body, format="json")
        assert response.status_code == 400, body
        assert set(response.json()["error"]) >= {"code", "field", "message"}
    response = alice_api_en.post(extensions(1), b"{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_json"
    assert post(alice_api_en, extensions(9), {"minutes": 5, "reason": "R"}).status_code == 404


def test_the_german_refusal(hall: World, alice: User) -> None:
    client = api_client(user=alice, lang="de")
    response = post(client, extensions(1), {"minutes": 5, "reason": ""})
    assert response.status_code == 400 and response.json()["error"]["field"] == "reason"


@pytest.mark.parametrize("url", [PAUSE, RESUME, extensions(1)])
def test_only_the_organizers_change_the_clock(
    hall: World, bob_api: APIClient, public_api: APIClient, url: str
) -> None:
    data = {"minutes": 5, "reason": "R"} if "extensions" in url else {}
    captain = api_client(table=hall.tables[0])
    assert post(public_api, url, data).status_code == 401
    assert post(captain, url, data).status_code == 401
    response = post(bob_api, url, data)
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_organizer"
    assert not Pause.objects.exists() and not Extension.objects.exists()


def test_a_retried_extension_is_granted_once(hall: World, alice_api_en: APIClient) -> None:
    data = {"minutes": 6, "reason": "Reklamation"}
    with freeze_time(at(40)):
        first = post(alice_api_en, extensions(1), data, **{"Idempotency-Key": "ext-1"})
        retry = post(alice_api_en, extensions(1), data, **{"Idempotency-Key": "ext-1"})
    assert first.status_code == retry.status_code == 201
    assert "Idempotent-Replayed" not in first and retry["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    assert Extension.objects.count() == 1
    reused = post(
        alice_api_en, extensions(1), {**data, "minutes": 7}, **{"Idempotency-Key": "ext-1"}
    )
    assert reused.status_code == 422
    assert reused.json()["error"] == {
        "code": "idempotency_key_reused",
        "field": "Idempotency-Key",
        "message": "This idempotency key was already used for a different entry.",
    }
    # Keys are a table's own: at another table the same key is a new request.
    other_table = post(alice_api_en, extensions(2), data, **{"Idempotency-Key": "ext-1"})
    assert other_table.status_code == 201 and "Idempotent-Replayed" not in other_table
    fresh = post(alice_api_en, extensions(1), data, **{"Idempotency-Key": "ext-2"})
    assert fresh.status_code == 201 and Extension.objects.count() == 3


def test_a_retried_pause_and_resume_answer_as_the_first_time(
    hall: World, alice_api_en: APIClient
) -> None:
    with freeze_time(at(30)):
        first = post(alice_api_en, PAUSE, {"reason": "Strom"}, **{"Idempotency-Key": "p-1"})
        retry = post(alice_api_en, PAUSE, {"reason": "Strom"}, **{"Idempotency-Key": "p-1"})
    assert (first.status_code, retry.status_code) == (201, 201)
    assert retry["Idempotent-Replayed"] == "true"
    with freeze_time(at(35)):
        first = post(alice_api_en, RESUME, **{"Idempotency-Key": "r-1"})
        retry = post(alice_api_en, RESUME, **{"Idempotency-Key": "r-1"})
    assert (first.status_code, retry.status_code) == (200, 200)
    assert retry["Idempotent-Replayed"] == "true"
    assert Pause.objects.count() == 1 and AuditEntry.objects.count() == 2
    # A key is the action's own: the pause's key on a resume is a new request.
    with freeze_time(at(36)):
        post(alice_api_en, PAUSE, **{"Idempotency-Key": "p-2"})
        assert post(alice_api_en, RESUME, **{"Idempotency-Key": "p-2"}).status_code == 200
    assert Pause.objects.count() == 2
    # Without a key a second resume is a conflict; a malformed key is refused.
    assert post(alice_api_en, RESUME).status_code == 409
    bad = post(alice_api_en, PAUSE, **{"Idempotency-Key": "ä" * 3})
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "Idempotency-Key"


def test_the_clock_costs_a_constant_number_of_queries(
    hall: World, public_api: APIClient, alice: User
) -> None:
    with freeze_time(at(40)):
        post(api_client(user=alice), extensions(1), {"minutes": 5, "reason": "R"})
    with CaptureQueriesContext(connection) as few:
        public_api.get(CLOCK)
    build_world(hall.tournament, (4, 4, 4, 4, 5), first_table=4)
    with CaptureQueriesContext(connection) as many:
        body = public_api.get(CLOCK).json()
    assert len(body["tables"]) == 8
    assert len(few) == len(many)


def test_a_key_of_a_game_at_the_table_is_not_an_extensions(
    hall: World, alice_api_en: APIClient
) -> None:
    table = hall.tables[0]
    game = alice_api_en.post(
        f"{SERIES}tables/1/games/",
        {"contract": "normal", "re": [1, 3], "re_points": 130},
        format="json",
        headers={"If-Match": "0", "Idempotency-Key": "k-1"},
    )
    assert game.status_code == 201
    response = post(alice_api_en, extensions(1), {"minutes": 5, "reason": "R"},
                    **{"Idempotency-Key": "k-1"})  # fmt: skip
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert not Extension.objects.filter(table=table).exists()
