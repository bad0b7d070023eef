"""The series of a tournament: viewable like the tournament; swap, seat latecomers and start
for its organizers. Drawing (it may seat by the standings) and closing are results use cases:
``scoring.api.views.series``."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiMixin, validated
from common.api.schema import errors
from common.services import ServiceError
from tournaments.api.access import organized_tournament, viewable_tournament
from tournaments.api.serializers.series import (
    LatecomersSerializer,
    SeriesSerializer,
    StartSerializer,
    SwapSerializer,
)
from tournaments.models import Series
from tournaments.services.draw import swap_players
from tournaments.services.latecomers import LatecomerOutcome, propose_latecomers, seat_latecomers
from tournaments.services.lifecycle import start_series

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="Series number.")
ACTION_ERRORS = errors(400, 401, 403, 404, 409)


@extend_schema_view(
    list=extend_schema(
        summary="Series of a tournament",
        parameters=[SLUG],
        responses={200: SeriesSerializer(many=True), **errors(404)},
    ),
    retrieve=extend_schema(
        summary="One series",
        parameters=[SLUG, NUMBER],
        responses={200: SeriesSerializer, **errors(404)},
    ),
)
class SeriesViewSet(
    ApiMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Series]
):
    serializer_class = SeriesSerializer
    queryset = Series.objects.none()  # schema; see get_queryset
    lookup_field = "number"

    def get_queryset(self) -> QuerySet[Series]:
        slug = self.kwargs["slug"]
        if self.action in ("swap", "latecomers", "start"):
            tournament = organized_tournament(self.request, slug)
        else:
            tournament = viewable_tournament(self.request, slug)
        return (
            Series.objects.filter(tournament=tournament)
            .select_related("tournament")
            .annotate(table_count=Count("tables"))
            .order_by("number")
        )

    def get_object(self) -> Series:
        series = self.get_queryset().filter(number=self.kwargs["number"]).first()
        if series is None:
            raise Http404
        return series

    def _answer(self, series: Series) -> Response:
        return Response(SeriesSerializer(self.get_queryset().get(pk=series.pk)).data)

    @extend_schema(
        summary="Exchange the seats of two players (after the draw, before the start)",
        parameters=[SLUG, NUMBER],
        request=SwapSerializer,
        responses={200: SeriesSerializer, **ACTION_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        series = self.get_object()
        data = validated(SwapSerializer, request.data)
        registrations = {
            r.start_number: r
            for r in series.tournament.registrations.filter(
                start_number__in=[data["first"], data["second"]]
            )
        }
        for name in ("first", "second"):
            if data[name] not in registrations:
                raise ServiceError("unknown_start_number", _no_player(data[name]), field=name)
        swap_players(series, registrations[data["first"]], registrations[data["second"]])
        return self._answer(series)

    @extend_schema(
        summary="Preview seating the checked-in players without a seat (drawn series)",
        parameters=[SLUG, NUMBER],
        responses={200: LatecomersSerializer, **errors(401, 403, 404, 409)},
        methods=["GET"],
    )
    @extend_schema(
        summary="Seat the checked-in players without a seat, without a new draw",
        description="Only after the draw and before the start: a table of four becomes a "
        "table of five where possible, else a new table is formed (moving at most three "
        "players from tables of five). Answers where everyone went and the repeats it adds.",
        parameters=[SLUG, NUMBER],
        request=None,
        responses={200: LatecomersSerializer, **ACTION_ERRORS},
        methods=["POST"],
    )
    @action(detail=True, methods=["get", "post"])
    def latecomers(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        series = self.get_object()
        if request.method == "POST":
            outcome = seat_latecomers(series)
        else:
            outcome = propose_latecomers(series)
        return Response(LatecomersSerializer(_outcome_data(outcome)).data)

    @extend_schema(
        summary="Start a drawn series: the captain links become valid",
        parameters=[SLUG, NUMBER],
        request=StartSerializer,
        responses={200: SeriesSerializer, **ACTION_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        series = self.get_object()
        data = validated(StartSerializer, request.data)
        start_series(series, allow_unseated=data["allow_unseated"])
        return self._answer(series)


def _outcome_data(outcome: LatecomerOutcome) -> dict[str, Any]:
    return {
        "placements": [
            {
                "start_number": p.registration.start_number,
                "name": str(p.registration.player),
                "table": p.table,
                "seat": p.seat,
                "from_table": p.from_table,
            }
            for p in outcome.placements
        ],
        "new_tables": outcome.new_tables,
        "repeat_pairs": [[a.start_number, b.start_number] for a, b in outcome.repeat_pairs],
        "repeats": outcome.repeats,
    }


def _no_player(start_number: int) -> str:
    return _("No player has start number %(n)d.") % {"n": start_number}
