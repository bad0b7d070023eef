"""Shared pieces for the OpenAPI description."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from common.api.errors import ErrorSerializer, api_exception_handler


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


class JsonErrorsMixin:
    """For the schema and docs views (drf-spectacular's, which render YAML or HTML): their
    refusals (405, 406, ...) are the error JSON like every other answer under /api/v1/."""

    def get_exception_handler(self) -> Callable[..., Any]:
        return api_exception_handler

    def handle_exception(self, exc: Exception) -> Response:
        response: Response = super().handle_exception(exc)  # type: ignore[misc]
        request = self.request  # type: ignore[attr-defined]
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
        return response


class SchemaView(JsonErrorsMixin, SpectacularAPIView):
    pass


class DocsView(JsonErrorsMixin, SpectacularSwaggerSplitView):
    """Swagger UI whose start-up script is a separate file (no inline script under the
    Content-Security-Policy); the page template drops drf-spectacular's inline style."""

    template_name = "api/swagger_ui.html"


# drf-spectacular's extension base registers subclasses in an unannotated __init_subclass__.
class StrictSerializerExtension(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    """Serializers that refuse unknown keys (``StrictSerializerMixin``) say so in the
    schema: ``additionalProperties: false``, so clients and generated tests know it."""

    target_class = "common.api.base.StrictSerializerMixin"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        return schema
