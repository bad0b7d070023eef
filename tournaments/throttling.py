"""Refusing guessers, never the honest.

* Logins: django-axes counts wrong passwords per account (database handler, so every web
  process shares the count and the time-out follows the database clock). After
  ``LOGIN_FAILURE_LIMIT`` wrong passwords the account is locked for ``LOGIN_COOLOFF_MINUTES``,
  even for the right password; ``login_locked_out`` shows that on the login page.
* Links and credentials: ``FailedCredentialsMiddleware`` counts, per client address and in
  the cache, only requests that FAILED: an unknown captain link (``/tisch/<token>/...``), an
  unknown self-registration link, and API requests whose credentials (table token, API
  token, basic auth) were refused. Past ``TOKEN_FAILURE_LIMIT`` failures in a window of
  ``TOKEN_FAILURE_WINDOW`` seconds, further failures are answered 429.

  A request with valid credentials is never counted and never refused: 250 tables entering
  through one hall's NAT address must not lock each other out because one phone mistyped.
  Guessing stays hopeless anyway (tokens have 128 random bits); the limit stops scanning
  and the load it causes, and makes it visible in the log.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.urls import ResolverMatch
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

# Error codes of the API for credentials that were checked and refused: DRF's token and
# basic authentication, the table token (scoring.api.authentication).
REFUSED_CREDENTIALS = frozenset({"authentication_failed", "invalid_table_token"})


class LoginAttemptsBackend(AxesStandaloneBackend):
    """Axes' lockout check for every login over HTTP. Callers without a request (the test
    client's ``login``, management commands) are not attempts from outside and pass through
    to the next backend unchecked."""

    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)  # type: ignore[no-any-return]


def login_locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The login page again, with the lockout said plainly (AXES_LOCKOUT_CALLABLE)."""
    minutes = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    username = request.POST.get("username", "") if request.method == "POST" else ""
    form = AuthenticationForm(request, initial={"username": username})
    message = _(
        "Too many wrong passwords for this account. Logging in is blocked for %(minutes)d "
        "minutes; please try again later."
    ) % {"minutes": minutes}
    return render(
        request,
        "registration/login.html",
        {"form": form, "locked_out": message, "next": request.POST.get("next", "")},
        status=429,
    )


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind ``TRUSTED_PROXY_COUNT`` reverse proxies
    the address the outermost of them saw (counted from the right of X-Forwarded-For)."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        header: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
        forwarded = [part.strip() for part in header.split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


def _window() -> tuple[int, int]:
    """(number of the current window, seconds until it ends)."""
    length = settings.TOKEN_FAILURE_WINDOW
    now = time.time()
    return int(now // length), max(1, math.ceil(length - now % length))


def record_failure(request: HttpRequest) -> int:
    """Count one failure of the client's address; returns the count in this window."""
    number, _rest = _window()
    key = f"doko:credential-failures:{client_address(request)}:{number}"
    timeout = 2 * settings.TOKEN_FAILURE_WINDOW
    cache.add(key, 0, timeout=timeout)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1


def _captain_token_unknown(token: str) -> bool:
    from tournaments.models import Table

    return not Table.objects.filter(captain_token=token).exists()


def _failed(request: HttpRequest, response: HttpResponseBase) -> bool:
    status = response.status_code
    if request.path.startswith("/api/"):
        # Only credentials that were checked and refused; "not authenticated" (none given,
        # or valid ones that this view does not take) is no guess.
        if status != 401 or "HTTP_AUTHORIZATION" not in request.META:
            return False
        try:
            code: object = json.loads(getattr(response, "content", b""))["error"]["code"]
        except (ValueError, KeyError, TypeError):
            return False
        return code in REFUSED_CREDENTIALS
    match: ResolverMatch | None = getattr(request, "resolver_match", None)
    if status != 404 or match is None:
        return False
    if match.namespace == "scoring" and (match.url_name or "").startswith("captain"):
        return _captain_token_unknown(str(match.kwargs.get("token", "")))
    return match.namespace == "tournaments" and match.url_name == "self-register"


def _refusal(request: HttpRequest, retry_after: int) -> HttpResponse:
    minutes = math.ceil(retry_after / 60)
    message = _(
        "Too many invalid links or credentials from your network. Please wait %(minutes)d "
        "minutes and check the link or credentials."
    ) % {"minutes": minutes}
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {"error": {"code": "throttled", "field": "", "message": message}}, status=429
        )
    else:
        response = render(
            request, "tournaments/too_many_failures.html", {"message": message}, status=429
        )
    response["Retry-After"] = str(retry_after)
    return response


class FailedCredentialsMiddleware:
    """Counts failed links and credentials per address; refuses further failures past the
    limit with 429. Successful requests pass untouched (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if not _failed(request, response):
            return response
        count = record_failure(request)
        if count <= settings.TOKEN_FAILURE_LIMIT:
            return response
        if count == settings.TOKEN_FAILURE_LIMIT + 1:
            logger.warning(
                "Credential failures from %s passed %d: refusing further failures",
                client_address(request),
                settings.TOKEN_FAILURE_LIMIT,
            )
        return _refusal(request, _window()[1])
