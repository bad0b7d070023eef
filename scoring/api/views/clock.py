"""The clock of a series (TSR 8.5.1): its state for every screen, and the referee's hand on it.

``GET …/series/<n>/clock/`` is visible like the series (a public tournament's for everybody;
a captain token opens its own tournament's). The organizers pause the whole hall
(``POST …/clock/pause/``), let it run again (``…/clock/resume/``) and grant one table
Nachspielzeit (``POST …/tables/<t>/extensions/``); each answers the clock after the change.
An optional ``Idempotency-Key`` makes a retry answer as the first request did
(``Idempotent-Replayed: true``) without changing anything twice.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from common.actors import API, Actor
from common.api.base import ApiView, validated
from common.api.schema import errors
from scoring.api.access import ScoringMixin
from scoring.api.authentication import captain_table
from scoring.api.headers import idempotency_key
from scoring.api.serializers.clock import (
    ClockSerializer,
    ExtensionInputSerializer,
    PauseInputSerializer,
    clock_json,
)
from scoring.api.views.params import KEY_SCHEMA, TABLE_PATH
from scoring.services.clock import ClockChanged, extend_table, pause_hall, resume_hall
from tournaments.api.access import organized_tournament, series_of, viewable_tournament
from tournaments.models import Series, Table

SERIES_PATH = TABLE_PATH[:2]
CLOCK_KEY = OpenApiParameter(
    "Idempotency-Key",
    KEY_SCHEMA,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional, a new key per change: a retry with the same key answers as the "
    "first request did, with `Idempotent-Replayed: true`, and changes nothing twice.",
)
CHANGE_ERRORS = errors(400, 401, 403, 404, 409, 422)


def answer(outcome: ClockChanged, status: int) -> Response:
    headers = {"Idempotent-Replayed": "true"} if outcome.replayed else {}
    return Response(clock_json(outcome.series), status=status, headers=headers)


class ClockView(ScoringMixin, ApiView):
    @extend_schema(
        summary="The clock of a series: each table's end, the pauses, time-out",
        parameters=SERIES_PATH,
        responses={200: ClockSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        own = captain_table(request)
        captain = own is not None and own.series.tournament.slug == kwargs["slug"]
        tournament = viewable_tournament(request, kwargs["slug"], also=captain)
        return Response(clock_json(series_of(tournament, kwargs["number"])))


class OrganizerClockMixin:
    def series(self, request: Request, kwargs: dict[str, Any]) -> Series:
        return series_of(organized_tournament(request, kwargs["slug"]), kwargs["number"])


class PauseView(OrganizerClockMixin, ApiView):
    @extend_schema(
        summary="Pause the clock of the whole hall (an interruption)",
        description="Every table still playing gets the time back when the clock runs "
        "again. Refusals: 409 `already_paused`, `series_not_running`.",
        parameters=[*SERIES_PATH, CLOCK_KEY],
        request=PauseInputSerializer,
        responses={201: ClockSerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        series = self.series(request, kwargs)
        key = idempotency_key(request, required=False)
        data = validated(PauseInputSerializer, request.data)
        actor = Actor(API, user=request.user)
        outcome = pause_hall(series, reason=data["reason"], actor=actor, idempotency_key=key)
        return answer(outcome, 201)


class ResumeView(OrganizerClockMixin, ApiView):
    @extend_schema(
        summary="Let the clock of the hall run again",
        description="Refusals: 409 `not_paused`, `series_not_running`.",
        parameters=[*SERIES_PATH, CLOCK_KEY],
        request=None,
        responses={200: ClockSerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        series = self.series(request, kwargs)
        key = idempotency_key(request, required=False)
        actor = Actor(API, user=request.user)
        return answer(resume_hall(series, actor=actor, idempotency_key=key), 200)


class ExtensionView(OrganizerClockMixin, ApiView):
    @extend_schema(
        summary="Grant one table Nachspielzeit",
        description="For example the length of a reclamation interruption (TSR 8.5.1); "
        "several extensions add up. Refusals: 400 `extension_minutes` or `reason_required` "
        "(with the field), 409 `series_not_running`.",
        parameters=[*TABLE_PATH, CLOCK_KEY],
        request=ExtensionInputSerializer,
        responses={201: ClockSerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        series = self.series(request, kwargs)
        table = (
            Table.objects.select_related("series__tournament")
            .filter(series=series, number=kwargs["table"])
            .first()
        )
        if table is None:
            raise Http404
        key = idempotency_key(request, required=False)
        data = validated(ExtensionInputSerializer, request.data)
        outcome = extend_table(
            table,
            minutes=data["minutes"],
            reason=data["reason"],
            actor=Actor(API, user=request.user),
            idempotency_key=key,
        )
        return answer(outcome, 201)
