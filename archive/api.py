"""The archive over the REST API: ``GET tournaments/<slug>/archive/`` (its organizers) and
``POST imports/`` (any organizer: the archive becomes a private tournament of his, checked
and written in the background: ``GET imports/<id>/`` tells how far, ``POST
imports/<id>/confirm/`` writes an import sent with ``?preview=true`` once checked)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from archive import jobs
from archive.export import build_archive
from archive.models import ArchiveImport
from archive.views import MAX_ARCHIVE_BYTES
from common.api.base import ApiView
from common.api.errors import ApiError
from common.api.schema import errors
from tournaments.api.access import organized_tournament

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")


class RawParser(BaseParser):
    """The body as it came: the import reads and checks it itself (size, JSON)."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return stream


class ImportProblemSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    field = serializers.CharField(help_text="The row, e.g. `series 2, table 3, game 7`.")
    message = serializers.CharField()


class ImportTournamentSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    url = serializers.CharField()


class ImportStatusSerializer(serializers.Serializer[Any]):
    """Schema only: an import's state (``archive.jobs``)."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=ArchiveImport.Status.values,
        help_text="`queued`, `checking`, `checked` (waiting for `confirm/`), `importing`, "
        "`done`, `refused` (see `problems`; nothing saved) or `failed` (see `error`).",
    )
    status_url = serializers.CharField()
    confirmed = serializers.BooleanField()
    games_done = serializers.IntegerField()
    games_total = serializers.IntegerField()
    summary = serializers.DictField(
        help_text="name, slug, starts_on, players, series, tables, games, source, version (once "
        "checked)."
    )
    duplicates = serializers.ListField(
        child=serializers.CharField(),
        help_text="Slugs of the requester's tournaments imported from the same archive.",
    )
    problems = ImportProblemSerializer(many=True)
    more_problems = serializers.IntegerField()
    tournament = ImportTournamentSerializer(allow_null=True)
    players_new = serializers.IntegerField()
    players_matched = serializers.IntegerField()
    failure = serializers.CharField(help_text="`error`, `time_limit` or `stalled` when failed.")
    error = serializers.CharField()


def status_body(job: ArchiveImport) -> dict[str, Any]:
    tournament = None
    if job.tournament is not None:
        slug = job.tournament.slug
        tournament = {"slug": slug, "url": reverse("api:tournament-detail", kwargs={"slug": slug})}
    return {
        "id": job.pk,
        "status": job.status,
        "status_url": reverse("api:archive-import-status", kwargs={"pk": job.pk}),
        "confirmed": job.confirmed,
        "games_done": job.games_done,
        "games_total": job.games_total,
        "summary": job.summary,
        "duplicates": [t.slug for t in jobs.duplicates(job)],
        "problems": [
            {"code": "archive_problem", "field": p.where, "message": p.message}
            for p in jobs.problems_of(job)
        ],
        "more_problems": job.more_problems,
        "tournament": tournament,
        "players_new": job.players_new,
        "players_matched": job.players_matched,
        "failure": job.failure,
        "error": job.error,
    }


def _running(running: ArchiveImport) -> ApiError:
    return ApiError(
        409,
        "import_running",
        _("Another import of yours is still running; start the next one when it has ended."),
        body={"running": reverse("api:archive-import-status", kwargs={"pk": running.pk})},
    )


def _own_import(request: Request, pk: int) -> tuple[User, ArchiveImport]:
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    job = (
        ArchiveImport.objects.defer("data")
        .select_related("tournament", "owner")
        .filter(pk=pk, owner=user)
        .first()
    )
    if job is None:
        raise exceptions.NotFound()
    return user, jobs.fail_if_stalled(job)


def _accepted(job: ArchiveImport) -> Response:
    body = status_body(job)
    return Response(body, status=202, headers={"Location": body["status_url"]})


class ArchiveView(ApiView):
    @extend_schema(
        summary="The archive of a tournament (docs/archive.md)",
        parameters=[SLUG],
        responses={200: OpenApiTypes.OBJECT, **errors(401, 403, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        return Response(build_archive(tournament))


PREVIEW = OpenApiParameter(
    "preview",
    bool,
    OpenApiParameter.QUERY,
    description="`true`: stop after the check (status `checked`) until `confirm/` is posted.",
)


class ImportView(ApiView):
    parser_classes = [RawParser]

    @extend_schema(
        summary="Import a tournament archive as a new, private tournament of the requester",
        description="The archive is checked and written in the background: the answer (202) "
        "comes at once with the import's `status_url` (also in `Location`) to poll. "
        "One running import per requester (409 `import_running`).",
        request=OpenApiTypes.OBJECT,
        parameters=[PREVIEW],
        responses={
            202: ImportStatusSerializer,
            **errors(400, 401, 409),
            413: OpenApiResponse(description="The archive is larger than 5 MB."),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        user = request.user
        if not isinstance(user, User) or not user.is_authenticated:
            raise exceptions.NotAuthenticated()
        preview = request.query_params.get("preview", "")
        if preview not in ("", "true", "false", "1", "0"):
            raise ApiError(400, "invalid", _("Expected true or false."), field="preview")
        raw = request._request.read(MAX_ARCHIVE_BYTES + 1)
        if len(raw) > MAX_ARCHIVE_BYTES:
            raise ApiError(
                413, "archive_too_large", _("The archive is larger than 5 MB."), field="file"
            )
        if not raw.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n").startswith(b"{"):
            # Not a JSON object at all: refused here, the rest is the task's to read.
            message = _("The file is not a JSON archive.")
            raise ApiError(
                400,
                "archive_refused",
                message,
                data={"details": [{"code": "archive_problem", "field": "", "message": message}]},
            )
        try:
            job = jobs.start(
                raw,
                user,
                confirmed=preview not in ("true", "1"),
                language=get_language() or "de",
                via_api=True,
            )
        except jobs.ImportRunning as running:
            raise _running(running.running) from running
        job.refresh_from_db()
        return _accepted(job)


class ImportStatusView(ApiView):
    @extend_schema(
        summary="The state of an archive import of the requester",
        responses={200: ImportStatusSerializer, **errors(401, 404)},
    )
    def get(self, request: Request, pk: int, *args: Any, **kwargs: Any) -> Response:
        _user, job = _own_import(request, pk)
        return Response(status_body(job))


class ImportConfirmView(ApiView):
    @extend_schema(
        summary="Confirm a checked archive import (status `checked`): write the tournament",
        request=None,
        responses={202: ImportStatusSerializer, **errors(401, 404, 409)},
    )
    def post(self, request: Request, pk: int, *args: Any, **kwargs: Any) -> Response:
        user, job = _own_import(request, pk)
        if job.status != ArchiveImport.Status.CHECKED:
            raise ApiError(
                409,
                "not_checked",
                _("Only a checked import waiting for its confirmation can be confirmed."),
                body={"import": status_body(job)},
            )
        try:
            job = jobs.confirm(job, user)
        except jobs.ImportRunning as running:
            raise _running(running.running) from running
        return _accepted(job)
