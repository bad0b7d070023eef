"""Counts the SQL statements each request makes and answers them in response headers.

Installed by ``bench/settings.py`` (never by the product's settings) as the outermost
middleware: it sees everything the request does, the authentication and session queries
included. The count is taken at the driver: every psycopg cursor ``execute`` of the request
(Django's queries, savepoints, the connection health check ``SELECT 1``, the ``SET TIME
ZONE`` of a new connection), plus the ``BEGIN`` psycopg sends before the first statement of
a transaction and the ``COMMIT``/``ROLLBACK`` that ends it. Headers:

- ``X-Bench-Statements``: all of them, ``BEGIN`` and ``COMMIT`` included;
- ``X-Bench-Transactions``: how many of those transactions there were (each one ``BEGIN``
  and one ``COMMIT``/``ROLLBACK`` in the count above);
- ``X-Bench-Connects``: new database connections opened by the request.

Trace mode, for finding out which statements a request makes: when the server runs with
``DOKO_BENCH_TRACE=<file>`` and a request carries ``X-Bench-Trace: 1``, the middleware
appends one JSON line to that file with every statement, the project code that issued it,
and the number of statements libpq itself sent (``PQtrace``), as a check on the count.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connections
from django.http import HttpRequest, HttpResponse

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
MARK = "_bench_counting"


class Tally(threading.local):
    """The statements of the request running in this thread."""

    def __init__(self) -> None:
        self.statements = 0
        self.transactions = 0
        self.connects = 0
        self.trace: list[dict[str, str]] | None = None

    def reset(self, trace: bool) -> None:
        self.statements = self.transactions = self.connects = 0
        self.trace = [] if trace else None

    def note(self, sql: str, begin: bool = False) -> None:
        self.statements += 1
        if self.trace is not None:
            origin = issuer()
            self.trace.append(
                {"sql": sql, "origin": f"implicit, before {origin}" if begin else origin}
            )


tally = Tally()


#: Django frames that explain a statement better than the project code around them.
WHY = {
    "close_if_health_check_failed": "connection health check (CONN_HEALTH_CHECKS), "
    "before the request's first query",
    "_configure_connection": "setting up a new connection",
}


def issuer() -> str:
    """The innermost frame of project code (not Django, DRF, psycopg or this module), and
    why Django sent the statement when that is not the project's query."""
    stack = traceback.extract_stack()[:-2]
    why = next((WHY[f.name] for f in reversed(stack) if f.name in WHY), "")
    for frame in reversed(stack):
        path = Path(frame.filename)
        if not path.is_relative_to(ROOT) or ".venv" in path.parts or path == HERE:
            continue
        where = f"{path.relative_to(ROOT)}:{frame.lineno} {frame.name}"
        return f"{why}; in {where}" if why else where
    return why or "(framework)"


def _text(query: Any) -> str:
    if isinstance(query, bytes):
        return query.decode(errors="replace")
    if isinstance(query, str):
        return query
    return repr(query)  # a psycopg.sql.Composable


def _idle(raw: Any) -> bool:
    from psycopg.pq import TransactionStatus

    return bool(raw.info.transaction_status == TransactionStatus.IDLE)


def _begins(raw: Any) -> bool:
    """Whether psycopg will send BEGIN before the next statement."""
    return not raw.autocommit and _idle(raw)


def counting_factory(base: type[Any]) -> type[Any]:
    """A subclass of the connection's cursor class that notes what it executes."""

    def execute(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        if _begins(self.connection):
            tally.transactions += 1
            tally.note("BEGIN", begin=True)
        tally.note(_text(query))
        return base.execute(self, query, params, **kwargs)

    def executemany(self: Any, query: Any, params_seq: Any, **kwargs: Any) -> Any:
        params_seq = list(params_seq)
        if params_seq and _begins(self.connection):
            tally.transactions += 1
            tally.note("BEGIN", begin=True)
        for _ in params_seq:
            tally.note(_text(query))
        return base.executemany(self, query, params_seq, **kwargs)

    return type(
        f"Counting{base.__name__}", (base,), {"execute": execute, "executemany": executemany}
    )


def instrument(raw: Any) -> Any:
    """Count on a new psycopg connection: its cursors, its COMMIT and ROLLBACK."""
    if getattr(raw, MARK, False):
        return raw
    raw.cursor_factory = counting_factory(raw.cursor_factory)
    for name in ("commit", "rollback"):
        original = getattr(raw, name)

        def end(original: Callable[[], None] = original, word: str = name.upper()) -> None:
            if not _idle(raw):
                tally.note(word)
            original()

        setattr(raw, name, end)
    setattr(raw, MARK, True)
    return raw


def instrument_wrapper(wrapper: Any) -> None:
    """Make this Django connection instrument every psycopg connection it opens (only
    PostgreSQL: elsewhere the answers carry no count)."""
    if getattr(wrapper, MARK, False) or wrapper.vendor != "postgresql":
        return
    original = wrapper.get_new_connection

    def get_new_connection(conn_params: dict[str, Any]) -> Any:
        tally.connects += 1
        return instrument(original(conn_params))

    wrapper.get_new_connection = get_new_connection
    # The backend's prepared cursors (``config/postgresql/base.py``) are made from a class,
    # not from the connection's factory: count theirs too.
    from config.postgresql import base

    if not getattr(base.PreparedCursor, MARK, False):
        counting = counting_factory(base.PreparedCursor)
        setattr(counting, MARK, True)
        base.PreparedCursor = counting  # type: ignore[misc]  # a class, replaced
    if wrapper.connection is not None:
        instrument(wrapper.connection)
    setattr(wrapper, MARK, True)


def libpq_sent(path: str) -> int:
    """Statements in a PQtrace file: frontend Query (simple protocol) and Execute messages."""
    sent = 0
    for entry in Path(path).read_text(errors="replace").splitlines():
        fields = entry.split("\t")
        if "F" in fields[:2] and re.search(r"\t(Query|Execute)\t", entry):
            sent += 1
    return sent


class StatementCountMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.trace_file = os.environ.get("DOKO_BENCH_TRACE", "")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        default = connections["default"]  # the only database the project uses
        instrument_wrapper(default)
        if not getattr(default, MARK, False):
            return self.get_response(request)
        trace = bool(self.trace_file and request.headers.get("X-Bench-Trace"))
        tally.reset(trace)
        response = self.traced(request, default) if trace else self.get_response(request)
        response["X-Bench-Statements"] = str(tally.statements)
        response["X-Bench-Transactions"] = str(tally.transactions)
        response["X-Bench-Connects"] = str(tally.connects)
        return response

    def traced(self, request: HttpRequest, default: Any) -> HttpResponse:
        """The request with its statements written to the trace file; libpq's own trace of
        the connection (if it is open at the start) checks the count."""
        import psycopg

        raw = default.connection
        with tempfile.NamedTemporaryFile("w+b", suffix=".pqtrace") as pqtrace:
            if raw is not None:
                raw.pgconn.trace(os.dup(pqtrace.fileno()))  # libpq closes it
                raw.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
            try:
                response = self.get_response(request)
            finally:
                if raw is not None:
                    raw.pgconn.untrace()
            sent = (
                libpq_sent(pqtrace.name) if raw is not None and raw is default.connection else None
            )
        entry = {
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "statements": tally.statements,
            "transactions": tally.transactions,
            "connects": tally.connects,
            "libpq_sent": sent,
            "trace": tally.trace,
        }
        with open(self.trace_file, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")
        return response
