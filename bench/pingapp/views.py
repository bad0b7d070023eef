"""``POST /api/v1/bench/ping/``: insert one row, answer 201 with its id."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bench.pingapp.models import PingRow


@extend_schema(exclude=True)
class PingView(APIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        row = PingRow.objects.create()
        return Response({"id": row.pk}, status=201)
