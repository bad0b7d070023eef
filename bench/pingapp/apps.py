from __future__ import annotations

from django.apps import AppConfig
from django.conf import settings

COUNTER = "bench.pingapp.statements.StatementCountMiddleware"


class PingAppConfig(AppConfig):
    name = "bench.pingapp"
    label = "bench_ping"
    verbose_name = "Benchmark ping"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Outermost, so that it sees every statement of the request (sessions and
        # authentication included). Put here rather than in config/settings.py: the
        # DOKO_BENCH block there runs before MIDDLEWARE is defined, and the handler reads
        # MIDDLEWARE only after the apps are ready.
        if COUNTER not in settings.MIDDLEWARE:
            settings.MIDDLEWARE = [COUNTER, *settings.MIDDLEWARE]
