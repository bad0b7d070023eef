"""The sheet page as data (scoring/sheet_page.py): one state per situation of the sheet."""

from __future__ import annotations

import pytest

from common.actors import Actor
from scoring.doors import CAPTAIN
from scoring.models import Game, ScoreSheet
from scoring.services.entry import current_sheet
from scoring.services.sheet import confirm_sheet, review, submit_sheet
from scoring.sheet_page import Door, ReadOnly, SheetPage, State, Step, build_page
from tests.factories import RE_WINS as NORMAL
from tests.factories import make_tournament, play, running_table
from tournaments.models import Series, Table

SOLOS = [{"contract": "solo", "solo": "damen", "re": [s], "re_points": 121} for s in (2, 3, 4, 1)]
PHONE = "submitting-phone-0001"


@pytest.fixture
def table(db: None) -> Table:
    return running_table(make_tournament())


def fresh(table: Table) -> Table:
    return Table.objects.select_related("series__tournament").get(pk=table.pk)


def page_of(
    table: Table, *, organizer: bool = False, device: str = "", editing: int | None = None
) -> SheetPage:
    """The page as a view builds it: the rows read, one replay."""
    table = fresh(table)
    seats = list(table.seats.select_related("registration__player").order_by("position"))
    sheet = current_sheet(table)
    games = list(Game.objects.filter(table=table).order_by("number"))
    report = review(table, sheet, [{**g.record, "dealer": g.dealer} for g in games], len(seats))
    status = table.series.status
    if organizer:
        writable = status in (Series.Status.RUNNING, Series.Status.CLOSED)
    else:
        writable = status == Series.Status.RUNNING and sheet.status == ScoreSheet.Status.OPEN
    door = Door("/sheet/", organizer, device, writable)
    shown = next((g for g in games if g.number == editing), None)
    return build_page(
        table, door=door, seats=seats, sheet=sheet, games=games, report=report, editing=shown
    )


def full(table: Table) -> None:
    play(table, [NORMAL] * 20 + SOLOS)


def submit(table: Table) -> None:
    full(table)
    submit_sheet(
        fresh(table), seat=4, expected_version=None, actor=Actor(CAPTAIN, seat=4, device=PHONE)
    )


def close(table: Table) -> None:
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.CLOSED)


def test_entering_the_next_game(table: Table) -> None:
    play(table, [NORMAL])
    page = page_of(table)
    assert page.state is State.ENTERING and page.step is None
    assert page.entry is not None and page.entry.correcting is None and not page.entry.late
    assert not page.entry.form.is_bound and page.entry.action == "/sheet/spiel/"
    assert page.next.game == 2 and page.dealer_name == "Vorname2 Nachname2"
    assert page.correct_last == 1 and page.can_correct and page.marked is None
    assert [r.game.number for r in page.rows] == [1] and sum(page.totals) == 0
    assert page.sheet_data is not None and page.sheet_data["open"] is True


def test_correcting_a_game(table: Table) -> None:
    play(table, [NORMAL, NORMAL])
    page = page_of(table, editing=1)
    assert page.state is State.CORRECTING and page.read_only is None
    assert page.entry is not None and page.entry.correcting == 1
    assert page.entry.action == "/sheet/spiel/1/"
    assert page.entry.form.initial["re_points"] == NORMAL["re_points"]
    assert page.game is not None and page.game.number == 1 and page.game.preview is not None
    assert page.marked == 1 and page.correct_last is None
    assert page.title.startswith(("Correcting game 1", "Spiel 1 korrigieren"))


@pytest.mark.parametrize(
    ("situation", "reason"),
    [
        ("submitted", ReadOnly.SUBMITTED),
        ("confirmed", ReadOnly.CONFIRMED),
        ("closed", ReadOnly.CLOSED),
    ],
)
def test_viewing_a_game_that_can_no_longer_be_corrected(
    table: Table, situation: str, reason: ReadOnly
) -> None:
    submit(table)
    if situation == "confirmed":
        confirm_sheet(fresh(table), seat=2, actor=Actor(CAPTAIN, seat=2, device="other-phone-02"))
    if situation == "closed":
        close(table)
    page = page_of(table, editing=3)
    assert page.state is State.VIEWING and page.read_only is reason
    assert page.entry is None and page.game is not None and page.game.number == 3
    assert page.read_only_note and page.marked == 3 and not page.can_correct


def test_not_started_for_the_organizer(table: Table) -> None:
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.DRAWN)
    page = page_of(table, organizer=True)
    assert page.state is State.NOT_STARTED and page.entry is None and page.step is None
    assert page.sheet_data is None  # the outbox is the captain's


def test_closed_series(table: Table) -> None:
    play(table, [NORMAL] * 3)
    close(table)
    captain = page_of(table)
    assert captain.state is State.CLOSED and captain.entry is None and captain.step is None
    assert captain.closed_note and not captain.can_correct
    organizer = page_of(table, organizer=True)  # may still enter a missing game, folded
    assert organizer.state is State.CLOSED
    assert organizer.entry is not None and organizer.entry.late


def test_confirmed(table: Table) -> None:
    submit(table)
    confirm_sheet(fresh(table), seat=2, actor=Actor(CAPTAIN, seat=2, device="other-phone-02"))
    page = page_of(table)
    assert page.state is State.CONFIRMED and page.step is None and page.entry is None


def test_waiting_on_the_phone_that_submitted(table: Table) -> None:
    submit(table)
    page = page_of(table, device=PHONE)
    assert page.state is State.WAITING and page.step is None
    assert [s.position for s in page.confirmers] == [1, 2, 3]


def test_submitted_seen_from_another_phone_or_the_organizer(table: Table) -> None:
    submit(table)
    other = page_of(table, device="other-phone-02")
    assert other.state is State.SUBMITTED and other.step is Step.CONFIRM
    assert page_of(table, organizer=True).step is Step.CONFIRM
    table.series.tournament.confirmation = "organizer"
    table.series.tournament.save()
    here = page_of(table, device=PHONE)  # the organizers confirm: nobody waits for a phone
    assert here.state is State.SUBMITTED and here.step is Step.ORGANIZERS_CONFIRM
    assert page_of(table, organizer=True).step is Step.CONFIRM


def test_complete_sheet_is_to_be_submitted(table: Table) -> None:
    full(table)
    page = page_of(table)
    assert page.state is State.COMPLETE and page.step is Step.SUBMIT
    assert page.entry is None and page.correct_last == 24 and not page.errors
