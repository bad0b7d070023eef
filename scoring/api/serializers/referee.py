"""Referee calls as the API shows them, and what the captain and the referees send."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.api.base import StrictSerializer
from scoring.api.serializers.games import GameInputSerializer
from scoring.models import MAX_CALL_REASON, MAX_EXTENSION_MINUTES, RefereeCall
from scoring.services.referee import MAX_RULING, concerned_game


class CallDeductionSerializer(serializers.Serializer[Any]):
    start_number = serializers.IntegerField()
    points = serializers.IntegerField()


class RefereeCallSerializer(serializers.Serializer[Any]):
    """Schema only: a table's call. `taken_by` and `ruled_by` are shown to referees only
    (null for the captain)."""

    id = serializers.IntegerField()
    tournament = serializers.SlugField()
    series = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RefereeCall.Status.choices)
    reason = serializers.CharField()
    game_number = serializers.IntegerField(allow_null=True, help_text="As the captain gave it.")
    concerned_game = serializers.IntegerField(
        allow_null=True,
        help_text="The game concerned: the one named, else the first entered after the call.",
    )
    called_at = serializers.DateTimeField()
    taken_at = serializers.DateTimeField(allow_null=True)
    taken_by = serializers.CharField(allow_null=True)
    ruling = serializers.CharField(allow_blank=True)
    ruled_at = serializers.DateTimeField(allow_null=True)
    ruled_by = serializers.CharField(allow_null=True)
    verdict = serializers.ChoiceField(
        choices=RefereeCall.Verdict.choices, allow_blank=True,
        help_text="`confirmed` or `corrected` (the game concerned); empty: none.",
    )  # fmt: skip
    ruled_game = serializers.IntegerField(allow_null=True)
    extension_minutes = serializers.IntegerField()
    deduction = CallDeductionSerializer(allow_null=True)
    withdrawn_at = serializers.DateTimeField(allow_null=True)


class LatestCallSerializer(serializers.Serializer[Any]):
    """Schema only: the captain's table's latest call."""

    call = RefereeCallSerializer(allow_null=True, help_text="null: no call yet.")


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def call_json(call: RefereeCall, *, referee: bool) -> dict[str, Any]:
    """The call; ``referee``: with the referees' names (a captain sees the state only)."""
    deduction = call.deduction
    return {
        "id": call.pk,
        "tournament": call.series.tournament.slug,
        "series": call.series.number,
        "table": call.table.number,
        "status": call.status,
        "reason": call.reason,
        "game_number": call.game_number,
        "concerned_game": concerned_game(call) if call.is_open else call.ruled_game,
        "called_at": serializers.DateTimeField().to_representation(call.called_at),
        "taken_at": _time(call.taken_at),
        "taken_by": _username(call.taken_by) if referee else None,
        "ruling": call.ruling,
        "ruled_at": _time(call.ruled_at),
        "ruled_by": _username(call.ruled_by) if referee else None,
        "verdict": call.verdict,
        "ruled_game": call.ruled_game,
        "extension_minutes": call.extension_minutes,
        "deduction": (
            {"start_number": deduction.registration.start_number, "points": deduction.points}
            if deduction is not None
            else None
        ),
        "withdrawn_at": _time(call.withdrawn_at),
    }


def _time(value: Any) -> str | None:
    return serializers.DateTimeField().to_representation(value) if value else None


class CallInputSerializer(StrictSerializer):
    reason = serializers.CharField(
        max_length=MAX_CALL_REASON, help_text="In a few words, why (at most 200 characters)."
    )
    game_number = serializers.IntegerField(
        min_value=1, max_value=99, required=False, allow_null=True, default=None,
        help_text="The game concerned, if known.",
    )  # fmt: skip


class DeductionInputSerializer(StrictSerializer):
    seat = serializers.IntegerField(min_value=1, max_value=5, help_text="The seat at the table.")
    points = serializers.IntegerField(
        min_value=-100000, max_value=-1, help_text="Deducted (TSR 9.7), negative."
    )


class RulingInputSerializer(StrictSerializer):
    ruling = serializers.CharField(max_length=MAX_RULING, help_text="The ruling, free text.")
    extension_minutes = serializers.IntegerField(
        min_value=0, max_value=MAX_EXTENSION_MINUTES, required=False, default=0,
        help_text="Nachspielzeit the interruption cost the table (TSR 8.5.1); 0: none.",
    )  # fmt: skip
    deduction = DeductionInputSerializer(required=False, allow_null=True, default=None)
    correction = serializers.JSONField(
        required=False, allow_null=True, default=None,
        help_text="The game concerned, corrected: its whole record as for a correction "
        "(`PUT …/games/<game>/`); null: confirmed as entered.",
    )  # fmt: skip


class RulingSchemaSerializer(RulingInputSerializer):
    """Schema only: the ruling, with the correction described as a game record."""

    correction = GameInputSerializer(required=False, allow_null=True)  # type: ignore[assignment]
