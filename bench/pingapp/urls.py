"""Routes of the ping app, included under ``/api/v1/`` by ``config/api_urls.py``."""

from __future__ import annotations

from django.urls import path

from bench.pingapp.views import PingView

urlpatterns = [
    path("bench/ping/", PingView.as_view(), name="bench-ping"),
]
