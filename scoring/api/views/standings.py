"""Standings, overall and per series: visible like the tournament (public ones for all)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView
from common.api.schema import errors
from scoring.api.serializers.standings import StandingsSerializer
from scoring.standings import overall_standings, series_standings
from tournaments.api.access import series_of, viewable_tournament

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="Series number.")


class StandingsView(ApiView):
    @extend_schema(
        summary="Overall standings",
        parameters=[SLUG],
        responses={200: StandingsSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = viewable_tournament(request, kwargs["slug"])
        rows = overall_standings(tournament)
        return Response({"tournament": tournament.slug, "series": None, "rows": rows})


class SeriesStandingsView(ApiView):
    @extend_schema(
        summary="Standings of one series",
        parameters=[SLUG, NUMBER],
        responses={200: StandingsSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = viewable_tournament(request, kwargs["slug"])
        series = series_of(tournament, kwargs["number"])
        rows = series_standings(series)
        return Response({"tournament": tournament.slug, "series": series.number, "rows": rows})
