"""The series clock (TSR 8.5.1): each table's end from its size, Nachspielzeit and the
pauses of the hall; the stages the hall display shows. Pure, so time is an argument."""

from __future__ import annotations

import datetime

from hypothesis import given
from hypothesis import strategies as st

from rules.ruleset import DDV
from scoring.clock import (
    Pause,
    Stage,
    TableTime,
    hall_clock,
    stage_for,
    table_clock,
    table_end,
)

START = datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return START + datetime.timedelta(minutes=minutes)


def minutes(delta: datetime.timedelta) -> float:
    return delta.total_seconds() / 60


def test_ddv_playing_time_is_100_minutes_at_four_and_125_at_five() -> None:
    assert DDV.playing_minutes(4) == 100
    assert DDV.playing_minutes(5) == 125


def test_a_table_ends_after_its_playing_time_and_its_nachspielzeit() -> None:
    four = table_clock(START, TableTime(1, 100), [], at(58))
    assert four.ends_at == at(100) and four.remaining_minutes == 42
    five = table_clock(START, TableTime(2, 125, extension_minutes=7), [], at(58))
    assert five.ends_at == at(132)
    assert not four.paused and not four.is_up


def test_time_up_and_overdue() -> None:
    clock = table_clock(START, TableTime(1, 100), [], at(107.5))
    assert clock.is_up and clock.remaining_minutes == 0 and clock.overdue_minutes == 7
    assert clock.stage == Stage.UP


def test_the_last_second_still_counts_as_a_minute() -> None:
    clock = table_clock(START, TableTime(1, 100), [], at(99) + datetime.timedelta(seconds=59))
    assert clock.remaining_minutes == 1 and clock.remaining_seconds == 1


def test_stages_at_15_and_5_minutes_and_time_up() -> None:
    assert stage_for(datetime.timedelta(minutes=15, seconds=1)) == Stage.RUNNING
    assert stage_for(datetime.timedelta(minutes=15)) == Stage.LAST_15
    assert stage_for(datetime.timedelta(minutes=5, seconds=1)) == Stage.LAST_15
    assert stage_for(datetime.timedelta(minutes=5)) == Stage.LAST_5
    assert stage_for(datetime.timedelta(seconds=1)) == Stage.LAST_5
    assert stage_for(datetime.timedelta(0)) == Stage.UP


def test_a_finished_pause_moves_the_end_by_its_length() -> None:
    pause = Pause(at(30), at(42))
    clock = table_clock(START, TableTime(1, 100), [pause], at(50))
    assert clock.ends_at == at(112) and not clock.paused


def test_while_paused_the_time_left_stands_still() -> None:
    pause = Pause(at(30))
    early = table_clock(START, TableTime(1, 100), [pause], at(31))
    late = table_clock(START, TableTime(1, 100), [pause], at(55))
    assert early.remaining == late.remaining == datetime.timedelta(minutes=70)
    assert early.paused and late.paused
    assert late.ends_at == at(125)  # the end if the hall went on now


def test_a_pause_after_a_tables_end_gives_it_no_time_back() -> None:
    """Four-player tables are done at 100 minutes; a pause at minute 110 only holds the
    five-player tables (their 125 minutes become 135)."""
    pause = Pause(at(110), at(120))
    four = table_clock(START, TableTime(1, 100), [pause], at(121))
    five = table_clock(START, TableTime(2, 125), [pause], at(121))
    assert four.ends_at == at(100) and four.is_up
    assert five.ends_at == at(135)
    during = table_clock(START, TableTime(1, 100), [Pause(at(110))], at(115))
    assert during.is_up and not during.paused


def test_a_pause_pushes_the_end_past_a_later_pause() -> None:
    """The first pause moves the end from 100 to 110, so a pause at minute 105 still
    holds the table."""
    pauses = [Pause(at(50), at(60)), Pause(at(105), at(108))]
    assert table_end(START, 100, pauses, at(200)) == at(113)


def test_the_main_clock_is_the_end_most_tables_share() -> None:
    tables = [TableTime(1, 100), TableTime(2, 100), TableTime(3, 125), TableTime(4, 100, 10)]
    clock = hall_clock(START, tables, [], at(20), default_minutes=100)
    assert clock.main.ends_at == at(100)
    assert [t.number for t in clock.deviations] == [4, 3]
    assert clock.up == () and not clock.all_up
    later = hall_clock(START, tables, [], at(111), default_minutes=100)
    assert later.up == (1, 2, 4) and not later.all_up
    assert hall_clock(START, tables, [], at(125), default_minutes=100).all_up
    assert later.for_table(3) is not None and later.for_table(9) is None


def test_a_series_without_tables_has_the_default_clock() -> None:
    clock = hall_clock(START, [], [Pause(at(5))], at(10), default_minutes=100)
    assert clock.main.ends_at == at(105) and clock.paused and clock.paused_since == at(5)
    assert not clock.all_up


offsets = st.integers(min_value=0, max_value=300)


@st.composite
def histories(draw: st.DrawFn) -> list[Pause]:
    """The pauses of a whole series: disjoint, in order; the last may never end."""
    points = sorted(draw(st.lists(offsets, max_size=6, unique=True)))
    if len(points) % 2 and not draw(st.booleans()):
        points = points[:-1]
    pairs = [points[i : i + 2] for i in range(0, len(points), 2)]
    return [Pause(at(p[0]), at(p[1]) if len(p) == 2 else None) for p in pairs]


def known_at(history: list[Pause], now: datetime.datetime) -> list[Pause]:
    """What the database holds at ``now``: pauses begun by then, a later end not yet known."""
    return [
        Pause(p.started_at, p.ended_at if p.ended_at and p.ended_at <= now else None)
        for p in history
        if p.started_at <= now
    ]


@given(history=histories(), limit=st.integers(1, 200), extra=st.integers(0, 60), now=offsets)
def test_playing_time_plus_paused_time_is_the_span_to_the_end(
    history: list[Pause], limit: int, extra: int, now: int
) -> None:
    """Whatever the pauses: the end lies exactly ``limit + extra`` minutes of unpaused
    time after the start."""
    pauses = known_at(history, at(now))
    end = table_end(START, limit + extra, pauses, at(now))
    held = sum(
        minutes(min(p.ended_at or at(now), end) - p.started_at)
        for p in pauses
        if p.started_at < end
    )
    assert minutes(end - START) - held == limit + extra


@given(history=histories(), earlier=offsets, later=offsets)
def test_time_left_never_grows_as_the_clock_runs(
    history: list[Pause], earlier: int, later: int
) -> None:
    first, second = sorted((earlier, later))
    table = TableTime(1, 100, 5)
    before = table_clock(START, table, known_at(history, at(first)), at(first))
    after = table_clock(START, table, known_at(history, at(second)), at(second))
    assert after.remaining <= before.remaining
    assert before.remaining - after.remaining <= at(second) - at(first)
