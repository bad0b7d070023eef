"""Schema of the standings (the rows come from ``scoring.standings``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StandingRowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The place is shared with others.")
    registration = serializers.IntegerField()
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    total = serializers.IntegerField(help_text="Points including penalties.")
    series = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="Points per series (null: did not play).",
    )
    games = serializers.IntegerField()
    solos = serializers.IntegerField()
    solos_won = serializers.IntegerField()
    compulsory = serializers.IntegerField()
    voluntary = serializers.IntegerField()
    voluntary_won = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer[Any]):
    tournament = serializers.SlugField()
    series = serializers.IntegerField(allow_null=True)
    rows = StandingRowSerializer(many=True)
