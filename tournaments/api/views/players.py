"""Players, for organizers: those of the registries of the clubs they keep and the players of
the tournaments they keep (see ``tournaments.permissions.readable_players``); anybody else's
player does not exist for them (404). New players come in through a registration, into the
registry of the tournament's club."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiMixin, StrictSerializer, validated
from common.api.schema import errors
from common.services import Refusal, ServiceError
from tournaments.api.serializers.players import PlayerSerializer
from tournaments.models import Player
from tournaments.names import by_name, found, search_words
from tournaments.permissions import readable_players
from tournaments.services.registry import merge_players


class MergeSerializer(StrictSerializer):
    duplicate = serializers.IntegerField(
        min_value=1, max_value=999_999_999, help_text="The player merged into this one."
    )


@extend_schema_view(
    list=extend_schema(
        summary="Players of the requester's clubs' registries and tournaments",
        parameters=[
            OpenApiParameter("q", str, description="Words of the name or club."),
            OpenApiParameter(
                "registry_club", int, description="Only the players of this club's registry."
            ),
        ],
        responses={200: PlayerSerializer(many=True), **errors(400, 401)},
    ),
    retrieve=extend_schema(
        summary="One player", responses={200: PlayerSerializer, **errors(401, 404)}
    ),
    update=extend_schema(
        summary="Correct a player", responses={200: PlayerSerializer, **errors(400, 401, 404)}
    ),
    partial_update=extend_schema(
        summary="Correct some fields of a player",
        responses={200: PlayerSerializer, **errors(400, 401, 404)},
    ),
)
class PlayerViewSet(
    ApiMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet[Player],
):
    serializer_class = PlayerSerializer
    lookup_value_regex = r"[0-9]{1,9}"

    def get_queryset(self) -> QuerySet[Player]:
        user = self.request.user
        if not user.is_authenticated:
            raise exceptions.NotAuthenticated()
        return readable_players(user).order_by("pk")

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """In name order and found however a name is typed (``tournaments.names``), the same
        on SQLite and PostgreSQL."""
        words = search_words(request.query_params.get("q", "").replace("\x00", ""))
        rows = self.get_queryset()
        club = request.query_params.get("registry_club")
        if club is not None:
            if not club.isdecimal() or len(club) > 9:
                raise ServiceError("invalid", _("Give the id of a club."), "registry_club")
            rows = rows.filter(registry_club_id=int(club))
        players = by_name(p for p in rows if found(words, p.first_name, p.last_name, p.club))
        page = self.paginate_queryset(players)  # type: ignore[arg-type]  # any sequence pages
        serializer = self.get_serializer(page if page is not None else players, many=True)
        return (
            self.get_paginated_response(serializer.data)
            if page is not None
            else Response(serializer.data)
        )

    @extend_schema(
        summary="Merge a duplicate into this player (the registry's keepers only)",
        description=(
            "The duplicate's registrations move to this player, this player's empty details "
            "are filled from the duplicate's, and the duplicate is deleted; the registry's "
            "log keeps both. Refused (400) when both are registered in the same tournament "
            "or have different DDV numbers; 409 when one of the two was merged or deleted by "
            "another request meanwhile."
        ),
        request=MergeSerializer,
        responses={200: PlayerSerializer, **errors(400, 401, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def merge(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        player = self.get_object()
        data = validated(MergeSerializer, request.data)
        duplicate = readable_players(request.user).filter(pk=data["duplicate"]).first()
        if duplicate is None:
            raise ServiceError(
                "player_not_found",
                _("Player not found."),
                "duplicate",
                refusal=Refusal.NOT_FOUND,
            )
        return Response(PlayerSerializer(merge_players(request.user, player, duplicate)).data)
