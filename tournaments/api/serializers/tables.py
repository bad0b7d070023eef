from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Seat, Table, absolute_url


class SeatSerializer(serializers.ModelSerializer[Seat]):
    start_number = serializers.IntegerField(source="registration.start_number")
    first_name = serializers.CharField(source="registration.player.first_name")
    last_name = serializers.CharField(source="registration.player.last_name")
    club = serializers.CharField(source="registration.player.club")

    class Meta:
        model = Seat
        fields = ["position", "start_number", "first_name", "last_name", "club"]
        read_only_fields = fields


class TableSerializer(serializers.ModelSerializer[Table]):
    """``captain_token`` and ``captain_url`` only for the organizers (context ``organizer``)."""

    seats = SeatSerializer(many=True, read_only=True)
    captain_token = serializers.SerializerMethodField()
    captain_url = serializers.SerializerMethodField()

    class Meta:
        model = Table
        fields = ["number", "seats", "captain_token", "captain_url"]
        read_only_fields = fields

    def _organizer(self) -> bool:
        return bool(self.context.get("organizer"))

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_captain_token(self, table: Table) -> Any:
        return table.captain_token if self._organizer() else None

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_captain_url(self, table: Table) -> Any:
        return absolute_url(table.get_captain_url()) if self._organizer() else None
