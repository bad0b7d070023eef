"""Players, for organizers: their own registry and the players of the tournaments they
organize (see ``tournaments.permissions.readable_players``); anybody else's player does not
exist for them (404). New players come in through a registration."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, viewsets

from common.api.base import ApiMixin
from common.api.schema import errors
from tournaments.api.serializers.players import PlayerSerializer
from tournaments.models import Player
from tournaments.permissions import readable_players


@extend_schema_view(
    list=extend_schema(
        summary="Players of the requester's registry and tournaments",
        parameters=[OpenApiParameter("q", str, description="Words of the name or club.")],
        responses={200: PlayerSerializer(many=True), **errors(401)},
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
        players = readable_players(user)
        query = self.request.query_params.get("q", "").replace("\x00", "")
        for word in query.split()[:5]:
            players = players.filter(
                Q(first_name__icontains=word)
                | Q(last_name__icontains=word)
                | Q(club__icontains=word)
            )
        return players.order_by("last_name", "first_name", "pk")
