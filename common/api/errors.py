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
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import csrf, defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from common.services import Refusal, ServiceError

UNKNOWN_FIELD = gettext_lazy("Unknown field.")
CSRF_FAILED = gettext_lazy(
    "The CSRF check failed. Send the X-CSRFToken header with the session cookie, "
    "or authenticate with a token."
)
_DRF_CSRF_PREFIX = "CSRF Failed:"  # rest_framework.authentication.SessionAuthentication


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


REFUSAL_STATUS = {
    Refusal.INVALID: status.HTTP_400_BAD_REQUEST,
    Refusal.FORBIDDEN: status.HTTP_403_FORBIDDEN,
    Refusal.NOT_FOUND: status.HTTP_404_NOT_FOUND,
    Refusal.CONFLICT: status.HTTP_409_CONFLICT,
}
#: The same key with other input: 422 as the IETF Idempotency-Key draft recommends.
CODE_STATUS = {"idempotency_key_reused": status.HTTP_422_UNPROCESSABLE_ENTITY}


def service_error_status(exc: ServiceError) -> int:
    return CODE_STATUS.get(exc.code) or REFUSAL_STATUS[exc.refusal]


def raise_service_error(
    exc: ServiceError,
    *,
    body: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> None:
    """Answer a refused use case with its error JSON (plus ``body``, e.g. the current state)."""
    raise ApiError(
        service_error_status(exc),
        exc.code,
        exc.message,
        field=exc.field or "",
        data=exc.data,
        body=body,
        headers=headers,
    ) from exc


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
    first: dict[str, Any] = dict(items[0])
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
        response_status = service_error_status(exc)
        body = error_body(exc.code, exc.message, exc.field or "", **exc.data)
    elif isinstance(exc, exceptions.ValidationError):
        response_status, body = status.HTTP_400_BAD_REQUEST, _validation_body(exc)
    elif isinstance(exc, exceptions.ParseError):
        response_status = status.HTTP_400_BAD_REQUEST
        body = error_body("invalid_json", str(exceptions.ParseError.default_detail))
    elif isinstance(exc, Http404):
        response_status = status.HTTP_404_NOT_FOUND
        body = error_body("not_found", str(exceptions.NotFound.default_detail))
    elif isinstance(exc, exceptions.PermissionDenied) and str(exc.detail).startswith(
        _DRF_CSRF_PREFIX
    ):
        # DRF's session authentication refused the CSRF token: the same answer as Django's
        # CSRF middleware gives (``csrf_failure``), with a message in the request's language.
        response_status = status.HTTP_403_FORBIDDEN
        body = error_body("csrf_failed", str(CSRF_FAILED))
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


class ErrorDetailSerializer(serializers.Serializer[Any]):
    """Schema only."""

    code = serializers.CharField()
    field = serializers.CharField(help_text="Input concerned (dotted path), or empty.")
    message = serializers.CharField(help_text="For people, in the request's language.")


class ErrorSerializer(serializers.Serializer[Any]):
    """Schema only: the body of every refusal."""

    error = ErrorDetailSerializer()


# Django's own error pages (handlers and the CSRF failure view) under this prefix answer the
# error JSON; everywhere else they stay the HTML pages.
API_PREFIX = "/api/"


def is_api_request(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _json(status_code: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(error_body(code, message), status=status_code)


@csrf_exempt
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Addresses under /api/v1/ that do not exist: the error JSON, not an HTML page, for
    every method (CSRF-exempt: an unknown address has nothing to protect, and a POST to it
    must not answer the CSRF page)."""
    return _json(404, "not_found", str(exceptions.NotFound.default_detail))


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: a suspicious request (bad Host header, body or form too large)."""
    if is_api_request(request):
        return _json(400, "bad_request", _("The request could not be understood."))
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler403``."""
    if is_api_request(request):
        return _json(403, "permission_denied", str(exceptions.PermissionDenied.default_detail))
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: also addresses under /api/ outside /api/v1/ (e.g. /api/v2/)."""
    if is_api_request(request):
        return _json(404, "not_found", str(exceptions.NotFound.default_detail))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a bug. The traceback goes to the log, never to the client."""
    if is_api_request(request):
        return _json(500, "server_error", str(exceptions.APIException.default_detail))
    return defaults.server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: under /api/ the error JSON instead of Django's HTML page."""
    if is_api_request(request):
        return _json(403, "csrf_failed", str(CSRF_FAILED))
    return csrf.csrf_failure(request, reason)
