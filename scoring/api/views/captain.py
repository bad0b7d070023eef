"""``GET /api/v1/captain/``: what a captain's token opens — his table, its seats and sheet,
and the addresses to enter games. A captain app needs nothing but the token."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView
from common.api.schema import errors
from scoring.api.access import ScoringMixin
from scoring.api.authentication import captain_table
from scoring.api.serializers.games import SheetStateSerializer
from scoring.services.entry import current_sheet, sheet_state
from tournaments.api.serializers.tables import SeatSerializer


class CaptainTableSerializer(serializers.Serializer[Any]):
    """Schema only."""

    tournament = serializers.SlugField()
    tournament_name = serializers.CharField()
    series = serializers.IntegerField()
    series_status = serializers.CharField()
    table = serializers.IntegerField()
    seats = SeatSerializer(many=True)
    sheet = SheetStateSerializer()
    games_url = serializers.CharField()
    sheet_url = serializers.CharField()
    clock_url = serializers.CharField()


class CaptainView(ScoringMixin, ApiView):
    @extend_schema(
        summary="The captain's table (authenticate with `Table <captain token>`)",
        responses={200: CaptainTableSerializer, **errors(401)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = captain_table(request)
        if table is None:
            raise exceptions.NotAuthenticated()
        series = table.series
        path = {"slug": series.tournament.slug, "number": series.number, "table": table.number}
        seats = table.seats.select_related("registration__player").order_by("position")
        return Response(
            {
                "tournament": series.tournament.slug,
                "tournament_name": series.tournament.name,
                "series": series.number,
                "series_status": series.status,
                "table": table.number,
                "seats": SeatSerializer(seats, many=True).data,
                "sheet": sheet_state(table, current_sheet(table)),
                "games_url": reverse("api:games", kwargs=path),
                "sheet_url": reverse("api:sheet", kwargs=path),
                "clock_url": reverse(
                    "api:series-clock",
                    kwargs={"slug": series.tournament.slug, "number": series.number},
                ),
            }
        )
