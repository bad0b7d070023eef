"""A DDV ranking tournament's report as JSON (docs/ddv-report.md), for its organizers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView
from common.api.errors import ApiError
from common.api.schema import errors
from seasons.ddv.files import to_json
from seasons.ddv.report import build_report, refusals
from tournaments.api.access import organized_tournament

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")


class DdvReportView(ApiView):
    @extend_schema(
        summary="The DDV ranking report of a tournament (docs/ddv-report.md)",
        description="409 `not_qualified` with the reasons in `reasons` when the tournament is "
        "not marked as a DDV ranking tournament or does not qualify.",
        parameters=[SLUG],
        responses={200: OpenApiTypes.OBJECT, **errors(401, 403, 404, 409)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = organized_tournament(request, kwargs["slug"])
        report = build_report(tournament)
        refused = refusals(report)
        if refused:
            raise ApiError(
                409,
                "not_qualified",
                " ".join(refused),
                data={"reasons": [str(r) for r in report.reasons]},
            )
        return Response(to_json(report), headers={"Cache-Control": "private, no-store"})
