from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.api.base import StrictSerializer
from scoring.api.serializers.games import GameSerializer, SheetStateSerializer


class FindingSerializer(serializers.Serializer[Any]):
    severity = serializers.CharField()
    code = serializers.CharField()
    game = serializers.IntegerField(allow_null=True)
    # DRF's metaclass moves declared fields off the class, so ``data`` stays the serializer's
    # property at run time; the stubs see only the class attribute.
    data = serializers.DictField()  # type: ignore[assignment]
    message = serializers.CharField()


class SheetSerializer(SheetStateSerializer):
    """Schema: the sheet of a table as answered by GET."""

    timeout = serializers.BooleanField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    submitted_by_seat = serializers.IntegerField(allow_null=True)
    confirmed_at = serializers.DateTimeField(allow_null=True)
    confirmed_by_seat = serializers.IntegerField(allow_null=True)
    last_activity = serializers.DateTimeField(allow_null=True)
    findings = FindingSerializer(many=True)


class ConflictSerializer(serializers.Serializer[Any]):
    """Schema: a version conflict carries the current state beside the error."""

    error = serializers.DictField()
    sheet = SheetStateSerializer()
    games = GameSerializer(many=True)


class SubmitSerializer(StrictSerializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=5,
        help_text="Seat of the player who submits.",
    )  # fmt: skip


class ConfirmSerializer(StrictSerializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=5,
        help_text="Seat of the confirming player (not the one who submitted); "
        "organizers may leave it out.",
    )  # fmt: skip


class ReasonSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
