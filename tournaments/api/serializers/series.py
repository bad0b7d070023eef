from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api.base import StrictSerializer
from tournaments.models import Series


class SeriesSerializer(serializers.ModelSerializer[Series]):
    table_count = serializers.IntegerField(read_only=True)
    status = serializers.CharField(
        read_only=True, help_text="`planned`, `drawn`, `running` or `closed`."
    )
    clock_url = serializers.SerializerMethodField()
    keep_apart_report = serializers.ListField(
        child=serializers.DictField(),
        read_only=True,
        help_text="Keep-apart pairs the draw seated at one table anyway: "
        '`[{"pair": [start number, start number], "reason": code}]`; codes '
        "`not_enough_tables`, `no_seating_found`, `latecomer_no_other_table`, "
        "`already_seated_together`, `team_line_up`. Empty when every pair was kept apart.",
    )

    class Meta:
        model = Series
        fields = [
            "number", "status", "starts_at", "time_called_at", "seed", "draw_mode",
            "draw_version", "repeats", "drawn_at", "closed_at", "table_count", "clock_url",
            "keep_apart_report",
        ]  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(
        serializers.CharField(
            help_text="The series' clock: each table's end, the pauses, time-out "
            "(`GET`; organizers pause and resume it there)."
        )
    )
    def get_clock_url(self, series: Series) -> str:
        return reverse(
            "api:series-clock",
            kwargs={"slug": series.tournament.slug, "number": series.number},
        )


class DrawSerializer(StrictSerializer):
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=2**31 - 1,
        help_text="The same seed gives the same plan; empty for a random seed.",
    )
    mode = serializers.ChoiceField(
        choices=[("random", "avoid repeated encounters"), ("standings", "by standings")],
        default="random",
    )
    keep_clubs_apart = serializers.BooleanField(default=False)


class SwapSerializer(StrictSerializer):
    first = serializers.IntegerField(min_value=1, max_value=10**6, help_text="Start number.")
    second = serializers.IntegerField(min_value=1, max_value=10**6, help_text="Start number.")


class StartSerializer(StrictSerializer):
    allow_unseated = serializers.BooleanField(
        default=False,
        help_text="Confirm that checked-in players without a seat sit out this series; "
        "without it such a start answers 409 `unseated_players`.",
    )


class PlacementSerializer(serializers.Serializer[Any]):
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField(help_text="Table number.")
    seat = serializers.IntegerField()
    from_table = serializers.IntegerField(
        allow_null=True, help_text="The table a seated player moves from; null for latecomers."
    )


class LatecomersSerializer(serializers.Serializer[Any]):
    """Where the latecomers (and any moved players) sit, and what it costs."""

    placements = PlacementSerializer(many=True)
    new_tables = serializers.ListField(child=serializers.IntegerField())
    repeat_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Pairs of start numbers this seats together who already met in an earlier "
        "series.",
    )
    repeats = serializers.IntegerField(help_text="Repeated encounters of the series afterwards.")
