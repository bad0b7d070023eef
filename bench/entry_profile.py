"""Where an API game entry's server CPU goes: the entry bench's captains, in-process.

Builds the entry bench's tournament (``bench/entry_bench.py``: a throwaway PostgreSQL
database, four-player tables in a running series) and lets the captains enter their series
through Django's WSGI handler in this process (no HTTP, no gunicorn), with the product's
settings as deployed (``DEBUG`` off, behind a proxy that forwarded HTTPS). Prints the
process CPU time per entry (median and p90; PostgreSQL's share is not in it), then, with
``--profile``, cProfile's top functions by own time and the cumulative time of the stages
of a request (middleware, authentication, the service, the JSON render, ...). It is not a
test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/entry_profile.py --tables 8 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.entry_bench import HOST, Captain, build, postgres_url, throwaway_database

#: Stages of a request, by the function that runs them: (label, file part, function name).
STAGES = (
    ("whole request (WSGI handler)", "handlers/wsgi.py", "__call__"),
    ("  middleware before the view", "utils/deprecation.py", "__call__"),
    ("  DRF dispatch (the view)", "rest_framework/views.py", "dispatch"),
    ("    DRF initial: auth, permissions, throttles", "rest_framework/views.py", "initial"),
    ("    captain-token lookup", "scoring/api/authentication.py", "authenticate"),
    ("    request body parse", "rest_framework/request.py", "_parse"),
    ("    split_payload (reason check)", "scoring/api/views/games.py", "split_payload"),
    ("    save_game (the service)", "scoring/services/entry.py", "save_game"),
    ("      claim of the sheet", "scoring/services/entry.py", "claim_sheet"),
    ("      rules engine: complete", "rules/series.py", "complete"),
    ("      scores, totals, audit (save)", "scoring/services/series_totals.py", "save_with_totals"),
    ("      on commit", "django/db/backends/base/base.py", "run_and_clear_commit_hooks"),
    ("    finalize_response + render", "rest_framework/views.py", "finalize_response"),
    ("    JSON render", "rest_framework/renderers.py", "render"),
    ("  response close", "http/response.py", "close"),
)


class InProcess:
    """A client of Django's WSGI handler: the entry bench's ``Client.call`` in-process."""

    def __init__(self) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        self.handler = WSGIHandler()

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": HOST,
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": HOST,
            "HTTP_HOST": HOST,
            "HTTP_ACCEPT": "application/json",
            "HTTP_X_FORWARDED_PROTO": "https",
            "wsgi.input": io.BytesIO(data),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "wsgi.version": (1, 0),
        }
        if data:
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(data))
        for name, value in (headers or {}).items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        status: list[str] = []

        def start_response(line: str, headers: Any, *args: Any) -> Callable[[bytes], object]:
            status.append(line)
            return lambda chunk: None

        answer = self.handler(environ, start_response)
        raw = b"".join(answer)
        answer.close()
        return int(status[0].split()[0]), json.loads(raw) if raw else None


def backend_cpu(pid: int) -> float:
    """CPU seconds a local PostgreSQL backend has used (``/proc``), or 0 if unreadable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stage_times(profile: cProfile.Profile, entries: int) -> list[str]:
    stats = pstats.Stats(profile)
    found: dict[tuple[str, str], float] = {}
    for (filename, _, name), (_, _, _, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        for _, part, function in STAGES:
            if name == function and filename.endswith(part):
                found[(part, function)] = found.get((part, function), 0.0) + cumulative
    whole = found.get((STAGES[0][1], STAGES[0][2]), 0.0) or 1.0
    return [
        f"{label:48} {1000 * found.get((part, fn), 0.0) / entries:7.2f} ms"
        f" {100 * found.get((part, fn), 0.0) / whole:5.1f} %"
        for label, part, fn in STAGES
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8, help="series entered (8 x 24 games)")
    parser.add_argument("--profile", action="store_true", help="under cProfile")
    parser.add_argument("--top", type=int, default=30, help="functions listed (30)")
    parser.add_argument("--sort", default="tottime", help="cProfile's order (tottime)")
    args = parser.parse_args()
    url = postgres_url()
    with throwaway_database(url) as database_url:
        os.environ.update(
            DATABASE_URL=database_url,
            DEBUG="0",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS=HOST,
            DJANGO_SETTINGS_MODULE="config.settings",
            LOG_LEVEL="WARNING",
        )
        for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
            os.environ.pop(name, None)
        import django

        django.setup()
        from django.db import connections

        tokens = build(args.tables + 1)
        client = InProcess()
        captains = [Captain(n + 1, token) for n, token in enumerate(tokens)]
        for captain in captains:
            captain.open(client)  # type: ignore[arg-type]
        warm = captains.pop()
        for _ in range(3):
            warm.enter(client)  # type: ignore[arg-type]
        cpu: list[float] = []
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            backend = cursor.fetchone()[0]
        backend_before = backend_cpu(backend)
        profile = cProfile.Profile(time.process_time) if args.profile else None
        while any(not c.finished for c in captains):
            for captain in captains:
                if captain.finished:
                    continue
                started = time.process_time()
                if profile is not None:
                    profile.enable()
                status = captain.enter(client)  # type: ignore[arg-type]
                if profile is not None:
                    profile.disable()
                cpu.append((time.process_time() - started) * 1000)
                assert status == 201, status
        backend_ms = (backend_cpu(backend) - backend_before) * 1000 / max(len(cpu), 1)
        connections.close_all()
    p90 = statistics.quantiles(cpu, n=10)[-1]
    print(
        f"{len(cpu)} entries in-process: CPU per entry median {statistics.median(cpu):.2f} ms,"
        f" p90 {p90:.2f} ms"
        + (" (under cProfile)" if profile else "")
        + f"; its PostgreSQL backend {backend_ms:.2f} ms per entry (mean)"
    )
    if profile is None:
        return
    print("\nstages (cumulative per entry, share of the whole request):")
    print("\n".join(stage_times(profile, len(cpu))))
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
    print(f"\ntop functions by {args.sort}:")
    print(out.getvalue().split("\n", 4)[-1])


if __name__ == "__main__":
    main()
