"""The one domain error of the use cases of every app, and why a use case refused."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Refusal(StrEnum):
    """Why a use case said no, in domain terms; each edge (HTML, API) maps it to its own
    answer, e.g. the API to 400, 403, 404 or 409."""

    INVALID = "invalid"  # the input breaks a rule; nothing was changed
    FORBIDDEN = "forbidden"  # this actor may not do this, or not now
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"  # the state moved on (a stale version, a race lost)


class ServiceError(Exception):
    """The one domain error of the services of every app. ``code`` is stable; ``message`` is
    already translated for people; ``field`` names the field concerned, if any; ``data``
    carries details for clients (e.g. the current version after a conflict)."""

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        *,
        refusal: Refusal | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        # Unless said otherwise: a field means the input was wrong, else the state forbids it.
        self.refusal = refusal or (Refusal.INVALID if field else Refusal.CONFLICT)
        self.data = data or {}

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "field": self.field or "", "message": self.message, **self.data}
