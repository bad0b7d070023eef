from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import NameForm, Seat, Table, absolute_url
from tournaments.publication import shown_name


class SeatSerializer(serializers.ModelSerializer[Seat]):
    """The player in full for the organizers (context ``organizer``); for everyone else
    as he consented (``tournaments.publication``): ``first_name`` carries the published
    name and ``last_name`` is empty unless the full name may be shown."""

    start_number = serializers.IntegerField(source="registration.start_number")
    first_name = serializers.SerializerMethodField()
    last_name = serializers.SerializerMethodField()
    club = serializers.CharField(source="registration.player.club")

    class Meta:
        model = Seat
        fields = ["position", "start_number", "first_name", "last_name", "club"]
        read_only_fields = fields

    def _names(self, seat: Seat) -> tuple[str, str]:
        player = seat.registration.player
        if self.context.get("organizer"):
            return player.first_name, player.last_name
        expired = bool(self.context.get("expired"))  # the view's tournament's period
        if player.name_form == NameForm.FULL and not expired:
            return player.first_name, player.last_name
        number = seat.registration.start_number
        return shown_name(
            player.first_name, player.last_name, player.name_form, number, expired=expired
        ), ""

    def get_first_name(self, seat: Seat) -> str:
        return self._names(seat)[0]

    def get_last_name(self, seat: Seat) -> str:
        return self._names(seat)[1]


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
