"""A table's score sheet: its state and findings; submit (captain or organizer) and confirm
(another player at the table, or an organizer)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView, validated
from common.api.schema import errors
from scoring.api.access import writer
from scoring.api.headers import expected_version
from scoring.api.serializers.games import SheetOnlySerializer
from scoring.api.serializers.sheets import ConfirmSerializer, SheetSerializer, SubmitSerializer
from scoring.api.service_calls import call
from scoring.api.views.games import CHANGE_ERRORS, TableMixin
from scoring.api.views.params import DEVICE_ID, IF_MATCH, TABLE_PATH
from scoring.messages import finding_json
from scoring.services.entry import current_sheet, sheet_state
from scoring.services.sheet import confirm_sheet, findings_for, submit_sheet


class SheetView(TableMixin, ApiView):
    @extend_schema(
        summary="The score sheet of a table: version, status, next game, findings",
        parameters=TABLE_PATH,
        responses={200: SheetSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = self.table()
        sheet = current_sheet(table)
        state = sheet_state(table, sheet)
        complete = sheet.status != "open" or bool(state["next"]["finished"])
        findings = findings_for(table, sheet, complete=complete)
        body = {
            **state,
            "timeout": sheet.timeout,
            "submitted_at": sheet.submitted_at,
            "submitted_by_seat": sheet.submitted_by_seat,
            "confirmed_at": sheet.confirmed_at,
            "confirmed_by_seat": sheet.confirmed_by_seat,
            "last_activity": sheet.last_activity,
            "findings": [finding_json(f) for f in findings],
        }
        return Response(SheetSerializer(body).data, headers={"ETag": f'"{sheet.version}"'})


class SubmitView(TableMixin, ApiView):
    @extend_schema(
        summary="Submit the sheet (no errors left in the series check)",
        parameters=[*TABLE_PATH, IF_MATCH, DEVICE_ID],
        request=SubmitSerializer,
        responses={200: SheetOnlySerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = self.table()
        seat = validated(SubmitSerializer, request.data)["seat"]
        actor = writer(request, table, seat=seat)
        version = expected_version(request)
        return call(
            table,
            lambda: submit_sheet(table, seat=seat, expected_version=version, actor=actor),
        )


class ConfirmView(TableMixin, ApiView):
    @extend_schema(
        summary="Confirm a submitted sheet (another player at the table, or an organizer)",
        parameters=[*TABLE_PATH, DEVICE_ID],
        request=ConfirmSerializer,
        responses={200: SheetOnlySerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = self.table()
        seat = validated(ConfirmSerializer, request.data)["seat"]
        actor = writer(request, table, seat=seat)
        return call(table, lambda: confirm_sheet(table, seat=seat, actor=actor))
