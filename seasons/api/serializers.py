"""The season resources: settings (strict input), the ranking with its explanations."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.api.base import StrictSerializer, StrictSerializerMixin
from seasons.models import Season
from seasons.ranking import PRESETS
from seasons.rules import OVERRIDABLE


class SeasonSerializer(StrictSerializerMixin, serializers.ModelSerializer[Season]):
    preset = serializers.ChoiceField(choices=list(PRESETS), default="ddv_rangliste")
    slug = serializers.CharField(
        max_length=60, required=False, allow_blank=True, help_text="Empty: made from the name."
    )
    rule_overrides = serializers.DictField(
        required=False,
        help_text="Values that replace the preset's: " + ", ".join(f"`{k}`" for k in OVERRIDABLE),
    )
    owner = serializers.CharField(source="owner.username", read_only=True)
    tournaments: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="slug"
    )

    class Meta:
        model = Season
        fields = [
            "slug", "name", "owner", "preset", "rule_overrides", "reference_date", "is_public",
            "description", "tournaments", "created_at",
        ]  # fmt: skip
        read_only_fields = ["owner", "tournaments", "created_at"]


class AttachSerializer(StrictSerializer):
    tournament = serializers.SlugField(max_length=60, help_text="The tournament's short name.")


class TournamentInfoSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    status = serializers.CharField()
    players = serializers.IntegerField()


class ResultSerializer(serializers.Serializer[Any]):
    tournament = serializers.CharField(help_text="Short name of the tournament.")
    held_on = serializers.DateField()
    series_points = serializers.ListField(child=serializers.IntegerField())
    points = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True, help_text="In the tournament's standings.")
    score = serializers.IntegerField(help_text="What the result is worth under the rule.")
    why = serializers.ChoiceField(choices=["counted", "dropped", "outside_window"])


class LineSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(allow_null=True, help_text="null: not ranked yet.")
    shared = serializers.BooleanField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    value = serializers.CharField(
        help_text="The average per series with two decimals, or the counted sum."
    )
    series = serializers.IntegerField()
    total = serializers.IntegerField()
    tournaments = serializers.IntegerField()
    missing_series = serializers.IntegerField()
    results = ResultSerializer(many=True)


class RankingSerializer(serializers.Serializer[Any]):
    season = serializers.CharField()
    preset = serializers.CharField()
    basis = serializers.CharField()
    reference_date = serializers.DateField()
    window_opens = serializers.DateField(
        allow_null=True, help_text="Results after this day count; null: no window."
    )
    club = serializers.CharField(allow_null=True)
    tournaments = TournamentInfoSerializer(many=True)
    ranked = LineSerializer(many=True)
    unranked = LineSerializer(many=True)
