"""Saving a game on a phone: the sheet and the next game's form come back in the answer of
the save, so the page never navigates (one round trip)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests.browser.contexts import close_context
from tests.factories import RE_WINS as NORMAL
from tests.factories import make_tournament, play, running_table
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PATIENCE_MS = 60_000
expect.set_options(timeout=PATIENCE_MS)


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A German phone 390 px wide."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", is_mobile=True, has_touch=True
    )
    context.set_default_timeout(PATIENCE_MS)
    page = context.new_page()
    yield page
    close_context(context)


def shot(page: Any, name: str) -> None:
    """``SHEET_SCREENSHOTS=<dir>``: keep the page as a PNG."""
    folder = os.environ.get("SHEET_SCREENSHOTS")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def requests_of(page: Any) -> list[tuple[str, str, bool]]:
    """Every request the page makes from now on: method, path, whether it loads the page."""
    seen: list[tuple[str, str, bool]] = []
    page.on(
        "request",
        lambda r: seen.append(
            (r.method, r.url.split("//", 1)[1].split("/", 1)[1], r.is_navigation_request())
        ),
    )
    return seen


def type_game(page: Any, re_seats: list[int], points: int) -> None:
    players = page.locator("fieldset.when-normal")
    for seat in re_seats:
        players.locator(f"label:has(input[value='{seat}'])").click()
    page.fill("#id_re_points", str(points))
    page.locator("form.game-form button.save").click()


def saved_row(page: Any, number: int) -> Any:
    return page.locator(f"#sheet-rows tr[data-number='{number}']:not(.outbox-row)")


def test_a_save_on_a_phone_shows_the_game_without_loading_the_page(
    live_server: Any, phone: Any
) -> None:
    table: Table = running_table(make_tournament(slug="swap"))
    play(table, [NORMAL])
    link = f"{live_server.url}/tisch/{table.captain_token}/"
    phone.goto(link)
    phone.wait_for_selector("body[data-outbox-ready='1']", state="attached")
    # On 127.0.0.1 the service worker starts and then keeps the page with a GET of its own:
    # wait for it, so that the requests counted below are the save's alone.
    phone.wait_for_selector("body[data-offline-ready='1']", state="attached")
    shot(phone, "sheet-390-loaded")
    phone.evaluate("window.sameDocument = true")  # gone if the page loads again
    seen = requests_of(phone)
    checked = phone.locator("form.game-form input:checked").count()

    with phone.expect_response("**/ausgang/") as answered:
        type_game(phone, [2, 4], 140)
    # The blank form, the referee's box and the outbox's section stayed on the phone
    # (scoring/swap_parts.py): the answer names them, the page shows its copies as they were
    # first shown.
    assert answered.value.json()["page_html"].count("<template data-kept=") == 3
    expect(saved_row(phone, 2)).to_be_visible()
    expect(phone.locator(".flash-success")).to_contain_text("Spiel 2 gespeichert")
    expect(phone.locator(".next-box .next-line strong").first).to_have_text("Spiel 3")
    expect(phone.locator("#id_re_points")).to_have_value("")  # the next game's blank form
    expect(phone.locator("form.game-form input:checked")).to_have_count(checked)
    expect(phone.locator("form.game-form input[name=version]")).to_have_value("2")
    expect(phone.locator("#outbox")).to_have_count(1)
    expect(phone.locator("#schiri summary")).to_have_count(1)  # the box to call the referee
    expect(phone.locator("template")).to_have_count(0)
    shot(phone, "sheet-390-saved")
    saves = [s for s in seen if s[0] == "POST" and not s[1].endswith("vorschau/")]
    assert saves == [("POST", f"tisch/{table.captain_token}/ausgang/", False)]
    assert not any(s[2] for s in seen) and not [
        s for s in seen if s[0] == "GET" and "tisch" in s[1]
    ]

    # The new form is the page's form now (js/sheet.js finds it): its preview answers after a pause,
    # and the next game goes the same way.
    seen.clear()
    players = phone.locator("fieldset.when-normal")
    for seat in (1, 2):
        players.locator(f"label:has(input[value='{seat}'])").click()
    phone.fill("#id_re_points", "100")
    expect(phone.locator("#preview .preview-value")).to_contain_text("Kontra gewinnt")
    phone.locator("form.game-form button.save").click()
    expect(saved_row(phone, 3)).to_be_visible()
    expect(phone.locator(".next-box .next-line strong").first).to_have_text("Spiel 4")
    assert phone.evaluate("window.sameDocument") is True
    assert not any(s[2] for s in seen)
    assert [(g.number, g.record["re"]) for g in Game.objects.filter(table=table)] == [
        (1, NORMAL["re"]),
        (2, [2, 4]),
        (3, [1, 2]),
    ]


def test_a_correction_saved_in_the_page_returns_to_the_sheet(live_server: Any, phone: Any) -> None:
    table: Table = running_table(make_tournament(slug="fix"))
    play(table, [NORMAL, NORMAL])
    link = f"{live_server.url}/tisch/{table.captain_token}/"
    phone.goto(f"{link}spiel/1/")
    phone.wait_for_selector("body[data-outbox-ready='1']", state="attached")
    phone.evaluate("window.sameDocument = true")
    seen = requests_of(phone)
    phone.fill("#id_re_points", "100")
    phone.get_by_role("button", name="Korrektur speichern").click()
    expect(phone.locator(".flash-success")).to_contain_text("Spiel 1 korrigiert")
    expect(phone).to_have_url(link)
    expect(phone.locator(".next-box .next-line strong").first).to_have_text("Spiel 3")
    assert phone.evaluate("window.sameDocument") is True and not any(s[2] for s in seen)
    assert Game.objects.get(table=table, number=1).winner == "kontra"
