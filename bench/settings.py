"""Settings of the entry bench (``bench/entry_bench.py``): the project's own settings plus
the one-row-insert endpoint it compares game entry with, and the server-side statement
counter as the outermost middleware (it sees every statement of a request, sessions and
authentication included). The product's settings know nothing of either."""

from config.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "bench.pingapp"]  # noqa: F405
MIDDLEWARE = ["bench.pingapp.statements.StatementCountMiddleware", *MIDDLEWARE]  # noqa: F405
ROOT_URLCONF = "bench.urls"
