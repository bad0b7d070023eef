"""A player across tournaments and seasons, as the API gives it: what his page shows
(``seasons.players.player_history``), to everybody who may see that page."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView
from common.api.schema import errors
from scoring.statistics import PlayerFigures, Rate, SoloOutcomes, rounded
from seasons.players import PlayerHistory, player_history
from tournaments.models import Player
from tournaments.publication import shown_name

PLAYER = OpenApiParameter("id", int, OpenApiParameter.PATH, description="Player.")


class StatisticsRateSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    of = serializers.IntegerField()
    percent = serializers.IntegerField(allow_null=True, help_text="Whole percent; null over 0.")


class SoloOutcomesSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    without_winner = serializers.IntegerField()
    average_points = serializers.DecimalField(max_digits=8, decimal_places=2, allow_null=True)


class PlayerFiguresSerializer(serializers.Serializer[Any]):
    games = serializers.IntegerField()
    series = serializers.IntegerField()
    points = serializers.IntegerField()
    per_series = serializers.DecimalField(
        max_digits=8, decimal_places=2, allow_null=True, help_text="Rundenschnitt."
    )
    solos = StatisticsRateSerializer(help_text="Solos of the games played.")
    solos_won = StatisticsRateSerializer(help_text="Solos won of the solos played.")
    re = StatisticsRateSerializer(help_text="Games won as Re of the games played as Re.")
    kontra = StatisticsRateSerializer(
        help_text="Games won as Kontra of the games played as Kontra."
    )
    compulsory = SoloOutcomesSerializer()
    voluntary = SoloOutcomesSerializer()


class TournamentResultSerializer(serializers.Serializer[Any]):
    tournament = serializers.CharField(help_text="The tournament's short name.")
    name = serializers.CharField()
    starts_on = serializers.DateField()
    start_number = serializers.IntegerField()
    series_points = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), help_text="null: not played."
    )
    series_final = serializers.ListField(
        child=serializers.BooleanField(),
        help_text="Per series: closed. A running series' points are provisional and not "
        "counted in `statistics` (series, points, per_series).",
    )
    points = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    place_final = serializers.BooleanField(
        help_text="false: the tournament still runs, the place is provisional."
    )
    players = serializers.IntegerField()
    url = serializers.CharField(help_text="His games in that tournament (a page).")


class PlayerSeasonLineSerializer(serializers.Serializer[Any]):
    season = serializers.CharField(help_text="The season's short name.")
    name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True, help_text="null: not ranked yet.")
    shared = serializers.BooleanField()
    value = serializers.DecimalField(max_digits=12, decimal_places=2)
    series = serializers.IntegerField()
    tournaments = serializers.IntegerField()
    missing_series = serializers.IntegerField()
    url = serializers.CharField()


class PlayerResultsSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    results = TournamentResultSerializer(many=True, help_text="Newest first.")
    seasons = PlayerSeasonLineSerializer(many=True)
    statistics = PlayerFiguresSerializer()


def _decimal(value: Fraction | None) -> Decimal | None:
    return None if value is None else Decimal(rounded(value, 2))


def _rate(rate: Rate) -> dict[str, Any]:
    return {"count": rate.count, "of": rate.of, "percent": rate.percent()}


def _solos(solos: SoloOutcomes) -> dict[str, Any]:
    return {
        "count": solos.count,
        "won": solos.won,
        "lost": solos.lost,
        "without_winner": solos.undecided,
        "average_points": _decimal(solos.average_points),
    }


def _figures(figures: PlayerFigures) -> dict[str, Any]:
    return {
        "games": figures.games,
        "series": figures.series_played,
        "points": figures.points,
        "per_series": _decimal(figures.per_series),
        "solos": _rate(figures.solos),
        "solos_won": _rate(figures.solos_won),
        "re": _rate(figures.re),
        "kontra": _rate(figures.kontra),
        "compulsory": _solos(figures.compulsory),
        "voluntary": _solos(figures.voluntary),
    }


def history_json(history: PlayerHistory) -> dict[str, Any]:
    player = history.player
    return {
        "id": player.pk,
        "name": shown_name(player.first_name, player.last_name, player.name_form),
        "club": player.club,
        "results": [
            {
                "tournament": r.slug,
                "name": r.name,
                "starts_on": r.starts_on,
                "start_number": r.start_number,
                "series_points": list(r.series_points),
                "series_final": [final for _p, final in r.series_cells],
                "points": r.points,
                "place": r.place,
                "place_final": r.complete,
                "players": r.players,
                "url": reverse("scoring:player", args=[r.slug, r.start_number]),
            }
            for r in history.results
        ],
        "seasons": [
            {
                "season": season.slug,
                "name": season.name,
                "place": line.place,
                "shared": line.shared,
                "value": Decimal(line.value),
                "series": line.series,
                "tournaments": line.tournaments,
                "missing_series": line.missing_series,
                "url": reverse("seasons:detail", args=[season.slug]),
            }
            for season, line in history.seasons
        ],
        "statistics": _figures(history.statistics.overall),
    }


class PlayerResultsView(ApiView):
    """Public like the player's page: his results in public tournaments (the registry's
    owner sees all of his), his lines in public seasons and his figures. Never his e-mail
    or DDV number."""

    pagination_class = None

    @extend_schema(
        summary="A player's results across tournaments and seasons, and his figures",
        parameters=[PLAYER],
        responses={200: PlayerResultsSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = Player.objects.filter(pk=kwargs["pk"]).first()
        history = player_history(player, request.user) if player is not None else None
        if history is None:
            raise Http404
        return Response(PlayerResultsSerializer(history_json(history)).data)
