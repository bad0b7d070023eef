"""Standings, player and progress pages; the organizer's change log."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import RE_ANNOUNCES_AND_WINS as GAME
from tests.factories import make_tournament, play, running_table


@pytest.fixture
def tournament(alice: User):
    """Alice's tournament ``cup``: series 1 running, one game at its one table."""
    t = make_tournament(slug="cup", organizers=[alice])
    play(running_table(t), [GAME])
    return t


def test_public_standings(client: Client, tournament) -> None:
    html = client.get("/turniere/cup/tabelle/").content.decode()
    assert "Vorname1 Nachname1" in html and "<strong>3</strong>" in html
    partial = client.get("/turniere/cup/tabelle/", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and "Nachname1" in partial


def test_series_standings(client: Client, tournament) -> None:
    assert "Nachname4" in client.get("/turniere/cup/serie/1/tabelle/").content.decode()


def test_private_tournament_standings_hidden(client: Client, tournament) -> None:
    tournament.is_public = False
    tournament.save()
    assert client.get("/turniere/cup/tabelle/").status_code == 404


def test_player_page_lists_games(client: Client, tournament) -> None:
    html = client.get("/turniere/cup/spieler/1/").content.decode()
    assert "Vorname1 Nachname1" in html and "Ansage „Re“" in html


def test_progress_board_for_organizers_only(
    alice_client: Client, bob_client: Client, client: Client, tournament
) -> None:
    html = alice_client.get("/verwaltung/cup/serie/1/fortschritt/").content.decode()
    assert "1 / 24" in html
    assert client.get("/verwaltung/cup/serie/1/fortschritt/").status_code == 302
    assert bob_client.get("/verwaltung/cup/serie/1/fortschritt/").status_code == 403


def test_change_log(alice_client: Client, tournament) -> None:
    alice_client.cookies["django_language"] = "en"
    html = alice_client.get("/verwaltung/cup/protokoll/").content.decode()
    assert "Game entered" in html and "Captain table 1 (seat 4: Vorname4 Nachname4)" in html
    assert "scoring.game.created" not in html and "captain link" not in html


def test_organizer_corrects_a_closed_series_with_reason(alice_client: Client, tournament) -> None:
    series = tournament.series.get(number=1)
    series.status = "closed"
    series.save()
    table = series.tables.get()
    base = f"/verwaltung/cup/tisch/{table.pk}/"
    assert alice_client.get(base).status_code == 200
    data = {"contract": "normal", "re_players": ["1", "3"], "re_points": "100"}
    response = alice_client.post(base + "spiel/1/", data)
    assert "Bitte einen Grund angeben" in response.content.decode()
    response = alice_client.post(base + "spiel/1/", {**data, "reason": "Zählfehler"})
    assert response.status_code == 302
    from scoring.models import AuditEntry, Game

    assert Game.objects.get().winner == "kontra"
    entry = AuditEntry.objects.get(action="scoring.game.corrected")
    assert entry.reason == "Zählfehler" and entry.user.username == "alice"


def test_organizer_sheet_refused_to_others(client: Client, bob_client: Client, tournament) -> None:
    table = tournament.series.get(number=1).tables.get()
    assert bob_client.get(f"/verwaltung/cup/tisch/{table.pk}/").status_code == 403
    assert client.get(f"/verwaltung/cup/tisch/{table.pk}/").status_code == 302


def test_penalty_page_records_deduction(alice_client: Client, tournament) -> None:
    url = "/verwaltung/cup/serie/1/strafen/"
    registration = tournament.registrations.get(start_number=2)
    response = alice_client.post(url, {"registration": registration.pk, "points": "-20"})
    html = response.content.decode()
    assert response.status_code == 200 and "field-error" in html  # out of range, no reason
    response = alice_client.post(
        url, {"registration": registration.pk, "points": "-2", "reason": "Handy am Tisch"}
    )
    assert response.status_code == 302
    from scoring.standings import overall_standings

    row = next(r for r in overall_standings(tournament) if r["start_number"] == 2)
    assert row["total"] == -3 - 2
    assert "Handy am Tisch" in alice_client.get(url).content.decode()


def test_call_time_and_reopen(alice_client: Client, tournament) -> None:
    from scoring.models import AuditEntry, ScoreSheet

    response = alice_client.post("/verwaltung/cup/serie/1/zeit/")
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get()
    assert sheet.timeout
    ScoreSheet.objects.filter(pk=sheet.pk).update(status="submitted")
    table = sheet.table
    action = f"/verwaltung/cup/tisch/{table.pk}/aktion/"
    alice_client.post(action, {"action": "reopen", "reason": ""})
    assert ScoreSheet.objects.get().status == "submitted"
    alice_client.post(action, {"action": "reopen", "reason": "Fehler in Spiel 3"})
    assert ScoreSheet.objects.get().status == "open"
    assert AuditEntry.objects.filter(action="scoring.sheet.reopened").exists()


def test_organizer_actions_refused_to_others(bob_client: Client, tournament) -> None:
    assert bob_client.post("/verwaltung/cup/serie/1/zeit/").status_code == 403
    assert bob_client.get("/verwaltung/cup/serie/1/strafen/").status_code == 403


def test_penalty_list_fits_a_phone(alice_client: Client, tournament) -> None:
    """Who and when have their own columns on wide screens only; on a phone they are a
    second line under the reason. Every row has as many cells as the header."""
    url = "/verwaltung/cup/serie/1/strafen/"
    registration = tournament.registrations.get(start_number=2)
    alice_client.post(url, {"registration": registration.pk, "points": "-2", "reason": "Handy"})
    html = alice_client.get(url).content.decode()
    table = html.split('<table class="striped deduction-list">', 1)[1].split("</table>", 1)[0]
    head, body = table.split("</thead>", 1)
    assert head.count('<th class="wide-only">') == 2
    row = body.split("</tr>", 1)[0]
    assert row.count("<td") == head.count("<th") - head.count("<thead") == 5
    assert '<div class="narrow-only"><small class="muted">alice · ' in row
