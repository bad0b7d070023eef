"""The clock of a series as the API shows it (``scoring.api.views.clock``), and what the
organizers send to change it."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Count
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from rest_framework import serializers

from common.api.base import StrictSerializer
from scoring.clock import Stage, TableClock
from scoring.models import MAX_EXTENSION_MINUTES, Pause
from scoring.services.clock import MAX_REASON
from scoring.timing import series_clock
from tournaments.models import Series

STAGES = [(s.value, s.value) for s in Stage]
STAGE_HELP = (
    "`running`, `last_15` (at most 15 minutes left), `last_5` (at most 5) or `up` (time is "
    "up: the game in progress is finished, then only the compulsory solos still open)."
)


class MainClockSerializer(serializers.Serializer[Any]):
    """The clock most tables share: the hall's big countdown."""

    ends_at = serializers.DateTimeField(
        help_text="When time runs out; during a pause: if the hall went on now."
    )
    remaining_seconds = serializers.IntegerField(help_text="Never negative; 0 once time is up.")
    stage = serializers.ChoiceField(choices=STAGES, help_text=STAGE_HELP)
    time_up = serializers.BooleanField()


class TableClockSerializer(MainClockSerializer):
    number = serializers.IntegerField(help_text="Table number.")
    size = serializers.IntegerField(help_text="Players at the table (4 or 5).")
    limit_minutes = serializers.IntegerField(
        help_text="Pure playing time by the table's size and the rule set (100 / 125)."
    )
    extension_minutes = serializers.IntegerField(help_text="Nachspielzeit granted, in total.")
    time_called = serializers.BooleanField(
        help_text="The organizers called time at this table (the sheet's time-out)."
    )


class PauseSerializer(serializers.Serializer[Any]):
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True, help_text="null: still paused.")
    reason = serializers.CharField(allow_blank=True)


class ClockSerializer(serializers.Serializer[Any]):
    """The clock of a series on the server's time (every screen shows the same second)."""

    server_time = serializers.DateTimeField(help_text="The server's now, for the countdown.")
    started_at = serializers.DateTimeField(
        allow_null=True, help_text="The referee's signal; null before the series starts."
    )
    paused_since = serializers.DateTimeField(allow_null=True)
    time_called_at = serializers.DateTimeField(
        allow_null=True, help_text="When time was called for the whole series."
    )
    main = MainClockSerializer(allow_null=True, help_text="null before the signal.")
    tables = TableClockSerializer(many=True, help_text="Empty before the signal.")
    pauses = PauseSerializer(many=True)


def _main(clock: TableClock) -> dict[str, Any]:
    return {
        "ends_at": clock.ends_at,
        "remaining_seconds": clock.remaining_seconds,
        "stage": clock.stage.value,
        "time_up": clock.is_up,
    }


def clock_json(series: Series, now: datetime.datetime | None = None) -> dict[str, Any]:
    """The clock of ``series`` at ``now`` (default: the server's now); five queries."""
    now = now or timezone.now()
    hall = series_clock(series, now=now)
    tables = []
    if hall is not None:
        facts = {
            number: (size, bool(timeout))
            for number, size, timeout in series.tables.annotate(size=Count("seats")).values_list(
                "number", "size", "sheet__timeout"
            )
        }
        for clock in hall.tables:
            size, called = facts.get(clock.number, (0, False))
            tables.append(
                {
                    "number": clock.number,
                    "size": size,
                    "limit_minutes": clock.limit_minutes,
                    "extension_minutes": clock.extension_minutes,
                    **_main(clock),
                    "time_called": called,
                }
            )
    pauses = Pause.objects.filter(series=series).order_by("started_at")
    data = {
        "server_time": now,
        "started_at": series.starts_at,
        "paused_since": hall.paused_since if hall else None,
        "time_called_at": series.time_called_at,
        "main": _main(hall.main) if hall else None,
        "tables": tables,
        "pauses": [
            {"started_at": p.started_at, "ended_at": p.ended_at, "reason": p.reason} for p in pauses
        ],
    }
    return dict(ClockSerializer(data).data)


# The services' words for the same refusals, in the request's language.
MINUTES_RANGE = lazy(
    lambda: _("Nachspielzeit is 1 to %(max)d minutes at a time.") % {"max": MAX_EXTENSION_MINUTES},
    str,
)()
REASON_REQUIRED = lazy(
    lambda: (
        _("Say why the table gets more time (at most %(max)d characters).") % {"max": MAX_REASON}
    ),
    str,
)()


class PauseInputSerializer(StrictSerializer):
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=MAX_REASON,
        help_text="Why the hall stops (optional).",
    )


class ExtensionInputSerializer(StrictSerializer):
    minutes = serializers.IntegerField(
        min_value=1,
        max_value=MAX_EXTENSION_MINUTES,
        help_text="Nachspielzeit granted now; several extensions add up.",
        error_messages={
            code: MINUTES_RANGE
            for code in ("invalid", "min_value", "max_value", "max_string_length")
        },
    )
    reason = serializers.CharField(
        max_length=MAX_REASON,
        help_text="Why, e.g. the length of a reclamation interruption.",
        error_messages={code: REASON_REQUIRED for code in ("required", "blank", "max_length")},
    )
