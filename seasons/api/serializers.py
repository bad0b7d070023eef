"""The season resources: settings (strict input), the ranking with its explanations."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from clubs import roles
from clubs.api import ClubField
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
    club = ClubField(roles.SEASONS)
    tournaments: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="slug"
    )

    class Meta:
        model = Season
        fields = [
            "slug", "name", "owner", "preset", "rule_overrides", "reference_date", "is_public",
            "description", "tournaments", "club", "created_at",
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
    complete = serializers.BooleanField(
        help_text="Every series is closed: its totals and places are final."
    )


class ResultSerializer(serializers.Serializer[Any]):
    tournament = serializers.CharField(help_text="Short name of the tournament.")
    held_on = serializers.DateField()
    series_points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Points in each closed series he played."
    )
    points = serializers.IntegerField(help_text="The sum of ``series_points``.")
    place = serializers.IntegerField(allow_null=True, help_text="In the tournament's standings.")
    place_final = serializers.BooleanField(
        help_text="false: the tournament still runs, the place is provisional."
    )
    score = serializers.IntegerField(help_text="What the result is worth under the rule.")
    why = serializers.ChoiceField(
        choices=["counted", "dropped", "outside_window", "pending"],
        help_text="pending: not final yet (its tournament, or every series of it, still "
        "runs); shown, never counted.",
    )
    open_points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Provisional points in series not closed yet: never counted.",
    )


# What a line of the ranking says, in the list and explained alike (no docstring: the schema
# would give it to both serializers as their description).
class LineFigures(serializers.Serializer[Any]):
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


class LineSerializer(LineFigures):
    results = ResultSerializer(many=True)


class ListedLineSerializer(LineFigures):
    provisional = serializers.BooleanField(
        help_text="A result of his is shown but not counted yet (a running tournament)."
    )


class RankingSerializer(serializers.Serializer[Any]):
    season = serializers.CharField()
    preset = serializers.CharField()
    basis = serializers.CharField()
    reference_date = serializers.DateField()
    window_opens = serializers.DateField(
        allow_null=True, help_text="Results after this day count; null: no window."
    )
    computed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the stored ranking was computed."
    )
    club = serializers.CharField(allow_null=True)
    q = serializers.CharField(help_text="The search by name, as applied.")
    count = serializers.IntegerField(help_text="Lines that match club and search.")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ListedLineSerializer(
        many=True,
        help_text="The ranked by place, then the players not ranked yet (place null).",
    )
