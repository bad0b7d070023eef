"""Liveness of the parts the application needs: the database and, when configured, the broker."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor}


def check_broker() -> dict[str, Any] | None:
    if not settings.CELERY_BROKER_URL:
        return None
    from config.celery import app

    try:
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # kombu raises many kinds; any of them means "down"
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True}


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    broker = check_broker()
    healthy = database["ok"] and (broker is None or broker["ok"])
    body = {"status": "ok" if healthy else "unavailable", "database": database, "broker": broker}
    return JsonResponse(body, status=200 if healthy else 503)
