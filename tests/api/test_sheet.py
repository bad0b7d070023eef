"""Submitting and confirming a sheet through the API."""

from __future__ import annotations

from rest_framework.test import APIClient

from scoring.models import ScoreSheet
from tests.api.helpers import NORMAL, Entry, full_series, sheet_url
from tests.factories import api_client
from tournaments.models import Table


def fill(captain_api: APIClient, table: Table) -> Entry:
    entry = Entry(captain_api, table)
    for payload, dealer in full_series():
        response = entry.post(payload, dealer)
        assert response.status_code == 201, response.json()
    return entry


def test_sheet_state_and_findings(
    captain_api: APIClient, public_api: APIClient, table: Table
) -> None:
    Entry(captain_api, table).post(NORMAL, 1)
    response = public_api.get(sheet_url(table))
    assert response.status_code == 200 and response["ETag"] == '"1"'
    body = response.json()
    assert body["version"] == 1 and body["status"] == "open" and body["findings"] == []
    assert body["next"]["game"] == 2


def test_submit_refused_while_games_are_missing(captain_api: APIClient, table: Table) -> None:
    Entry(captain_api, table).post(NORMAL, 1)
    response = captain_api.post(sheet_url(table, "submit"), {"seat": 4}, format="json",
                            HTTP_IF_MATCH="1")  # fmt: skip
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "sheet_has_errors"
    assert {"too_few_games", "compulsory_solo_missing"} <= {f["code"] for f in error["findings"]}


def test_submit_needs_the_current_version(captain_api: APIClient, table: Table) -> None:
    entry = fill(captain_api, table)
    url = sheet_url(table, "submit")
    assert captain_api.post(url, {"seat": 4}, format="json").status_code == 428
    stale = captain_api.post(url, {"seat": 4}, format="json", HTTP_IF_MATCH="3")
    assert stale.status_code == 409 and stale.json()["sheet"]["version"] == entry.version
    bad_seat = captain_api.post(url, {"seat": 9}, format="json", HTTP_IF_MATCH=str(entry.version))
    assert bad_seat.status_code == 400 and bad_seat.json()["error"]["field"] == "seat"


def test_submit_and_confirm_by_another_player(captain_api: APIClient, table: Table) -> None:
    entry = fill(captain_api, table)
    response = captain_api.post(sheet_url(table, "submit"), {"seat": 4}, format="json",
                            HTTP_IF_MATCH=str(entry.version))  # fmt: skip
    assert response.status_code == 200, response.json()
    assert response.json()["sheet"]["status"] == "submitted"
    same = captain_api.post(sheet_url(table, "confirm"), {"seat": 4}, format="json")
    assert same.status_code == 400 and same.json()["error"]["code"] == "same_player"
    missing = captain_api.post(sheet_url(table, "confirm"), {}, format="json")
    assert missing.status_code == 400 and missing.json()["error"]["field"] == "seat"
    same_phone = captain_api.post(sheet_url(table, "confirm"), {"seat": 2}, format="json")
    assert same_phone.status_code == 400
    assert same_phone.json()["error"]["code"] == "same_device"
    other_phone = api_client(table=table, device="phone-of-seat-2")
    confirmed = other_phone.post(sheet_url(table, "confirm"), {"seat": 2}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["sheet"]["status"] == "confirmed"
    retried = other_phone.post(sheet_url(table, "confirm"), {"seat": 2}, format="json")
    assert retried.status_code == 200 and retried["Idempotent-Replayed"] == "true"
    late = entry.post(NORMAL, 1)
    assert late.status_code == 403 and late.json()["error"]["code"] == "sheet_submitted"


def test_organizer_confirms_without_a_seat(
    captain_api: APIClient, alice_api: APIClient, bob_api: APIClient, table: Table
) -> None:
    entry = fill(captain_api, table)
    captain_api.post(sheet_url(table, "submit"), {"seat": 4}, format="json",
                 HTTP_IF_MATCH=str(entry.version))  # fmt: skip
    refused = bob_api.post(sheet_url(table, "confirm"), {}, format="json")
    assert refused.status_code == 403
    response = alice_api.post(sheet_url(table, "confirm"), {}, format="json")
    assert response.status_code == 200
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == "confirmed" and sheet.confirmed_by_user.username == "alice"


def test_retried_submit_answers_success_once(captain_api: APIClient, table: Table) -> None:
    entry = fill(captain_api, table)
    url = sheet_url(table, "submit")
    first = captain_api.post(url, {"seat": 4}, format="json", HTTP_IF_MATCH=str(entry.version))
    again = captain_api.post(url, {"seat": 4}, format="json", HTTP_IF_MATCH=str(entry.version))
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    from scoring.models import AuditEntry

    assert AuditEntry.objects.filter(action="scoring.sheet.submitted").count() == 1
