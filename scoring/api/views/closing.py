"""``POST …/series/<n>/close/``: close a running series (organizers). Tables whose sheets are
not confirmed refuse it (409 ``unconfirmed_sheets``, listing them) unless the body says
``{"past_unfinished": true}``; those sheets are then marked closed by the organizers."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView, validated
from common.api.schema import errors
from scoring.services import Actor, Door
from scoring.services.closing import close_series
from tournaments.api.access import organized_tournament, series_of
from tournaments.api.serializers.series import SeriesSerializer
from tournaments.models import Series


class CloseSerializer(serializers.Serializer):
    past_unfinished = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Close although sheets are not confirmed; they are marked as such.",
    )


class SeriesCloseView(ApiView):
    @extend_schema(
        summary="Close a running series: entries are locked",
        parameters=[
            OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament."),
            OpenApiParameter("number", int, OpenApiParameter.PATH, description="Series number."),
        ],
        request=CloseSerializer,
        responses={200: SeriesSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        series = series_of(tournament, kwargs["number"])
        data = validated(CloseSerializer, request.data)
        actor = Actor(Door.API, user=request.user)
        close_series(series, actor=actor, past_unfinished=data["past_unfinished"])
        answer = Series.objects.annotate(table_count=Count("tables")).get(pk=series.pk)
        return Response(SeriesSerializer(answer).data)
