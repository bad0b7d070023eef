"""A gunicorn config that profiles the game entries a worker serves (cProfile, CPU time).

For the entry bench: ``bench/entry_bench.py --gunicorn-args "-c bench/gunicorn_profile.py"``.
Each worker profiles its ``POST .../games/`` requests, the answer's body included, and
writes the profile when it exits to ``$DOKO_PROFILE_DIR/entry.<pid>.prof`` (default: the
system's temporary directory). Read them together:

    .venv/bin/python -c "import glob, pstats; \\
        pstats.Stats(*glob.glob('/tmp/entry.*.prof')).sort_stats('cumtime').print_stats(60)"

The figures are cProfile's (many small calls weigh more than they cost without it); the
bench's CPU per game under it is not the product's. Not for the deploy.
"""

from __future__ import annotations

import cProfile
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from typing import Any

_profiles: dict[int, cProfile.Profile] = {}


def post_worker_init(worker: Any) -> None:
    app: Callable[..., Iterable[bytes]] = worker.wsgi
    profile = _profiles[os.getpid()] = cProfile.Profile(time.process_time)

    def profiled(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST" or not environ.get("PATH_INFO", "").endswith(
            "/games/"
        ):
            return app(environ, start_response)
        profile.enable()
        try:
            answer = app(environ, start_response)
            body = b"".join(answer)
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        finally:
            profile.disable()
        return [body]

    worker.wsgi = profiled


def worker_exit(server: Any, worker: Any) -> None:
    profile = _profiles.get(os.getpid())
    if profile is not None:
        folder = os.environ.get("DOKO_PROFILE_DIR", tempfile.gettempdir())
        profile.dump_stats(os.path.join(folder, f"entry.{os.getpid()}.prof"))
