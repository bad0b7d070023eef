from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs import roles
from clubs.api import ClubField
from common.api.base import StrictSerializerMixin
from tournaments.forms import ruleset_choices
from tournaments.models import DEFAULT_TIEBREAK, Tiebreak, Tournament
from tournaments.services.setup import settings_problems


class SeriesSummarySerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="`planned`, `drawn`, `running` or `closed`.")


class TournamentSerializer(StrictSerializerMixin, serializers.ModelSerializer[Tournament]):
    ruleset = serializers.ChoiceField(choices=ruleset_choices(), default="ddv")
    tiebreak = serializers.ListField(
        child=serializers.ChoiceField(choices=Tiebreak.choices),
        required=False,
        max_length=len(Tiebreak.choices),
        help_text="Tie-breaks after total points, in this order.",
    )
    series_count = serializers.IntegerField(min_value=1, max_value=20, default=3)
    series = serializers.SerializerMethodField()
    status = serializers.CharField(
        read_only=True, help_text="`draft`, `registration`, `running` or `finished`."
    )
    club = ClubField(roles.TOURNAMENTS)

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "starts_on", "ends_on", "venue", "ruleset", "series_count",
            "status", "is_public", "registration_open", "entry_mode", "confirmation", "tiebreak",
            "series", "club", "created_at",
        ]  # fmt: skip
        read_only_fields = ["status", "created_at"]

    @extend_schema_field(SeriesSummarySerializer(many=True))
    def get_series(self, tournament: Tournament) -> list[dict[str, Any]]:
        return [
            {"number": s.number, "status": s.status}
            for s in sorted(tournament.series.all(), key=lambda s: s.number)
        ]

    def validate_tiebreak(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("Each tie-break only once."), code="duplicate")
        return value

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        instance: Tournament | None = self.instance
        problems = settings_problems(
            instance,
            starts_on=data.get("starts_on", instance.starts_on if instance else None),
            ends_on=data.get("ends_on", instance.ends_on if instance else None),
            series_count=data.get("series_count"),
        )
        if problems:
            raise serializers.ValidationError(problems, code="invalid")
        if instance is None:
            data.setdefault("tiebreak", list(DEFAULT_TIEBREAK))
        return data
