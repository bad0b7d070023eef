"""Games through the API: entry, correction, deletion, idempotent retries, versions,
refusals with code and field, and garbage that must never cause a 500."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import AuditEntry, Game
from tests.api.helpers import NORMAL, Entry, games_url
from tournaments.models import Table


def post(client: APIClient, table: Table, body: Any, *, version: str | None = "0",
         key: str | None = "k1", **headers: str) -> Any:  # fmt: skip
    if version is not None:
        headers["HTTP_IF_MATCH"] = version
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(games_url(table), body, format="json", **headers)


def error(response: Any) -> tuple[str, str]:
    body = response.json()
    return body["error"]["code"], body["error"]["field"]


def test_captain_enters_a_game(captain_api: APIClient, table: Table) -> None:
    response = post(captain_api, table, {**NORMAL, "dealer": 1})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["game"]["number"] == 1 and body["game"]["value"] == 3
    assert body["game"]["scores"] == {"1": 3, "2": -3, "3": 3, "4": -3}
    assert body["sheet"]["version"] == 1 and body["sheet"]["next"]["dealer"] == 2
    assert response["ETag"] == '"1"'
    assert "Idempotent-Replayed" not in response
    assert AuditEntry.objects.get().via == "captain link table 1"


def test_list_and_retrieve(captain_api: APIClient, public_api: APIClient, table: Table) -> None:
    Entry(captain_api, table).post(NORMAL, 1)
    listed = public_api.get(games_url(table)).json()
    assert listed["count"] == 1 and listed["results"][0]["winner"] == "re"
    assert public_api.get(games_url(table, 1)).json()["value"] == 3
    assert public_api.get(games_url(table, 2)).status_code == 404


def test_retry_with_the_same_key_replays_the_answer(captain_api: APIClient, table: Table) -> None:
    first = post(captain_api, table, {**NORMAL, "dealer": 1}, key="phone-1")
    again = post(captain_api, table, {**NORMAL, "dealer": 1}, key="phone-1")
    assert again.status_code == first.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Game.objects.count() == 1
    other = post(captain_api, table, {**NORMAL, "dealer": 1, "re_points": 100}, key="phone-1")
    assert other.status_code == 422 and error(other)[0] == "idempotency_key_reused"


def test_stale_version_gets_a_conflict_with_the_current_state(
    captain_api: APIClient, table: Table
) -> None:
    post(captain_api, table, {**NORMAL, "dealer": 1}, key="a")
    stale = post(captain_api, table, {**NORMAL, "dealer": 2}, version="0", key="b")
    assert stale.status_code == 409
    body = stale.json()
    assert body["error"]["code"] == "version_conflict" and body["error"]["version"] == 1
    assert body["sheet"]["version"] == 1 and body["sheet"]["next"]["game"] == 2
    assert [g["number"] for g in body["games"]] == [1]
    assert stale["ETag"] == '"1"'
    assert Game.objects.count() == 1
    fresh = post(captain_api, table, {**NORMAL, "dealer": 2}, version='"1"', key="b")
    assert fresh.status_code == 201


@pytest.mark.parametrize(
    ("version", "key", "status", "code", "field"),
    [
        (None, "k", 428, "version_required", "If-Match"),
        ("sieben", "k", 400, "invalid_version", "If-Match"),
        ("0", None, 400, "idempotency_key_required", "Idempotency-Key"),
        ("0", "x" * 81, 400, "invalid_idempotency_key", "Idempotency-Key"),
        ("0", "mit leerzeichen", 400, "invalid_idempotency_key", "Idempotency-Key"),
    ],
)
def test_headers_are_required(
    captain_api: APIClient, table: Table, version: str | None, key: str | None, status: int,
    code: str, field: str,
) -> None:  # fmt: skip
    response = post(captain_api, table, {**NORMAL, "dealer": 1}, version=version, key=key)
    assert response.status_code == status
    assert error(response) == (code, field)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"re_points": 250}, "re_points_out_of_range", "re_points"),
        ({"re_points": "130"}, "wrong_type", "re_points"),
        ({"dealer": 3}, "derived_mismatch", "dealer"),
        ({"dealer": None}, "derived_mismatch", "dealer"),
        ({"dealer": [1]}, "derived_mismatch", "dealer"),
        ({"sitting_out": 1}, "sitting_out_not_allowed", "sitting_out"),
        ({"contract": "skat"}, "unknown_contract", "contract"),
        ({"re": [1, 1]}, "re_duplicate_seat", "re.1"),
        ({"announcements": {"re": "keine 90"}}, "unknown_announcement", "announcements.re"),
        ({"trumpf": "karo"}, "unknown_field", "trumpf"),
        ({"version": 0}, "unknown_field", "version"),
        ({"number": 5}, "game_number_out_of_range", "number"),
        ({"number": "1"}, "game_number_out_of_range", "number"),
        ({"reason": 7}, "wrong_type", "reason"),
    ],
)
def test_refusals_carry_code_and_field(
    captain_api: APIClient, table: Table, change: dict[str, Any], code: str, field: str
) -> None:
    response = post(captain_api, table, {**NORMAL, "dealer": 1, **change})
    assert response.status_code == 400, response.json()
    assert error(response) == (code, field)
    assert response.json()["error"]["message"]
    assert not Game.objects.exists()


def test_correct_a_game(captain_api: APIClient, table: Table) -> None:
    entry = Entry(captain_api, table)
    entry.post(NORMAL, 1)
    response = captain_api.put(
        games_url(table, 1), {**NORMAL, "re_points": 100, "dealer": 1, "number": 1},
        format="json", HTTP_IF_MATCH="1",
    )  # fmt: skip
    assert response.status_code == 200, response.json()
    assert response.json()["game"]["winner"] == "kontra"
    assert response.json()["game"]["revision"] == 2
    mismatch = captain_api.put(
        games_url(table, 1), {**NORMAL, "dealer": 1, "number": 2}, format="json",
        HTTP_IF_MATCH="2",
    )  # fmt: skip
    assert mismatch.status_code == 400 and error(mismatch) == ("number_mismatch", "number")
    missing = captain_api.put(games_url(table, 2), {**NORMAL, "dealer": 2}, format="json",
                          HTTP_IF_MATCH="2")  # fmt: skip
    assert missing.status_code == 404


def test_delete_only_the_last_game(captain_api: APIClient, table: Table) -> None:
    entry = Entry(captain_api, table)
    entry.post(NORMAL, 1)
    entry.post(NORMAL, 2)
    not_last = captain_api.delete(games_url(table, 1), HTTP_IF_MATCH="2")
    assert not_last.status_code == 409 and error(not_last)[0] == "not_last_game"
    stale = captain_api.delete(games_url(table, 2), HTTP_IF_MATCH="1")
    assert stale.status_code == 409 and error(stale)[0] == "version_conflict"
    response = captain_api.delete(games_url(table, 2), HTTP_IF_MATCH="2")
    assert response.status_code == 200
    assert response.json()["sheet"]["version"] == 3
    assert list(Game.objects.values_list("number", flat=True)) == [1]


def test_organizer_needs_a_reason_once_the_series_is_closed(
    alice_api: APIClient, captain_api: APIClient, table: Table
) -> None:
    Entry(captain_api, table).post(NORMAL, 1)
    table.series.status = "closed"
    table.series.save()
    url = games_url(table, 1)
    body = {**NORMAL, "re_points": 60, "dealer": 1}
    refused = alice_api.put(url, body, format="json", HTTP_IF_MATCH="1")
    assert refused.status_code == 400 and error(refused) == ("reason_required", "reason")
    response = alice_api.put(
        url, {**body, "reason": "Schiedsrichter"}, format="json", HTTP_IF_MATCH="1"
    )
    assert response.status_code == 200
    entry = AuditEntry.objects.get(action="scoring.game.corrected")
    assert entry.reason == "Schiedsrichter" and entry.via == "api alice"
    deleted = alice_api.delete(f"{url}?reason=Doppelt", HTTP_IF_MATCH="2")
    assert deleted.status_code == 200
    assert AuditEntry.objects.get(action="scoring.game.deleted").reason == "Doppelt"


GARBAGE_BODIES = [b"", b"{", b"null", b"[]", b"42", b'"x"', b"[" * 100000, b"\xff\xfe",
                  b'{"contract": NaN}', b"1" * 5000]  # fmt: skip


@pytest.mark.parametrize("raw", GARBAGE_BODIES, ids=range(len(GARBAGE_BODIES)))
def test_garbage_bodies_answer_json_errors(
    captain_api: APIClient, table: Table, raw: bytes
) -> None:
    response = captain_api.generic(
        "POST", games_url(table), raw, content_type="application/json",
        HTTP_IF_MATCH="0", HTTP_IDEMPOTENCY_KEY="g",
    )  # fmt: skip
    assert response.status_code == 400
    assert set(response.json()["error"]) >= {"code", "field", "message"}


def test_form_data_is_refused(captain_api: APIClient, table: Table) -> None:
    response = captain_api.post(games_url(table), {"dealer": 1}, HTTP_IF_MATCH="0",
                            HTTP_IDEMPOTENCY_KEY="f")  # fmt: skip
    assert response.status_code == 415
    assert error(response)[0] == "unsupported_media_type"


VALUES: list[Any] = [None, True, 0, -1, 7, 2**31, 2**70, 1.5, "", "x", "a\x00", "ansage", [],
                     [1], [1, 3], [[1]], {}, {"re": 1}, {"re": {"fuchs": -1}}, {"\x00": 1},
                     [{"seat": 1, "points": 9}, {"seat": 2, "points": -9}]]  # fmt: skip


def mutations(seed: int, count: int) -> list[dict[str, Any]]:
    """Valid records with fields dropped, added or replaced by values of any type."""
    rng = random.Random(seed)
    fields = ["contract", "solo", "compulsory", "forced", "hochzeit_partner_trick", "seats",
              "sitting_out", "re", "announcements", "re_points", "re_tricks", "extras",
              "penalties", "deductions", "bock", "not_played", "scores", "number", "dealer",
              "reason"]  # fmt: skip
    base = {**NORMAL, "dealer": 1, "extras": {"re": {"fuchs": 1}}}
    bodies = []
    for _ in range(count):
        body = json.loads(json.dumps(base))
        for _ in range(rng.randint(1, 3)):
            name = rng.choice(fields)
            if rng.random() < 0.2:
                body.pop(name, None)
            else:
                body[name] = rng.choice(VALUES)
        bodies.append(body)
    return bodies


def test_fuzzed_records_never_fail_the_server(captain_api: APIClient, table: Table) -> None:
    statuses = set()
    version = "0"
    for index, body in enumerate(mutations(seed=5, count=300)):
        response = post(captain_api, table, body, version=version, key=f"fuzz-{index}")
        assert response.status_code in (201, 400), (body, response.content)
        if response.status_code == 400:
            assert response.json()["error"]["code"]
        else:
            deleted = captain_api.delete(games_url(table, 1), HTTP_IF_MATCH=response["ETag"])
            assert deleted.status_code == 200
            version = deleted["ETag"]
        statuses.add(response.status_code)
    assert statuses == {201, 400}


@pytest.mark.parametrize("points", [2**31, 2**70])
def test_out_of_range_numbers_are_refused(
    captain_api: APIClient, table: Table, points: int
) -> None:
    penalties = [{"seat": 1, "points": points}, {"seat": 2, "points": -points}]
    response = post(captain_api, table, {**NORMAL, "dealer": 1, "penalties": penalties})
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "number_out_of_range"
    assert response.json()["error"]["field"] == "penalties.0.points"
    assert not Game.objects.exists()
