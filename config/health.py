"""Health of what the pages need: the database and its migrations, the static files
manifest (when DEBUG is off), the shared cache and the broker when they are configured. 200
with ``"status": "ok"``, or 503 with ``"failed"`` naming the checks that failed. While the
cache (Redis) is down the pages still work from each process's memory, but the failed-link
counters are no longer shared and PDFs wait: the check names it so that someone looks."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.cache import caches
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config.cache import FallbackRedisCache


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor}


def check_migrations() -> dict[str, Any]:
    """Every migration of this code is applied (else pages fail on missing columns)."""
    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    if plan:
        apps = sorted({migration.app_label for migration, _backwards in plan})
        return {"ok": False, "error": "unapplied migrations", "unapplied": len(plan), "apps": apps}
    return {"ok": True}


def check_static() -> dict[str, Any] | None:
    """With DEBUG off, every page's {% static %} looks its file up in the manifest that
    ``collectstatic`` writes; without it each page answers 500. None when not needed."""
    if settings.DEBUG or not isinstance(staticfiles_storage, ManifestFilesMixin):
        return None
    storage: Any = staticfiles_storage
    try:
        present = storage.manifest_storage.exists(storage.manifest_name)
    except OSError as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    if not present:
        return {"ok": False, "error": "static files manifest missing; run collectstatic"}
    return {"ok": True}


def check_cache() -> dict[str, Any] | None:
    """Redis as the shared cache; None when the cache is each process's memory."""
    cache = caches["default"]
    if not isinstance(cache, FallbackRedisCache):
        return None
    if not cache.ping():
        return {"ok": False, "error": "unreachable; answering from process memory"}
    return {"ok": True}


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
    checks: dict[str, dict[str, Any] | None] = {
        "database": database,
        # Without a database the migration state is unknown; the database check names it.
        "migrations": check_migrations() if database["ok"] else None,
        "static": check_static(),
        "cache": check_cache(),
        "broker": check_broker(),
    }
    failed = [name for name, result in checks.items() if result is not None and not result["ok"]]
    body: dict[str, Any] = {"status": "unavailable" if failed else "ok", **checks}
    if failed:
        body["failed"] = failed
    return JsonResponse(body, status=503 if failed else 200)
