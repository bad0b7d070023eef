"""The clock of a series as stored: the referee's signal, each table's size and Nachspielzeit,
the pauses of the hall, handed to the pure ``scoring.clock`` (a read: three queries)."""

from __future__ import annotations

import datetime

from django.db.models import Count, IntegerField, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring import clock
from scoring.models import Extension, Pause
from scoring.rulesets import ruleset_for
from tournaments.models import Series


def pauses_of(series: Series) -> list[clock.Pause]:
    return [
        clock.Pause(p.started_at, p.ended_at, p.reason)
        for p in Pause.objects.filter(series=series).only("started_at", "ended_at", "reason")
    ]


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
