"""The Content-Security-Policy header built once per process (config/csp.py) is the one
django-csp builds for every answer, follows the settings and leaves django-csp's own ways
(nonces, a view's changes, exemptions, excluded paths) as they were."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONE, SELF
from csp.decorators import csp_exempt, csp_update
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from config.csp import CSPMiddleware

POLICY = {"DIRECTIVES": {"default-src": [SELF], "object-src": [NONE]}}


def answer(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


def headers(
    middleware: type[DjangoCSPMiddleware],
    path: str = "/",
    view: Callable[[HttpRequest], HttpResponse] = answer,
) -> dict[str, str]:
    response = middleware(view)(RequestFactory().get(path))
    return {k: response[k] for k in (HEADER, HEADER_REPORT_ONLY) if k in response}


@pytest.mark.parametrize("path", ["/", "/api/v1/captain/"])
def test_the_kept_header_is_django_csps(path: str) -> None:
    assert headers(CSPMiddleware, path) == headers(DjangoCSPMiddleware, path)
    assert "default-src 'self'" in headers(CSPMiddleware, path)[HEADER]


def test_the_header_follows_the_settings(settings) -> None:  # type: ignore[no-untyped-def]
    before = headers(CSPMiddleware)[HEADER]
    settings.CONTENT_SECURITY_POLICY = POLICY
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {
        "DIRECTIVES": {"script-src": [SELF]},
        "EXCLUDE_URL_PREFIXES": ["/quiet/"],
    }
    changed = headers(CSPMiddleware)
    assert changed[HEADER] != before and "object-src 'none'" in changed[HEADER]
    assert changed == headers(DjangoCSPMiddleware)
    assert HEADER_REPORT_ONLY in changed
    assert headers(CSPMiddleware, "/quiet/x") == headers(DjangoCSPMiddleware, "/quiet/x")
    assert HEADER_REPORT_ONLY not in headers(CSPMiddleware, "/quiet/x")


def test_a_nonce_a_views_change_and_an_exemption_take_django_csps_way() -> None:
    def with_nonce(request: HttpRequest) -> HttpResponse:
        return HttpResponse(str(request.csp_nonce))  # type: ignore[attr-defined]

    nonced = headers(CSPMiddleware, view=with_nonce)[HEADER]
    # The project's policy allows a nonce for scripts (the captain page's own) where it is used.
    assert "script-src 'self' 'nonce-" in nonced and "'nonce-" not in headers(CSPMiddleware)[HEADER]
    updated = csp_update({"img-src": "https://example.org"})(answer)
    assert "https://example.org" in headers(CSPMiddleware, view=updated)[HEADER]
    assert "https://example.org" not in headers(CSPMiddleware)[HEADER]
    assert headers(CSPMiddleware, view=csp_exempt()(answer)) == {}


def test_a_nonce_asked_for_after_the_header_is_an_error() -> None:
    request = RequestFactory().get("/")
    CSPMiddleware(lambda r: HttpResponse("ok"))(request)
    with pytest.raises(Exception, match="csp_nonce"):
        str(request.csp_nonce)  # type: ignore[attr-defined]


def test_an_answer_that_has_the_header_keeps_it() -> None:
    def own(request: HttpRequest) -> HttpResponse:
        response = HttpResponse("ok")
        response[HEADER] = "default-src 'none'"
        return response

    assert headers(CSPMiddleware, view=own)[HEADER] == "default-src 'none'"
