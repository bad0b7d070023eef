"""Tournaments: public ones for everybody; created by any logged-in user, who becomes its
organizer; changed by its organizers."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from common.api.base import ApiMixin
from common.api.schema import errors
from tournaments.api.access import organized_tournament, viewable_tournament, visible_tournaments
from tournaments.api.serializers.tournaments import TournamentSerializer
from tournaments.models import Tournament
from tournaments.services.setup import save_tournament


@extend_schema_view(
    list=extend_schema(summary="Public tournaments and the requester's own"),
    retrieve=extend_schema(
        summary="One tournament", responses={200: TournamentSerializer, **errors(404)}
    ),
    create=extend_schema(
        summary="Create a tournament (the requester becomes its organizer)",
        responses={201: TournamentSerializer, **errors(400, 401)},
    ),
    update=extend_schema(
        summary="Change a tournament (organizers)",
        responses={200: TournamentSerializer, **errors(400, 401, 403, 404)},
    ),
    partial_update=extend_schema(
        summary="Change some fields of a tournament (organizers)",
        responses={200: TournamentSerializer, **errors(400, 401, 403, 404)},
    ),
)
class TournamentViewSet(
    ApiMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[Tournament],
):
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]+"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request).select_related("club").prefetch_related("series")

    def get_object(self) -> Tournament:
        slug = self.kwargs["slug"]
        if self.request.method in ("PUT", "PATCH"):
            tournament = organized_tournament(self.request, slug)
        else:
            tournament = viewable_tournament(self.request, slug)
        return (
            Tournament.objects.select_related("club")
            .prefetch_related("series")
            .get(pk=tournament.pk)
        )

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        return super().create(request, *args, **kwargs)

    @transaction.atomic
    def perform_create(self, serializer: BaseSerializer[Tournament]) -> None:
        club = serializer.validated_data.pop("club", None)
        save_tournament(serializer.save(), organizer=self.request.user, club=club)

    @transaction.atomic
    def perform_update(self, serializer: BaseSerializer[Tournament]) -> None:
        save_tournament(serializer.save())
