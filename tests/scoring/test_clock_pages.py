"""The clock on the pages: the organizers' board (each table's end, pause and resume,
Nachspielzeit, the time-up prompts), the change log, the captain's sheet (time left, then
what may still be played) and the public pages. Time is frozen; the hall is in Berlin, so
the signal at 10:00 UTC reads 11:00."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from common.actors import ORGANIZER, Actor
from scoring.models import AuditEntry, Extension, Pause, ScoreSheet
from scoring.services.clock import extend_table, pause_hall
from scoring.services.sheet import set_timeout
from tests.factories import RE_WINS as NORMAL
from tests.factories import World, build_world, page_client, play, set_status, started
from tests.factories import after_signal as at
from tournaments.models import Series, Table, Tournament

pytestmark = pytest.mark.django_db

BOARD = "/verwaltung/herbst/serie/1/fortschritt/"


@pytest.fixture
def hall(tournament: Tournament) -> World:
    """Series 1 running since the signal: tables 1 and 2 of four, table 3 of five."""
    return started(build_world(tournament, (4, 4, 5)))


@pytest.fixture
def alice_en(alice: User) -> Client:
    return page_client(alice, language="en")


@pytest.fixture
def referee(alice: User) -> Actor:
    return Actor(ORGANIZER, user=alice)


def text(response: Any) -> str:
    return " ".join(response.content.decode().split())


# --- the board ---------------------------------------------------------------------------


def test_the_board_shows_each_tables_end_and_the_controls(hall: World, alice_en: Client) -> None:
    with freeze_time(at(30)):
        page = text(alice_en.get(BOARD))
    assert "70 minutes left (until 12:40)" in page
    assert '<span class="">12:40</span>' in page  # tables of four: the main clock
    assert '<span class="deviates">13:05</span>' in page  # the table of five ends later
    assert 'name="action" value="pause"' in page
    assert 'name="action" value="extend"' in page
    assert 'href="?tisch=3#nachspielzeit"' in page


def test_the_controls_are_only_there_while_the_clock_runs(
    tournament: Tournament, alice_en: Client
) -> None:
    build_world(tournament, (4,))  # running, but no signal recorded
    page = text(alice_en.get(BOARD))
    assert 'value="extend"' not in page and 'value="pause"' not in page


def test_a_row_link_chooses_the_table_of_the_extension_form(hall: World, alice_en: Client) -> None:
    with freeze_time(at(30)):
        page = text(alice_en.get(BOARD + "?tisch=2"))
    assert '<option value="2" selected>2</option>' in page


def test_the_htmx_refresh_leaves_the_forms_alone(hall: World, alice_en: Client) -> None:
    with freeze_time(at(30)):
        page = text(alice_en.get(BOARD, headers={"HX-Request": "true"}))
    assert "70 minutes left" in page
    assert 'value="extend"' not in page and "<html" not in page


def test_nachspielzeit_from_the_board(hall: World, alice_en: Client) -> None:
    with freeze_time(at(40)):
        response = alice_en.post(
            BOARD + "?order=table",
            {"action": "extend", "table": "2", "minutes": "6", "reason": "Reklamation Spiel 9"},
        )
    assert response.status_code == 302
    assert response["Location"] == BOARD + "?order=table"
    extension = Extension.objects.get()
    assert (extension.table.number, extension.minutes, extension.reason) == (
        2,
        6,
        "Reklamation Spiel 9",
    )
    with freeze_time(at(41)):
        page = text(alice_en.get(response["Location"]))
    assert "Table 2 gets 6 minutes of Nachspielzeit." in page
    assert '<span class="deviates">12:46</span><br><small class="extension">+6 min</small>' in page


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"minutes": "", "reason": "Reklamation"}, "minutes", "Nachspielzeit is 1 to 60 minutes"),
        ({"minutes": "0", "reason": "Reklamation"}, "minutes", "Nachspielzeit is 1 to 60 minutes"),
        ({"minutes": "61", "reason": "Reklamation"}, "minutes", "Nachspielzeit is 1 to 60"),
        ({"minutes": "zehn", "reason": "Reklamation"}, "minutes", "Nachspielzeit is 1 to 60"),
        ({"minutes": "9" * 40, "reason": "Reklamation"}, "minutes", "Nachspielzeit is 1 to 60"),
        ({"minutes": "5", "reason": "   "}, "reason", "Say why the table gets more time"),
        ({"minutes": "5", "reason": "x" * 201}, "reason", "Say why the table gets more time"),
        ({"table": "", "minutes": "5", "reason": "R"}, "table", "This field is required."),
        ({"table": "99", "minutes": "5", "reason": "R"}, "table", "Select a valid choice."),
        ({"table": "-1", "minutes": "5", "reason": "R"}, "table", "Select a valid choice."),
    ],
)
def test_a_wrong_extension_is_named_next_to_its_field_and_nothing_typed_is_lost(
    hall: World, alice_en: Client, data: dict[str, str], field: str, message: str
) -> None:
    posted = {"action": "extend", "table": "1", **data}
    with freeze_time(at(40)):
        response = alice_en.post(BOARD, posted)
    assert response.status_code == 200
    page = response.content.decode()
    errors = page.split(f'id="id_{field}-errors"', 1)
    assert len(errors) == 2, f"no error list next to {field}"
    assert message in errors[1].split("</ul>", 1)[0]
    for name in ("minutes", "reason"):
        value = posted[name].strip()
        if value and len(value) <= 200:
            assert f'value="{value}"' in page, f"{name} lost"
    assert not Extension.objects.exists()


def test_the_german_board_words_the_refusal_in_german(hall: World, alice: User) -> None:
    with freeze_time(at(40)):
        response = page_client(alice, language="de").post(
            BOARD, {"action": "extend", "table": "1", "minutes": "5", "reason": ""}
        )
    assert response.status_code == 200
    assert response.content.decode().count('class="field-error"') == 1


def test_pause_and_resume_from_the_board(hall: World, alice_en: Client) -> None:
    with freeze_time(at(30)):
        response = alice_en.post(BOARD, {"action": "pause", "reason": "Stromausfall"})
    assert response.status_code == 302
    with freeze_time(at(42)):
        page = text(alice_en.get(BOARD))
    assert "Clock paused since 11:30: 70 minutes left when it runs again." in page
    assert "Stromausfall" in page
    assert 'value="resume"' in page and 'value="pause"' not in page
    with freeze_time(at(45)):
        alice_en.post(BOARD, {"action": "resume"})
        page = text(alice_en.get(BOARD))
    assert "70 minutes left (until 12:55)" in page  # 15 minutes of pause
    pause = Pause.objects.get()
    assert (pause.started_at, pause.ended_at, pause.reason) == (at(30), at(45), "Stromausfall")


def test_pausing_twice_or_resuming_a_running_clock_is_a_message(
    hall: World, alice_en: Client
) -> None:
    with freeze_time(at(30)):
        alice_en.post(BOARD, {"action": "pause"})
        response = alice_en.post(BOARD, {"action": "pause"}, follow=True)
    assert "The clock is already paused." in text(response)
    with freeze_time(at(31)):
        alice_en.post(BOARD, {"action": "resume"})
        response = alice_en.post(BOARD, {"action": "resume"}, follow=True)
    assert "The clock is not paused." in text(response)
    assert Pause.objects.count() == 1


def test_a_too_long_pause_reason_is_named_next_to_the_field(hall: World, alice_en: Client) -> None:
    with freeze_time(at(30)):
        response = alice_en.post(BOARD, {"action": "pause", "reason": "x" * 300})
    assert response.status_code == 200
    assert 'id="pause_reason-errors"' in response.content.decode()
    assert not Pause.objects.exists()


def ids_twice(html: str) -> list[str]:
    ids = re.findall(r'\bid="([^"]+)"', html)
    return sorted({i for i in ids if ids.count(i) > 1})


def test_every_id_on_the_board_is_unique(hall: World, alice_en: Client, referee: Actor) -> None:
    """The pause form and the Nachspielzeit form both have a reason: each its own id (the
    label of one focused the other's field), with errors too."""
    with freeze_time(at(30)):
        html = alice_en.get(BOARD).content.decode()
        assert ids_twice(html) == []
        assert 'for="pause_reason"' in html and 'for="id_reason"' in html
        wrong = alice_en.post(BOARD, {"action": "extend", "table": "3", "minutes": "99"})
        assert ids_twice(wrong.content.decode()) == []
        pause_hall(hall.series, reason="", actor=referee)
        assert ids_twice(alice_en.get(BOARD).content.decode()) == []


def test_the_extension_links_name_what_they_show(hall: World, alice_en: Client) -> None:
    """A link's accessible name contains its visible text ("+ time"), the table for a screen
    reader after it."""
    with freeze_time(at(30)):
        html = alice_en.get(BOARD).content.decode()
    links = re.findall(
        r'<a href="\?tisch=(\d+)#nachspielzeit" class="extend-link"([^>]*)>(.*?)</a>', html
    )
    assert sorted(n for n, _, _ in links) == ["1", "2", "3"]
    for number, attributes, inner in links:
        assert "aria-label" not in attributes
        assert re.sub(r"<[^>]+>", "", inner) == f"+ time (Nachspielzeit for table {number})"


def test_a_closed_series_refuses_the_clock_with_a_message(hall: World, alice_en: Client) -> None:
    set_status(hall.series, Series.Status.CLOSED)
    with freeze_time(at(30)):
        response = alice_en.post(
            BOARD, {"action": "extend", "table": "1", "minutes": "5", "reason": "R"}
        )
        paused = alice_en.post(BOARD, {"action": "pause"}, follow=True)
    assert response.status_code == 200  # the board of a closed series has no form to show
    assert paused.status_code == 200
    assert not Extension.objects.exists() and not Pause.objects.exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"action": "nonsense"},
        {"action": "extend"},
        {"action": "extend", "table": "1\x00", "minutes": "5", "reason": "R"},
        {"action": "pause", "reason": "\x00"},
        {"action": ["extend", "pause"], "minutes": ["1", "2"]},
    ],
)
def test_junk_posted_to_the_board_is_no_error_page(
    hall: World, alice_en: Client, data: dict[str, Any]
) -> None:
    with freeze_time(at(30)):
        response = alice_en.post(BOARD, data)
    assert response.status_code in (200, 302)


@pytest.mark.parametrize("persona", ["other", "anonymous"])
def test_only_the_tournaments_organizers_touch_the_clock(
    hall: World, bob: User, persona: str
) -> None:
    client = page_client(bob) if persona == "other" else page_client()
    with freeze_time(at(30)):
        extend = client.post(BOARD, {"action": "extend", "table": "1", "minutes": "5",
                                     "reason": "R"})  # fmt: skip
        pause = client.post(BOARD, {"action": "pause"})
    if persona == "other":
        assert extend.status_code == pause.status_code == 403
    else:
        assert extend.status_code == pause.status_code == 302
        assert extend["Location"].startswith("/login/")
    assert not Extension.objects.exists() and not Pause.objects.exists()


def test_the_captain_link_is_no_key_to_the_board(hall: World) -> None:
    captain = Client()
    captain.get(f"/tisch/{hall.tables[0].captain_token}/")
    with freeze_time(at(30)):
        response = captain.post(BOARD, {"action": "pause"})
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert not Pause.objects.exists()


def test_the_board_posts_need_the_csrf_token(hall: World, alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    with freeze_time(at(30)):
        response = client.post(BOARD, {"action": "pause"})
    assert response.status_code == 403
    assert not Pause.objects.exists()


# --- time up: prompted, not forced --------------------------------------------------------


def test_no_prompt_while_time_runs(hall: World, alice_en: Client) -> None:
    with freeze_time(at(99)):
        page = text(alice_en.get(BOARD))
    assert "time-prompt" not in page


def test_time_up_at_the_tables_of_four_prompts_a_time_out_per_table(
    hall: World, alice_en: Client
) -> None:
    with freeze_time(at(101)):
        page = text(alice_en.get(BOARD))
    assert "Time is up at these tables:" in page
    assert "Time-out table 1" in page and "Time-out table 2" in page
    assert "Time-out table 3" not in page  # 24 minutes left at five
    assert "Time is up at every table." not in page  # no call for the whole series yet
    assert not ScoreSheet.objects.filter(timeout=True).exists()  # only prompted


def test_a_time_out_from_the_prompt_returns_to_the_board(hall: World, alice_en: Client) -> None:
    table = hall.tables[0]
    with freeze_time(at(101)):
        response = alice_en.post(
            f"/verwaltung/herbst/tisch/{table.pk}/aktion/",
            {"action": "timeout", "next": "progress"},
        )
        assert response.status_code == 302 and response["Location"] == BOARD
        page = text(alice_en.get(BOARD))
    assert ScoreSheet.objects.get(table=table).timeout
    assert "Time is up at this table:" in page and "Time-out table 2" in page
    assert "Time-out table 1" not in page


def test_every_table_up_prompts_to_call_time_for_the_series(hall: World, alice_en: Client) -> None:
    with freeze_time(at(126)):
        page = text(alice_en.get(BOARD))
        assert "Time is up at every table." in page
        assert 'action="/verwaltung/herbst/serie/1/zeit/"' in page
        response = alice_en.post("/verwaltung/herbst/serie/1/zeit/", {"next": "progress"})
        assert response.status_code == 302 and response["Location"] == BOARD
        page = text(alice_en.get(BOARD))
    assert "time-prompt" not in page
    assert "Time called at 13:06." in page
    assert ScoreSheet.objects.filter(timeout=True).count() == 3


def test_time_called_early_is_a_clock_state_of_its_own(
    hall: World, alice_en: Client, referee: Actor
) -> None:
    """Called 30 minutes into the series: the board and the phones' clock say so and no
    longer count down, paused or not."""
    with freeze_time(at(20)):
        pause_hall(hall.series, reason="", actor=referee)
    with freeze_time(at(30)):
        alice_en.post("/verwaltung/herbst/serie/1/zeit/", {"next": "progress"})
        board = text(alice_en.get(BOARD))
    clock = re.search(r'<p class="series-clock is-called">(.*?)</p>', board)
    assert clock, board
    assert "Time called at 11:30." in clock.group(1) and "still played" in clock.group(1)
    assert "minutes left" not in board and "Time is up" not in board
    for path in (CLOCK, CLOCK + "?tisch=3"):
        phone = public(path, at(31))
        assert "Time called at 11:30." in phone, path
        assert "minutes left" not in phone and "paused" not in phone.lower(), path


def test_a_table_with_nachspielzeit_is_not_prompted_before_its_own_end(
    hall: World, alice_en: Client, referee: Actor
) -> None:
    with freeze_time(at(50)):
        extend_table(hall.tables[1], minutes=10, reason="Reklamation", actor=referee)
    with freeze_time(at(101)):
        page = text(alice_en.get(BOARD))
    assert "Time-out table 1" in page and "Time-out table 2" not in page


def test_a_time_out_of_another_tournaments_table_is_not_found(
    hall: World, alice_en: Client, other_tournament: Tournament
) -> None:
    stranger = build_world(other_tournament, (4,)).tables[0]
    response = alice_en.post(
        f"/verwaltung/herbst/tisch/{stranger.pk}/aktion/", {"action": "timeout", "next": "progress"}
    )
    assert response.status_code == 404
    assert not ScoreSheet.objects.filter(timeout=True).exists()


# --- the change log ------------------------------------------------------------------------


def test_extensions_and_pauses_are_in_the_change_log_in_words(
    hall: World, alice_en: Client
) -> None:
    with freeze_time(at(30)):
        alice_en.post(BOARD, {"action": "pause", "reason": "Stromausfall"})
    with freeze_time(at(35)):
        alice_en.post(BOARD, {"action": "resume"})
    with freeze_time(at(40)):
        alice_en.post(BOARD, {"action": "extend", "table": "3", "minutes": "7",
                              "reason": "Reklamation"})  # fmt: skip
    assert AuditEntry.objects.count() == 3
    page = text(alice_en.get("/verwaltung/herbst/protokoll/"))
    for words in ("Nachspielzeit granted", "+7 minutes", "Reklamation", "Clock paused",
                  "Stromausfall", "Clock resumed"):  # fmt: skip
        assert words in page, words
    assert "scoring.clock" not in page and "'at'" not in page
    # The pauses have no table, but belong to series 1: its filter finds them.
    page = text(alice_en.get("/verwaltung/herbst/protokoll/?series=1"))
    assert "Clock paused" in page and "Clock resumed" in page and "Nachspielzeit granted" in page
    page = text(alice_en.get("/verwaltung/herbst/protokoll/?kind=clock-paused"))
    assert "<strong>Clock paused</strong>" in page
    assert "<strong>Nachspielzeit granted</strong>" not in page


# --- the captain's sheet -------------------------------------------------------------------


def captain_page(table: Table, when: datetime.datetime, suffix: str = "") -> str:
    with freeze_time(when):
        response = page_client(language="en").get(f"/tisch/{table.captain_token}/{suffix}")
    assert response.status_code == 200
    return text(response)


def test_the_captain_sees_his_tables_time(hall: World) -> None:
    assert "70 minutes left (until 12:40)" in captain_page(hall.tables[0], at(30))
    assert "95 minutes left (until 13:05)" in captain_page(hall.tables[2], at(30))


def test_the_captain_sees_the_pause(hall: World, referee: Actor) -> None:
    with freeze_time(at(30)):
        pause_hall(hall.series, reason="", actor=referee)
    assert "Clock paused: 70 minutes left." in captain_page(hall.tables[0], at(50))


def test_time_up_names_the_compulsory_solos_still_open(hall: World) -> None:
    table = hall.tables[0]
    seats = {s.position: str(s.registration.player) for s in table.seats.all()}
    # Seat 2 has played his compulsory solo: seats 1, 3 and 4 still owe theirs.
    play(table, [NORMAL, {"contract": "solo", "solo": "damen", "re": [2], "re_points": 150}])
    page = captain_page(table, at(100))
    assert "Time is up." in page
    assert "Finish the game in progress; no further normal game is started." in page
    expected = ", ".join(f"{seats[s]} (seat {s})" for s in (1, 3, 4))
    assert f"as forced solos: the compulsory solos of {expected}." in page
    assert "The referee has called time." not in page


def test_once_time_is_called_the_captain_reads_that_the_referee_called_it(
    hall: World, referee: Actor
) -> None:
    table = hall.tables[0]
    with freeze_time(at(80)):  # called early: the clock need not be up
        set_timeout(table, timeout=True, actor=referee)
    page = captain_page(table, at(81))
    assert "The referee has called time." in page
    assert "the compulsory solos of" in page


def test_no_solo_open_means_the_series_ends_after_the_game_in_progress(
    hall: World,
) -> None:
    table = hall.tables[0]
    play(table, [{"contract": "solo", "solo": "damen", "re": [s], "re_points": 150}
                 for s in (1, 2, 3, 4)])  # fmt: skip
    page = captain_page(table, at(101))
    assert "Every compulsory solo has been played" in page


def test_the_captains_clock_fragment_refreshes_alone(hall: World) -> None:
    page = captain_page(hall.tables[0], at(90), "uhr/")
    assert "10 minutes left (until 12:40)" in page
    assert "<html" not in page and 'data-poll="/tisch/' in page


def test_the_running_clocks_poll_leaves_the_sheet_and_its_games_alone(hall: World) -> None:
    """While the clock runs the poll reads no row an entry writes (on SQLite a read of the
    same table at the moment of a write would refuse that write)."""
    client = page_client(language="en")
    with freeze_time(at(30)), CaptureQueriesContext(connection) as queries:
        response = client.get(f"/tisch/{hall.tables[0].captain_token}/uhr/")
    assert response.status_code == 200
    touched = " ".join(q["sql"] for q in queries)
    assert "scoring_game" not in touched and "scoring_scoresheet" not in touched


def test_once_time_is_up_the_page_stops_polling(hall: World, referee: Actor) -> None:
    assert 'data-poll="/tisch/' in captain_page(hall.tables[0], at(30))
    up = captain_page(hall.tables[0], at(101))
    assert "Time is up." in up and 'data-poll="/tisch/' not in up
    assert "Time is up." in captain_page(hall.tables[0], at(101), "uhr/")
    with freeze_time(at(50)):
        set_timeout(hall.tables[1], timeout=True, actor=referee)
    called = captain_page(hall.tables[1], at(51))
    assert "The referee has called time." in called and 'data-poll="/tisch/' not in called


def test_a_submitted_sheet_shows_no_clock(hall: World) -> None:
    table = hall.tables[0]
    ScoreSheet.objects.create(table=table, status=ScoreSheet.Status.SUBMITTED)
    assert "minutes left" not in captain_page(table, at(30))


def test_the_clock_fragment_of_a_closed_series_ends_the_polling(hall: World) -> None:
    """A phone left open on the sheet while the series closed: its next poll swaps in an
    empty clock that polls no more (the link itself now shows the sheet read-only)."""
    set_status(hall.series, Series.Status.CLOSED)
    with freeze_time(at(30)):
        response = Client().get(f"/tisch/{hall.tables[0].captain_token}/uhr/")
    fragment = response.content.decode()
    assert response.status_code == 200 and 'id="table-clock"' in fragment
    assert "hx-get" not in fragment and "minute" not in fragment


def test_the_organizers_sheet_page_has_the_clock_too(hall: World, alice_en: Client) -> None:
    table = hall.tables[2]
    with freeze_time(at(30)):
        page = text(alice_en.get(f"/verwaltung/herbst/tisch/{table.pk}/"))
        fragment = text(alice_en.get(f"/verwaltung/herbst/tisch/{table.pk}/uhr/"))
    assert "95 minutes left (until 13:05)" in page
    assert "95 minutes left (until 13:05)" in fragment


# --- the public pages ----------------------------------------------------------------------

CLOCK = "/turniere/herbst/serie/1/uhr/"


def public(path: str, when: datetime.datetime) -> str:
    with freeze_time(when):
        response = page_client(language="en").get(path)
    assert response.status_code == 200, path
    return text(response)


def test_the_public_clock_shows_the_hall_and_one_table(hall: World) -> None:
    page = public(CLOCK, at(30))
    assert "Series 1:</span> 70 minutes left (until 12:40)" in page
    assert "Some tables end at another time" in page
    assert "Table 3:</span> 95 minutes left (until 13:05)" in public(CLOCK + "?tisch=3", at(30))
    # A table that does not exist, or junk: the hall's clock.
    for junk in ("99", "x", "1" * 30, "-1"):
        assert "Series 1:</span> 70 minutes left" in public(f"{CLOCK}?tisch={junk}", at(30))


def test_the_public_clock_when_paused_and_up(hall: World, referee: Actor) -> None:
    assert "Series 1:</span> Time is up (since 12:40)." in public(CLOCK, at(101))
    with freeze_time(at(30)):
        pause_hall(hall.series, reason="", actor=referee)
    assert "Series 1:</span> Clock paused: 70 minutes left." in public(CLOCK, at(40))


def test_the_public_clock_is_empty_and_stops_polling_outside_a_running_series(
    hall: World,
) -> None:
    set_status(hall.series, Series.Status.CLOSED)
    page = public(CLOCK, at(30))
    assert "minutes left" not in page and "hx-get" not in page


def test_the_public_clock_of_a_private_tournament_is_not_found(
    hall: World, tournament: Tournament
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    assert Client().get(CLOCK).status_code == 404
    assert Client().get("/turniere/herbst/serie/9/uhr/").status_code == 404


def test_the_tournament_and_seating_pages_load_the_clock(hall: World) -> None:
    for path in ("/turniere/herbst/", "/turniere/herbst/serie/1/"):
        assert f'hx-get="{CLOCK}" hx-trigger="load"' in public(path, at(30)), path


def test_the_player_page_shows_the_time_at_his_table(hall: World) -> None:
    registration = hall.tables[2].seats.get(position=1).registration
    page = public(f"/turniere/herbst/spieler/{registration.start_number}/", at(30))
    assert "Table 3:</span> 95 minutes left (until 13:05)" in page
    assert f'hx-get="{CLOCK}?tisch=3"' in page
