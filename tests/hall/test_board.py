"""The hall's board as read from the database: counts per table, the flags, the clock's groups,
the seating and standings pages, the fingerprint, and a fixed number of queries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time
from rest_framework.test import APIClient

from clubs.services import personal_club
from common.actors import ORGANIZER, Actor
from hall import board as boards
from hall.services import announce, withdraw
from scoring.models import Game, ScoreSheet
from scoring.services.clock import extend_table, pause_hall, resume_hall
from scoring.services.deductions import add_deduction
from scoring.services.sheet import set_timeout
from tests.factories import RE_WINS as NORMAL
from tests.factories import (
    World,
    add_players,
    build_world,
    make_tournament,
    play,
    seat_table,
    set_status,
    started,
)
from tests.factories import after_signal as at
from tournaments.models import Player, RegistryChange, Series, Tournament
from tournaments.services.draw import swap_players

pytestmark = pytest.mark.django_db

SOLO = {"contract": "solo", "solo": "damen", "re": [2], "re_points": 150}


def board_of(tournament: Tournament, view: str = boards.AUTO) -> boards.Board:
    series = boards.series_of(tournament)
    digest = boards.fingerprint(tournament, series, boards.shown_view(view, series), "de")
    return boards.build_board(tournament, series, view, digest)


def lines(board: boards.Board) -> list[boards.TableLine]:
    return [line for page in board.tables for line in page.lines]


@pytest.fixture
def referee(alice: User) -> Actor:
    return Actor(ORGANIZER, user=alice)


# -- Pure helpers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(6000, "1:40:00"), (3600, "1:00:00"), (3599, "59:59"), (840, "14:00"), (5, "0:05"),
     (0, "0:00"), (-30, "0:00")],
)  # fmt: skip
def test_clock_text(seconds: int, text: str) -> None:
    assert boards.clock_text(seconds) == text


def test_number_ranges() -> None:
    assert boards.number_ranges([9, 3, 7, 8, 12, 13]) == "3, 7–9, 12–13"
    assert boards.number_ranges([4]) == "4"


@pytest.mark.parametrize(
    ("statuses", "view"),
    [((), "welcome"), (("planned", "planned"), "welcome"), (("drawn", "planned"), "seating"),
     (("running", "drawn"), "tables"), (("closed", "planned"), "standings"),
     (("closed", "drawn"), "seating"), (("closed", "running"), "tables"),
     (("closed", "closed"), "standings")],
)  # fmt: skip
def test_the_view_follows_the_tournament(statuses: tuple[str, ...], view: str) -> None:
    series = [Series(number=n, status=s) for n, s in enumerate(statuses, start=1)]
    assert boards.auto_view(series) == view


@pytest.mark.parametrize("value", [None, "", "Tables", "auto", "<script>", ["clock"], "welcome"])
def test_only_the_four_views_can_be_pinned(value: Any) -> None:
    assert boards.requested_view(value) == boards.AUTO


# -- The tables of a running series --------------------------------------------------------


def test_games_entered_and_compulsory_solos_open_per_table(tournament: Tournament) -> None:
    world = started(build_world(tournament, (4, 5)))
    first, second = world.tables
    play(first, [NORMAL, SOLO, NORMAL])
    play(second, [{**NORMAL, "re": [2, 4]}])  # the dealer (seat 1) sits out at five
    with freeze_time(at(20)):
        found = lines(board_of(tournament))
    assert [(t.number, t.size, t.entered, t.expected) for t in found] == [
        (1, 4, 3, 24),
        (2, 5, 1, 30),
    ]
    # the solo was seat 2's compulsory solo: three of four still to play
    assert [t.compulsory_open for t in found] == [3, 5]
    assert not any(t.conflict or t.behind or t.timeout for t in found)
    assert [t.status for t in found] == ["open", "open"]


def test_the_five_player_table_keeps_its_own_clock(tournament: Tournament) -> None:
    started(build_world(tournament, (4, 4, 5)))
    with freeze_time(at(30)):
        board = board_of(tournament)
    assert board.clock is not None
    assert board.clock.countdown.ends_at == at(100)
    assert board.clock.countdown.text == "1:10:00"
    assert [(g.numbers, g.countdown.ends_at) for g in board.clock.deviations] == [("3", at(125))]
    assert [t.deviates for t in lines(board)] == [False, False, True]


def test_nachspielzeit_and_pause_move_the_ends(tournament: Tournament, referee: Actor) -> None:
    world = started(build_world(tournament, (4, 4, 4)))
    with freeze_time(at(10)):
        extend_table(world.tables[1], minutes=7, reason="Reklamation", actor=referee)
        pause_hall(world.series, reason="Stromausfall", actor=referee)
    with freeze_time(at(15)):
        board = board_of(tournament)
        assert board.clock is not None and board.clock.paused
        # a pause stands still: 85 minutes left whenever the screen looks
        assert board.clock.countdown.remaining == 90 * 60
        resume_hall(world.series, actor=referee)
    with freeze_time(at(20)):
        board = board_of(tournament)
    assert board.clock is not None and not board.clock.paused
    assert board.clock.countdown.ends_at == at(105)
    (group,) = board.clock.deviations
    assert (group.tables, group.extension_minutes, group.countdown.ends_at) == ((2,), 7, at(112))


def test_flags_behind_conflict_time_called_handed_in(
    tournament: Tournament, referee: Actor
) -> None:
    world = started(build_world(tournament, (4, 4, 4, 4, 4)))
    for table in world.tables[:4]:
        play(table, [NORMAL] * 8)
    play(world.tables[4], [NORMAL])  # seven games short of the median: behind
    set_timeout(world.tables[3], timeout=True, actor=referee)
    # A row that the replay refuses (the dealer of game 2 is wrong): a conflict.
    game = Game.objects.get(table=world.tables[0], number=2)
    Game.objects.filter(pk=game.pk).update(dealer=game.dealer % 4 + 1)
    ScoreSheet.objects.filter(table=world.tables[0]).update(version=99)
    ScoreSheet.objects.filter(table=world.tables[2]).update(status=ScoreSheet.Status.SUBMITTED)
    with freeze_time(at(50)):
        found = {t.number: t for t in lines(board_of(tournament))}
    assert [n for n, t in found.items() if t.conflict] == [1]
    assert [n for n, t in found.items() if t.behind] == [5]
    assert [n for n, t in found.items() if t.timeout] == [4]
    assert [n for n, t in found.items() if t.finished] == [3]


def test_findings_are_replayed_once_per_sheet_version(tournament: Tournament) -> None:
    world = started(build_world(tournament, (4, 4)))
    for table in world.tables:
        play(table, [NORMAL, NORMAL])
    with freeze_time(at(10)), CaptureQueriesContext(connection) as cold:
        board_of(tournament, boards.TABLES)
    with freeze_time(at(10)), CaptureQueriesContext(connection) as warm:
        board_of(tournament, boards.TABLES)
    games = [q["sql"] for q in cold.captured_queries if 'FROM "scoring_game"' in q["sql"]]
    assert len(games) == 2  # the counts, and the games of the tables not in the cache
    assert len(warm.captured_queries) == len(cold.captured_queries) - 1
    play(world.tables[1], [NORMAL])  # a new version of table 2's sheet: replayed again
    with freeze_time(at(10)), CaptureQueriesContext(connection) as again:
        board_of(tournament, boards.TABLES)
    assert len(again.captured_queries) == len(cold.captured_queries)


def test_after_a_restart_the_sheets_are_replayed_a_few_per_board(
    tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = started(build_world(tournament, (4, 4, 4)))
    for table in world.tables:
        play(table, [NORMAL])
    game = Game.objects.get(table=world.tables[2], number=1)  # table 3's sheet is wrong
    Game.objects.filter(pk=game.pk).update(dealer=game.dealer % 4 + 1)
    monkeypatch.setattr(boards, "REPLAYS_PER_BOARD", 2)
    with freeze_time(at(10)):
        first, second = board_of(tournament), board_of(tournament)
    assert not first.complete and first.fingerprint.endswith("-partial")
    assert [t.conflict for t in lines(first)] == [False, False, False]  # table 3 not yet seen
    assert second.complete and not second.fingerprint.endswith("-partial")
    assert [t.conflict for t in lines(second)] == [False, False, True]


# -- Seating and standings -----------------------------------------------------------------


def test_seating_in_german_order_in_pages_of_48(tournament: Tournament) -> None:
    names = [("Öznur", "Özdemir"), ("Otto", "Ohm"), ("Anna", "Zorn"), ("Ärger", "Ärmel")]
    world = build_world(tournament, (4,) * 13, status=Series.Status.DRAWN)
    registrations = add_players(tournament, names=names)
    seat_table(world.series, registrations, 14)
    pages = board_of(tournament).seating
    assert [len(p.lines) for p in pages] == [48, 8]
    every = [line for page in pages for line in page.lines]
    ordered = [line.name for line in every if not line.name.startswith("Nachname")]
    assert ordered == ["Ärmel, Ärger", "Ohm, Otto", "Özdemir, Öznur", "Zorn, Anna"]
    assert [(line.table, line.seat) for line in every if line.name == "Ohm, Otto"] == [(14, 2)]
    assert [len(column) for column in pages[0].columns] == [16, 16, 16]


def test_standings_with_the_winner_of_each_closed_series(tournament: Tournament) -> None:
    world = build_world(tournament, (4,))
    play(world.tables[0], [NORMAL, NORMAL])  # seats 1 and 3 win twice
    set_status(world.series, Series.Status.CLOSED)
    board = board_of(tournament)
    assert board.view == boards.STANDINGS
    assert board.standings is not None
    (winner,) = board.standings.winners
    assert (winner.series, winner.names) == (1, ("Vorname1 Nachname1", "Vorname3 Nachname3"))
    assert board.standings.columns == (1,)
    assert [line.place for line in board.standings.pages[0].lines] == [1, 1, 3, 3]
    assert not board.standings.interim


# -- The fingerprint -----------------------------------------------------------------------


def test_the_fingerprint_moves_with_every_change_the_board_shows(
    tournament: Tournament, referee: Actor, alice: User
) -> None:
    world = started(build_world(tournament, (4, 4, 4)))
    seen: list[str] = []

    def digest(view: str = boards.TABLES, language: str = "de") -> str:
        fresh = Tournament.objects.get(pk=tournament.pk)
        return boards.fingerprint(fresh, boards.series_of(fresh), view, language)

    def changes(action: Callable[[], object]) -> None:
        before = digest()
        action()
        after = digest()
        assert after != before, action
        assert after not in seen
        seen.append(after)

    first = digest()
    assert digest() == first  # nothing changed, nothing moves
    assert digest(boards.CLOCK) != first and digest(language="en") != first
    seen.append(first)
    table = world.tables[0]
    changes(lambda: play(table, [NORMAL]))
    changes(lambda: set_timeout(world.tables[1], timeout=True, actor=referee))
    changes(lambda: extend_table(world.tables[2], minutes=5, reason="Streit", actor=referee))
    changes(lambda: pause_hall(world.series, reason="", actor=referee))
    changes(lambda: resume_hall(world.series, actor=referee))
    note = announce(tournament, "Pause bis 13 Uhr", actor=referee)
    seen.append(digest())
    changes(lambda: withdraw(note, actor=referee))
    changes(lambda: add_deduction(world.series, world.registrations[0], -3, "Unsportlich", referee))
    changes(lambda: add_players(tournament, 1))
    changes(lambda: Series.objects.filter(pk=world.series.pk).update(time_called_at=at(101)))
    changes(lambda: Series.objects.filter(pk=world.series.pk).update(status="closed"))
    changes(lambda: Tournament.objects.filter(pk=tournament.pk).update(name="Wintercup"))


def test_a_swap_of_two_players_moves_the_fingerprint(world: World) -> None:
    def digest() -> str:
        series = boards.series_of(world.tournament)
        return boards.fingerprint(world.tournament, series, boards.SEATING, "de")

    before = digest()
    swap_players(world.series, world.registrations[0], world.registrations[5])
    assert digest() != before


# -- A fixed number of queries ---------------------------------------------------------------


def field(slug: str, tables: int, alice: User) -> Tournament:
    """A running series of ``tables`` tables of four, two games at each, series 2 drawn."""
    tournament = make_tournament(slug, 2, organizers=[alice])
    world = started(build_world(tournament, (4,) * tables))
    for table in world.tables:
        play(table, [NORMAL, SOLO])
    announce(tournament, "Willkommen", actor=Actor(ORGANIZER, user=alice))
    return tournament


def queries(tournament: Tournament, view: str) -> tuple[int, int]:
    """Queries of the fingerprint alone (a 204) and of the whole board (a 200)."""
    with CaptureQueriesContext(connection) as fingerprint:
        series = boards.series_of(tournament)
        digest = boards.fingerprint(tournament, series, boards.shown_view(view, series), "de")
    with CaptureQueriesContext(connection) as board:
        boards.build_board(tournament, series, view, digest)
    return len(fingerprint.captured_queries), len(fingerprint.captured_queries) + len(
        board.captured_queries
    )


def test_the_same_queries_for_40_and_400_players(alice: User) -> None:
    small, large = field("klein", 10, alice), field("gross", 100, alice)
    with freeze_time(at(30)):
        for view in (boards.TABLES, boards.CLOCK, boards.SEATING, boards.STANDINGS):
            assert queries(small, view) == queries(large, view), view
            fingerprint, whole = queries(large, view)
            assert fingerprint == 2 and whole <= 12, (view, fingerprint, whole)


def test_a_player_renamed_or_merged_through_the_api_moves_the_fingerprint(
    world: World, alice: User, alice_api: APIClient
) -> None:
    """The boards show the players' names: a correction and a merge, both logged in the
    registry's log, reach every hall screen."""

    def digest() -> str:
        fresh = Tournament.objects.get(pk=world.tournament.pk)
        return boards.fingerprint(fresh, boards.series_of(fresh), boards.STANDINGS, "de")

    player = world.registrations[0].player
    before = digest()
    response = alice_api.patch(
        f"/api/v1/players/{player.pk}/", {"last_name": " Maier "}, format="json"
    )
    assert response.status_code == 200, response.content
    renamed = digest()
    assert renamed != before
    change = RegistryChange.objects.get(player=player, action="tournaments.player.corrected")
    assert (change.before["last_name"], change.after["last_name"]) == (player.last_name, "Maier")
    assert change.user_id == alice.pk

    keep = Player.objects.create(
        owner=alice, registry_club=personal_club(alice), first_name="Erika", last_name="Muster"
    )
    duplicate = world.registrations[1].player
    response = alice_api.post(
        f"/api/v1/players/{keep.pk}/merge/", {"duplicate": duplicate.pk}, format="json"
    )
    assert response.status_code == 200, response.content
    assert digest() not in (before, renamed)
