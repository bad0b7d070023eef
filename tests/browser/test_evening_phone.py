"""The issue's browser test: an evening of six players at one table with Bock rounds, 20
games entered from a 390 px phone through the table's link, in quick and in full entry,
then the evening closed and its settlement page. A plain game takes at most four taps in
the quick entry (counted, and printed with ``-s``); the table's page and the result pass
the every-page checks (no overflow, whole rows, no developer text, German, axe)."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Membership
from common.actors import ORGANIZER, Actor
from evenings import services
from evenings.models import Evening, EveningGame
from tests.browser.contexts import close_context
from tests.browser.phone import submit
from tests.browser.test_every_page import HEIGHT, WIDTH, Visit, check_page
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna Albers", "Bernd Brandt", "Clara Claßen", "Dieter Dahl", "Eva Ebert",
         "Frank Fuchs-Langenscheidt"]  # fmt: skip
#: Game number → how it is entered: "full-tie" (120:120, a Bock trigger, full entry),
#: "full" (Re wins with 151), "solo" (a quick solo the soloist loses: a Bock trigger),
#: "tie" (quick, 120:120 ticked); the rest are plain quick games.
PLAN = {2: "full-tie", 5: "tie", 9: "full", 12: "solo", 15: "full-tie", 18: "full"}
QUICK_TAPS = 4


def test_an_evening_of_six_on_a_phone(live_server: Any, browser: Any, tmp_path: Path) -> None:
    club = Club.objects.create(name="Doko-Freunde", slug="freunde")
    owner = make_user("wirtin")
    Membership.objects.create(club=club, user=owner, role="owner")
    actor = Actor(ORGANIZER, user=owner)
    group = services.create_group(
        club, services.GroupData(name="Donnerstagsrunde", cents_per_point=10), actor=actor
    )
    services.add_members(group, new_names=NAMES, actor=actor)
    evening = services.open_evening(
        group, services.EveningData(datetime.date(2026, 11, 26)), actor=actor
    )
    (table,) = services.set_tables(
        evening, players=[m.player_id for m in group.memberships.all()], seed=7, actor=actor
    )
    base = live_server.url
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, locale="de", is_mobile=True, has_touch=True
    )
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": base}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    link = reverse("evenings:table", args=[table.token])
    problems = check_page(page, console, Visit("table", "public", "", link, None), "de", base)
    taps: list[int] = []
    bock_seen: list[str] = []
    for number in range(1, 21):
        kind = PLAN.get(number, "plain")
        bock_seen.append(page.locator(".bock-state").inner_text())
        count = 0
        if kind.startswith("full"):
            page.click(".full-entry summary")
            boxes = page.locator(".full-entry input[name=f-re]")
            boxes.nth(0).check()
            boxes.nth(2).check()
            page.fill("#id_f-re_points", "120" if kind == "full-tie" else "151")
            submit(page, ".full-entry button[type=submit]")
        else:
            winners = page.locator(".tap.winners label")
            if kind == "solo":
                page.click(".quick-entry summary")
                page.check("#id_q-solo")
                for i in (1, 2, 3):  # the three who beat the soloist
                    winners.nth(i).click()
            else:
                winners.nth(number % 4).click()
                count += 1
                winners.nth((number + 1) % 4).click()
                count += 1
            if kind == "tie":
                page.click(".quick-entry summary")
                page.check(".quick-entry input[name=q-triggers][value=tie]")
            page.locator(".tap.values label").nth(number % 3).click()
            count += 1
            submit(page, ".quick-entry button.enter")
            count += 1
            if kind == "plain":
                taps.append(count)
        page.wait_for_url(base + link)
        assert page.locator(".flash").first.inner_text().startswith(f"Spiel {number}")
    games = list(EveningGame.objects.filter(table=table).order_by("number"))
    assert len(games) == 20
    assert {g.kind for g in games} == {"quick", "full"}
    assert max(g.bock for g in games) >= 2, [g.bock for g in games]  # Doppelbock
    assert any(text.startswith("Doppelbock") or "Doppelbock" in text for text in bock_seen)
    assert max(taps) <= QUICK_TAPS
    print(f"\nquick entry of a plain game: {max(taps)} taps (over {len(taps)} games)")
    problems += check_page(page, console, Visit("table", "public", "", link, None), "de", base)
    page.screenshot(path=str(tmp_path / "table.png"), full_page=True)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": base}])
    problems += check_page(page, console, Visit("table", "public", "", link, None), "en", base)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": base}])

    # The organizer closes the evening; the result with the settlement.
    client = Client()
    client.force_login(owner)
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "url": base,
          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}]
    )  # fmt: skip
    organizer = reverse("evenings:evening", args=[club.slug, group.slug, evening.pk])
    visit = Visit("evening", "organizer", "", organizer, None)
    problems += check_page(page, console, visit, "de", base)  # tables, links, QR codes
    page.screenshot(path=str(tmp_path / "evening.png"), full_page=True)
    page.click("form[action$='/schliessen/'] button")
    result = reverse("evenings:result", args=[club.slug, group.slug, evening.pk])
    page.wait_for_url(base + result)
    evening.refresh_from_db()
    assert evening.status == Evening.Status.CLOSED
    transfers = page.locator(".transfers li").count()
    paying = [b for b in evening.settlement["balances"] if b["cents"]]
    assert 1 <= transfers <= len(paying) - 1
    assert sum(b["cents"] for b in evening.settlement["balances"]) == 0
    problems += check_page(
        page, console, Visit("result", "organizer", "", result, None), "de", base
    )
    page.screenshot(path=str(tmp_path / "result.png"), full_page=True)
    season = reverse("evenings:group", args=[club.slug, group.slug])  # with its season line
    problems += check_page(page, console, Visit("group", "organizer", "", season, None), "de", base)
    page.screenshot(path=str(tmp_path / "group.png"), full_page=True)
    close_context(context)
    assert not problems, "\n".join(problems)
