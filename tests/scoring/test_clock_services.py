"""The referee's hand on the clock: Nachspielzeit for one table, a pause of the whole hall,
time called; each only for organizers, only while the series runs, and in the audit log."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from freezegun import freeze_time

from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from scoring.doors import CAPTAIN
from scoring.models import AuditEntry, Extension, Pause
from scoring.services.clock import extend_table, pause_hall, resume_hall
from scoring.services.sheet import call_time
from scoring.timing import series_clock, table_clock_of
from tests.factories import World, build_world, make_tournament, started
from tests.factories import after_signal as at
from tournaments.models import Series, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(tournament: Tournament) -> World:
    """Series 1 running since the signal: tables 1 and 2 of four, table 3 of five."""
    return started(build_world(tournament, (4, 4, 5)))


@pytest.fixture
def referee(alice: User) -> Actor:
    return Actor(ORGANIZER, user=alice)


def test_each_table_ends_by_its_size(hall: World) -> None:
    clock = series_clock(hall.series, now=at(30))
    assert clock is not None
    assert [(t.number, t.ends_at) for t in clock.tables] == [
        (1, at(100)),
        (2, at(100)),
        (3, at(125)),
    ]
    assert clock.main.ends_at == at(100)


def test_no_clock_before_the_signal(tournament: Tournament) -> None:
    world = build_world(tournament, (4,), status=Series.Status.DRAWN)
    assert series_clock(world.series) is None


def test_the_clock_costs_three_queries_whatever_the_number_of_tables(
    hall: World, referee: Actor
) -> None:
    with freeze_time(at(10)):
        extend_table(hall.tables[0], minutes=5, reason="Reklamation", actor=referee)
    series = Series.objects.select_related("tournament").get(pk=hall.series.pk)
    with CaptureQueriesContext(connection) as few:
        series_clock(series, now=at(20))
    build_world(hall.tournament, (4, 4, 4, 4, 5), first_table=4)
    with CaptureQueriesContext(connection) as many:
        clock = series_clock(series, now=at(20))
    assert len(few) == len(many) == 2
    assert clock is not None and len(clock.tables) == 8


def test_a_tables_own_clock_is_the_halls_for_it(hall: World, referee: Actor) -> None:
    """The captain page reads its own table's clock only (two queries, however many tables
    the hall has): the same as the hall's clock says for it, through Nachspielzeit, pauses
    and a resumption, before and after time is up."""
    with freeze_time(at(10)):
        extend_table(hall.tables[0], minutes=5, reason="Reklamation", actor=referee)
        extend_table(hall.tables[0], minutes=3, reason="Reklamation", actor=referee)
        extend_table(hall.tables[2], minutes=4, reason="Karten", actor=referee)
    with freeze_time(at(30)):
        pause_hall(hall.series, reason="Stromausfall", actor=referee)
    with freeze_time(at(42)):
        resume_hall(hall.series, actor=referee)
    with freeze_time(at(45)):
        pause_hall(hall.series, reason="Tombola", actor=referee)
    build_world(hall.tournament, (4, 4, 4), first_table=4)
    series = Series.objects.select_related("tournament").get(pk=hall.series.pk)
    for minute in (5, 35, 50, 200):
        hall_clock = series_clock(series, now=at(minute))
        assert hall_clock is not None
        for table in series.tables.all():
            table.series = series
            size = table.seats.count()
            with CaptureQueriesContext(connection) as reads:
                own = table_clock_of(table, size, now=at(minute))
            assert own == hall_clock.for_table(table.number)
            assert len(reads) == 2
    assert table_clock_of(hall.tables[0], 0, now=at(5)) is None  # no seats: no clock
    later = make_tournament(slug="later")
    drawn = build_world(later, (4,), status=Series.Status.DRAWN).tables[0]
    assert table_clock_of(drawn, 4) is None  # before the signal


def test_nachspielzeit_adds_up_and_is_audited(hall: World, referee: Actor) -> None:
    table = hall.tables[1]
    with freeze_time(at(40)):
        extend_table(table, minutes=6, reason="Reklamation Spiel 12", actor=referee)
        extend_table(table, minutes=4, reason="Schiedsgericht", actor=referee)
    clock = series_clock(hall.series, now=at(50))
    assert clock is not None
    assert clock.for_table(2).ends_at == at(110)  # type: ignore[union-attr]
    assert clock.for_table(1).ends_at == at(100)  # type: ignore[union-attr]
    entries = AuditEntry.objects.filter(action="scoring.clock.extended").order_by("pk")
    assert [(e.table_id, e.after, e.reason) for e in entries] == [
        (table.pk, {"minutes": 6}, "Reklamation Spiel 12"),
        (table.pk, {"minutes": 4}, "Schiedsgericht"),
    ]


@pytest.mark.parametrize(
    ("minutes", "reason", "field"),
    [(0, "x", "minutes"), (61, "x", "minutes"), (-5, "x", "minutes"), (5, "  ", "reason"),
     (5, "x" * 201, "reason")],
)  # fmt: skip
def test_nachspielzeit_refuses_bad_input_on_its_field(
    hall: World, referee: Actor, minutes: int, reason: str, field: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        extend_table(hall.tables[0], minutes=minutes, reason=reason, actor=referee)
    assert refused.value.field == field and refused.value.refusal == Refusal.INVALID
    assert not Extension.objects.exists()


def test_captains_cannot_touch_the_clock(hall: World) -> None:
    captain = Actor(CAPTAIN, seat=1, device="phone")
    for act in (
        lambda: extend_table(hall.tables[0], minutes=5, reason="x", actor=captain),
        lambda: pause_hall(hall.series, reason="", actor=captain),
        lambda: resume_hall(hall.series, actor=captain),
    ):
        with pytest.raises(ServiceError) as refused:
            act()
        assert refused.value.refusal == Refusal.FORBIDDEN
    assert not Extension.objects.exists() and not Pause.objects.exists()


def test_the_clock_only_moves_while_the_series_runs(tournament: Tournament, referee: Actor) -> None:
    world = build_world(tournament, (4,), status=Series.Status.DRAWN)
    with pytest.raises(ServiceError) as refused:
        pause_hall(world.series, reason="", actor=referee)
    assert refused.value.code == "series_not_running"
    with pytest.raises(ServiceError):
        extend_table(world.tables[0], minutes=5, reason="x", actor=referee)


def test_a_pause_holds_every_table_and_resuming_moves_their_ends(
    hall: World, referee: Actor
) -> None:
    with freeze_time(at(30)):
        pause_hall(hall.series, reason="Stromausfall", actor=referee)
    paused = series_clock(hall.series, now=at(40))
    assert paused is not None and paused.paused and paused.paused_since == at(30)
    assert paused.main.remaining == datetime.timedelta(minutes=70)
    with freeze_time(at(42)):
        resume_hall(hall.series, actor=referee)
    clock = series_clock(hall.series, now=at(50))
    assert clock is not None and not clock.paused
    assert [t.ends_at for t in clock.tables] == [at(112), at(112), at(137)]
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", "reason"))
    assert actions == [("scoring.clock.paused", "Stromausfall"), ("scoring.clock.resumed", "")]


def test_pausing_twice_or_resuming_a_running_clock_is_refused(hall: World, referee: Actor) -> None:
    with pytest.raises(ServiceError) as refused:
        resume_hall(hall.series, actor=referee)
    assert refused.value.code == "not_paused"
    pause_hall(hall.series, reason="", actor=referee)
    with pytest.raises(ServiceError) as refused:
        pause_hall(hall.series, reason="", actor=referee)
    assert refused.value.code == "already_paused" and refused.value.refusal == Refusal.CONFLICT
    assert Pause.objects.count() == 1


def test_the_database_allows_one_open_pause_per_series(hall: World) -> None:
    Pause.objects.create(series=hall.series, started_at=at(1))
    with pytest.raises(IntegrityError), transaction.atomic():
        Pause.objects.create(series=hall.series, started_at=at(2))


def test_calling_time_records_when(hall: World, referee: Actor) -> None:
    with freeze_time(at(101)):
        assert call_time(hall.series, actor=referee) == 3
    hall.series.refresh_from_db()
    assert hall.series.time_called_at == at(101)
