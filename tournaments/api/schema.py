"""Shared pieces for the OpenAPI description."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse

from tournaments.api.errors import ErrorSerializer


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """Error responses (all with the error JSON) for ``extend_schema(responses=...)``."""
    descriptions = {
        400: "Invalid input (`field` names it).",
        401: "Not authenticated.",
        403: "Not allowed (`not_organizer`, `wrong_table`, `series_not_running`, ...).",
        404: "Not found, or not visible to the requester.",
        409: "Conflict with the current state (e.g. `version_conflict`).",
        422: "Idempotency key reused for a different request.",
        428: "Precondition required (`If-Match` header missing).",
    }
    return {
        code: OpenApiResponse(ErrorSerializer, description=descriptions.get(code, ""))
        for code in codes
    }
