"""A database that does not answer is an outage, not a bug: 503 with ``Retry-After``.

Without this, every request during a PostgreSQL restart or failover was a 500 with a full
traceback in the log (hundreds a second in a busy hall), and phones were told nothing about
when to try again. ``DatabaseOutageMiddleware`` answers a request whose view met an
unreachable database with 503 and ``Retry-After`` (the error JSON under ``/api/``, a short
page elsewhere) and logs one line for it, no traceback.

Only errors that say the database cannot be reached count: connection refused, the server
closing the connection, "the database system is starting up", too many connections. Every
other database error (a deadlock, a statement timeout, a missing table, a constraint) stays
what it is, a 500 with its traceback: those are bugs or problems to look at.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

#: Seconds a client is asked to wait: a restart or failover takes some seconds.
RETRY_AFTER = 10

# SQLSTATE classes and codes of PostgreSQL that mean "cannot talk to the database now":
# 08 connection exception, 57P01-57P03 shutdown/cannot connect now, 53300 too many
# connections.
_UNREACHABLE_STATES = frozenset({"57P01", "57P02", "57P03", "53300"})
# SQLite: the file cannot be opened (a missing volume).
_SQLITE_UNREACHABLE = frozenset({"SQLITE_CANTOPEN"})


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached (rather than a bug)."""
    if isinstance(exc, InterfaceError):
        return True  # the connection is closed or unusable
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    sqlite_name = getattr(cause, "sqlite_errorname", None)
    if sqlite_name is not None:
        return sqlite_name in _SQLITE_UNREACHABLE
    state = getattr(cause, "sqlstate", None)
    if state is None:
        # psycopg reports refused or broken connections without a SQLSTATE (libpq's own
        # errors); an OperationalError we made ourselves (tests) has no cause at all.
        return cause is None or type(cause).__module__.startswith("psycopg")
    return str(state).startswith("08") or state in _UNREACHABLE_STATES


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: the error JSON under /api/, a page without the database else."""
    message = _("The database cannot be reached at the moment. Please try again in a few seconds.")
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {"error": {"code": "service_unavailable", "field": "", "message": message}},
            status=503,
        )
    else:
        # No request context: the context processors would ask the database for the user.
        html = render_to_string("503.html", {"message": message, "retry_after": RETRY_AFTER})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    # Django logs every 5xx once more ("Service Unavailable: /path"); the line below is it.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


class DatabaseOutageMiddleware:
    """Turns a view's "database unreachable" into 503 with Retry-After and one log line."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_outage(exception):
            return None  # a bug or another problem: Django's 500 with its traceback
        first_line = str(exception).strip().splitlines()[0] if str(exception).strip() else ""
        logger.error(
            "Database unavailable (%s: %s): %s %s answered 503",
            type(exception).__name__,
            first_line,
            request.method,
            request.path,
        )
        return unavailable_response(request)
