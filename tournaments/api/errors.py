"""One JSON shape for every refusal: ``{"error": {"code", "field", "message"}}``.

``code`` is stable for programs, ``field`` names the input concerned ("" when none, dotted
for nested input such as ``seats.0``), ``message`` is for people, in the request's language.
When several fields are wrong, ``error.details`` lists all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import IntegrityError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from tournaments.services import ServiceError

UNKNOWN_FIELD = gettext_lazy("Unknown field.")


class ApiError(exceptions.APIException):
    """A refusal with its own status, code and field; ``body`` adds top-level keys to the
    answer (e.g. the current sheet state beside a version conflict)."""

    def __init__(
        self,
        status_code: int,
        code: str,
        message: str,
        *,
        field: str = "",
        data: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.field = field
        self.data = dict(data or {})
        self.body = dict(body or {})
        self.headers = dict(headers or {})


def error_body(code: str, message: str, field: str = "", **data: Any) -> dict[str, Any]:
    return {"error": {"code": code, "field": field, "message": str(message), **data}}


def _flatten(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """DRF's nested validation detail as a flat list of {code, field, message}."""
    if isinstance(detail, Mapping):
        items: list[dict[str, str]] = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            items += _flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name)
        return items
    if isinstance(detail, list):
        items = []
        for index, value in enumerate(detail):
            if isinstance(value, Mapping | list):
                items += _flatten(value, f"{prefix}.{index}" if prefix else str(index))
            else:
                items += _flatten(value, prefix)
        return items
    code = getattr(detail, "code", None) or "invalid"
    return [{"code": str(code), "field": prefix, "message": str(detail)}]


def _validation_body(exc: exceptions.ValidationError) -> dict[str, Any]:
    items = _flatten(exc.detail) or [
        {"code": "invalid", "field": "", "message": _("Invalid input.")}
    ]
    first = dict(items[0])
    if len(items) > 1:
        first["details"] = items
    return {"error": first}


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """Turn every expected exception into the error JSON; anything else stays a 500 (a bug)."""
    headers: dict[str, str] = {}
    if isinstance(exc, ApiError):
        body = {**error_body(exc.code, exc.message, exc.field, **exc.data), **exc.body}
        response_status = exc.status_code
        headers.update(exc.headers)
    elif isinstance(exc, ServiceError):
        # A field means the input was wrong; without one the state forbids the step.
        response_status = status.HTTP_400_BAD_REQUEST if exc.field else status.HTTP_409_CONFLICT
        body = error_body(exc.code, exc.message, exc.field or "")
    elif isinstance(exc, exceptions.ValidationError):
        response_status, body = status.HTTP_400_BAD_REQUEST, _validation_body(exc)
    elif isinstance(exc, exceptions.ParseError):
        response_status = status.HTTP_400_BAD_REQUEST
        body = error_body("invalid_json", str(exceptions.ParseError.default_detail))
    elif isinstance(exc, Http404):
        response_status = status.HTTP_404_NOT_FOUND
        body = error_body("not_found", str(exceptions.NotFound.default_detail))
    elif isinstance(exc, DjangoPermissionDenied):
        response_status = status.HTTP_403_FORBIDDEN
        body = error_body("permission_denied", str(exceptions.PermissionDenied.default_detail))
    elif isinstance(exc, exceptions.APIException):
        response_status = exc.status_code
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        body = error_body(code, str(exc.detail))
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))  # type: ignore[attr-defined]
    elif isinstance(exc, ProtectedError | RestrictedError):
        response_status = status.HTTP_409_CONFLICT
        body = error_body("in_use", _("This is still in use and cannot be deleted."))
    elif isinstance(exc, IntegrityError):
        # A concurrent request won a uniqueness race that validation had checked before.
        response_status = status.HTTP_409_CONFLICT
        body = error_body("conflict", _("This conflicts with a change made at the same time."))
    else:
        return None
    set_rollback()
    return Response(body, status=response_status, headers=headers)


class ErrorDetailSerializer(serializers.Serializer):
    """Schema only."""

    code = serializers.CharField()
    field = serializers.CharField(help_text="Input concerned (dotted path), or empty.")
    message = serializers.CharField(help_text="For people, in the request's language.")


class ErrorSerializer(serializers.Serializer):
    """Schema only: the body of every refusal."""

    error = ErrorDetailSerializer()


def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Addresses under /api/v1/ that do not exist: the error JSON, not an HTML page."""
    return JsonResponse(
        error_body("not_found", str(exceptions.NotFound.default_detail)), status=404
    )
