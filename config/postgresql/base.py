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
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        conn = self.connection
        if conn is None or conn.closed or conn.pgconn.status != pq.ConnStatus.OK:
            return False
        if not _readable(conn.pgconn.socket):
            return True
        return bool(super().is_usable())


def _readable(fd: int) -> bool:
    """Whether the socket has something to read (or is closed) right now, without waiting."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))
