"""The cash box and the settlement on a 390 px phone, in German and in English: the ledger
with long texts, the reversal's question, a booking refused and its errors beside the
fields, the settlement with its transfers. Each page passes the every-page checks (no
overflow, whole table rows, no developer text, the right language, axe) and its screenshot
is 390 px wide."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from cashbox.models import Booking
from cashbox.services import BookingData, book, reverse_booking
from clubs.models import Club, Membership
from common.actors import ORGANIZER, Actor
from tests.browser.contexts import close_context
from tests.browser.phone import signed_in_phone, submit
from tests.browser.test_every_page import (
    CHECKS_JS,
    WIDTH,
    Visit,
    axe_problems,
    check_page,
    text_problems,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Spielkarten, Blöcke, Stifte: Vereinsabend im Bürgerhaus Musterstadt-Süd, Saal 2"
PLAYERS = "Klaus-Dieter Müller-Lüdenscheidt 42 3\nAnna -10 1\nBernd -12\nClaudia -20 2"


def build() -> tuple[Club, User, Booking]:
    club = Club.objects.create(name="Doko-Freunde Münster-Hiltrup", slug="freunde")
    owner = User.objects.create_user("kassenwartin-langer-name")
    Membership.objects.create(club=club, user=owner, role="owner")
    actor = Actor(ORGANIZER, user=owner)
    today = timezone.localdate()
    first = book(club, BookingData("contribution", 123456, today, "Beiträge"), actor=actor)
    book(club, BookingData("expense", 1890, today, LONG, member=owner.pk), actor=actor)
    book(club, BookingData("fine", 150, today, "Handy klingelte"), actor=actor)
    reverse_booking(club, first.pk, actor=actor)
    return club, owner, first


def png_width(path: Path) -> int:
    width: int = struct.unpack(">I", path.read_bytes()[16:20])[0]
    return width


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_cash_box_fits_a_phone(
    live_server: Any, browser: Any, language: str, tmp_path: Path
) -> None:
    club, owner, first = build()
    base = live_server.url
    context, page = signed_in_phone(browser, base, language, owner)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    problems: list[str] = []
    paths = {
        "ledger": reverse("cashbox:ledger", args=[club.slug]),
        "reverse": reverse("cashbox:reverse", args=[club.slug, first.pk + 1]),
        "settlement": reverse("cashbox:settlement", args=[club.slug]),
        "club": reverse("clubs:detail", args=[club.slug]),
    }
    for name, path in paths.items():
        visit = Visit(name, "organizer", "", path, None)
        problems += [f"{name}: {p}" for p in check_page(page, console, visit, language, base)]
        shot = tmp_path / f"{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        if png_width(shot) != WIDTH:
            problems.append(f"{name}: screenshot {png_width(shot)} px wide")

    def checked(name: str) -> None:
        found = page.evaluate(CHECKS_JS)
        if found["scroll"] > WIDTH:
            problems.append(f"{name}: {found['scroll']} px wide: {found['wide']}")
        problems.extend(f"{name}: {p}" for p in found["tables"])
        problems.extend(f"{name}: {p}" for p in text_problems(found["text"], language))
        problems.extend(f"{name}: axe {p}" for p in axe_problems(page))
        shot = tmp_path / f"{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        if png_width(shot) != WIDTH:
            problems.append(f"{name}: screenshot {png_width(shot)} px wide")

    # A booking refused: the error beside the field, everything typed still there.
    page.goto(base + paths["ledger"])
    page.click(".booking-form summary")
    page.select_option("#id_kind", "expense")
    page.fill("#id_amount", "12.50" if language == "de" else "12,50")
    page.fill("#id_text", LONG)
    submit(page, "form[novalidate] button[type=submit]")
    assert page.locator("#id_amount-errors").is_visible()
    assert page.input_value("#id_text") == LONG
    checked("booking refused")

    # The settlement: four players, 5 ct a point, 10 ct an extra.
    page.goto(base + paths["settlement"])
    page.fill("#id_players", PLAYERS)
    page.fill("#id_cents_per_point", "5")
    page.fill("#id_cents_per_extra", "10")
    submit(page, ".settlement-form button[type=submit]")
    assert page.locator(".transfers li").count() == 3
    checked("settlement")
    close_context(context)
    refused = "the server responded with a status of 400"  # the refused booking, on purpose
    problems += [f"console: {line[:150]}" for line in console if refused not in line]
    assert not problems, "\n".join(problems)
