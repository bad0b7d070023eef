from __future__ import annotations

from django.apps import AppConfig


class PingAppConfig(AppConfig):
    name = "bench.pingapp"
    label = "bench_ping"
    verbose_name = "Benchmark ping"
    default_auto_field = "django.db.models.BigAutoField"
