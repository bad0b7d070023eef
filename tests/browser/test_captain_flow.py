"""From opening the table link to a confirmed sheet, in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from common.actors import Actor
from scoring.doors import CAPTAIN
from scoring.models import Game, ScoreSheet
from scoring.services.entry import current_sheet, save_game, sheet_state
from tests.browser.contexts import close_context
from tests.factories import RE_WINS as NORMAL
from tests.factories import make_tournament, running_table
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# loaded two-core machine one page of the sheet took several seconds.
PATIENCE_MS = 60_000


def patient(page):
    page.set_default_timeout(PATIENCE_MS)
    page.set_default_navigation_timeout(PATIENCE_MS)
    return page


def expect_next_game(page, n: int) -> None:
    """The sheet page after a save: the box names game ``n`` as the next one."""
    expect(page.locator(".next-box .next-line strong").first).to_have_text(
        f"Spiel {n}", timeout=PATIENCE_MS
    )


def open_sheet(page, link: str) -> None:
    """Open the sheet once the page is done with its last save. On a slow server a save can
    outlast the phone's wait; the game then waits in the outbox, and once it is sent the
    page loads again by itself: a navigation of the test's own in between is aborted."""
    # A function, not a bare expression: Playwright polls a bare expression with eval(),
    # which the page's CSP (no 'unsafe-eval') refuses.
    page.wait_for_function(
        "() => !document.querySelector('tr.outbox-row') && !document.body.dataset.outboxSyncing",
        timeout=PATIENCE_MS,
    )
    page.wait_for_load_state("load")
    page.goto(link)


def next_game(table: Table) -> dict:
    table = Table.objects.select_related("series__tournament").get(pk=table.pk)
    return sheet_state(table, current_sheet(table))["next"]


@pytest.mark.slow
def test_captain_enters_games_submits_and_another_player_confirms(
    live_server, browser, phone
) -> None:
    table = running_table(make_tournament(slug="e2e"))
    link = f"{live_server.url}/tisch/{table.captain_token}/"
    patient(phone)

    # Game 1: a normal game with announcements and a caught fox, entered by taps.
    phone.goto(link)
    expect_next_game(phone, 1)
    re_players = phone.locator("fieldset.when-normal")
    re_players.get_by_text("1 · Vorname1 Nachname1").click()
    re_players.get_by_text("3 · Vorname3 Nachname3").click()
    phone.select_option("#id_re_announcement", "ansage")
    phone.fill("#id_re_points", "151")
    phone.get_by_text("Sonderpunkte").click()
    phone.fill("#id_re_fuchs", "1")
    # won 1 + under 90 (Kontra has 89) 1 + Re announced 2 + fox 1: the preview of the
    # complete entry (an earlier one, without the fox, may be shown first)
    expect(phone.locator("#preview .preview-value")).to_contain_text("Re gewinnt")
    expect(phone.locator("#preview .preview-value strong")).to_have_text("5")
    expect(phone.locator("#preview")).to_contain_text("Fuchs gefangen")
    phone.get_by_role("button", name="Spiel speichern").click()
    expect_next_game(phone, 2)

    # A mistake gets a message next to the field and keeps what was typed.
    re_players.get_by_text("2 · Vorname2 Nachname2").click()
    re_players.get_by_text("4 · Vorname4 Nachname4").click()
    phone.fill("#id_re_points", "100")
    phone.fill("#id_re_tricks", "1")
    phone.get_by_role("button", name="Spiel speichern").click()
    expect(phone.locator(".field-error").first).to_contain_text(
        "Diese Stiche können diese Augen nicht enthalten."
    )
    expect(phone.locator("#id_re_points")).to_have_value("100")

    # Game 2: the captain's compulsory solo.
    open_sheet(phone, link)
    phone.locator("#contract").get_by_text("Solo", exact=True).click()
    phone.select_option("#id_solo", "damen")
    phone.locator("fieldset.when-solo").get_by_text("4 · Vorname4 Nachname4").click()
    phone.fill("#id_re_points", "125")
    phone.get_by_role("button", name="Spiel speichern").click()
    expect_next_game(phone, 3)
    assert Game.objects.get(table=table, number=2).record["compulsory"] is True

    # Games 3..23 as a second phone would have entered them; then the forced solos.
    captain = Actor(CAPTAIN, seat=4, device="captain-phone")
    while True:
        situation = next_game(table)
        if situation["finished"] or situation["forced"]:
            break
        save_game(Table.objects.get(pk=table.pk), NORMAL, actor=captain)
    # The browser shows the forced solo and pre-selects it.
    open_sheet(phone, link)
    expect(phone.locator(".next-box .forced")).to_contain_text("Vorführen")
    while not next_game(table)["finished"]:
        played = Game.objects.filter(table=table).count()
        open_sheet(phone, link)
        expect_next_game(phone, played + 1)
        phone.select_option("#id_solo", "buben")
        phone.fill("#id_re_points", "121")
        phone.get_by_role("button", name="Spiel speichern").click()
        # the flash of the save, on the page that follows it
        expect(phone.locator(".flash-success")).to_contain_text(f"Spiel {played + 1} gespeichert")
    assert Game.objects.filter(table=table).count() == 24

    # Submit as seat 4, then another player confirms on his own phone.
    open_sheet(phone, link)
    phone.locator("section.sheet-step select[name=seat]").select_option("4")
    phone.get_by_role("button", name="Abgeben").click()
    expect(phone.locator(".next-box")).to_contain_text("Die Liste ist abgegeben.")

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    other = patient(context.new_page())
    other.goto(link)
    other.locator("section.sheet-step select[name=seat]").select_option("2")
    other.get_by_role("button", name="Bestätigen").click()
    expect(other.locator(".next-box")).to_contain_text("Die Liste ist bestätigt. Danke!")
    close_context(context)
    assert ScoreSheet.objects.get(table=table).status == "confirmed"


@pytest.fixture
def english_phone(browser):
    """A 390 x 844 phone in English (the steppers' labels are new wording)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-GB", is_mobile=True, has_touch=True
    )
    page = patient(context.new_page())
    yield page
    close_context(context)


def test_extras_and_penalties_by_steppers(live_server, english_phone) -> None:
    table = running_table(make_tournament(slug="steps"), size=5)
    link = f"{live_server.url}/tisch/{table.captain_token}/"
    phone = english_phone
    phone.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    open_sheet(phone, link)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    phone.locator("fieldset.when-normal").get_by_text("2 · Vorname2 Nachname2").click()
    phone.locator("fieldset.when-normal").get_by_text("3 · Vorname3 Nachname3").click()
    phone.fill("#id_re_points", "151")
    phone.get_by_text("Extras (Sonderpunkte)").click()
    fox = phone.locator("#id_re_fuchs")
    less = phone.get_by_role("button", name="Re: Fox caught: one less")
    more = phone.get_by_role("button", name="Re: Fox caught: one more")
    assert fox.input_value() == "" and less.is_disabled()  # empty box, placeholder 0
    for box in (less.bounding_box(), more.bounding_box()):
        assert box and box["width"] >= 44 and box["height"] >= 44  # a finger, not a cursor
    more.click()
    assert fox.input_value() == "1"
    # The live preview follows the stepper: won 1 + under 90 1 + fox 1.
    expect(phone.locator("#preview")).to_contain_text("fox caught")
    expect(phone.locator("#preview .preview-value strong")).to_have_text("3")
    for _ in range(5):
        if more.is_enabled():
            more.click()
    assert fox.input_value() == "4" and more.is_disabled()  # max="4" respected
    for _ in range(3):
        less.click()
    assert fox.input_value() == "1" and less.is_enabled()

    phone.get_by_text("Penalty points").click()
    penalty = phone.locator("#id_penalty_2")
    phone.get_by_role("button", name="Penalty points of 2 · Vorname2 Nachname2: one less").click()
    phone.get_by_role("button", name="Penalty points of 3 · Vorname3 Nachname3: one more").click()
    assert penalty.input_value() == "-1"  # below zero, which a phone's number pad cannot type
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    phone.get_by_role("button", name="Save game").click()
    phone.get_by_text("Game 1 saved: value").wait_for()
    game = Game.objects.get(table=table)
    assert game.record["extras"]["re"]["fuchs"] == 1
    assert {p["seat"]: p["points"] for p in game.record["penalties"]} == {2: -1, 3: 1}

    # The way back: the link under the next game opens game 1 with its value shown at once.
    phone.locator(".next-box").get_by_role("link", name="Correct game 1").click()
    phone.get_by_text("Correcting game 1").wait_for()
    assert "<strong>3</strong>" in phone.locator("#preview").inner_html()
    assert phone.locator("#id_re_fuchs").input_value() == "1"
    header = phone.locator("table.sheet th.name")
    assert header.count() == 5 and header.first.inner_text().split() == ["Vorname1", "N."]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_without_javascript_the_boxes_remain(live_server, browser) -> None:
    table = running_table(make_tournament(slug="nojs"))
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/tisch/{table.captain_token}/")
    assert page.locator(".stepper").count() == 0
    assert page.locator("input[name=re_fuchs][type=number]").count() == 1
    close_context(context)
