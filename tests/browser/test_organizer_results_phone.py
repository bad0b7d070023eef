"""The organizer's results pages (progress board, change log, penalty points, closing a
series) on a 390 px phone, with long names and long reasons: nothing wider than the screen,
no cut column, in German and in English."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from common.actors import API, ORGANIZER, Actor
from scoring import doors
from scoring.services.deductions import add_deduction
from scoring.services.entry import save_game
from scoring.services.sheet import set_timeout
from tests.browser.contexts import close_context
from tests.factories import RE_ANNOUNCES_AND_WINS as GAME
from tests.factories import make_tournament, organize, running_table
from tournaments.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="captain-phone")
LONG_NAMES = [
    ("Klaus-Dieter", "Müller-Lüdenscheidt"),
    ("Anna-Katharina", "Schmidt-Wittgenstein"),
    ("Friederike", "Hohenzollern-Sigmaringen"),
    ("Hans-Joachim", "Oberhuber-Kleinschmidt"),
]
REASON = "Wiederholt laut geworden, nach Verwarnung durch die Turnierleitung " * 2

# The widths the page needs and, per table, rows whose shown cells differ from the header.
MEASURE = """() => ({
  scroll: document.documentElement.scrollWidth,
  client: document.documentElement.clientWidth,
  tables: [...document.querySelectorAll('table')].map(t => {
    const shown = c => getComputedStyle(c).display !== 'none';
    const width = cells => [...cells].filter(shown).reduce((n, c) => n + c.colSpan, 0);
    const head = t.tHead ? width(t.tHead.rows[t.tHead.rows.length - 1].cells) : null;
    const rows = [...t.tBodies[0].rows].map(r => width(r.cells));
    return {head, rows, overflow: t.scrollWidth > t.parentElement.clientWidth + 1};
  }),
})"""


def build() -> tuple[str, User, list[str]]:
    tournament = make_tournament(slug="lang")
    tables = [running_table(tournament, number=n) for n in (1, 2, 3)]
    for player, (first, last) in zip(
        Player.objects.filter(registrations__tournament=tournament), LONG_NAMES * 3, strict=False
    ):
        player.first_name, player.last_name = first, last
        player.save()
    organizer = User.objects.create_user("organisatorin-mit-langem-namen")
    organize(tournament, organizer)
    by_organizer = Actor(ORGANIZER, user=organizer)
    for _ in range(7):
        save_game(tables[0], GAME, actor=CAPTAIN)
    save_game(tables[1], GAME, actor=CAPTAIN)
    save_game(tables[0], {**GAME, "re_points": 100}, number=3, actor=by_organizer, reason=REASON)
    set_timeout(tables[2], timeout=True, actor=Actor(API, user=organizer))
    add_deduction(tables[0].series, tables[0].seats.first().registration, -3, REASON, by_organizer)
    base = "/verwaltung/lang/"
    pages = [
        base + "serie/1/fortschritt/",
        base + "serie/1/fortschritt/?order=table",
        base + "serie/1/strafen/",
        base + "protokoll/",
        base + "protokoll/?table=1&kind=game-corrected",
        base + "serie/1/abschliessen/",
    ]
    return "lang", organizer, pages


@pytest.mark.parametrize("language", ["de", "en"])
def test_results_pages_fit_a_phone(live_server, browser: Any, language: str) -> None:
    _slug, organizer, pages = build()
    client = Client()
    client.force_login(organizer)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies["sessionid"].value,
             "url": live_server.url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
        ]
    )  # fmt: skip
    page = context.new_page()
    failures = []
    try:
        for path in pages:
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, path
            found = page.evaluate(MEASURE)
            if found["scroll"] > found["client"]:
                failures.append(f"{path}: {found['scroll']} px wide on {found['client']} px")
            for table in found["tables"]:
                if table["overflow"]:
                    failures.append(f"{path}: a table is wider than its box")
                if table["head"] is not None and any(n != table["head"] for n in table["rows"]):
                    failures.append(f"{path}: rows {table['rows']} under {table['head']} headers")
    finally:
        close_context(context)
    assert not failures, "\n".join(failures)
