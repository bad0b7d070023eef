"""OPTIONS answers: name, description and formats, without introspecting serializers
(DRF's default metadata needs a queryset on every view and failed with a 500 on ours)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.metadata import BaseMetadata

if TYPE_CHECKING:  # rest_framework.views imports this module while it loads
    from rest_framework.request import Request
    from rest_framework.views import APIView


class BasicMetadata(BaseMetadata):
    def determine_metadata(self, request: Request, view: APIView) -> dict[str, Any]:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
        }
