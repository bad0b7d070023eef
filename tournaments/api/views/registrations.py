"""Registrations of a tournament, for its organizers: register (a new or a known player),
check in, withdraw from a series on, delete (only while never seated)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiMixin, validated
from common.api.schema import errors
from tournaments.api.access import organized_tournament
from tournaments.api.serializers.registrations import (
    CheckInSerializer,
    RegistrationCreateSerializer,
    RegistrationSerializer,
    WithdrawSerializer,
)
from tournaments.models import NameForm, Registration, Tournament
from tournaments.permissions import tournament_registry
from tournaments.services.registrations import PlayerData, register, set_checked_in, withdraw

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")
START_NUMBER = OpenApiParameter(
    "start_number", int, OpenApiParameter.PATH, description="The player's start number."
)
OBJECT_ERRORS = errors(400, 401, 403, 404, 409)


@extend_schema_view(
    list=extend_schema(
        summary="Registrations",
        parameters=[SLUG],
        responses={200: RegistrationSerializer(many=True), **errors(401, 403, 404)},
    ),
    retrieve=extend_schema(
        summary="One registration",
        parameters=[SLUG, START_NUMBER],
        responses={200: RegistrationSerializer, **errors(401, 403, 404)},
    ),
    destroy=extend_schema(
        summary="Delete a registration (never seated)",
        parameters=[SLUG, START_NUMBER],
        responses={204: None, **OBJECT_ERRORS},
    ),
)
class RegistrationViewSet(
    ApiMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Registration],
):
    serializer_class = RegistrationSerializer
    queryset = Registration.objects.none()  # schema; see get_queryset
    lookup_field = "start_number"

    def tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = organized_tournament(self.request, self.kwargs["slug"])
        return self._tournament

    def get_queryset(self) -> QuerySet[Registration]:
        return self.tournament().registrations.select_related("player").order_by("start_number")

    def get_object(self) -> Registration:
        registration = self.get_queryset().filter(start_number=self.kwargs["start_number"]).first()
        if registration is None:
            raise Http404
        return registration

    @extend_schema(
        summary="Register a player",
        parameters=[SLUG],
        request=RegistrationCreateSerializer,
        responses={201: RegistrationSerializer, **OBJECT_ERRORS},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.tournament()
        data = validated(
            RegistrationCreateSerializer,
            request.data,
            context={"registry": tournament_registry(tournament)},
        )
        player = data.pop("player", None)
        registration = register(
            tournament,
            PlayerData(
                first_name=data.get("first_name", ""),
                last_name=data.get("last_name", ""),
                club=data["club"],
                ddv_number=data["ddv_number"],
                email=data["email"],
                name_form=data.get("name_form", NameForm.FULL.value),
                minor=data["minor"],
                guardian_consent=data["guardian_consent"],
                consented="name_form" in data,
            ),
            existing_player=player,
            checked_in=data["checked_in"],
        )
        return Response(RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Check a player in or out",
        parameters=[SLUG, START_NUMBER],
        request=CheckInSerializer,
        responses={200: RegistrationSerializer, **OBJECT_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        registration = self.get_object()
        data = validated(CheckInSerializer, request.data)
        set_checked_in(registration, data["present"])
        return Response(RegistrationSerializer(registration).data)

    @extend_schema(
        summary="Withdraw a player from a series on (null: back in)",
        parameters=[SLUG, START_NUMBER],
        request=WithdrawSerializer,
        responses={200: RegistrationSerializer, **OBJECT_ERRORS},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        registration = self.get_object()
        data = validated(WithdrawSerializer, request.data)
        withdraw(registration, data["from_series"])
        return Response(RegistrationSerializer(registration).data)
