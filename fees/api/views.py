"""The fee work through the API: the settings and the prize table (GET, PUT), the desk's
rows (GET) and a booking at the desk (POST), the cash report and the payout list (GET).

For the owners, organizers and cashiers of the tournament's club (``fees.permissions.FEES``,
as the pages); to anybody else signed in the fees do not exist (404), public tournament or
not; without credentials 401. The views parse, permit, call the use case and present.

A booking carries the ``version`` the client last saw; a stale one answers 409
``fee_changed`` with the fee's ``status`` and ``version`` now. An optional
``Idempotency-Key`` makes a retry answer the first booking (``Idempotent-Replayed: true``)
and book nothing twice: the key and the body together name the request, as the desk's
buttons do (the same key with another body is another request, and meets the version).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from common.actors import API, Actor
from common.api.base import ApiView, validated
from common.api.errors import raise_service_error
from common.api.ownership import kept_only
from common.api.schema import errors
from common.services import ServiceError
from fees.api.serializers import (
    BookedSerializer,
    BookingInputSerializer,
    CashReportSerializer,
    DeskRowSerializer,
    FeeSettingsSerializer,
    PayoutListSerializer,
    PrizeTableSerializer,
    booked_json,
    cash_report_json,
    desk_row_json,
    payout_list_json,
    prize_json,
    prize_line,
)
from fees.models import Prize, ReducedFee
from fees.permissions import FEES
from fees.reading import DeskRow, cash_report, desk_rows, payout_list
from fees.services import FeeData, book_fee, save_fees, save_prizes, settings_of
from scoring.api.headers import idempotency_key
from tournaments.models import Tournament

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")
START_NUMBER = OpenApiParameter(
    "start_number", int, OpenApiParameter.PATH, description="The player's start number."
)
KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "pattern": "^[\\x21-\\x7e]{1,80}$", "minLength": 1, "maxLength": 80},
    OpenApiParameter.HEADER,
    required=False,
    description="Optional, a new key per booking: a retry with the same key and body answers "
    "the first booking, with `Idempotent-Replayed: true`, and books nothing twice.",
)
READ_ERRORS = errors(401, 404)
CHANGE_ERRORS = errors(400, 401, 404)


def fee_tournament(request: Request, slug: str) -> Tournament:
    return kept_only(request, FEES, slug)


def actor(request: Request) -> Actor:
    return Actor(API, user=request.user)


def _settings_json(tournament: Tournament) -> dict[str, Any]:
    current = settings_of(tournament)
    reduced = ReducedFee.objects.filter(tournament=tournament).values_list("label", "cents")
    return {
        "standard_cents": current.standard_cents,
        "pot_cents": current.pot_cents,
        "reduced": [{"label": label, "cents": cents} for label, cents in reduced],
    }


def _prizes_json(tournament: Tournament) -> dict[str, Any]:
    return {"prizes": [prize_json(p) for p in Prize.objects.filter(tournament=tournament)]}


def _field(field: str | None, list_name: str, prefix: str) -> str:
    """A service's field as the API's body names it: "reduced-1" → "reduced.1"."""
    if field and field.startswith(f"{prefix}-"):
        return f"{list_name}.{field.removeprefix(f'{prefix}-')}"
    return {"standard": "standard_cents", "pot": "pot_cents", "shares": "prizes"}.get(
        field or "", field or ""
    )


def _refused(exc: ServiceError, list_name: str, prefix: str) -> None:
    exc.field = _field(exc.field, list_name, prefix)
    raise_service_error(exc)


class FeeSettingsView(ApiView):
    @extend_schema(
        summary="The tournament's fees: the entry fee, the reduced fees, the prize pot",
        parameters=[SLUG],
        responses={200: FeeSettingsSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(_settings_json(fee_tournament(request, kwargs["slug"])))

    @extend_schema(
        summary="Set the tournament's fees (all of them, as read)",
        description="Bookings keep the fee they were made with. Refusals: 400 naming the "
        "field (`reduced.1.label` for a name given twice).",
        parameters=[SLUG],
        request=FeeSettingsSerializer,
        responses={200: FeeSettingsSerializer, **CHANGE_ERRORS},
    )
    def put(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = fee_tournament(request, kwargs["slug"])
        data = validated(FeeSettingsSerializer, request.data)
        fees = FeeData(
            standard_cents=data["standard_cents"],
            reduced=tuple((r["label"], r["cents"]) for r in data["reduced"]),
            pot_cents=data["pot_cents"],
        )
        try:
            save_fees(tournament, fees, actor=actor(request))
        except ServiceError as exc:
            _refused(exc, "reduced", "reduced")
        return Response(_settings_json(tournament))


class PrizeTableView(ApiView):
    @extend_schema(
        summary="The prize table: per place an amount or a share of the pot; special prizes",
        parameters=[SLUG],
        responses={200: PrizeTableSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(_prizes_json(fee_tournament(request, kwargs["slug"])))

    @extend_schema(
        summary="Replace the prize table",
        description="Each place and each special prize once, each with `cents` or `share` "
        "(not both); the shares together at most 10000 (the whole pot). Refusals: 400 "
        "naming the line (`prizes.2`).",
        parameters=[SLUG],
        request=PrizeTableSerializer,
        responses={200: PrizeTableSerializer, **CHANGE_ERRORS},
    )
    def put(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = fee_tournament(request, kwargs["slug"])
        data = validated(PrizeTableSerializer, request.data)
        try:
            save_prizes(tournament, [prize_line(d) for d in data["prizes"]], actor=actor(request))
        except ServiceError as exc:
            _refused(exc, "prizes", "prize")
        return Response(_prizes_json(tournament))


class DeskView(ApiView, GenericAPIView[Any]):
    serializer_class = DeskRowSerializer

    @extend_schema(
        summary="The desk: every player by name with his fee's status and version",
        parameters=[SLUG],
        responses={200: DeskRowSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        rows = desk_rows(fee_tournament(request, kwargs["slug"]))
        page: list[DeskRow] | None = self.paginate_queryset(rows)  # type: ignore[arg-type]
        assert page is not None  # ApiMixin sets a pagination class
        return self.get_paginated_response([desk_row_json(row) for row in page])


def _booking_key(key: str | None, data: dict[str, Any]) -> str:
    """The booking's key: the request's key and its body (at most 64 characters)."""
    if not key:
        return ""
    text = "\n".join([key, data["status"], data["fee"], data["method"]])
    return "api:" + hashlib.sha256(text.encode()).hexdigest()[:60]


class BookingView(ApiView):
    @extend_schema(
        summary="Book a player's fee: paid, waived or open again",
        description="201 with the fee after the booking; 200 (`booked`: false) when the fee "
        "had this status already. Waiving or reopening a paid fee books its reversal. "
        "Refusals: 400 naming the field (`fee`: no such fee), 409 `fee_changed` with the "
        "fee's `status` and `version` now when `expected_version` is stale.",
        parameters=[SLUG, START_NUMBER, KEY],
        request=BookingInputSerializer,
        responses={
            201: BookedSerializer,
            200: OpenApiResponse(BookedSerializer, description="Nothing booked."),
            **errors(400, 401, 404, 409),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = fee_tournament(request, kwargs["slug"])
        registration = (
            tournament.registrations.select_related("tournament")
            .filter(start_number=kwargs["start_number"])
            .first()
        )
        if registration is None:
            raise Http404
        key = idempotency_key(request, required=False)
        data = validated(BookingInputSerializer, request.data)
        try:
            state = book_fee(
                registration,
                data["status"],
                expected_version=data["expected_version"],
                actor=actor(request),
                fee_label=data["fee"],
                method=data["method"],
                key=_booking_key(key, data),
            )
        except ServiceError as exc:
            raise_service_error(exc)
        headers = {"Idempotent-Replayed": "true"} if state.replayed else {}
        status = 201 if state.booking is not None else 200
        return Response(
            booked_json(registration.start_number, state), status=status, headers=headers
        )


class CashReportView(ApiView):
    @extend_schema(
        summary="The cash report: the fees expected, received, open and waived",
        parameters=[SLUG],
        responses={200: CashReportSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(cash_report_json(cash_report(fee_tournament(request, kwargs["slug"]))))


class PayoutListView(ApiView):
    @extend_schema(
        summary="The payout list by the standings as they are (`final` once all are closed)",
        parameters=[SLUG],
        responses={200: PayoutListSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(payout_list_json(payout_list(fee_tournament(request, kwargs["slug"]))))
