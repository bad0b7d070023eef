"""The hall display on a 1920 x 1080 screen through a series' life: drawn (the seating, 48
names a page, in pages that turn by themselves), started (clock and tables), 15 minutes
left, time up, closed (the standings with the series' winner). The screen is never
reloaded: every state reaches it through its own polling, each after a network loss during
which it keeps its board and shows the offline mark. Its device clock is 37 minutes off,
and its countdown still shows the server's second.

Times are set relative to now (the live server's thread is not frozen): the signal 86
minutes ago for the last 15 minutes, 101 minutes ago for time up.

Screenshots of each state go to the test's directory, and to ``$HALL_SCREENSHOTS`` when it
is set (``HALL_SCREENSHOTS=docs/screenshots`` renews the pictures in the documentation).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from common.actors import ORGANIZER, Actor
from hall.services import announce
from scoring.demo import play_table
from scoring.services.clock import extend_table
from scoring.services.closing import close_series
from tests.browser.contexts import close_context
from tests.factories import build_world, make_tournament
from tournaments.demo import create_demo_tournament
from tournaments.models import Series, Tournament
from tournaments.services.lifecycle import start_series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 1920, 1080
PLAYERS = 120  # 30 tables: three pages of seating, two of tables
SHIFT_MS = 37 * 60 * 1000  # the screen's own clock is this far off
POLL_WAIT = 15_000  # ms: a poll every 5 s, and some slack

SHIFTED_CLOCK = f"""(() => {{
  const real = Date.now.bind(Date);
  Date.now = () => real() + {SHIFT_MS};
}})();"""

STATE = """() => {
  const board = document.querySelector('#hall-board .board');
  const main = board.querySelector('[data-main]');
  const page = board.querySelector('.page.current');
  const size = (selector) => {
    const el = board.querySelector(selector);
    return el ? parseFloat(getComputedStyle(el).fontSize) : 0;
  };
  const rows = page ? [...page.querySelectorAll('tbody tr')] : [];
  return {
    view: [...board.classList].find((c) => c.startsWith('view-')),
    stage: [...board.classList].find((c) => c.startsWith('stage-')),
    clock: main ? main.querySelector('[data-time]').textContent : null,
    label: board.querySelector('[data-page-label]').textContent,
    pages: board.querySelectorAll('.page').length,
    shown: [...board.querySelectorAll('.page')].filter((p) => p.offsetParent !== null).length,
    rows: rows.length,
    lowest: rows.length ? Math.max(...rows.map((r) => r.getBoundingClientRect().bottom)) : 0,
    cards: page ? page.querySelectorAll('.table-card').length : 0,
    name: size('.page.current td.name'),
    number: size('.page.current td.table-no'),
    digits: size('.countdown-time'),
    deviations: (board.querySelector('.deviations') || {innerText: ''}).innerText,
    winners: (board.querySelector('.winners') || {innerText: ''}).innerText,
    offline: !document.querySelector('.offline-mark').hidden,
    scroll: document.documentElement.scrollHeight,
    text: document.body.innerText,
  };
}"""


def seconds(clock: str) -> int:
    parts = [int(p) for p in clock.split(":")]
    return sum(p * 60**i for i, p in enumerate(reversed(parts)))


def left(series: Series, minutes: int = 100) -> float:
    assert series.starts_at is not None
    end = series.starts_at + datetime.timedelta(minutes=minutes)
    return (end - timezone.now()).total_seconds()


def set_signal(series: Series, minutes_ago: int) -> None:
    series.starts_at = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    series.save(update_fields=["starts_at"])


@pytest.fixture
def hall(db: None) -> tuple[Tournament, Actor]:
    tournament = create_demo_tournament(PLAYERS, 1, 2026, random.Random(2026))
    organizer = tournament.organizers.get()
    return tournament, Actor(ORGANIZER, user=organizer)


@pytest.fixture
def shots(tmp_path: Path) -> list[Path]:
    directories = [tmp_path]
    if os.environ.get("HALL_SCREENSHOTS"):
        directories.append(Path(os.environ["HALL_SCREENSHOTS"]))
    return directories


@pytest.mark.slow
def test_a_series_on_the_hall_display(
    live_server: Any,
    browser: Any,
    hall: tuple[Tournament, Actor],
    shots: list[Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The screen polls every 2 s and turns pages every 4 s here (5 s and 10 s in the hall):
    # the same script and steps, in less than half the time.
    monkeypatch.setattr("hall.views.POLL_SECONDS", 2)
    monkeypatch.setattr("hall.views.PAGE_SECONDS", 4)
    tournament, referee = hall
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale="de-DE")
    context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    context.add_init_script(SHIFTED_CLOCK)
    page = context.new_page()
    page.set_default_timeout(POLL_WAIT)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def state() -> dict[str, Any]:
        found: dict[str, Any] = page.evaluate(STATE)
        return found

    def until(condition: str) -> dict[str, Any]:
        board = "const b = document.querySelector('#hall-board .board');"
        page.wait_for_function(f"() => {{ {board} return {condition}; }}")
        return state()

    @contextlib.contextmanager
    def network_lost() -> Iterator[None]:
        """The screen offline until its next poll has failed, so no request of its is under
        way while the test writes (SQLite's shared in-memory database of the live server
        refuses a read of a table another thread is writing: an error page, not a wait)."""
        polls = page.evaluate("() => Number(document.getElementById('hall').dataset.polls)")
        context.set_offline(True)
        page.wait_for_function(
            f"() => Number(document.getElementById('hall').dataset.polls) > {polls}"
        )
        yield
        context.set_offline(False)

    def photograph(name: str) -> None:
        for directory in shots:
            page.screenshot(path=str(directory / f"hall-{name}.png"), animations="disabled")

    # Drawn: the seating, 48 names a page, three pages that turn by themselves.
    assert page.goto(f"{live_server.url}/turniere/demo/halle/").status == 200
    now = state()
    assert (now["view"], now["pages"], now["shown"], now["rows"]) == ("view-seating", 3, 1, 48)
    assert now["lowest"] <= HEIGHT and now["scroll"] <= HEIGHT  # the page fits the screen
    assert now["name"] >= 32 and now["number"] >= 38  # px at 1080 lines
    first_label = now["label"]
    assert re.fullmatch(r"\S+ – \S+ · 1/3", first_label), first_label
    photograph("seating")
    now = until("b.querySelector('[data-page-label]').textContent.endsWith('2/3')")
    assert now["shown"] == 1 and now["label"] != first_label

    # Started: the clock and the tables, reached by polling.
    with network_lost():
        series = start_series(tournament.series.get(number=1))
        rng = random.Random(7)
        for table in series.tables.order_by("number")[:24]:
            play_table(table, rng, games=rng.randint(4, 12), finish=False)
        announce(tournament, "Mittagspause nach der Serie bis 13:30 Uhr", actor=referee)
    now = until("b.classList.contains('view-tables')")
    assert not now["offline"]
    assert now["stage"] == "stage-running" and now["cards"] == 20 and now["pages"] == 2
    # The screen's clock is 37 minutes off; it shows the server's second all the same.
    assert abs(seconds(now["clock"]) - left(series)) <= 3, now["clock"]
    assert now["digits"] >= 100
    assert "Mittagspause nach der Serie bis 13:30 Uhr" in now["text"]
    photograph("running")

    # 15 minutes left; table 7 got ten minutes of Nachspielzeit and ends later.
    with network_lost():
        set_signal(series, 86)
        extend_table(series.tables.get(number=7), minutes=10, reason="Reklamation", actor=referee)
    now = until("b.classList.contains('stage-last_15')")
    assert 13 * 60 <= seconds(now["clock"]) <= 14 * 60, now["clock"]
    assert abs(seconds(now["clock"]) - left(series)) <= 3
    assert re.match(r"\w+ 7: 23:\d\d ", now["deviations"]), now["deviations"]
    photograph("15-minutes")
    clock = context.new_page()
    clock.goto(f"{live_server.url}/turniere/demo/halle/?view=clock")
    clock.wait_for_function("() => document.querySelector('.board.view-clock.stage-last_15')")
    for directory in shots:
        clock.screenshot(path=str(directory / "hall-clock.png"), animations="disabled")
    clock.close()

    # Time up (blinking).
    with network_lost():
        set_signal(series, 101)
    now = until("b.classList.contains('stage-up')")
    assert now["clock"] == "0:00"
    photograph("time-up")

    # Closed while the screen is offline: it keeps its last board, marked, and catches up.
    with network_lost():
        now = state()
        assert now["offline"] and now["view"] == "view-tables" and now["clock"] == "0:00"
        close_series(Series.objects.get(pk=series.pk), actor=referee, past_unfinished=True)
    now = until("b.classList.contains('view-standings')")
    assert re.search(r"1: [^()]+ \(\d+\)", now["winners"]), now["winners"]
    assert now["rows"] == 32  # two columns of 16 on a page
    assert not now["offline"]
    photograph("standings")
    assert not [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e], errors
    close_context(context)


def test_the_sound_needs_one_click(live_server: Any, browser: Any) -> None:
    """Browsers play no sound before the page was touched: the screen says so until then."""
    tournament = make_tournament("klang")
    build_world(tournament, (4,), status=Series.Status.DRAWN)
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/turniere/klang/halle/?sound=1")
    hint = page.locator(".sound-hint")
    hint.wait_for(state="visible")
    hint.click()
    hint.wait_for(state="hidden")
    page.goto(f"{live_server.url}/turniere/klang/halle/")
    assert page.locator(".sound-hint").count() == 0
    assert not errors, errors
    close_context(context)
