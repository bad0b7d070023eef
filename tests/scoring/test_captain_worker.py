"""The captain page's service worker and the outbox's place on the page."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from tournaments.models import Table


def test_the_worker_is_javascript_scoped_to_the_captain_links(client: Client) -> None:
    response = client.get(reverse("scoring:captain-sw"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/tisch/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    # every static file of the captain page, under the names the page loads them by
    for name in ("vendor/qrcode-generator/qrcode.min.js", "css/captain.css"):
        assert f"'/static/{name}'" in body
    assert "captain.js" not in body  # the page carries its script inside
    assert "const STATIC_CACHE = 'doko-static-" in body
    assert "const PAGES_CACHE = 'doko-captain-pages-v1'" in body
    assert reverse("scoring:captain-sw") == "/tisch/sw.js"


def test_the_organizer_door_has_no_outbox(alice_client: Client, table: Table) -> None:
    url = reverse("scoring:sheet", args=[table.series.tournament.slug, table.pk])
    page = alice_client.get(url).content.decode()
    assert 'id="outbox"' not in page and "js/captain.js" not in page and "js/sheet.js" in page


def test_the_captain_page_carries_the_outbox_and_its_words(client: Client, table: Table) -> None:
    page = client.get(f"/tisch/{table.captain_token}/", HTTP_ACCEPT_LANGUAGE="de").content
    html = page.decode()
    assert 'id="sheet-data"' in html and 'id="outbox"' in html and "<script nonce=" in html
    assert 'data-t-pending="noch nicht gesendet"' in html
    assert 'data-t-dealer-later="Geber wird beim Senden bestimmt"' in html
    assert 'id="sheet-rows"' in html
    assert "<script>" not in html  # CSP: no inline script (json_script is type=application/json)


def test_the_worker_keeps_exactly_what_the_captain_page_loads(client: Client, table: Table) -> None:
    """The worker's list (scoring.views.worker.CAPTAIN_STATIC) follows the page: a file the
    page loads but the worker does not keep is missing offline; one it keeps but the page
    never loads costs a phone bytes for nothing."""
    from scoring.views.worker import CAPTAIN_STATIC

    html = client.get(f"/tisch/{table.captain_token}/").content.decode()
    # href, src, data-qrcode and data-sha256 (loaded by the outbox after the page)
    loaded = set(re.findall(r'(?:href|src|data-qrcode|data-sha256)="/static/([^"]+)"', html))
    assert loaded == set(CAPTAIN_STATIC)
