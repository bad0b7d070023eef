"""The hall display as a screen sees it: one public URL per tournament, no login, the view the
tournament's state asks for (or the pinned one), and the fragment it polls: 204 while the
fingerprint holds, every answer with the server's clock."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from freezegun import freeze_time

from common.actors import ORGANIZER, Actor
from hall import board as boards
from hall.services import announce, withdraw
from scoring.models import ScoreSheet
from scoring.services.clock import pause_hall
from tests.factories import RE_WINS as NORMAL
from tests.factories import World, build_world, page_client, play, set_status, started
from tests.factories import after_signal as at
from tournaments.models import Series, Tournament

pytestmark = pytest.mark.django_db

DISPLAY, FRAGMENT = "/turniere/herbst/halle/", "/turniere/herbst/halle/stand/"


@pytest.fixture
def screen(db: None) -> Client:
    """A projector's browser: no account, English (the messages are English msgids)."""
    return page_client(language="en")


@pytest.fixture
def running(tournament: Tournament) -> World:
    world = started(build_world(tournament, (4, 4, 5)))
    play(world.tables[0], [NORMAL, NORMAL])
    return world


@pytest.fixture
def referee(alice: User) -> Actor:
    return Actor(ORGANIZER, user=alice)


def view_of(html: str) -> str:
    found = re.search(r'class="board view-(\w+)', html)
    assert found, html[:500]
    return found.group(1)


def fingerprint_of(html: str) -> str:
    found = re.search(r'data-fingerprint="([\w-]+)"', html)
    assert found
    return found.group(1)


def test_welcome_before_the_draw(screen: Client, tournament: Tournament) -> None:
    response = screen.get(DISPLAY)
    html = response.content.decode()
    assert response.status_code == 200
    assert view_of(html) == "welcome"
    assert "Herbstturnier" in html and "Waiting for the draw." in html
    assert 'class="site-header"' not in html  # a screen of its own, no site navigation


def test_a_drawn_series_shows_its_seating(screen: Client, world: World) -> None:
    html = screen.get(DISPLAY).content.decode()
    assert view_of(html) == "seating"
    names = re.findall(r'<td class="name">([^<]+)</td>', html)
    assert names[:4] == ["Albers, Anna", "Bäcker, Bernd", "Czerwinski, Carla", "Dörfler, Dieter"]
    assert len(names) == 13
    # Maria Müller, the thirteenth, sits at table 3, seat 5
    line = r'Müller, Maria</td><td class="num table-no">3</td><td class="num">5<'
    assert re.search(line, html)


@pytest.mark.parametrize(
    ("minutes", "text", "stage"),
    [(30, "1:10:00", "running"), (86, "14:00", "last_15"), (96, "4:00", "last_5"),
     (101, "0:00", "up")],
)  # fmt: skip
def test_a_running_series_shows_clock_and_tables(
    screen: Client, running: World, minutes: int, text: str, stage: str
) -> None:
    with freeze_time(at(minutes)):
        response = screen.get(DISPLAY)
    html = response.content.decode()
    assert view_of(html) == "tables"
    main = re.search(r'<div class="countdown stage-(\w+)[^"]*"\s+data-countdown data-main '
                     r'data-ends="(\d+)" data-remaining="(\d+)"', html)  # fmt: skip
    assert main, html
    assert main.group(1) == stage
    assert int(main.group(2)) == int(at(100).timestamp() * 1000)
    assert f"data-time>{text}<" in html
    assert html.count('class="table-card') == 3
    assert "Tables 1–3" in html  # the page's label
    assert "2</strong>&#8239;/&#8239;24" in html  # table 1: two games of 24
    assert "&#8239;/&#8239;30" in html  # table 3 has five players


def test_paused_the_clock_stands_with_its_reason_and_no_end(
    screen: Client, running: World, referee: Actor
) -> None:
    with freeze_time(at(40)):
        pause_hall(running.series, reason="Stromausfall", actor=referee)
    with freeze_time(at(50)):
        html = screen.get(DISPLAY).content.decode()
    assert "data-paused" in html and "is-paused" in html
    notes = html[html.index('class="clock-notes"') :]
    since = timezone.localtime(at(40)).strftime("%H:%M")
    assert f"Paused since {since}</strong>: Stromausfall" in notes
    # The end moves while the hall stands: no end time is shown, neither the main clock's
    # nor a deviating table's.
    assert " · ends " not in html and "until " not in html


def test_time_called_is_a_state_of_its_own(screen: Client, running: World, referee: Actor) -> None:
    """Called before the time is up: no countdown runs any more, anywhere on the board (not
    the big clock, not a table's chip), even while the hall was paused."""
    with freeze_time(at(40)):
        pause_hall(running.series, reason="Stromausfall", actor=referee)
        Series.objects.filter(pk=running.series.pk).update(time_called_at=at(40))
        for view in ("tables", "clock"):
            html = screen.get(DISPLAY, {"view": view}).content.decode()
            assert "data-countdown" not in html and "data-time" not in html, view
            assert 'class="countdown is-called"' in html
            assert "Time called" in html and "Time has been called" in html
            assert "Paused" not in html.replace("when-paused", "")
            assert 'stage-called" data-fingerprint' in html


def test_a_table_that_is_done_has_no_countdown(screen: Client, running: World) -> None:
    """Table 3 (of five) ends later than the others: its chip counts down while it plays,
    and goes once its sheet is handed in."""
    with freeze_time(at(90)):
        html = screen.get(DISPLAY, {"view": "tables"}).content.decode()
        assert html.count('class="flag flag-clock"') == 1
        ScoreSheet.objects.update_or_create(
            table=running.tables[2], defaults={"status": "submitted", "version": 1}
        )
        html = screen.get(DISPLAY, {"view": "tables"}).content.decode()
    assert 'class="flag flag-clock"' not in html
    cards = re.findall(r'<article class="table-card[^>]*>', html)
    assert len(cards) == 3
    assert "data-countdown" not in cards[2] and "data-countdown" in cards[0]


def test_a_closed_series_shows_the_standings(screen: Client, running: World) -> None:
    set_status(running.series, Series.Status.CLOSED)
    html = screen.get(DISPLAY).content.decode()
    assert view_of(html) == "standings"
    assert "Winner of series 1" in html
    # the players with results: only table 1 entered games
    assert html.count('<td class="name">') == 4


@pytest.mark.parametrize(
    ("pin", "view"),
    [("clock", "clock"), ("seating", "seating"), ("standings", "standings"), ("tables", "tables"),
     ("junk", "tables"), ("", "tables"), ("TABLES", "tables"), ("<script>", "tables")],
)  # fmt: skip
def test_a_screen_can_be_pinned_to_a_view(
    screen: Client, running: World, pin: str, view: str
) -> None:
    with freeze_time(at(30)):
        html = screen.get(DISPLAY, {"view": pin}).content.decode()
        fragment = screen.get(FRAGMENT, {"view": pin}).content.decode()
    assert view_of(html) == view_of(fragment) == view
    expected = pin if pin in ("clock", "seating", "standings", "tables") else "auto"
    assert f'data-view="{expected}"' in html
    assert "&lt;script&gt;" not in html


def test_a_pinned_view_with_nothing_to_show(screen: Client, world: World) -> None:
    html = screen.get(DISPLAY, {"view": "clock"}).content.decode()
    assert view_of(html) == "clock" and "No series is being played right now." in html


def test_sound_only_when_asked(screen: Client, running: World) -> None:
    assert "data-sound" not in screen.get(DISPLAY).content.decode()
    html = screen.get(DISPLAY, {"sound": "1"}).content.decode()
    assert "data-sound" in html and "sound-hint" in html


def test_the_fragment_says_204_while_nothing_changed(
    screen: Client, running: World, referee: Actor
) -> None:
    with freeze_time(at(30)):
        first = screen.get(FRAGMENT)
        digest = fingerprint_of(first.content.decode())
        assert first.status_code == 200
        same = screen.get(FRAGMENT, {"since": digest})
        assert same.status_code == 204 and same.content == b""
        note = announce(running.tournament, "Mittagspause bis 13:30", actor=referee)
        changed = screen.get(FRAGMENT, {"since": digest})
    assert changed.status_code == 200
    html = changed.content.decode()
    assert "Mittagspause bis 13:30" in html and fingerprint_of(html) != digest
    assert "<html" not in html  # the board alone
    withdraw(note, actor=referee)
    assert "Mittagspause" not in screen.get(FRAGMENT).content.decode()


def test_the_next_screen_reads_the_board_the_first_one_built(
    screen: Client, running: World
) -> None:
    with CaptureQueriesContext(connection) as first:
        screen.get(FRAGMENT, {"since": "an-old-one"})
    with CaptureQueriesContext(connection) as second:
        page_client(language="en").get(FRAGMENT, {"since": "another-old-one"})
    # the tournament, its series and the counters; no board built again
    assert len(second.captured_queries) == 3 < len(first.captured_queries)


def test_a_partial_board_is_asked_for_again(
    screen: Client, running: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boards, "REPLAYS_PER_BOARD", 0)  # nothing replayed: never complete
    first = screen.get(FRAGMENT)
    digest = fingerprint_of(first.content.decode())
    assert digest.endswith("partial")
    assert screen.get(FRAGMENT, {"since": digest}).status_code == 200  # not 204: the rest
    monkeypatch.setattr(boards, "REPLAYS_PER_BOARD", 15)
    complete = fingerprint_of(screen.get(FRAGMENT, {"since": digest}).content.decode())
    assert complete == digest.removesuffix("-partial")
    assert screen.get(FRAGMENT, {"since": complete}).status_code == 204


def test_every_answer_carries_the_servers_clock(screen: Client, running: World) -> None:
    with freeze_time(at(30)):
        page = screen.get(DISPLAY)
        digest = fingerprint_of(page.content.decode())
        answers = [page, screen.get(FRAGMENT), screen.get(FRAGMENT, {"since": digest})]
    assert [a.status_code for a in answers] == [200, 200, 204]
    for answer in answers:
        assert answer["X-Server-Time"] == str(int(at(30).timestamp() * 1000))
        assert "no-store" in answer["Cache-Control"]


def test_the_language_of_the_screen(running: World) -> None:
    german = page_client(language="de").get(DISPLAY).content.decode()
    english = page_client(language="en").get(DISPLAY).content.decode()
    assert '<html lang="de"' in german and '<html lang="en"' in english
    assert "Tisch" in german and fingerprint_of(german) != fingerprint_of(english)


def test_no_login_but_only_public_tournaments(
    screen: Client, running: World, alice: User, bob: User
) -> None:
    assert screen.get("/turniere/no-such-thing/halle/").status_code == 404
    assert screen.get("/turniere/no-such-thing/halle/stand/").status_code == 404
    Tournament.objects.filter(pk=running.tournament.pk).update(is_public=False)
    assert screen.get(DISPLAY).status_code == 404
    assert screen.get(FRAGMENT).status_code == 404
    assert page_client(bob).get(DISPLAY).status_code == 404
    assert page_client(alice).get(DISPLAY).status_code == 200  # her own, before she opens it


@pytest.mark.parametrize(
    "query",
    [{"since": "x" * 5000}, {"since": "\x00"}, {"view": "clock", "since": ""},
     {"sound": "ja"}, {"view": ["clock", "seating"]}, {"page": "-1"}, {"view": "ä" * 300}],
)  # fmt: skip
def test_no_error_page_on_junk(screen: Client, running: World, query: dict[str, Any]) -> None:
    assert screen.get(DISPLAY, query).status_code == 200
    assert screen.get(FRAGMENT, query).status_code == 200


def test_writes_are_not_allowed(screen: Client, running: World) -> None:
    assert screen.post(DISPLAY).status_code == 405
    assert screen.post(FRAGMENT).status_code == 405
