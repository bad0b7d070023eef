"""The organizer's own pages in a real browser: the check-in counter follows every tap, the
short name for links follows the name as it is typed, the import preview fits a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.browser.contexts import close_context
from tests.factories import add_players, page_client
from tournaments.models import Player, Tournament
from tournaments.permissions import registry_owner

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def logged_in(browser: Any, live_server: Any, user: User, language: str) -> Iterator[Any]:
    client = page_client(user)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=language, is_mobile=True, has_touch=True
    )
    context.add_cookies(
        [
            {"name": name, "value": value, "url": live_server.url}
            for name, value in (
                (settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value),
                (settings.LANGUAGE_COOKIE_NAME, language),
            )
        ]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    close_context(context)


@pytest.fixture
def organizer_phone(browser: Any, live_server: Any, alice: User) -> Iterator[Any]:
    """Alice, organizer of ``tournament``, on a German phone."""
    yield from logged_in(browser, live_server, alice, "de")


def test_checkin_counter_follows_every_tap(
    live_server: Any, organizer_phone: Any, tournament: Tournament
) -> None:
    add_players(tournament, 3, checked_in=False)
    page = organizer_phone
    page.goto(f"{live_server.url}/verwaltung/herbst/einlass/")
    counter = page.locator("#checkin-counter")
    assert counter.inner_text().startswith("0 / 3")
    page.locator("button[name=present][value='1']").first.click()
    page.locator("#checkin-counter", has_text="1 / 3").wait_for()
    page.locator("button[name=present][value='1']").first.click()
    page.locator("#checkin-counter", has_text="2 / 3").wait_for()
    page.locator("button[name=present][value='0']").first.click()  # one checked out again
    page.locator("#checkin-counter", has_text="1 / 3").wait_for()
    assert tournament.registrations.filter(checked_in=True).count() == 1
    # The search keeps the counter (in place) and the taps keep working on the found rows;
    # after the tap the search is empty again, the whole list back, the cursor in the search.
    search = page.locator("input[type=search]")
    search.fill("nachname3")
    expect(page.locator(".checkin-row")).to_have_count(1)
    page.locator(".checkin-row button").click()
    expect(search).to_have_value("")
    expect(search).to_be_focused()
    expect(page.locator(".checkin-row")).to_have_count(3)
    expect(page.locator(".checkin-row.present")).to_have_count(2)
    expect(counter).to_have_text(re.compile(r"^2 / 3"))
    expect(page.locator("#checkin-counter")).to_have_count(1)


def test_short_name_follows_the_name_until_edited(
    live_server: Any, organizer_phone: Any, tournament: Tournament
) -> None:
    page = organizer_phone
    page.goto(f"{live_server.url}/verwaltung/neu/")
    page.locator("#id_name").press_sequentially("Großer Bärenpreis")
    assert page.input_value("#id_slug") == "grosser-baerenpreis"
    page.fill("#id_slug", "baer")
    page.locator("#id_name").press_sequentially(" Überlingen")
    assert page.input_value("#id_slug") == "baer"  # edited by hand: left alone
    # The settings of an existing tournament never change its links by themselves.
    page.goto(f"{live_server.url}/verwaltung/herbst/bearbeiten/")
    page.locator("#id_name").press_sequentially(" Süd")
    assert page.input_value("#id_slug") == "herbst"


@pytest.mark.parametrize("language", ["de", "en"])
def test_import_preview_fits_a_phone(
    browser: Any,
    live_server: Any,
    alice: User,
    tournament: Tournament,
    tmp_path: Any,
    language: str,
) -> None:
    (registration,) = add_players(tournament, 1)
    Player.objects.create(
        first_name="Hannelore", last_name="Müller-Lüdenscheidt",
        club="Doko-Club Testhausen-Überlingen", ddv_number="4711",
        owner_id=registry_owner(tournament), registry_club_id=tournament.club_id,
    )  # fmt: skip
    player = registration.player
    upload = tmp_path / "liste.csv"
    upload.write_text(
        "Vorname;Nachname;Verein;DDV-Nr;E-Mail\n"
        f"{player.first_name};{player.last_name};{player.club};;\n"
        "Hannelore;Müller-Lüdenscheidt;Doko-Club Testhausen-Überlingen;4711;"
        "hannelore.mueller-luedenscheidt@example.org\n"
        ";Ohnevorname;Verein mit einem sehr sehr langen Namen e.V.;12x;keine-mail\n"
    )
    for page in logged_in(browser, live_server, alice, language):
        page.goto(f"{live_server.url}/verwaltung/herbst/import/")
        page.set_input_files("input[type=file]", str(upload))
        page.locator("main form button[type=submit]").last.click()
        page.locator("table.import-preview").wait_for()
        assert page.locator("tr.row-skipped").count() == 1
        assert page.locator("tr.row-error").count() == 1
        assert page.locator("select[name=merge-3]").count() == 1
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.evaluate("document.documentElement.clientWidth") == 390
