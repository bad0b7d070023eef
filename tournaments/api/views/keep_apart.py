"""A tournament's keep-apart pairs, for its organizers: list, add, remove (by start numbers).
Every draw keeps them apart where the field allows; a series reports the others in
``keep_apart_report``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from common.actors import API, Actor
from common.api.base import ApiView, StrictSerializer, validated
from common.api.schema import errors
from common.services import Refusal, ServiceError
from tournaments.api.access import organized_tournament
from tournaments.models import KeepApart, Registration, Tournament
from tournaments.services.keep_apart import add_pair, remove_pair

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")


class KeepApartSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField(help_text="Start number (the smaller registration).")
    second = serializers.IntegerField(help_text="Start number of the other player.")


class KeepApartListSerializer(serializers.Serializer[Any]):
    pairs = KeepApartSerializer(many=True, help_text="Every pair, by start numbers.")


class KeepApartInputSerializer(StrictSerializer):
    first = serializers.IntegerField(min_value=1, max_value=999_999_999, help_text="Start number.")
    second = serializers.IntegerField(min_value=1, max_value=999_999_999, help_text="Start number.")


def _registration(tournament: Tournament, start_number: int, field: str) -> Registration:
    found = tournament.registrations.filter(start_number=start_number).first()
    if found is None:
        raise ServiceError(
            "player_not_found", _("Choose a player of this tournament."), field=field
        )
    return found


def _pairs(tournament: Tournament) -> list[dict[str, int]]:
    return [
        {"first": first, "second": second}
        for first, second in KeepApart.objects.filter(tournament=tournament).values_list(
            "first__start_number", "second__start_number"
        )
    ]


class KeepApartView(ApiView):
    @extend_schema(
        summary="Players kept apart in every draw",
        parameters=[SLUG],
        responses={200: KeepApartListSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        return Response({"pairs": _pairs(tournament)})

    @extend_schema(
        summary="Keep two players apart in every draw from now on",
        parameters=[SLUG],
        request=KeepApartInputSerializer,
        responses={201: KeepApartSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        data = validated(KeepApartInputSerializer, request.data)
        first = _registration(tournament, data["first"], "first")
        second = _registration(tournament, data["second"], "second")
        pair = add_pair(tournament, first, second, actor=Actor(API, user=request.user))
        body = {"first": pair.first.start_number, "second": pair.second.start_number}
        return Response(body, status=status.HTTP_201_CREATED)


class KeepApartRemoveView(ApiView):
    @extend_schema(
        summary="Let two players share a table again",
        parameters=[SLUG],
        request=KeepApartInputSerializer,
        responses={204: None, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        data = validated(KeepApartInputSerializer, request.data)
        a = _registration(tournament, data["first"], "first")
        b = _registration(tournament, data["second"], "second")
        low, high = sorted((a.pk, b.pk))
        pair = KeepApart.objects.filter(tournament=tournament, first_id=low, second_id=high)
        found = pair.values_list("pk", flat=True).first()
        if found is None:
            raise ServiceError(
                "pair_not_found", _("This pair does not exist."), refusal=Refusal.NOT_FOUND
            )
        remove_pair(tournament, found, actor=Actor(API, user=request.user))
        return Response(status=status.HTTP_204_NO_CONTENT)
