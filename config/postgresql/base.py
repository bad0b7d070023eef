"""Django's PostgreSQL backend whose connection health check asks the server only when
the connection shows a sign of trouble.

Django's check (``CONN_HEALTH_CHECKS``) sends ``SELECT 1`` before the first query of every
request that reuses a connection: a round trip and a statement per request, to notice a
connection the server dropped (a restart, a failover, an administrator's terminate). A
server that drops a connection says so on its socket: it sends the reason (``FATAL``) and
closes it, so an idle connection's socket becomes readable. Here the check first looks at
the connection without the network (closed, or libpq no longer connected: unusable) and
at its socket (nothing to read: usable, as nothing was asked); only something to read on
an idle connection (the server's goodbye, or a notice) sends Django's ``SELECT 1``. A
server that vanishes without a word (a cut cable) is noticed by neither check before the
query itself fails, which ``config.outage`` answers with 503.

``prepared_cursor()`` is a cursor for the few statements every game entry sends (see
``common.sql.prepared_cursor``): it binds the parameters on the server and prepares each
statement on the connection, so PostgreSQL parses and plans it once per connection and
psycopg does not quote the values into the text. Every other query keeps Django's client-side
binding and is never prepared (Django turns psycopg's preparing off, for the sake of
connection poolers in transaction mode; the deploy has none: ``deploy/``).

Those prepared statements are planned once, too (``plan_cache_mode``, set when the
connection starts): PostgreSQL otherwise plans a prepared statement anew for its first five
executions and keeps doing so whenever its generic plan looks dearer than the plans for the
values, which it did for the entry's statements with their arrays and CTEs (about a quarter
of the backend's CPU per game). Their filters are equalities on indexed keys, whose plan does
not depend on the values. Only prepared statements have a plan cache, so no other query is
affected.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base, operations
from django.db.backends.utils import CursorWrapper
from psycopg import pq


class PreparedCursor(psycopg.Cursor[Any]):
    """Server-side binding; each statement prepared on its first execution (psycopg keeps
    the connection's last 100)."""

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("prepare", True)
        return super().execute(query, params, **kwargs)


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> str:
        """The SQL of a logged query (``DEBUG``, tests): a prepared cursor's with its values,
        as Django shows the others."""
        if not isinstance(cursor, PreparedCursor):
            return super().last_executed_query(cursor, sql, params)
        try:
            return self.compose_sql(sql, params)  # type: ignore[no-any-return]
        except psycopg.errors.DataError:
            return sql


#: The server's setting for every connection (libpq's ``options``).
GENERIC_PLANS = "-c plan_cache_mode=force_generic_plan"


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        given = str(params.get("options") or "")
        if "plan_cache_mode" not in given:  # a setting in DATABASES' OPTIONS wins
            params["options"] = f"{given} {GENERIC_PLANS}".strip()
        return params

    def is_usable(self) -> bool:
        conn = self.connection
        if conn is None or conn.closed or conn.pgconn.status != pq.ConnStatus.OK:
            return False
        if not _readable(conn.pgconn.socket):
            return True
        return bool(super().is_usable())

    def get_new_connection(self, conn_params: dict[str, Any]) -> psycopg.Connection[Any]:
        connection: psycopg.Connection[Any] = super().get_new_connection(conn_params)
        if connection.prepare_threshold is None:  # Django's default: psycopg prepares nothing
            # Only what a PreparedCursor asks for; no other statement ever by its count.
            connection.prepare_threshold = 2**31
        return connection

    def prepared_cursor(self) -> CursorWrapper:
        """Like ``cursor()``, with a ``PreparedCursor`` underneath."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            # Made by Django's own ``create_cursor`` (the backend's method behind ``cursor()``,
            # which also gives the cursor the connection's time zone when the settings
            # changed since it connected) with psycopg's public ``cursor_factory`` set to
            # ours for that one call: no private module of Django or psycopg is imported.
            factory = self.connection.cursor_factory
            self.connection.cursor_factory = PreparedCursor
            try:
                cursor = self.create_cursor()
            finally:
                self.connection.cursor_factory = factory
            # Wrapped as ``cursor()`` wraps (Django's private ``_prepare_cursor``), by the
            # wrapper's public parts: logged where queries are logged.
            self.validate_thread_sharing()
            if self.queries_logged:
                return self.make_debug_cursor(cursor)
            return self.make_cursor(cursor)


def _readable(fd: int) -> bool:
    """Whether the socket has something to read (or is closed) right now, without waiting."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))
