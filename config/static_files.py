"""How the app serves its own static files (WhiteNoise, as in hall mode): a file under its
hashed name never changes, so a phone keeps it for a year without asking again; the deploy's
nginx sends the same header (deploy/nginx/doko.conf)."""

from __future__ import annotations

from wsgiref.headers import Headers

#: The Cache-Control of a static file under its hashed name, here and in nginx alike.
IMMUTABLE = "public, max-age=31536000, immutable"


def add_headers(headers: Headers, path: str, url: str) -> None:
    """WhiteNoise's hook (WHITENOISE_ADD_HEADERS_FUNCTION), called after it has set its own
    Cache-Control: a hashed name gets a year, as from nginx, instead of WhiteNoise's ten."""
    if "immutable" in (headers.get("Cache-Control") or ""):
        headers["Cache-Control"] = IMMUTABLE
