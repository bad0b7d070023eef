"""The tables of a series with their seats: viewable like the tournament; the captain
tokens and links only for its organizers."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets

from common.api.base import ApiMixin
from common.api.schema import errors
from tournaments.api.access import series_of, viewable_tournament
from tournaments.api.serializers.tables import TableSerializer
from tournaments.models import Table
from tournaments.permissions import is_organizer
from tournaments.publication import retention_expired

PARAMETERS = [
    OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament."),
    OpenApiParameter("number", int, OpenApiParameter.PATH, description="Series number."),
]
TABLE = OpenApiParameter("table", int, OpenApiParameter.PATH, description="Table number.")


@extend_schema_view(
    list=extend_schema(
        summary="Tables of a series with their seats",
        parameters=PARAMETERS,
        responses={200: TableSerializer(many=True), **errors(404)},
    ),
    retrieve=extend_schema(
        summary="One table with its seats",
        parameters=[*PARAMETERS, TABLE],
        responses={200: TableSerializer, **errors(404)},
    ),
)
class TableViewSet(
    ApiMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Table]
):
    serializer_class = TableSerializer
    queryset = Table.objects.none()  # schema; see get_queryset
    lookup_field = "table"

    def get_queryset(self) -> QuerySet[Table]:
        tournament = viewable_tournament(self.request, self.kwargs["slug"])
        self._organizer = is_organizer(self.request.user, tournament)
        self._expired = retention_expired(tournament)
        series = series_of(tournament, self.kwargs["number"])
        return (
            Table.objects.filter(series=series)
            .prefetch_related("seats__registration__player")
            .order_by("number")
        )

    def get_object(self) -> Table:
        table = self.get_queryset().filter(number=self.kwargs["table"]).first()
        if table is None:
            raise Http404
        return table

    def get_serializer_context(self) -> dict[str, Any]:
        return {
            **super().get_serializer_context(),
            "organizer": getattr(self, "_organizer", False),
            "expired": getattr(self, "_expired", False),
        }
