"""Every answer under /api/ is the error JSON: every method, every status, Django's own error
pages (400, 403, 404, 500, CSRF failure) included. Elsewhere Django's pages stay HTML."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from common.api import errors
from tests.api.helpers import API
from tournaments.models import Table

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")
CHANGING = ("POST", "PUT", "PATCH", "DELETE")
PATH_VALUES = {"slug": "herbst", "number": "1", "table": "1", "game": "1", "start_number": "1",
               "id": "1", "season": "saison", "player": "1", "league": "liga", "team": "1",
               "group": "1", "call": "1", "club": "kreuz-ass", "user": "alice",
               "invitation": "1"}  # fmt: skip


def _request(client: Client, method: str, url: str, **extra: str):  # type: ignore[no-untyped-def]
    return client.generic(method, url, b"{}", content_type="application/json", **extra)


def assert_error_json(response, status: int, code: str | None = None) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code == status, (response.status_code, response.content[:200])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    if response.content:  # HEAD answers carry no body
        error = json.loads(response.content)["error"]
        assert set(error) >= {"code", "field", "message"} and error["message"]
        if code is not None:
            assert error["code"] == code


CSRF_SECRET = "csrf0token0for0tests0abcdefghijk"  # 32 letters and digits, as Django's
CSRF_HEADER = {"HTTP_X_CSRFTOKEN": CSRF_SECRET}


@pytest.fixture
def browser(alice: User) -> Client:
    """A logged-in browser: session cookie, and Django checks CSRF as it does in production
    (it holds the CSRF cookie; requests that send CSRF_HEADER pass the check)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.cookies["csrftoken"] = CSRF_SECRET
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("session", [False, True], ids=["anonymous", "session"])
@pytest.mark.parametrize(
    "url", [f"{API}/nothing/here/", f"{API}/tournaments", "/api/v2/tournaments/",
            "/api/", f"{API}/schema/nothing/", f"{API}/docs/nothing/"],
)  # fmt: skip
def test_unknown_address_answers_json_for_every_method(
    method: str, session: bool, url: str, alice: User
) -> None:
    client = Client(enforce_csrf_checks=True)
    if session:
        client.force_login(alice)
    assert_error_json(_request(client, method, url), 404, "not_found")


def _known_paths() -> list[tuple[str, frozenset[str]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    known = []
    for template, operations in schema["paths"].items():
        url = re.sub(r"\{(\w+)\}", lambda m: PATH_VALUES[m.group(1)], template)
        known.append((url, frozenset(method.upper() for method in operations)))
    return known


@pytest.mark.django_db
def test_wrong_methods_on_known_addresses_answer_405_json(
    alice_api: APIClient, browser: Client, table: Table
) -> None:
    known = _known_paths()
    assert len(known) > 15
    tried = 0
    for url, allowed in known:
        for method in METHODS:
            if method in allowed or (method in ("HEAD", "OPTIONS") and "GET" in allowed):
                continue
            if method == "OPTIONS":
                continue  # answered for every view (common.api.metadata)
            for client, extra in ((alice_api, {}), (browser, CSRF_HEADER)):
                response = _request(client, method, url, **extra)
                assert_error_json(response, 405, "method_not_allowed")
                tried += 1
    assert tried > 100


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("url", [f"{API}/schema/", f"{API}/docs/"])
def test_schema_and_docs_refuse_changes_with_json(
    method: str, url: str, public_api: APIClient
) -> None:
    assert_error_json(_request(public_api, method, url), 405, "method_not_allowed")


@pytest.mark.django_db
def test_schema_not_acceptable_is_json(public_api: APIClient) -> None:
    assert_error_json(
        public_api.get(f"{API}/schema/", HTTP_ACCEPT="text/html"), 406, "not_acceptable"
    )


@pytest.mark.django_db
def test_docs_page_loads_its_script_from_a_file(public_api: APIClient) -> None:
    page = public_api.get(f"{API}/docs/", HTTP_ACCEPT="text/html")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<style>" not in html and "?script=" in html
    script = public_api.get(f"{API}/docs/?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")


@pytest.mark.django_db
@pytest.mark.parametrize("method", CHANGING)
def test_session_without_csrf_token_answers_csrf_json(
    method: str, browser: Client, table: Table
) -> None:
    url = f"{API}/tournaments/herbst/"
    assert_error_json(_request(browser, method, url), 403, "csrf_failed")


@pytest.mark.django_db
def test_anonymous_change_answers_401_json(public_api: APIClient) -> None:
    assert_error_json(public_api.post(f"{API}/tournaments/", {}, format="json"), 401)


def test_csrf_failure_view_json_under_api_html_elsewhere() -> None:
    factory = RequestFactory()
    api = errors.csrf_failure(factory.post(f"{API}/tournaments/"), reason="CSRF cookie not set.")
    assert_error_json(api, 403, "csrf_failed")
    page = errors.csrf_failure(factory.post("/login/"), reason="CSRF cookie not set.")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_login_page_keeps_django_csrf_page() -> None:
    response = Client(enforce_csrf_checks=True).post("/login/", {"username": "x"})
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
def test_bad_host_answers_400_json(method: str) -> None:
    response = _request(Client(), method, f"{API}/tournaments/", HTTP_HOST="evil.example")
    assert_error_json(response, 400, "bad_request")
    page = Client().get("/turniere/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_too_large_body_answers_400_json(settings, alice_api: APIClient) -> None:  # type: ignore[no-untyped-def]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = alice_api.post(f"{API}/tournaments/", {"name": "x" * 500}, format="json")
    assert_error_json(response, 400)


@pytest.mark.django_db
def test_a_crash_answers_500_json_without_details(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments.api.views.tournaments import TournamentViewSet

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(TournamentViewSet, "list", crash)
    client = Client(raise_request_exception=False)
    response = client.get(f"{API}/tournaments/")
    assert_error_json(response, 500, "server_error")
    assert b"secret detail" not in response.content


def test_handlers_keep_html_outside_the_api() -> None:
    request = RequestFactory().get("/turniere/")
    for handler, status in ((errors.page_not_found, 404), (errors.permission_denied, 403),
                            (errors.bad_request, 400)):  # fmt: skip
        response = handler(request, Exception())
        assert response.status_code == status and response["Content-Type"].startswith("text/html")
    assert errors.server_error(request).status_code == 500
    assert_error_json(errors.permission_denied(RequestFactory().get(f"{API}/x/")), 403)
