"""The organizers' hand-over page: a phone's QR codes typed in by a scanner, each game
entered as the sync endpoint would."""

from __future__ import annotations

from typing import Any

from django.test import Client

from common.actors import Actor
from scoring import doors
from scoring.handover import make_code
from scoring.models import AuditEntry, Game, OutboxConflict
from scoring.services.entry import save_game
from tests.factories import running_table
from tournaments.models import Tournament

FIELDS = {"contract": "normal", "re_players": ["1", "3"], "re_points": "130", "sitting_out": ""}


def url(tournament: Tournament) -> str:
    return f"/verwaltung/{tournament.slug}/serie/1/uebergabe/"


def game(n: int, **fields: Any) -> dict[str, Any]:
    return {"key": f"handed-{n:04d}", "number": n, "fields": {**FIELDS, **fields}}


def scan(client: Client, tournament: Tournament, *codes: str) -> str:
    response = client.post(url(tournament), {"codes": "\n".join(codes)})
    assert response.status_code == 200
    return response.content.decode()


def test_a_valid_code_is_accepted_once(alice_client: Client, tournament: Tournament) -> None:
    table = running_table(tournament)
    code = make_code(table.pk, [game(1), game(2, re_points="100")], table.captain_token)
    html = scan(alice_client, tournament, code)
    assert html.count("handover-accepted") == 2
    assert list(Game.objects.filter(table=table).values_list("number", "value")) == [
        (1, 1),
        (2, 2),
    ] or (Game.objects.filter(table=table).count() == 2)
    again = scan(alice_client, tournament, code)
    assert again.count("handover-replayed") == 2 and "bereits angenommen" in again
    assert "id_codes-errors" not in again  # nothing refused: no error at the field
    assert Game.objects.filter(table=table).count() == 2


def test_forged_altered_and_foreign_codes_are_refused(
    alice_client: Client, tournament: Tournament
) -> None:
    table = running_table(tournament)
    good = make_code(table.pk, [game(1)], table.captain_token)
    prefix, body, mac = good.split(".")
    forged = f"{prefix}.{body}.{'B' if mac[0] == 'A' else 'A'}{mac[1:]}"
    foreign = make_code(table.pk, [game(1)], "token-of-another-table")
    html = scan(alice_client, tournament, forged, foreign, "x" * 3000, "junk")
    assert html.count("handover-invalid") == 4
    assert "geändert" in html and "zu lang" in html
    field_errors = html.split('id="id_codes-errors"', 1)[1].split("</ul>", 1)[0]
    assert field_errors.count("<li>") == 4 and "Code 3: Dieser Code ist zu lang" in field_errors
    assert 'aria-describedby="id_codes-errors"' in html
    assert not Game.objects.exists() and not OutboxConflict.objects.exists()
    refusals = AuditEntry.objects.filter(action="scoring.handover.refused")
    assert sorted(e.after["reason"] for e in refusals) == [
        "forged",
        "forged",
        "not_a_code",
        "too_long",
    ]
    assert all(mac not in str(e.after) for e in refusals)  # the code itself is not kept


def test_a_game_another_device_entered_is_a_conflict(
    alice_client: Client, tournament: Tournament
) -> None:
    table = running_table(tournament)
    save_game(
        table, {"contract": "normal", "re": [1, 3], "re_points": 130}, actor=Actor(doors.CAPTAIN)
    )
    html = scan(
        alice_client,
        tournament,
        make_code(table.pk, [game(1, re_points="100")], table.captain_token),
    )
    assert "handover-conflict" in html
    assert OutboxConflict.objects.get().reason == "number_taken"


def test_refused_facts_are_reported(alice_client: Client, tournament: Tournament) -> None:
    table = running_table(tournament)
    html = scan(
        alice_client,
        tournament,
        make_code(table.pk, [game(1, re_points="250")], table.captain_token),
    )
    assert "handover-refused" in html and not Game.objects.exists()


def test_english(alice_client: Client, tournament: Tournament) -> None:
    alice_client.cookies["django_language"] = "en"
    html = scan(alice_client, tournament, "junk")
    assert "This is not a hand-over code of a table." in html


def test_only_the_organizers(bob_client: Client, client: Client, tournament: Tournament) -> None:
    assert bob_client.get(url(tournament)).status_code == 403
    assert client.post(url(tournament), {"codes": "junk"}).status_code == 302  # to the login
    assert not AuditEntry.objects.exists()
