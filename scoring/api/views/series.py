"""The results' use cases of a series (organizers).

``POST …/series/<n>/draw/``: draw (or redraw before the start) its tables, by chance or by
the standings before it. ``POST …/series/<n>/close/``: close a running series. Tables whose
sheets are not confirmed refuse it (409 ``unconfirmed_sheets``, listing them) unless the body
says ``{"past_unfinished": true}``; those sheets are then marked closed by the organizers."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.actors import API, Actor
from common.api.base import ApiView, validated
from common.api.schema import errors
from scoring.services.closing import close_series
from scoring.services.draw import draw_by_chance_or_standings
from tournaments.api.access import organized_tournament, series_of
from tournaments.api.serializers.series import DrawSerializer, SeriesSerializer
from tournaments.models import Series

PATH = [
    OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament."),
    OpenApiParameter("number", int, OpenApiParameter.PATH, description="Series number."),
]


def _answer(series: Series) -> Response:
    answer = (
        Series.objects.select_related("tournament")
        .annotate(table_count=Count("tables"))
        .get(pk=series.pk)
    )
    return Response(SeriesSerializer(answer).data)


class SeriesDrawView(ApiView):
    @extend_schema(
        summary="Draw (or redraw before the start) the tables of a series",
        parameters=PATH,
        request=DrawSerializer,
        responses={200: SeriesSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        series = series_of(tournament, kwargs["number"])
        data = validated(DrawSerializer, request.data)
        draw_by_chance_or_standings(
            series,
            seed=data["seed"],
            mode=data["mode"],
            keep_clubs_apart=data["keep_clubs_apart"],
        )
        return _answer(series)


class CloseSerializer(serializers.Serializer[Any]):
    past_unfinished = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Close although sheets are not confirmed; they are marked as such.",
    )
    past_pending = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Close although a table's phone reported games it has not sent yet "
        "(they arrive as outbox conflicts).",
    )


class SeriesCloseView(ApiView):
    @extend_schema(
        summary="Close a running series: entries are locked",
        parameters=PATH,
        request=CloseSerializer,
        responses={200: SeriesSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        series = series_of(tournament, kwargs["number"])
        data = validated(CloseSerializer, request.data)
        actor = Actor(API, user=request.user)
        close_series(
            series,
            actor=actor,
            past_unfinished=data["past_unfinished"],
            past_pending=data["past_pending"],
        )
        return _answer(series)
