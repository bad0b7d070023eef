"""Last contact and pending games per table: stored cheaply, shown on the progress board,
asked about when the series closes; conflicts listed and resolved by the organizers."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from scoring import doors
from scoring.models import AuditEntry, OutboxConflict, TableContact
from scoring.services.closing import close_series
from scoring.services.contact import record_contact
from scoring.services.entry import save_game
from tests.factories import RE_WINS as NORMAL
from tests.factories import running_table
from tournaments.models import Series, Table, Tournament


@pytest.fixture
def table(tournament: Tournament) -> Table:
    return running_table(tournament)


def board(client: Client, table: Table) -> str:
    series = table.series
    url = f"/verwaltung/{series.tournament.slug}/serie/{series.number}/fortschritt/"
    return client.get(url).content.decode()


def test_the_captain_link_records_contact_and_pending(client: Client, table: Table) -> None:
    client.get(f"/tisch/{table.captain_token}/", HTTP_X_OUTBOX_PENDING="3")
    contact = TableContact.objects.get(table=table)
    assert contact.pending == 3 and contact.last_contact is not None


def test_writes_are_throttled_but_reaching_zero_is_not(table: Table) -> None:
    now = timezone.now()
    assert record_contact(table.pk, 3, now=now) is True
    assert record_contact(table.pk, 2, now=now) is False  # within the window: no write
    assert record_contact(table.pk, None, now=now) is False
    assert TableContact.objects.get(table=table).pending == 3
    assert record_contact(table.pk, 0, now=now) is True  # the outbox is empty: at once
    assert TableContact.objects.get(table=table).pending == 0
    assert record_contact(table.pk, 1, now=now) is True  # and leaving zero too


def test_junk_pending_is_ignored(client: Client, table: Table) -> None:
    for junk in ("-1", "abc", "99999999", "1e3", ""):
        client.get(f"/tisch/{table.captain_token}/", HTTP_X_OUTBOX_PENDING=junk)
    assert TableContact.objects.get(table=table).pending == 0


def test_the_board_shows_contact_pending_and_conflicts(
    alice_client: Client, client: Client, table: Table
) -> None:
    save_game(table, NORMAL, actor=Actor(doors.CAPTAIN, seat=1))
    client.post(
        f"/tisch/{table.captain_token}/ausgang/",
        {"contract": "normal", "re_players": ["1", "3"], "re_points": "100",
         "idempotency_key": "late-phone-1", "number": "1"},
        HTTP_X_OUTBOX_PENDING="2",
    )  # fmt: skip
    TableContact.objects.filter(table=table).update(
        last_contact=timezone.now() - datetime.timedelta(minutes=3)
    )
    html = board(alice_client, table)
    assert "Kontakt vor 3" in html
    assert "2 Spiele nicht gesendet" in html
    assert "1 Konflikt" in html and "/serie/1/konflikte/" in html


def test_organizers_see_and_resolve_a_conflict(alice_client: Client, table: Table) -> None:
    conflict = OutboxConflict.objects.create(
        tournament=table.series.tournament, table=table, number=4, idempotency_key="k-12345678",
        facts={"contract": "normal", "re_players": ["1", "3"], "re_points": "100"},
        reason="number_taken",
    )  # fmt: skip
    url = f"/verwaltung/{table.series.tournament.slug}/serie/1/konflikte/"
    html = alice_client.get(url).content.decode()
    assert "re_points: 100" in html and "re_players: 1, 3" in html
    assert alice_client.post(url, {"conflict": str(conflict.pk)}).status_code == 302
    conflict.refresh_from_db()
    assert conflict.resolved_at is not None and conflict.resolved_by is not None
    assert AuditEntry.objects.filter(action="scoring.outbox.resolved").count() == 1
    assert alice_client.post(url, {"conflict": "junk"}).status_code == 302


def test_another_organizer_cannot_resolve(bob_client: Client, table: Table) -> None:
    url = f"/verwaltung/{table.series.tournament.slug}/serie/1/konflikte/"
    assert bob_client.get(url).status_code == 403


def test_closing_asks_about_pending_games(alice: Any, table: Table) -> None:
    TableContact.objects.create(table=table, last_contact=timezone.now(), pending=2)
    actor = Actor(ORGANIZER, user=alice)
    with pytest.raises(ServiceError) as refused:
        close_series(table.series, actor=actor, past_unfinished=True)
    assert refused.value.code == "pending_outbox"
    assert refused.value.data["tables"] == [{"table": table.number, "pending": 2}]
    close_series(table.series, actor=actor, past_unfinished=True, past_pending=True)
    assert Series.objects.get(pk=table.series_id).status == Series.Status.CLOSED
    assert AuditEntry.objects.filter(action="scoring.series.closed_with_pending").count() == 1


def test_the_close_page_asks_explicitly(alice_client: Client, table: Table) -> None:
    TableContact.objects.create(table=table, last_contact=timezone.now(), pending=1)
    url = f"/verwaltung/{table.series.tournament.slug}/serie/1/abschliessen/"
    html = alice_client.get(url).content.decode()
    assert 'name="past_pending"' in html and "Tisch 1: 1 Spiel" in html
    alice_client.post(url, {"past_unfinished": "on"})
    assert Series.objects.get(pk=table.series_id).status == Series.Status.RUNNING
    alice_client.post(url, {"past_unfinished": "on", "past_pending": "on"})
    assert Series.objects.get(pk=table.series_id).status == Series.Status.CLOSED
