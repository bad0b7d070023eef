"""Static files as the app serves them itself with DEBUG off (hall mode; WhiteNoise): under
hashed names, precompressed, kept a year; and pages gzipped for whoever accepts it."""

from __future__ import annotations

import gzip
import re

import brotli
import pytest
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client

from config.static_files import IMMUTABLE

pytestmark = pytest.mark.django_db


@pytest.fixture
def collected(settings, tmp_path):
    """collectstatic with the storage of deploy and hall mode, into a folder of its own."""
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path / "staticfiles"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    # Only our own files: the admin's and the API browser's would take minutes to compress.
    others = ["admin", "rest_framework", "drf_spectacular_sidecar"]
    call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=others)
    return settings.STATIC_ROOT


def test_a_hashed_name_comes_compressed_and_is_kept_a_year(collected) -> None:
    url = static("css/app.css")
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", url), url
    original = (collected / "css" / "app.css").read_bytes()
    client = Client()  # its WhiteNoise reads the folder above when it starts

    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(response.streaming_content)) == original
    assert response["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"
    assert "Accept-Encoding" in response["Vary"]

    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert response["Content-Encoding"] == "br"
    assert brotli.decompress(b"".join(response.streaming_content)) == original

    response = client.get(url)
    assert not response.has_header("Content-Encoding")
    assert b"".join(response.streaming_content) == original


def test_a_name_without_hash_is_not_kept_for_good(collected) -> None:
    response = Client().get("/static/css/app.css", HTTP_ACCEPT_ENCODING="gzip")
    response.close()
    assert response.status_code == 200
    assert "immutable" not in response["Cache-Control"]


def test_pages_are_gzipped_for_whoever_accepts_it(client: Client) -> None:
    response = client.get("/", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    assert b"Doko-Turnier" in gzip.decompress(response.content)
    assert not client.get("/").has_header("Content-Encoding")


def test_the_captain_pages_worker_keeps_the_hashed_names(collected) -> None:
    """The service worker caches the captain page's static files by URL: the hashed ones the
    page links, so a new release comes with new names and a new cache."""
    from scoring.views.worker import CAPTAIN_STATIC

    body = Client().get("/tisch/sw.js").content.decode()
    for name in CAPTAIN_STATIC:
        url = static(name)
        assert re.search(r"\.[0-9a-f]{12}\.", url), url
        assert f"'{url}'" in body
