"""Referee calls through the API (``docs/referee-calls.md``).

The captain, with his table's token (``Authorization: Table <token>``), reads his table's
latest call (``GET /captain/referee-call/``), calls the referee (``POST`` the same) and
withdraws the call (``POST …/withdraw/``). The referees, owners and organizers of the
tournament's club (``tournaments.permissions.RULINGS``) read its open calls, take one and
rule it (``…/tournaments/<slug>/referee-calls/…``); to anybody else signed in the calls
do not exist (404), without credentials 401. The views parse, permit, call the use case
(``scoring.services.referee``) and present.

An optional ``Idempotency-Key`` on a call or a ruling makes a retry answer that call and
write nothing; taking and withdrawing again change nothing by themselves.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from common.actors import API, Actor
from common.api.base import ApiView, validated
from common.api.errors import ApiError, raise_service_error
from common.api.ownership import kept_only
from common.api.schema import errors
from common.services import ServiceError
from scoring.api.access import ScoringMixin
from scoring.api.authentication import captain_table
from scoring.api.headers import device_id, idempotency_key
from scoring.api.serializers.referee import (
    CallInputSerializer,
    LatestCallSerializer,
    RefereeCallSerializer,
    RulingInputSerializer,
    RulingSchemaSerializer,
    call_json,
)
from scoring.api.service_calls import not_an_object
from scoring.api.views.games import check_numbers
from scoring.api.views.params import KEY_SCHEMA
from scoring.doors import CAPTAIN
from scoring.models import RefereeCall
from scoring.referee_box import latest_call
from scoring.services.referee import (
    DeductionOrder,
    call_referee,
    rule_call,
    take_call,
    withdraw_call,
)
from tournaments.models import Table, Tournament
from tournaments.permissions import RULINGS

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")
CALL = OpenApiParameter("call", int, OpenApiParameter.PATH, description="The call's id.")
KEY = OpenApiParameter(
    "Idempotency-Key",
    KEY_SCHEMA,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional, a new key per request: a retry with the same key and body answers "
    "the same call and writes nothing; the same key with another body: 422.",
)
CALL_ERRORS = errors(400, 401, 403, 404, 409, 422)
#: The ruling's fields by the names of the services' fields.
RULING_FIELDS = {
    "ruling": "ruling",
    "minutes": "extension_minutes",
    "deduction_seat": "deduction.seat",
    "points": "deduction.points",
    "verdict": "correction",
    "Idempotency-Key": "Idempotency-Key",
}


def _calls() -> QuerySet[RefereeCall]:
    return RefereeCall.objects.select_related(
        "table", "series__tournament", "taken_by", "ruled_by", "deduction__registration"
    )


# --- the captain's side ------------------------------------------------------------------


def _own_table(request: Request) -> Table:
    table = captain_table(request)
    if table is None:
        raise exceptions.NotAuthenticated()
    return table


def _captain(request: Request) -> Actor:
    return Actor(CAPTAIN, device=device_id(request))


def _fresh(call: RefereeCall) -> RefereeCall:
    return _calls().get(pk=call.pk)


class CaptainCallView(ScoringMixin, ApiView):
    @extend_schema(
        summary="The latest referee call of the captain's table",
        responses={200: LatestCallSerializer, **errors(401)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        call = latest_call(_own_table(request))
        return Response({"call": call_json(_fresh(call), referee=False) if call else None})

    @extend_schema(
        summary="Call the referee to the captain's table",
        description="201 with the new call; 200 with the open call when one is open already "
        "(a double tap). Refusals: 400 naming the field, 409 `series_not_running`.",
        parameters=[KEY],
        request=CallInputSerializer,
        responses={
            201: RefereeCallSerializer,
            200: OpenApiResponse(RefereeCallSerializer, description="The call already open."),
            **CALL_ERRORS,
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = _own_table(request)
        key = idempotency_key(request, required=False)
        data = validated(CallInputSerializer, request.data)
        try:
            outcome = call_referee(
                table,
                reason=data["reason"],
                game_number=data["game_number"],
                actor=_captain(request),
                link=table.captain_token,
                idempotency_key=key,
            )
        except ServiceError as exc:
            raise_service_error(exc)
        headers = {"Idempotent-Replayed": "true"} if outcome.replayed else {}
        return Response(
            call_json(_fresh(outcome.call), referee=False),
            status=201 if outcome.created else 200,
            headers=headers,
        )


class CaptainWithdrawView(ScoringMixin, ApiView):
    @extend_schema(
        summary="Withdraw the table's call (settled at the table)",
        description="Withdrawing again changes nothing. Refusals: 404 without a call, 409 "
        "`call_closed` when it has been ruled.",
        request=None,
        responses={200: RefereeCallSerializer, **errors(401, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = _own_table(request)
        call = latest_call(table)
        if call is None:
            raise Http404
        try:
            withdrawn = withdraw_call(call, actor=_captain(request), link=table.captain_token)
        except ServiceError as exc:
            raise_service_error(exc)
        return Response(call_json(_fresh(withdrawn), referee=False))


# --- the referees' side ------------------------------------------------------------------


def _tournament(request: Request, slug: str) -> Tournament:
    return kept_only(request, RULINGS, slug)


def _call(request: Request, kwargs: dict[str, Any]) -> RefereeCall:
    tournament = _tournament(request, kwargs["slug"])
    call = _calls().filter(pk=kwargs["call"], series__tournament=tournament).first()
    if call is None:
        raise Http404
    return call


def _referee(request: Request) -> Actor:
    return Actor(API, user=request.user, device=device_id(request))


class OpenCallsView(ApiView, GenericAPIView[RefereeCall]):
    serializer_class = RefereeCallSerializer

    @extend_schema(
        summary="The open referee calls of a tournament, oldest first",
        parameters=[SLUG],
        responses={200: RefereeCallSerializer(many=True), **errors(401, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = _tournament(request, kwargs["slug"])
        calls = (
            _calls()
            .filter(series__tournament=tournament, status__in=RefereeCall.OPEN)
            .order_by("called_at", "pk")
        )
        page = self.paginate_queryset(calls)
        assert page is not None  # ApiMixin sets a pagination class
        return self.get_paginated_response([call_json(c, referee=True) for c in page])


class CallView(ApiView):
    @extend_schema(
        summary="One referee call of a tournament (open or closed)",
        parameters=[SLUG, CALL],
        responses={200: RefereeCallSerializer, **errors(401, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(call_json(_call(request, kwargs), referee=True))


class TakeView(ApiView):
    @extend_schema(
        summary="Take a call (on the way)",
        description="Taking again changes nothing. Refusals: 409 `already_taken` naming "
        "who took it (`taken_by`), 409 `call_closed`.",
        parameters=[SLUG, CALL],
        request=None,
        responses={200: RefereeCallSerializer, **errors(401, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        call = _call(request, kwargs)
        try:
            taken = take_call(call, actor=_referee(request))
        except ServiceError as exc:
            raise_service_error(exc)
        return Response(call_json(_fresh(taken), referee=True))


class RuleView(ApiView):
    @extend_schema(
        summary="Rule a call: the ruling, Nachspielzeit, a deduction, a game corrected",
        description="All in one transaction: a refused part leaves the call open. A call not "
        "yet taken is taken by the ruling referee. Refusals: 400 naming the field (a game "
        "record's field as `correction.<field>`), 409 `taken_by_other`, `call_closed`.",
        parameters=[SLUG, CALL, KEY],
        request=RulingSchemaSerializer,
        responses={200: RefereeCallSerializer, **CALL_ERRORS},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        call = _call(request, kwargs)
        key = idempotency_key(request, required=False)
        data = validated(RulingInputSerializer, request.data)
        correction = data["correction"]
        if correction is not None:
            if not isinstance(correction, dict):
                raise ApiError(400, "not_an_object", not_an_object().message, field="correction")
            check_numbers(correction, "correction")
        deduction = data["deduction"]
        try:
            ruled = rule_call(
                call,
                ruling=data["ruling"],
                actor=_referee(request),
                extension_minutes=data["extension_minutes"],
                deduction=DeductionOrder(deduction["seat"], deduction["points"])
                if deduction
                else None,
                correction=correction,
                idempotency_key=key,
            )
        except ServiceError as exc:
            if exc.field:
                exc.field = RULING_FIELDS.get(exc.field, f"correction.{exc.field}")
            raise_service_error(exc)
        return Response(call_json(_fresh(ruled), referee=True))
