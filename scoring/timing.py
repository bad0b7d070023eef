"""The clock of a series as stored: the referee's signal, each table's size and Nachspielzeit,
the pauses of the hall, handed to the pure ``scoring.clock`` (a read: two queries, however
many tables). A table's own clock needs only its own size and Nachspielzeit and the pauses
(``table_clock_of``: two queries too)."""

from __future__ import annotations

import datetime

from django.db.models import Count, IntegerField, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from common.sql import PreparedLookup
from scoring import clock
from scoring.models import Extension, Pause
from scoring.rulesets import ruleset_for
from tournaments.models import Series, Table

# Read with every captain page and save while the clock runs: compiled once.
PAUSES = PreparedLookup(
    lambda series_id: (
        Pause.objects.filter(series_id=series_id)
        .only("started_at", "ended_at", "reason")
        .order_by("started_at", "pk")
    ),
    marker=0,
)
EXTENSIONS = PreparedLookup(
    lambda table_id: Extension.objects.filter(table_id=table_id).only("minutes").order_by(),
    marker=0,
)


def pauses_of(series: Series) -> list[clock.Pause]:
    return [clock.Pause(p.started_at, p.ended_at, p.reason) for p in PAUSES.all(series.pk)]


def table_clock_of(
    table: Table, size: int, now: datetime.datetime | None = None
) -> clock.TableClock | None:
    """The clock of ``table`` (``size`` seats) as the series' clock has it
    (``series_clock(...).for_table``), read without the other tables: two queries."""
    series = table.series
    if series.starts_at is None or not size:
        return None
    ruleset = ruleset_for(series.tournament)
    extra = sum(e.minutes for e in EXTENSIONS.all(table.pk))
    own = clock.TableTime(table.number, ruleset.playing_minutes(size), extra)
    return clock.table_clock(series.starts_at, own, pauses_of(series), now or timezone.now())


def series_clock(series: Series, now: datetime.datetime | None = None) -> clock.HallClock | None:
    """The clock of a started series; None before the referee's signal."""
    if series.starts_at is None:
        return None
    ruleset = ruleset_for(series.tournament)
    extra = (
        Extension.objects.filter(table=OuterRef("pk"))
        .values("table")
        .annotate(total=Sum("minutes"))
        .values("total")
    )
    tables = series.tables.annotate(
        size=Count("seats"),
        extra=Coalesce(Subquery(extra, output_field=IntegerField()), 0),
    ).order_by("number")
    times = [
        clock.TableTime(t.number, ruleset.playing_minutes(t.size), t.extra)
        for t in tables
        if t.size
    ]
    return clock.hall_clock(
        series.starts_at,
        times,
        pauses_of(series),
        now or timezone.now(),
        default_minutes=ruleset.playing_minutes(4),
    )
