from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from common.api.base import StrictSerializerMixin
from tournaments.models import Player
from tournaments.services.registry import correct_player

ddv_number_validator = RegexValidator(
    r"^[0-9]{1,10}$", gettext_lazy("A DDV member number has only digits."), code="invalid"
)


class PlayerSerializer(StrictSerializerMixin, serializers.ModelSerializer[Player]):
    ddv_number = serializers.CharField(
        max_length=10, required=False, allow_blank=True, validators=[ddv_number_validator]
    )

    class Meta:
        model = Player
        fields = [
            "id", "registry_club", "first_name", "last_name", "club", "ddv_number", "email",
            "name_form", "minor", "guardian_consent", "consent_at",
        ]  # fmt: skip
        read_only_fields = ["id", "registry_club", "consent_at"]
        extra_kwargs = {
            "registry_club": {"help_text": "The club whose registry holds the player."},
            "club": {"help_text": "The name of the player's own club, as shown on lists."},
            "name_form": {"help_text": "How the name is published: full, initial or anonymous."},
            "minor": {"help_text": "The player is under 18."},
            "guardian_consent": {
                "help_text": "A parent or guardian consents to the publication (required for "
                "a minor published in any form but anonymous)."
            },
            "consent_at": {"help_text": "When the consent was last recorded."},
        }

    def validate_ddv_number(self, value: str) -> str:
        """Unique inside the player's registry only (nothing is told about others)."""
        if self.instance is None or self.instance.registry_club_id is None:
            return value
        club = self.instance.registry_club_id
        taken = Player.objects.filter(registry_club_id=club, ddv_number=value)
        if value and taken.exclude(pk=self.instance.pk).exists():
            raise serializers.ValidationError(
                _("Another player already has the DDV member number %(number)s.")
                % {"number": value},
                code="ddv_number_taken",
            )
        return value

    def update(self, instance: Player, validated_data: dict[str, Any]) -> Player:
        """Through the logged use case (``tournaments.services.registry.correct_player``; a
        changed consent: ``tournaments.services.privacy.change_consent``, which refuses a
        minor published by name without his guardian's consent, field ``guardian_consent``)."""
        request = self.context["request"]
        return correct_player(request.user, instance, dict(validated_data))
