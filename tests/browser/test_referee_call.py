"""A referee call from end to end, in German on 390 px phones: the captain calls the referee
from his sheet with a short reason; the organizer's progress board shows the call (its
polling, no reload); the club's referee takes it and rules it with five minutes of
Nachspielzeit from the referee page the board links to; the board's poll drops the call and
shows the extension; the captain's clock ends five minutes later and his sheet shows the
ruling. Each page passes the every-page checks (width, tables, no developer text, no other
language, no script error)."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from clubs.models import Membership
from scoring.models import Extension, RefereeCall
from tests.browser.contexts import close_context
from tests.browser.test_every_page import CHECKS_JS, HEIGHT, WIDTH, text_problems
from tests.factories import RE_WINS, build_world, make_tournament, play
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def build() -> tuple[Table, User, User]:
    """Series 1 running for 30 minutes with two tables of four; Olga organizes the
    tournament, Rudi is the referee of her club."""
    olga, rudi = User.objects.create_user("olga"), User.objects.create_user("rudi")
    tournament = make_tournament("schiri", organizers=[olga])
    Membership.objects.create(club=tournament.club, user=rudi, role="referee")
    world = build_world(tournament, (4, 4))
    series = world.series
    series.starts_at = timezone.now() - datetime.timedelta(minutes=30)
    series.seed, series.draw_version = 7, 1  # seated by hand: as if drawn
    series.save(update_fields=["starts_at", "seed", "draw_version"])
    play(world.tables[0], [RE_WINS])
    return world.tables[0], olga, rudi


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    """A German 390 px phone, with the session of a user if given."""
    opened: list[Any] = []

    def new(session: str = "") -> Any:
        context = browser.new_context(
            viewport={"width": WIDTH, "height": HEIGHT}, locale="de", is_mobile=True,
            has_touch=True,
        )  # fmt: skip
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "de", "url": live_server.url}]
        if session:
            cookies.append(
                {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}
            )
        context.add_cookies(cookies)
        opened.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.errors = errors
        return page

    yield new
    for context in opened:
        close_context(context)


def checks(page: Any, label: str) -> list[str]:
    page.wait_for_load_state("load")
    found = page.evaluate(CHECKS_JS)
    problems = [*found["tables"], *text_problems(found["text"], "de")]
    if found["scroll"] > min(found["width"], WIDTH):
        problems.append(f"{found['scroll']} px wide; sticking out: {found['wide']}")
    # A form sent back with its errors answers 400, which the browser reports as an error.
    refused = "Failed to load resource: the server responded with a status of 400 "
    problems += [f"console: {line[:150]}" for line in page.errors if not line.startswith(refused)]
    page.errors.clear()
    return [f"{label}: {p}" for p in problems]


def clock_end(page: Any) -> datetime.time:
    text = page.inner_text("#table-clock")
    found = re.search(r"bis (\d\d):(\d\d)", text)
    assert found, text
    return datetime.time(int(found[1]), int(found[2]))


@pytest.mark.slow
def test_from_the_captains_call_to_the_ruling_and_the_clock(phone: Any, live_server: Any) -> None:
    table, olga, rudi = build()
    base = live_server.url
    problems: list[str] = []

    # The captain calls from his phone.
    captain = phone()
    captain.goto(f"{base}/tisch/{table.captain_token}/")
    before = clock_end(captain)
    captain.click("#schiri summary")
    captain.fill("#call_reason", "Karte verworfen, Streit über Stich 7")
    problems += checks(captain, "captain with the call's form")
    captain.click("#schiri button[value=call]")
    captain.wait_for_selector("#schiri.is-open")
    assert "Schiedsrichter gerufen um" in captain.inner_text("#schiri")
    assert "Das nächste eingetragene Spiel ist bis zur Entscheidung vorläufig." in (
        captain.inner_text("#schiri")
    )
    problems += checks(captain, "captain, called")
    call = RefereeCall.objects.get(table=table)

    # The game entered meanwhile is provisional on the captain's sheet.
    play(table, [RE_WINS])
    captain.reload()
    assert "vorläufig" in captain.inner_text("#sheet-rows tr[data-number='2']")

    # The organizer's board shows the call; it was open before the call came in.
    board = phone(session_of(olga))
    board.goto(f"{base}/verwaltung/schiri/serie/1/fortschritt/")
    alert = board.inner_text("#schiri-rufe")
    assert "Tisch 1" in alert and "Karte verworfen, Streit über Stich 7" in alert
    assert call.called_at.astimezone(timezone.get_current_timezone()).strftime("%H:%M") in alert
    problems += checks(board, "board with the call")

    # The referee takes the call and rules it, with Nachspielzeit, from the board's link.
    referee = phone(session_of(rudi))
    referee.goto(f"{base}/verwaltung/schiri/schiedsrichter/")
    problems += checks(referee, "referee page")
    referee.click(f"#ruf-{call.pk} button[value=take]")
    referee.wait_for_selector(f"#ruf-{call.pk} .call-status:has-text('unterwegs')")
    captain.wait_for_selector("#schiri.state-taken", timeout=20_000)  # the box's poll
    assert "Der Schiedsrichter ist unterwegs" in captain.inner_text("#schiri")
    referee.fill(f"#id_c{call.pk}-minutes", "99")  # a wrong figure first
    referee.fill(f"#id_c{call.pk}-ruling", "Stich 7 korrekt bedient; Spiel zählt.")
    referee.click(f"#ruf-{call.pk} button[value=rule]")
    referee.wait_for_selector(f"#id_c{call.pk}-minutes-errors")
    assert referee.input_value(f"#id_c{call.pk}-ruling") == "Stich 7 korrekt bedient; Spiel zählt."
    problems += checks(referee, "referee page with an error")
    referee.fill(f"#id_c{call.pk}-minutes", "5")
    referee.click(f"#ruf-{call.pk} button[value=rule]")
    referee.wait_for_selector(".referee-done table.rulings")
    assert "Keine offenen Rufe." in referee.inner_text("#offene-rufe")
    assert "Stich 7 korrekt bedient; Spiel zählt." in referee.inner_text(".referee-done")
    problems += checks(referee, "referee page, ruled")

    # The board's own poll drops the call and shows the extension at table 1.
    board.wait_for_selector("#schiri-rufe", state="detached", timeout=20_000)
    assert "+5 Min." in board.inner_text("#tisch-1 td.end")
    problems += checks(board, "board, ruled")
    assert Extension.objects.get(table=table).minutes == 5

    # The captain's clock ends five minutes later; his sheet shows the ruling.
    captain.reload()
    after = clock_end(captain)
    moved = datetime.datetime.combine(datetime.date.today(), after) - datetime.datetime.combine(
        datetime.date.today(), before
    )
    assert moved == datetime.timedelta(minutes=5), (before, after)
    box = captain.inner_text("#schiri")
    assert "Entschieden um" in box and "Stich 7 korrekt bedient; Spiel zählt." in box
    assert "Nachspielzeit: +5 Minuten." in box and "Spiel 2 ist bestätigt." in box
    assert not captain.query_selector(".provisional-mark")
    problems += checks(captain, "captain, ruled")
    assert not problems, "\n".join(problems)
