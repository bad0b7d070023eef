"""The series clock: how much of a series' time limit is left (pure: no Django import).

A series starts when the organizers start it (``Series.starts_at``) and has a time limit
(``Series.time_limit_minutes``, TSR 8.5). The progress board shows the time left; the hall
display can build on the same function (extensions for single tables, a paused clock).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass


@dataclass(frozen=True)
class SeriesClock:
    ends_at: datetime.datetime
    remaining: datetime.timedelta  # never negative; zero once time is up
    overdue: datetime.timedelta  # how long ago time ran out; zero before

    @property
    def is_up(self) -> bool:
        return self.remaining == datetime.timedelta(0)

    @property
    def remaining_minutes(self) -> int:
        """Whole minutes left, rounded up: "1 minute" until the very last second."""
        return -(-int(self.remaining.total_seconds()) // 60)

    @property
    def overdue_minutes(self) -> int:
        return int(self.overdue.total_seconds()) // 60


def series_clock(
    starts_at: datetime.datetime | None, time_limit_minutes: int, now: datetime.datetime
) -> SeriesClock | None:
    """The clock of a series started at ``starts_at``; None when it has not started."""
    if starts_at is None:
        return None
    ends_at = starts_at + datetime.timedelta(minutes=time_limit_minutes)
    zero = datetime.timedelta(0)
    left = ends_at - now
    return SeriesClock(ends_at=ends_at, remaining=max(left, zero), overdue=max(-left, zero))
