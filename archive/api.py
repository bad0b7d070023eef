"""The archive over the REST API: ``GET tournaments/<slug>/archive/`` (its organizers) and
``POST imports/`` (any organizer: the archive becomes a tournament of his)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from archive.export import build_archive
from archive.reading import ArchiveRefused, parse_json
from archive.services import import_archive
from archive.views import MAX_ARCHIVE_BYTES
from common.api.base import ApiView
from common.api.errors import ApiError
from common.api.schema import errors
from scoring.services import Actor, Door
from tournaments.api.access import organized_tournament

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")


class RawParser(BaseParser):
    """The body as it came: the import reads and checks it itself (size, JSON)."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return stream


class ImportedSerializer(serializers.Serializer[Any]):
    """Schema only."""

    slug = serializers.CharField()
    url = serializers.CharField()
    players_new = serializers.IntegerField()
    players_matched = serializers.IntegerField()
    games = serializers.IntegerField()


class ArchiveView(ApiView):
    @extend_schema(
        summary="The archive of a tournament (docs/archive.md)",
        parameters=[SLUG],
        responses={200: OpenApiTypes.OBJECT, **errors(401, 403, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        return Response(build_archive(tournament))


class ImportView(ApiView):
    parser_classes = [RawParser]

    @extend_schema(
        summary="Import a tournament archive as a new tournament of the requester",
        request=OpenApiTypes.OBJECT,
        responses={
            201: ImportedSerializer,
            **errors(400, 401),
            413: OpenApiResponse(description="The archive is larger than 5 MB."),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        user = request.user
        if not isinstance(user, User) or not user.is_authenticated:
            raise exceptions.NotAuthenticated()
        raw = request._request.read(MAX_ARCHIVE_BYTES + 1)
        if len(raw) > MAX_ARCHIVE_BYTES:
            raise ApiError(
                413, "archive_too_large", _("The archive is larger than 5 MB."), field="file"
            )
        try:
            imported = import_archive(parse_json(raw), user, Actor(Door.API, user=user))
        except ArchiveRefused as refused:
            details = [
                {"code": "archive_problem", "field": p.where, "message": p.message}
                for p in refused.problems
            ]
            count = len(details) + refused.more
            raise ApiError(
                400,
                "archive_refused",
                ngettext(
                    "The archive was not imported: %(count)d problem.",
                    "The archive was not imported: %(count)d problems.",
                    count,
                )
                % {"count": count},
                data={"details": details},
            ) from refused
        tournament = imported.tournament
        body = {
            "slug": tournament.slug,
            "url": reverse("api:tournament-detail", kwargs={"slug": tournament.slug}),
            "players_new": imported.players_new,
            "players_matched": imported.players_matched,
            "games": imported.games,
        }
        return Response(body, status=201)
