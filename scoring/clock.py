"""The series clock (TSR 8.5.1), pure: no Django import, time comes in as an argument.

Every table starts at the referee's signal (``Series.starts_at``). Its pure playing time comes
from the rule set and its size (100 minutes at four, 125 at five under the DDV), plus the
Nachspielzeit the referee grants that one table. A pause of the whole hall moves the end of
every table that was still playing when it began. The clock never decides anything: time-out
is called by the organizers (``scoring.services.sheet``); the clock tells when it is due.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

ZERO = datetime.timedelta(0)


class Stage(StrEnum):
    """What a screen shows: the hall display colours and sounds these (15 and 5 minutes left,
    time up)."""

    RUNNING = "running"
    LAST_15 = "last_15"
    LAST_5 = "last_5"
    UP = "up"


#: (minutes left at most, stage), tightest first.
STAGE_THRESHOLDS = ((0, Stage.UP), (5, Stage.LAST_5), (15, Stage.LAST_15))


def stage_for(remaining: datetime.timedelta) -> Stage:
    for minutes, stage in STAGE_THRESHOLDS:
        if remaining <= datetime.timedelta(minutes=minutes):
            return stage
    return Stage.RUNNING


@dataclass(frozen=True)
class Pause:
    """The whole hall stopped at ``started_at``; ``ended_at`` None: it still is."""

    started_at: datetime.datetime
    ended_at: datetime.datetime | None = None
    reason: str = ""


@dataclass(frozen=True)
class TableTime:
    """What the clock needs of a table: its pure playing time and its Nachspielzeit."""

    number: int
    limit_minutes: int
    extension_minutes: int = 0


@dataclass(frozen=True)
class TableClock:
    number: int
    limit_minutes: int
    extension_minutes: int
    # When the table's time runs out. During a pause it moves with the clock: it is the end
    # if the hall went on now.
    ends_at: datetime.datetime
    remaining: datetime.timedelta  # never negative; zero once time is up
    overdue: datetime.timedelta  # how long ago time ran out; zero before
    paused: bool

    @property
    def is_up(self) -> bool:
        return self.remaining == ZERO

    @property
    def stage(self) -> Stage:
        return stage_for(self.remaining)

    @property
    def remaining_minutes(self) -> int:
        """Whole minutes left, rounded up: "1 minute" until the very last second."""
        return -(-int(self.remaining.total_seconds()) // 60)

    @property
    def remaining_seconds(self) -> int:
        return int(self.remaining.total_seconds())

    @property
    def overdue_minutes(self) -> int:
        return int(self.overdue.total_seconds()) // 60


def table_end(
    starts_at: datetime.datetime,
    minutes: int,
    pauses: Iterable[Pause],
    now: datetime.datetime,
) -> datetime.datetime:
    """The end of ``minutes`` of playing time from ``starts_at``: every pause that began before
    the end (as moved by the pauses before it) pushes it back by its length; a pause still
    running counts until ``now``. A pause after a table's end does not bring its time back."""
    end = starts_at + datetime.timedelta(minutes=minutes)
    for pause in sorted(pauses, key=lambda p: p.started_at):
        begin = max(pause.started_at, starts_at)
        if begin >= end:
            break
        stop = pause.ended_at if pause.ended_at is not None else now
        end += max(stop - begin, ZERO)
    return end


def table_clock(
    starts_at: datetime.datetime,
    table: TableTime,
    pauses: Sequence[Pause],
    now: datetime.datetime,
) -> TableClock:
    minutes = table.limit_minutes + table.extension_minutes
    ends_at = table_end(starts_at, minutes, pauses, now)
    left = ends_at - now
    paused = left > ZERO and any(p.ended_at is None and p.started_at <= now for p in pauses)
    return TableClock(
        number=table.number,
        limit_minutes=table.limit_minutes,
        extension_minutes=table.extension_minutes,
        ends_at=ends_at,
        remaining=max(left, ZERO),
        overdue=max(-left, ZERO),
        paused=paused,
    )


@dataclass(frozen=True)
class HallClock:
    """The clock of a running series: every table's, and the one most tables follow."""

    starts_at: datetime.datetime
    now: datetime.datetime
    paused_since: datetime.datetime | None
    tables: tuple[TableClock, ...]
    main: TableClock  # the clock the most tables share (the big countdown in the hall)
    pause_reason: str = ""  # of the pause going on

    @property
    def paused(self) -> bool:
        return self.paused_since is not None

    @property
    def deviations(self) -> tuple[TableClock, ...]:
        """Tables whose time ends elsewhere than the main clock's (five-player tables,
        Nachspielzeit), by end."""
        others = (t for t in self.tables if t.ends_at != self.main.ends_at)
        return tuple(sorted(others, key=lambda t: (t.ends_at, t.number)))

    @property
    def up(self) -> tuple[int, ...]:
        """Numbers of the tables whose time is up."""
        return tuple(t.number for t in self.tables if t.is_up)

    @property
    def all_up(self) -> bool:
        return bool(self.tables) and all(t.is_up for t in self.tables)

    def for_table(self, number: int) -> TableClock | None:
        return next((t for t in self.tables if t.number == number), None)


def hall_clock(
    starts_at: datetime.datetime,
    tables: Sequence[TableTime],
    pauses: Sequence[Pause],
    now: datetime.datetime,
    default_minutes: int,
) -> HallClock:
    """The clock of a series started at ``starts_at``. ``default_minutes`` is the playing time
    of a table of the usual size: the main clock when the series has no table yet."""
    clocks = tuple(table_clock(starts_at, t, pauses, now) for t in tables)
    if clocks:
        # The most common end; among equally common ends the earlier one (the hall's signal).
        counts = Counter(c.ends_at for c in clocks)
        end = min(counts, key=lambda e: (-counts[e], e))
        main = next(c for c in clocks if c.ends_at == end)
    else:
        main = table_clock(starts_at, TableTime(0, default_minutes), pauses, now)
    open_pauses = sorted(
        (p for p in pauses if p.ended_at is None and p.started_at <= now),
        key=lambda p: p.started_at,
    )
    return HallClock(
        starts_at=starts_at,
        now=now,
        paused_since=open_pauses[-1].started_at if open_pauses else None,
        tables=clocks,
        main=main,
        pause_reason=open_pauses[-1].reason if open_pauses else "",
    )
