"""From opening the table link to a confirmed sheet, in a real browser."""

from __future__ import annotations

import pytest

from scoring.models import Game, ScoreSheet
from scoring.services import Actor, Door
from scoring.services.entry import current_sheet, save_game, sheet_state
from tests.factories import make_tournament, running_table
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NORMAL = {"contract": "normal", "re": [1, 3], "re_points": 130}


def next_game(table: Table) -> dict:
    table = Table.objects.select_related("series__tournament").get(pk=table.pk)
    return sheet_state(table, current_sheet(table))["next"]


def test_captain_enters_games_submits_and_another_player_confirms(
    live_server, browser, phone
) -> None:
    table = running_table(make_tournament(slug="e2e"))
    link = f"{live_server.url}/tisch/{table.captain_token}/"

    # Game 1: a normal game with announcements and a caught fox, entered by taps.
    phone.goto(link)
    assert phone.locator(".next-box").inner_text().startswith("Spiel 1")
    re_players = phone.locator("fieldset.when-normal")
    re_players.get_by_text("1 · Vorname1 Nachname1").click()
    re_players.get_by_text("3 · Vorname3 Nachname3").click()
    phone.select_option("#id_re_announcement", "ansage")
    phone.fill("#id_re_points", "151")
    phone.get_by_text("Sonderpunkte").click()
    phone.fill("#id_re_fuchs", "1")
    phone.locator("#preview").get_by_text("Fuchs gefangen").wait_for()
    # won 1 + under 90 (Kontra has 89) 1 + Re announced 2 + fox 1
    assert "Re gewinnt" in phone.locator("#preview").inner_text()
    assert "<strong>5</strong>" in phone.locator("#preview").inner_html()
    phone.get_by_role("button", name="Spiel speichern").click()
    phone.get_by_text("Spiel 2", exact=False).first.wait_for()

    # A mistake gets a message next to the field and keeps what was typed.
    re_players.get_by_text("2 · Vorname2 Nachname2").click()
    re_players.get_by_text("4 · Vorname4 Nachname4").click()
    phone.fill("#id_re_points", "100")
    phone.fill("#id_re_tricks", "1")
    phone.get_by_role("button", name="Spiel speichern").click()
    phone.get_by_text("Diese Stiche können diese Augen nicht enthalten.").first.wait_for()
    assert phone.input_value("#id_re_points") == "100"

    # Game 2: the captain's compulsory solo.
    phone.goto(link)
    phone.locator("#contract").get_by_text("Solo", exact=True).click()
    phone.select_option("#id_solo", "damen")
    phone.locator("fieldset.when-solo").get_by_text("4 · Vorname4 Nachname4").click()
    phone.fill("#id_re_points", "125")
    phone.get_by_role("button", name="Spiel speichern").click()
    phone.get_by_text("Spiel 3", exact=False).first.wait_for()
    assert Game.objects.get(table=table, number=2).record["compulsory"] is True

    # Games 3..23 as a second phone would have entered them; then the forced solos.
    captain = Actor(Door.CAPTAIN, seat=4, device="captain-phone")
    while True:
        situation = next_game(table)
        if situation["finished"] or situation["forced"]:
            break
        save_game(Table.objects.get(pk=table.pk), NORMAL, actor=captain)
    # The browser shows the forced solo and pre-selects it.
    phone.goto(link)
    assert "Vorführen" in phone.locator(".next-box").inner_text()
    while not next_game(table)["finished"]:
        phone.goto(link)
        phone.select_option("#id_solo", "buben")
        phone.fill("#id_re_points", "121")
        played = Game.objects.filter(table=table).count()
        phone.get_by_role("button", name="Spiel speichern").click()
        phone.get_by_text(f"Spiel {played + 2}", exact=False).or_(
            phone.get_by_text("Alle Spiele sind eingetragen.")
        ).first.wait_for()
    assert Game.objects.filter(table=table).count() == 24

    # Submit as seat 4, then another player confirms on his own phone.
    phone.goto(link)
    phone.locator("section.sheet-step select[name=seat]").select_option("4")
    phone.get_by_role("button", name="Abgeben").click()
    phone.get_by_text("Die Liste ist abgegeben.").wait_for()

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    other = context.new_page()
    other.goto(link)
    other.locator("section.sheet-step select[name=seat]").select_option("2")
    other.get_by_role("button", name="Bestätigen").click()
    other.get_by_text("Die Liste ist bestätigt. Danke!").wait_for()
    context.close()
    assert ScoreSheet.objects.get(table=table).status == "confirmed"
