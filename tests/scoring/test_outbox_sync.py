"""The outbox's sync endpoint: one game per request, JSON only, idempotent by key, and a
game the sheet cannot take kept as a conflict for the organizers."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from common.actors import Actor
from scoring import doors
from scoring.models import AuditEntry, Game, OutboxConflict, ScoreSheet
from scoring.services.entry import save_game
from tests.factories import RE_WINS as NORMAL
from tests.factories import make_tournament, running_table
from tournaments.models import Series, Table

OTHER = Actor(doors.CAPTAIN, seat=2, device="phone-b" * 3)


@pytest.fixture
def table(db: None) -> Table:
    return running_table(make_tournament())


def url(table: Table) -> str:
    return f"/tisch/{table.captain_token}/ausgang/"


def game(**fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "contract": "normal",
        "re_players": ["1", "3"],
        "re_points": "130",
        "idempotency_key": "key-00000001",
        "number": "1",
    }
    data.update(fields)
    return data


def send(client: Client, table: Table, pending: int | None = None, **fields: Any) -> Any:
    headers = {} if pending is None else {"HTTP_X_OUTBOX_PENDING": str(pending)}
    return client.post(url(table), game(**fields), **headers)


def test_accepted_answers_the_row_and_the_sheet_position(client: Client, table: Table) -> None:
    response = send(client, table, version="0")
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "accepted" and body["number"] == 1 and body["value"] == 1
    assert body["sheet_version"] == 1 and body["next_number"] == 2
    assert body["row_html"].startswith("<tr") and body["row_html"].endswith("</tr>")
    assert "spiel/1/" in body["row_html"]
    stored = Game.objects.get(table=table)
    assert stored.dealer == 1  # the server's replay, not the phone, says who dealt
    page = client.get(f"/tisch/{table.captain_token}/").content.decode()
    assert body["row_html"] in page  # the very row the page shows


def test_the_same_key_twice_is_one_game(client: Client, table: Table) -> None:
    first = send(client, table)
    again = send(client, table, version="0")  # the phone never saw the answer
    assert first.status_code == 201 and again.status_code == 200
    body = again.json()
    assert body["status"] == "replayed" and body["number"] == 1
    assert body["row_html"] == first.json()["row_html"]
    assert body["next_number"] == 2
    assert Game.objects.count() == 1
    assert AuditEntry.objects.filter(action="scoring.game.created").count() == 1


def test_a_key_from_the_page_form_replays_through_the_outbox(client: Client, table: Table) -> None:
    """The form was posted, the answer got lost, the phone kept the game: one game."""
    page_form = {k: v for k, v in game().items() if k != "number"}
    client.post(f"/tisch/{table.captain_token}/spiel/", page_form)
    response = send(client, table)
    assert response.status_code == 200 and response.json()["status"] == "replayed"
    assert Game.objects.count() == 1


def test_games_in_a_row_with_the_versions_the_answers_gave(client: Client, table: Table) -> None:
    version = "0"
    for n in range(1, 4):
        body = send(client, table, idempotency_key=f"key-game-{n}", number=str(n), version=version)
        assert body.status_code == 201, body.json()
        version = str(body.json()["sheet_version"])
    assert list(Game.objects.values_list("number", flat=True).order_by("number")) == [1, 2, 3]


def test_refused_facts_answer_422_with_field_errors(client: Client, table: Table) -> None:
    response = send(client, table, re_points="250")
    assert response.status_code == 422
    body = response.json()
    assert body["status"] == "refused" and "re_points" in body["errors"]
    assert body["next_number"] == 1
    engine = send(client, table, re_points="100", re_tricks="1")
    assert engine.status_code == 422
    told = engine.json()
    said = [message for messages in told["errors"].values() for message in messages]
    assert "Diese Stiche können diese Augen nicht enthalten." in said
    assert told["message"] == "Diese Stiche können diese Augen nicht enthalten."
    client.cookies["django_language"] = "en"
    english = send(client, table, re_points="100", re_tricks="1")
    assert english.status_code == 422
    assert english.json()["message"] == "These tricks cannot hold these card points."
    assert not Game.objects.exists() and not OutboxConflict.objects.exists()


def test_a_number_another_device_took_is_kept_as_a_conflict(client: Client, table: Table) -> None:
    save_game(table, NORMAL, actor=OTHER)  # game 1 from the other phone
    response = send(client, table, re_points="100", version="0")
    assert response.status_code == 409
    body = response.json()
    assert body["status"] == "conflict" and body["code"] == "number_taken"
    assert body["next_number"] == 2 and body["sheet_version"] == 1
    assert Game.objects.get().record["re_points"] == 130  # nothing overwritten
    conflict = OutboxConflict.objects.get()
    assert conflict.number == 1 and conflict.facts["re_points"] == "100"
    assert conflict.reason == "number_taken" and conflict.resolved_at is None
    assert AuditEntry.objects.filter(action="scoring.outbox.conflict").count() == 1
    again = send(client, table, re_points="100")
    assert again.status_code == 409 and OutboxConflict.objects.count() == 1


def test_a_submitted_sheet_keeps_the_game_as_a_conflict(client: Client, table: Table) -> None:
    for _ in range(3):
        save_game(table, NORMAL, actor=OTHER)
    ScoreSheet.objects.filter(table=table).update(status=ScoreSheet.Status.SUBMITTED)
    response = send(client, table, number="4")
    assert response.status_code == 409 and response.json()["code"] == "sheet_submitted"
    assert OutboxConflict.objects.get().reason == "sheet_submitted"
    assert Game.objects.count() == 3


def test_a_closed_series_keeps_the_game_as_a_conflict(client: Client, table: Table) -> None:
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.CLOSED)
    response = send(client, table)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "series_not_running" and body["sheet_version"] == 0
    assert OutboxConflict.objects.get().reason == "series_not_running"
    assert not Game.objects.exists()


def test_a_game_after_a_lost_one_is_out_of_order(client: Client, table: Table) -> None:
    response = send(client, table, number="2")
    assert response.status_code == 409
    assert response.json()["code"] == "out_of_order" and response.json()["next_number"] == 1
    assert not Game.objects.exists()


def test_a_wrong_token_is_404_json(client: Client, table: Table) -> None:
    response = client.post("/tisch/not-a-token/ausgang/", game())
    assert response.status_code == 404 and response.json()["code"] == "invalid_link"


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"idempotency_key": "short"}, "invalid_idempotency_key"),
        ({"idempotency_key": "x" * 65}, "invalid_idempotency_key"),
        ({"idempotency_key": "with space"}, "invalid_idempotency_key"),
        ({"idempotency_key": "ümlaut-key"}, "invalid_idempotency_key"),
        ({"number": ""}, "invalid_number"),
        ({"number": "0"}, "invalid_number"),
        ({"number": "1e3"}, "invalid_number"),
        ({"version": "-1"}, "invalid_version"),
        ({"version": "abc"}, "invalid_version"),
    ],
)
def test_a_malformed_request_is_400_json(
    client: Client, table: Table, fields: dict[str, str], code: str
) -> None:
    response = send(client, table, **fields)
    assert response.status_code == 400 and response.json()["code"] == code
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"contract": "\x00"},
        {"re_players": ["9", "x", "1"]},
        {"re_points": "9" * 40},
        {"sitting_out": "99999999999"},
        {"contract": "solo", "solo": "nonsense", "soloist": "7"},
        {"penalty_1": "1e99"},
    ],
)
def test_junk_is_never_a_500(client: Client, table: Table, fields: dict[str, str]) -> None:
    response = send(client, table, **fields)
    assert response.status_code in (201, 422), response.content
    assert response["Content-Type"] == "application/json"


def test_get_and_other_methods_are_405_json(client: Client, table: Table) -> None:
    response = client.get(url(table))
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"


def test_a_logged_in_organizer_gains_nothing_through_the_link(
    alice_client: Client, tournament: Any
) -> None:
    """The path's token is the only credential: a session cookie opens nothing here."""
    response = alice_client.post("/tisch/unknown-token-123/ausgang/", game())
    assert response.status_code == 404


def test_csrf_is_not_needed_but_the_token_is(table: Table) -> None:
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(url(table), game()).status_code == 201


def test_guessed_links_are_throttled_with_json(
    settings: Any, client: Client, table: Table, throttle_window: None
) -> None:
    settings.TOKEN_FAILURE_LIMIT = 3
    settings.TOKEN_FAILURE_WINDOW = 600
    for guess in range(3):
        assert client.post(f"/tisch/guess-{guess}/ausgang/", game()).status_code == 404
    response = client.post("/tisch/guess-more/ausgang/", game())
    assert response.status_code == 429 and response.json()["code"] == "throttled"
    assert "Retry-After" in response
    assert send(client, table).status_code == 201  # the right link is never refused
