"""Archive imports against the web: ``/healthz`` and game entry timed while several
organizers import an archive at once, and the same without imports (ratios).

Creates a throwaway PostgreSQL database (dropped at the end), builds the demo tournament
(46 players, three series) and takes its archive, grown to about ``--megabytes`` MB by
copying its tables with new players (every game stays valid), plus a running series with
four-player tables for game entry. Starts gunicorn on a free loopback port and, with
``--broker redis://127.0.0.1:6379/<n>``, a Celery worker (``--concurrency``) on that Redis
database; without a broker the tasks run eagerly inside the web request, as every import
did before it became a task. Then two phases of the same probes, a ``GET /healthz`` every
0.2 s and one table captain entering games one after the other:

1. quiet: for ``--quiet-seconds``;
2. imports: ``--imports`` organizers each ``POST /api/v1/imports/`` their archive at the
   same moment; the probes run until every import is done (its status polled) or
   ``--time-limit`` has passed.

Prints p50/p95/max of each probe per phase, their ratios (imports / quiet), how long each
POST took to answer and each import to finish, and the peak RSS of the web and worker
processes (from /proc). Bounded in time; loopback only; gunicorn, the worker and the
database are removed at the end, also after errors and Ctrl-C. Not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/import_bench.py --broker redis://127.0.0.1:6379/6
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.entry_bench import (
    HOST,
    ROOT,
    Captain,
    Client,
    Server,
    bench_environment,
    build,
    free_port,
    gunicorn_binary,
    on_sigterm,
    percentiles,
    postgres_url,
    stop,
    throwaway_database,
    wait_healthy,
)


def scaled(base: dict[str, Any], copies: int) -> dict[str, Any]:
    """``base`` with its players, registrations and tables ``copies`` times over: the
    copies get new ids, start numbers, names and DDV numbers, so every game stays valid."""
    archive = copy.deepcopy(base)
    numbers = max(r["start_number"] for r in base["registrations"])
    ids = max(p["id"] for p in base["players"])
    archive["players"], archive["registrations"] = [], []
    for series in archive["series"]:
        series["tables"], series["deductions"] = [], []
    for i in range(copies):
        for p in base["players"]:
            player = {**p, "id": p["id"] + i * ids, "last_name": f"{p['last_name']} {i}"}
            if player["ddv_number"]:
                player["ddv_number"] = f"{player['ddv_number']}{i:03d}"
            archive["players"].append(player)
        for r in base["registrations"]:
            archive["registrations"].append(
                {
                    **r,
                    "start_number": r["start_number"] + i * numbers,
                    "player": r["player"] + i * ids,
                }
            )
        for series, original in zip(archive["series"], base["series"], strict=True):
            last = max([t["number"] for t in original["tables"]] or [0])
            for table in original["tables"]:
                grown = copy.deepcopy(table)
                grown["number"] = table["number"] + i * last
                for seat in grown["seats"]:
                    seat["start_number"] += i * numbers
                series["tables"].append(grown)
            for d in original["deductions"]:
                series["deductions"].append({**d, "start_number": d["start_number"] + i * numbers})
    return archive


def build_archive_file(megabytes: float, cache: Path | None) -> tuple[bytes, int]:
    """The demo's archive grown to about ``megabytes`` MB (compact JSON), and its games.
    The demo's own archive is kept in ``cache`` (building the demo takes a while)."""
    from django.db import connections, transaction

    from archive.export import build_archive
    from scoring.demo import build_demo

    if cache is not None and cache.exists():
        base = json.loads(cache.read_text())
    else:
        with transaction.atomic():
            base = json.loads(json.dumps(build_archive(build_demo(46, 3, 2026, extras=False))))
            transaction.set_rollback(True)
        connections.close_all()
        if cache is not None:
            cache.write_text(json.dumps(base))
    one = len(json.dumps(scaled(base, 1), separators=(",", ":")))
    copies = max(1, int(megabytes * 1_000_000 // one))
    archive = scaled(base, copies)
    games = sum(len(t["games"]) for s in archive["series"] for t in s["tables"])
    return json.dumps(archive, separators=(",", ":")).encode(), games


def organizers(count: int) -> list[str]:
    """``count`` organizers with API tokens."""
    from django.contrib.auth.models import User
    from django.db import connections
    from rest_framework.authtoken.models import Token

    tokens = []
    for n in range(count):
        user = User.objects.create_user(f"importer{n}", password=None)
        tokens.append(Token.objects.create(user=user).key)
    connections.close_all()
    return tokens


@contextlib.contextmanager
def celery_worker(env: dict[str, str], concurrency: int) -> Iterator[subprocess.Popen[bytes]]:
    command = [
        str(Path(sys.executable).parent / "celery"), "-A", "config", "worker",
        "--concurrency", str(concurrency), "--loglevel", "WARNING", "--without-gossip",
        "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )
        try:
            time.sleep(3)
            if process.poll() is not None:
                log.seek(0)
                raise RuntimeError("celery worker exited: " + log.read().decode()[-2000:])
            yield process
        finally:
            stop(process)


class Probes:
    """``GET /healthz`` every 0.2 s and one captain after the other entering games, on
    their own threads until ``stop``; latencies in ms."""

    def __init__(self, port: int, captains: list[Captain]) -> None:
        self.port = port
        self.captains = captains
        self.health: list[float] = []
        self.entry: list[float] = []
        self.failed = 0
        self.done = threading.Event()

    def _health(self) -> None:
        client = Client(self.port)
        while not self.done.is_set():
            began = time.perf_counter()
            try:
                status, _body = client.call("GET", "/healthz")
            except OSError:  # no answer within the client's 15 s
                status = 0
            self.health.append((time.perf_counter() - began) * 1000)
            self.failed += status not in (200, 503)
            self.done.wait(0.2)

    def _entry(self) -> None:
        client = Client(self.port)
        while not self.done.is_set() and self.captains:
            captain = self.captains[0]
            if captain.finished:
                self.captains.pop(0)
                continue
            began = time.perf_counter()
            try:
                status = captain.enter(client)
            except OSError:  # no answer within 15 s; the captain tries the next game
                status = 0
            self.entry.append((time.perf_counter() - began) * 1000)
            self.failed += status != 201

    def run(self, until: Callable[[], bool], limit: float) -> None:
        threads = [threading.Thread(target=f, daemon=True) for f in (self._health, self._entry)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and not until():
            time.sleep(0.2)
        self.done.set()
        for thread in threads:
            thread.join(timeout=20)


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int, database_url: str) -> Iterator[Server]:
    """gunicorn with sync workers and --timeout 30, the app loaded once before the workers
    fork (--preload: on a busy machine a worker importing Django itself can exceed the
    timeout while it boots); up to two minutes to answer /healthz."""
    port = free_port()
    command = [
        gunicorn_binary(), "config.wsgi", "--workers", str(workers), "--bind", f"{HOST}:{port}",
        "--log-level", "warning", "--timeout", "30", "--graceful-timeout", "5", "--preload",
    ]  # fmt: skip
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )
        server = None
        try:
            wait_healthy(port, process, limit=120)
            server = Server(port, process.pid, database_url)
            yield server
        finally:
            if server is not None:
                server.close()
            stop(process)
            log.seek(0)
            timeouts = log.read().decode(errors="replace").count("WORKER TIMEOUT")
            if timeouts:
                print(f"gunicorn log: {timeouts} worker timeouts")


def rss_mb(pids: list[int]) -> dict[int, float]:
    """Peak resident memory (VmHWM) per process, MB."""
    peaks = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks[pid] = int(line.split()[1]) / 1024
    return peaks


def children(pid: int) -> list[int]:
    found = [pid]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def summary(name: str, samples: list[float]) -> str:
    if not samples:
        return f"{name}: no samples"
    p50, p95, _p99, top = percentiles(samples)
    return f"{name}: n={len(samples)} p50={p50:.0f} ms p95={p95:.0f} ms max={top:.0f} ms"


def import_all(port: int, tokens: list[str], raw: bytes, limit: float) -> dict[str, Any]:
    """Each organizer posts the archive at once; then each status is polled until it ends."""
    results: list[dict[str, Any]] = [{} for _ in tokens]
    start = threading.Barrier(len(tokens))

    def one(index: int, token: str) -> None:
        client = Client(port)
        client.conn.timeout = limit
        auth = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        start.wait()
        began = time.perf_counter()
        try:
            client.conn.request("POST", "/api/v1/imports/", body=raw,
                                headers={**auth, "X-Forwarded-Proto": "https"})  # fmt: skip
            response = client.conn.getresponse()
            raw_body = response.read()
            status = response.status
            try:
                body = json.loads(raw_body or b"{}")
            except ValueError:  # gunicorn's or a proxy's error page
                body = {"status": f"answer {status}, not JSON"}
        except (OSError, http.client.HTTPException) as exc:
            results[index] = {
                "post_status": f"error {type(exc).__name__}",
                "post_s": time.perf_counter() - began,
            }
            return
        finally:
            client.conn.close()
        posted = time.perf_counter() - began
        state = body.get("status", "")
        url = body.get("status_url", "")
        poll = Client(port)
        deadline = time.monotonic() + limit
        while url and state not in ("done", "refused", "failed") and time.monotonic() < deadline:
            time.sleep(0.5)
            _code, body = poll.call("GET", url, headers={"Authorization": f"Token {token}"})
            state = body.get("status", state) if isinstance(body, dict) else state
        results[index] = {
            "post_status": status,
            "post_s": posted,
            "state": state,
            "done_s": time.perf_counter() - began,
        }

    threads = [threading.Thread(target=one, args=(i, t), daemon=True) for i, t in enumerate(tokens)]
    for thread in threads:
        thread.start()
    return {"threads": threads, "results": results}


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=5.0, help="archive size (MB)")
    parser.add_argument("--imports", type=int, default=4, help="organizers importing at once")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--broker", default="", help="Redis URL: imports run on a worker")
    parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--quiet-seconds", type=float, default=20.0)
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--tables", type=int, default=40, help="tables for game entry")
    parser.add_argument("--cache", type=Path, help="keep the demo's archive in this file")
    return parser.parse_args()


def main() -> None:
    args = arguments()
    url = postgres_url()
    signal.signal(signal.SIGTERM, on_sigterm)
    with tempfile.TemporaryDirectory() as scratch, throwaway_database(url) as database_url:
        env = bench_environment(database_url, str(Path(scratch) / "trace.jsonl"))
        env["DJANGO_SETTINGS_MODULE"] = "config.settings"
        if args.broker:
            env["CELERY_BROKER_URL"] = env["CELERY_RESULT_BACKEND"] = args.broker
        os.environ.update({k: v for k, v in env.items() if not k.startswith("CELERY_")})
        for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
            os.environ.pop(name, None)
        import django

        django.setup()
        began = time.perf_counter()
        tokens = build(args.tables)
        raw, games = build_archive_file(args.megabytes, args.cache)
        owners = organizers(args.imports)
        mode = f"Celery worker x{args.concurrency} on {args.broker}" if args.broker else "eager"
        print(
            f"archive: {len(raw) / 1e6:.2f} MB, {games} games; {args.imports} imports at once; "
            f"gunicorn --workers {args.workers} --timeout 30; tasks: {mode} "
            f"(built in {time.perf_counter() - began:.0f} s)"
        )
        worker = celery_worker(env, args.concurrency) if args.broker else contextlib.nullcontext()
        with gunicorn(env, args.workers, database_url) as server, worker as celery:
            captains = [Captain(n + 1, token) for n, token in enumerate(tokens)]
            opener = Client(server.port)
            for captain in captains:
                captain.open(opener)
            quiet = Probes(server.port, captains)
            quiet.run(lambda: False, args.quiet_seconds)
            busy = Probes(server.port, quiet.captains)
            running = import_all(server.port, owners, raw, args.time_limit)
            threads: list[threading.Thread] = running["threads"]
            busy.run(lambda: not any(t.is_alive() for t in threads), args.time_limit)
            web = rss_mb(children(server.master))
            workers = rss_mb(children(celery.pid)) if celery else {}
        print(summary("quiet   /healthz", quiet.health))
        print(summary("quiet   entry   ", quiet.entry))
        print(summary("imports /healthz", busy.health))
        print(summary("imports entry   ", busy.entry))
        for name, a, b in (
            ("/healthz", quiet.health, busy.health),
            ("entry", quiet.entry, busy.entry),
        ):
            if a and b:
                qa, qb = percentiles(a), percentiles(b)
                print(
                    f"ratio imports/quiet {name}: p50 x{qb[0] / qa[0]:.1f}, "
                    f"p95 x{qb[1] / qa[1]:.1f}, max x{qb[3] / qa[3]:.1f}"
                )
        print(f"probe failures: quiet {quiet.failed}, imports {busy.failed}")
        for n, result in enumerate(running["results"], start=1):
            print(f"import {n}: {json.dumps(result)}")
        print(
            "peak RSS (MB), gunicorn processes: "
            + ", ".join(f"{mb:.0f}" for mb in web.values())
            + "; Celery processes: "
            + (", ".join(f"{mb:.0f}" for mb in workers.values()) or "none")
        )
        print(
            f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs"
        )


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("interrupted; gunicorn, the worker and the database removed")
