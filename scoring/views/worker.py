"""The captain page's service worker (``/tisch/sw.js``): it keeps the captain page and its
static files on the phone so that a reload without a connection still shows the sheet and the
games waiting in the outbox. Served by a view, not as a static file, so that its scope covers
``/tisch/`` and its cache names change with the static files' (hashed) names."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views import View

#: The static files the captain page loads (templates/scoring/table_home.html: its stylesheet;
#: its script is inside the page, which the worker keeps in its pages' cache; and after it what
#: the outbox loads: the QR library, js-sha256 where there is no crypto.subtle).
CAPTAIN_STATIC = (
    "css/captain.css",
    "favicon.svg",
    "vendor/qrcode-generator/qrcode.min.js",
    "vendor/js-sha256/sha256.min.js",
)
#: The cache of captain pages (network first); the page adds itself to it on first load.
PAGES_CACHE = "doko-captain-pages-v1"
SCOPE = "/tisch/"


class CaptainWorkerView(View):
    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        files = [static(name) for name in CAPTAIN_STATIC]
        version = hashlib.sha256("\n".join(files).encode()).hexdigest()[:12]
        body = render_to_string(
            "scoring/sw.js",
            {"files": files, "static_cache": f"doko-static-{version}", "pages_cache": PAGES_CACHE,
             "scope": SCOPE, "static_prefix": settings.STATIC_URL},
        )  # fmt: skip
        response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
        response["Cache-Control"] = "no-cache"
        response["Service-Worker-Allowed"] = SCOPE
        return response
