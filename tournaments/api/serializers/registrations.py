from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from common.api.base import StrictSerializer
from tournaments.api.serializers.players import PlayerSerializer, ddv_number_validator
from tournaments.models import NameForm, Player, Registration
from tournaments.services.registrations import consent_problem


class RegistrationSerializer(serializers.ModelSerializer[Registration]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Registration
        fields = [
            "start_number", "player", "checked_in", "checked_in_at", "withdrawn_from_series",
            "created_at",
        ]  # fmt: skip
        read_only_fields = fields


class PlayerField(serializers.PrimaryKeyRelatedField[Player]):
    """A player id of the tournament's registry (context ``registry``); ids of another
    registry and ids beyond what the database stores are simply unknown."""

    def get_queryset(self) -> Any:
        registry = self.context.get("registry")
        return registry if registry is not None else Player.objects.none()

    def to_internal_value(self, data: Any) -> Player:
        if isinstance(data, int) and not isinstance(data, bool) and not 0 < data < 2**31:
            self.fail("does_not_exist", pk_value=data)
        return super().to_internal_value(data)


class RegistrationCreateSerializer(StrictSerializer):
    """Either ``player`` (the id of a known player: a merge) or the data of a new player."""

    player = PlayerField(queryset=Player.objects.none(), required=False, allow_null=True)
    first_name = serializers.CharField(max_length=80, required=False)
    last_name = serializers.CharField(max_length=80, required=False)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    ddv_number = serializers.CharField(
        max_length=10,
        required=False,
        allow_blank=True,
        default="",
        validators=[ddv_number_validator],
    )
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    checked_in = serializers.BooleanField(required=False, default=False)
    name_form = serializers.ChoiceField(
        choices=NameForm.choices,
        required=False,
        help_text="How the new player's name is published (docs/privacy.md); without it: "
        "full, and no consent is recorded.",
    )
    minor = serializers.BooleanField(required=False, default=False)
    guardian_consent = serializers.BooleanField(required=False, default=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data.get("player") is None:
            for name in ("first_name", "last_name"):
                if not data.get(name, "").strip():
                    raise serializers.ValidationError(
                        {name: _("This field is required.")}, code="required"
                    )
            problem = consent_problem(
                data.get("name_form", NameForm.FULL), data["minor"], data["guardian_consent"]
            )
            if problem:
                raise serializers.ValidationError(
                    {"guardian_consent": problem}, code="consent_missing"
                )
        return data


class CheckInSerializer(StrictSerializer):
    present = serializers.BooleanField()


class WithdrawSerializer(StrictSerializer):
    from_series = serializers.IntegerField(
        allow_null=True,
        min_value=1,
        max_value=20,
        help_text="Out of the draw from this series on; null: back in.",
    )
