"""What every API view shares: JSON in and out, the error JSON, strict input."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rest_framework import exceptions, serializers
from rest_framework.pagination import BasePagination
from rest_framework.parsers import BaseParser, JSONParser
from rest_framework.permissions import (
    AllowAny,
    BasePermission,
    OperandHolder,
    SingleOperandHolder,
)
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from common.api.errors import UNKNOWN_FIELD, api_exception_handler
from common.api.pagination import BoundedLimitOffsetPagination


class SafeJSONParser(JSONParser):
    """JSON that is too deeply nested is a parse error, not a crash."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise exceptions.ParseError() from exc


class ApiMixin:
    """JSON only; permissions are checked explicitly by each view (see ``access``)."""

    parser_classes: Sequence[type[BaseParser]] = [SafeJSONParser]
    renderer_classes: Sequence[type[BaseRenderer]] = [JSONRenderer]
    permission_classes: Sequence[type[BasePermission] | OperandHolder | SingleOperandHolder] = [
        AllowAny
    ]
    pagination_class: type[BasePagination] | None = BoundedLimitOffsetPagination

    def get_exception_handler(self) -> Callable[..., Any]:
        return api_exception_handler


class ApiView(ApiMixin, APIView):
    pass


class StrictSerializerMixin:
    """Refuse keys the serializer does not know (read-only fields are tolerated, so a
    client may send back what it read)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            known = set(self.fields)  # type: ignore[attr-defined]
            unknown = sorted(str(key) for key in data if key not in known)
            if unknown:
                raise serializers.ValidationError(
                    {
                        key: [exceptions.ErrorDetail(str(UNKNOWN_FIELD), code="unknown_field")]
                        for key in unknown
                    }
                )
        return super().to_internal_value(data)  # type: ignore[misc]


class StrictSerializer(StrictSerializerMixin, serializers.Serializer[Any]):
    pass


def validated(serializer_class: type[serializers.Serializer[Any]], data: Any, **kwargs: Any) -> Any:
    """Parse ``data`` with ``serializer_class`` or raise its validation error."""
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
