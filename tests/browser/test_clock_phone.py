"""The clock's states on a 390 px phone, in German and in English: the organizers' board with
the time-up prompt, Nachspielzeit and its form with errors, the paused hall; the captain's
sheet once time is up; the public pages, whose clock htmx loads. Each page passes the
every-page checks (width, tables, no developer text, no other language, no script error).

The hall's times are set relative to now (no frozen clock across the live server's thread):
the signal 101 minutes ago, so tables 1 and 3 (of four) are up, table 2 (of four, with
Nachspielzeit) and table 4 (of five) are not; or, paused, the signal 50 minutes ago and the
hall stopped for the last ten."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from scoring.models import Extension, Pause
from tests.browser.contexts import close_context
from tests.browser.test_every_page import (
    CHECKS_JS,
    HEIGHT,
    WIDTH,
    Visit,
    check_page,
    text_problems,
)
from tests.factories import build_world, make_tournament, play
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = [
    ("Klaus-Dieter", "Müller-Lüdenscheidt"), ("Anna-Katharina", "Schmidt-Wittgenstein"),
    ("Friederike", "Hohenzollern-Sigmaringen"), ("Hans-Joachim", "Oberhuber-Kleinschmidt"),
]  # fmt: skip


def build(paused: bool) -> tuple[list[Table], User]:
    organizer = User.objects.create_user("uhr")
    tournament = make_tournament("uhr", organizers=[organizer])
    world = build_world(tournament, (4, 4, 4, 5), names=LONG * 4 + [("Eva", "Ende")])
    series = world.series
    now = timezone.now()
    series.starts_at = now - datetime.timedelta(minutes=50 if paused else 101)
    series.seed, series.draw_version = 7, 1  # seated by hand: as if drawn
    series.save(update_fields=["starts_at", "seed", "draw_version"])
    Extension.objects.create(table=world.tables[1], minutes=12, reason="Reklamation Spiel 9")
    # Seat 2 of table 1 has played his compulsory solo: three remain open.
    play(world.tables[0], [{"contract": "solo", "solo": "damen", "re": [2], "re_points": 150}])
    if paused:
        Pause.objects.create(
            series=series, started_at=now - datetime.timedelta(minutes=10), reason="Stromausfall"
        )
    return world.tables, organizer


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.fixture
def context(browser: Any, live_server: Any) -> Iterator[Any]:
    def new(language: str, session: str = "") -> Any:
        ctx = browser.new_context(
            viewport={"width": WIDTH, "height": HEIGHT}, locale=language, is_mobile=True,
            has_touch=True,
        )  # fmt: skip
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                    "url": live_server.url}]  # fmt: skip
        if session:
            cookies.append(
                {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}
            )
        ctx.add_cookies(cookies)
        opened.append(ctx)
        return ctx

    opened: list[Any] = []
    yield new
    for ctx in opened:
        close_context(ctx)


def visit(page: Any, base: str, path: str, language: str, wait_for: str = "") -> list[str]:
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: console.append(str(exc)))
    if wait_for:
        # The public clock arrives by htmx after the load: check the page with it.
        page.goto(base + path)
        page.wait_for_selector(wait_for)
    found = check_page(page, console, Visit(path, "", "", path, None), language, base)
    return [f"[{language}] {path}: {p}" for p in found]


def checks(page: Any, language: str) -> list[str]:
    """The every-page checks of the page as it stands (after a POST, not reloaded)."""
    # The answer's elements can be there before its stylesheets are: measured then, the board
    # has its phone-hidden column and is too wide (seen once under a full suite's load).
    page.wait_for_load_state("load")
    found = page.evaluate(CHECKS_JS)
    problems = [*found["tables"], *text_problems(found["text"], language)]
    if found["scroll"] > min(found["width"], WIDTH):
        problems.append(f"{found['scroll']} px wide; sticking out: {found['wide']}")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("paused", [False, True], ids=["time-up", "paused"])
def test_the_clock_on_a_phone(context: Any, live_server: Any, paused: bool) -> None:
    tables, organizer = build(paused)
    session = session_of(organizer)
    base = live_server.url
    board = "/verwaltung/uhr/serie/1/fortschritt/"
    problems: list[str] = []
    shown: dict[str, str] = {}
    for language in ("de", "en"):
        page = context(language, session).new_page()
        page.set_default_timeout(15_000)
        problems += visit(page, base, board, language)
        shown[f"board {language}"] = page.inner_text("main")
        # A wrong extension: the page again with the errors next to the fields.
        page.goto(base + board + "?tisch=3#nachspielzeit")
        page.fill("#id_minutes", "99")
        page.click("button[value=extend]")
        page.wait_for_selector("#id_minutes-errors")
        problems += [f"[{language}] the board with errors: {p}" for p in checks(page, language)]
        shown[f"errors {language}"] = page.inner_text("#uhr")
        captain = context(language).new_page()
        problems += visit(captain, base, f"/tisch/{tables[0].captain_token}/", language)
        shown[f"captain {language}"] = captain.inner_text("#table-clock")
        public = context(language).new_page()
        for path in ("/turniere/uhr/", "/turniere/uhr/serie/1/"):
            problems += visit(public, base, path, language, wait_for=".public-clock")
        start_number = tables[3].seats.get(position=1).registration.start_number
        problems += visit(public, base, f"/turniere/uhr/spieler/{start_number}/", language)
        shown[f"player {language}"] = public.inner_text(".public-clock")
    assert not problems, "\n".join(problems)
    if paused:
        assert "Clock paused since" in shown["board en"] and "Stromausfall" in shown["board en"]
        assert "Clock paused: 60 minutes left." in shown["captain en"]
    else:
        assert "Time is up at these tables:" in shown["board en"]
        prompted = [n for n in (1, 2, 3, 4) if f"Time-out table {n}" in shown["board en"]]
        assert prompted == [1, 3]
        assert "Time is up." in shown["captain en"]
        assert "Klaus-Dieter Müller-Lüdenscheidt (seat 1)" in shown["captain en"]
    assert "Nachspielzeit is 1 to 60 minutes at a time." in shown["errors en"]
    assert "Table 4:" in shown["player en"]
