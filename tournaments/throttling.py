"""Refusing guessers, never the honest.

* Logins: django-axes counts wrong passwords per account (database handler, so every web
  process shares the count and the time-out follows the database clock), and per device
  (address and browser) against one password tried on many accounts. After
  ``LOGIN_FAILURE_LIMIT`` wrong passwords the account is locked for ``LOGIN_COOLOFF_MINUTES``,
  even for the right password; ``login_locked_out`` shows that on the login page.

  Known devices are exempt (``AXES_WHITELIST_CALLABLE = known_device_login``): a browser in
  which the account logged in before carries a signed cookie naming the account. Whoever
  shares the hall's address and a common phone's browser can lock the account and the
  device for everyone else, never for the organizer's own phone or laptop, and the
  organizer's next login there clears the lock (``AXES_RESET_ON_SUCCESS``). A stolen cookie
  buys no unlimited guessing: a known device's own wrong passwords are counted too, and past
  the same limit within the cool-down it is treated as any other device.
* Links and credentials: ``FailedCredentialsMiddleware`` counts, per client address and in
  the cache, only requests that FAILED: an unknown captain link (``/tisch/<token>/...``), an
  unknown team captain link (``/mannschaft/<token>/``), an unknown self-registration link,
  and API requests whose credentials (table token, API token, basic auth) were refused.
  Past ``TOKEN_FAILURE_LIMIT`` failures in a window of ``TOKEN_FAILURE_WINDOW`` seconds,
  further failures are answered 429.

  A request with valid credentials is never counted and never refused: 250 tables entering
  through one hall's NAT address must not lock each other out because one phone mistyped.
  Guessing stays hopeless anyway (tokens have 128 random bits); the limit stops scanning
  and the load it causes, and makes it visible in the log.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_client_username
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core import signing
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.urls import ResolverMatch
from django.utils.translation import ngettext

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
    message = ngettext(
        "Too many wrong passwords for this account. Logging in is blocked for %(minutes)d "
        "minute; please try again later.",
        "Too many wrong passwords for this account. Logging in is blocked for %(minutes)d "
        "minutes; please try again later.",
        minutes,
    ) % {"minutes": minutes}
    return render(
        request,
        "registration/login.html",
        {"form": form, "locked_out": message, "next": request.POST.get("next", "")},
        status=429,
    )


#: The cookie that makes a browser a known device of one account.
DEVICE_COOKIE = "doko_device"
DEVICE_SALT = "tournaments.throttling.known-device"
DEVICE_MAX_AGE = 365 * 24 * 3600


def _device(request: HttpRequest) -> tuple[int, str] | None:
    """(account id, device id) of the request's valid known-device cookie, if any."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return None
    try:
        value = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
        return int(value["u"]), str(value["d"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def _device_key(device_id: str) -> str:
    return f"doko:device-failures:{device_id}"


def _known_device_of(request: HttpRequest, credentials: Any) -> str | None:
    """The device id when the request comes from a known device of the account it names."""
    device = _device(request)
    username = get_client_username(request, credentials)
    if device is None or not username:
        return None
    user_model = get_user_model()
    if not user_model._default_manager.filter(
        pk=device[0], **{user_model.USERNAME_FIELD: username}
    ).exists():
        return None
    return device[1]


def known_device_login(request: HttpRequest, credentials: Any = None) -> bool:
    """AXES_WHITELIST_CALLABLE: a login from a known device of the account is not locked
    out (and axes does not count it) while the device's own failures stay under the limit."""
    device_id = _known_device_of(request, credentials)
    if device_id is None:
        return False
    failures = cache.get(_device_key(device_id), 0)
    return isinstance(failures, int) and failures < settings.AXES_FAILURE_LIMIT


@receiver(user_login_failed, dispatch_uid="doko-known-device-failure")
def _count_known_device_failure(
    sender: object, credentials: Any, request: HttpRequest | None = None, **kwargs: Any
) -> None:
    if request is None:
        return
    device_id = _known_device_of(request, credentials)
    if device_id is None:
        return
    key, timeout = _device_key(device_id), int(settings.AXES_COOLOFF_TIME.total_seconds())
    cache.add(key, 0, timeout=timeout)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=timeout)


@receiver(user_logged_in, dispatch_uid="doko-known-device-login")
def _remember_device(sender: object, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Marks the request so that ``KnownDeviceMiddleware`` sets the cookie on the answer."""
    if request is not None:
        request.doko_known_device = user.pk  # type: ignore[attr-defined]


class KnownDeviceMiddleware:
    """After a login over HTTP, makes the browser a known device of the account."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        user_pk = getattr(request, "doko_known_device", None)
        if user_pk is None:
            return response
        device = _device(request)
        device_id = device[1] if device is not None and device[0] == user_pk else None
        if device_id is not None:
            cache.delete(_device_key(device_id))  # its own failures are forgiven
        else:
            device_id = secrets.token_urlsafe(12)
        response.set_cookie(
            DEVICE_COOKIE,
            signing.dumps({"u": user_pk, "d": device_id}, salt=DEVICE_SALT),
            max_age=DEVICE_MAX_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
        return response


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
    if match.namespace == "teams" and match.url_name == "captain":
        return True  # the team captain's page answers 404 only for an unknown token
    return match.namespace == "tournaments" and match.url_name == "self-register"


def _refusal(request: HttpRequest, retry_after: int) -> HttpResponse:
    minutes = math.ceil(retry_after / 60)
    message = ngettext(
        "Too many invalid links or credentials from your network. Please wait %(minutes)d "
        "minute and check the link or credentials.",
        "Too many invalid links or credentials from your network. Please wait %(minutes)d "
        "minutes and check the link or credentials.",
        minutes,
    ) % {"minutes": minutes}
    response: HttpResponse
    match: ResolverMatch | None = getattr(request, "resolver_match", None)
    if match is not None and match.view_name == "scoring:captain-outbox":  # answers JSON only
        response = JsonResponse({"status": "error", "code": "throttled", "message": message})
        response.status_code = 429
    elif request.path.startswith("/api/"):
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
