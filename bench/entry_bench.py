"""Game entry through the REST API under gunicorn on PostgreSQL, against a one-row insert.

Creates a throwaway PostgreSQL database (unique name, dropped at the end), migrates it with
the bench's settings (``bench/settings.py``, which install ``bench/pingapp``), builds a
tournament whose series 1 runs with four-player tables, starts gunicorn on a free loopback
port and lets simulated table captains enter complete series through ``POST
.../tables/<t>/games/`` (``Authorization: Table <token>``, ``Idempotency-Key``,
``If-Match``), each game chosen from the ``next`` of the previous answer. The captain sends
only the game's facts (contract, parties, solo type, announcements, Augen); the server
derives seats, dealer, compulsory and forced from the sheet. Like a real table it decides
who plays a solo: the forced player when ``next`` names one, sometimes a player who may
announce his compulsory solo, else a normal game. Then, in the same run, the same load
against ``POST /api/v1/bench/ping/`` (DRF, inserts one row). Phases:

1. closed loop: ``--clients`` captains enter series one game after the other, as fast as the
   server answers; the same number of clients ping. Games/s, p50/p95/p99 and the ratio
   (target: entry at least 0.35 of the throughput of the ping);
2. open loop: requests sent at fixed intervals (``--rate`` per second for ``--duration``
   seconds) whatever the answers, spread over the tables (target: entry p95 under 50 ms at
   100 games/s); the ping at the same rate for reference.

Beside wall-clock figures, each phase reports the CPU time the gunicorn workers and their
PostgreSQL backends spent per request (from /proc), which other processes on the machine
do not distort (target: at most 5 ms per game), and the SQL statements per request, counted
by the server (``bench/pingapp/statements.py``, outermost middleware, answered in the
``X-Bench-Statements`` header): every statement psycopg sends for the request, BEGIN and
COMMIT included (target: at most 7 per game). Last, a few traced requests on a table of
their own list the statements of one entry and one ping with the code that issued each,
checked against libpq's own trace. ``--gunicorn-args "-c conf.py"`` runs the server with a
config file, e.g. one whose ``post_worker_init`` hook patches a function to measure a
proposed change.

Every phase is bounded in requests and time; all traffic goes to 127.0.0.1; gunicorn and
the database are removed at the end, also after errors and Ctrl-C. Prints figures; it is
not a test.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/entry_bench.py
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import json
import os
import random
import secrets
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
SLUG = "entry-bench"
SOLO_TYPES = ("karo", "herz", "pik", "kreuz", "damen", "buben", "fleischlos")
PING_PATH = "/api/v1/bench/ping/"
# As nginx forwards a request it received over HTTPS (DEBUG off redirects plain HTTP).
FORWARDED = {"X-Forwarded-Proto": "https"}
DRAIN_LIMIT = 10.0  # open loop: a request not started this many seconds after its time is dropped


# --- the throwaway database -------------------------------------------------------------


def postgres_url() -> str:
    url = os.environ.get("DATABASE_URL", "").strip()
    if urlsplit(url).scheme not in ("postgres", "postgresql"):
        sys.exit(
            "entry_bench needs PostgreSQL: set DATABASE_URL=postgres://user@host:port/db "
            "(any database the user can connect to; the bench creates and drops its own)."
        )
    return url


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def admin_sql(url: str, template: str, name: str) -> None:
    """Run ``template`` (CREATE/DROP DATABASE) with ``name`` quoted as an identifier."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(sql.SQL(template).format(sql.Identifier(name)))


@contextlib.contextmanager
def throwaway_database(url: str) -> Iterator[str]:
    name = f"doko_entry_bench_{os.getpid()}_{secrets.token_hex(4)}"
    admin_sql(url, "CREATE DATABASE {}", name)
    try:
        yield with_database(url, name)
    finally:
        admin_sql(url, "DROP DATABASE IF EXISTS {} WITH (FORCE)", name)


def bench_environment(database_url: str, trace_file: str) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        env.pop(name, None)
    env.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        DJANGO_SETTINGS_MODULE="bench.settings",
        LOG_LEVEL="WARNING",
        DOKO_BENCH_TRACE=trace_file,
    )
    return env


def build(tables: int) -> list[str]:
    """Migrate, then a tournament with ``tables`` four-player tables in running series 1.
    Returns the captain tokens, table 1 first."""
    from django.core.management import call_command
    from django.db import connections

    from tests.factories import add_players, make_tournament, seat_table
    from tournaments.models import Series

    call_command("migrate", verbosity=0)
    tournament = make_tournament(slug=SLUG, series_count=1)
    series = tournament.series.get(number=1)
    registrations = add_players(tournament, 4 * tables)
    tokens = [
        seat_table(series, registrations[4 * i : 4 * i + 4], number=i + 1).captain_token
        for i in range(tables)
    ]
    series.status = Series.Status.RUNNING
    series.save(update_fields=["status"])
    connections.close_all()
    return tokens


def stored_counts() -> dict[str, int]:
    from django.db import connections

    from bench.pingapp.models import PingRow
    from scoring.models import AuditEntry, Game

    counts = {
        "games": Game.objects.count(),
        "idempotency records": AuditEntry.objects.exclude(idempotency_key="").count(),
        "ping rows": PingRow.objects.count(),
    }
    connections.close_all()
    return counts


# --- gunicorn ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def gunicorn_binary() -> str:
    beside = Path(sys.executable).parent / "gunicorn"
    return str(beside if beside.exists() else ROOT / ".venv" / "bin" / "gunicorn")


class Server:
    """The running gunicorn, and the CPU time its workers and their PostgreSQL backends
    have used (from /proc: independent of what else runs on the machine)."""

    def __init__(self, port: int, master: int, database_url: str) -> None:
        import psycopg

        self.port = port
        self.master = master
        self.backends: set[int] = set()  # PostgreSQL backends seen serving the workers
        self.db = psycopg.connect(
            database_url.replace("postgres://", "postgresql://", 1), autocommit=True
        )

    def pids(self) -> list[int]:
        workers = [self.master]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.master:
                workers.append(int(stat.parent.name))
        rows = self.db.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
        self.backends.update(int(row[0]) for row in rows)
        return workers + [int(row[0]) for row in rows]

    def cpu(self) -> dict[int, float]:
        """CPU seconds (user + system) per process of the server and its database."""
        ticks = os.sysconf("SC_CLK_TCK")
        seconds = {}
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # PostgreSQL on another machine, or the process ended
            seconds[pid] = (int(fields[11]) + int(fields[12])) / ticks
        return seconds

    def close(self) -> None:
        self.db.close()


@contextlib.contextmanager
def measured(server: Server, result: Result) -> Iterator[None]:
    before = server.cpu()
    yield
    after = server.cpu()
    used = {pid: after[pid] - before.get(pid, 0.0) for pid in after}
    result.cpu = sum(used.values())
    result.cpu_db = sum(seconds for pid, seconds in used.items() if pid in server.backends)


@contextlib.contextmanager
def gunicorn(
    env: dict[str, str], workers: int, extra: list[str], database_url: str
) -> Iterator[Server]:
    port = free_port()
    command = [
        gunicorn_binary(), "config.wsgi", "--workers", str(workers),
        "--bind", f"{HOST}:{port}", "--log-level", "warning",
        "--timeout", "30", "--graceful-timeout", "5", *extra,
    ]  # fmt: skip
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )
        server = None
        try:
            wait_healthy(port, process)
            server = Server(port, process.pid, database_url)
            yield server
        except Exception:
            log.seek(0)
            tail = log.read().decode(errors="replace")[-3000:]
            if tail.strip():
                print("--- gunicorn log (tail) ---\n" + tail, file=sys.stderr)
            raise
        finally:
            if server is not None:
                server.close()
            stop(process)


def wait_healthy(port: int, process: subprocess.Popen[bytes], limit: float = 30.0) -> None:
    """Until /healthz answers. A missing static files manifest (no ``collectstatic`` in a
    working copy) does not matter here: the API renders no templates."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            raw = response.read()
            conn.close()
            if response.status == 200:
                return
            with contextlib.suppress(ValueError, AttributeError):
                if response.status == 503 and json.loads(raw).get("failed") == ["static"]:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer /healthz in time")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    except ProcessLookupError:
        pass


# --- HTTP on loopback -------------------------------------------------------------------


class Client:
    """One keep-alive connection (gunicorn's sync workers close it; it reopens itself)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=15)
        self.sql: Sql | None = None  # the server's count for the last answer

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Accept": "application/json", **FORWARDED, **(headers or {})}
        if data is not None:
            sent["Content-Type"] = "application/json"
        self.sql = None
        try:
            self.conn.request(method, path, body=data, headers=sent)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=15)
            raise
        self.sql = Sql.of(response)
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, raw[:200].decode(errors="replace")


@dataclass(frozen=True)
class Sql:
    """The server's count of one request's statements (``bench/pingapp/statements.py``)."""

    statements: int  # all, BEGIN and COMMIT/ROLLBACK included
    transactions: int  # each one BEGIN and one COMMIT/ROLLBACK of the statements
    connects: int  # database connections opened

    @classmethod
    def of(cls, response: http.client.HTTPResponse) -> Sql | None:
        try:
            return cls(
                int(response.getheader("X-Bench-Statements", "")),
                int(response.getheader("X-Bench-Transactions", "")),
                int(response.getheader("X-Bench-Connects", "")),
            )
        except ValueError:
            return None


_local = threading.local()


def thread_client(port: int) -> Client:
    client: Client | None = getattr(_local, "client", None)
    if client is None:
        client = _local.client = Client(port)
    return client


# --- simulated captains -----------------------------------------------------------------


@dataclass
class Captain:
    table: int
    token: str
    games_url: str = ""
    version: int = 0
    next: dict[str, Any] = field(default_factory=dict)
    rng: random.Random = field(default_factory=random.Random)
    busy: bool = False

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Table {self.token}"}

    @property
    def finished(self) -> bool:
        return bool(self.next.get("finished"))

    def open(self, client: Client) -> None:
        """What the captain's link shows first: the table, the sheet and ``next``."""
        status, body = client.call("GET", "/api/v1/captain/", headers=self.auth)
        if status != 200:
            raise RuntimeError(f"table {self.table}: GET captain answered {status}: {body}")
        self.games_url = body["games_url"]
        self.version = body["sheet"]["version"]
        self.next = body["sheet"]["next"]
        self.rng = random.Random(self.table)

    def game(self) -> dict[str, Any]:
        """The next game's facts as a captain would enter them. The table decides who
        plays a solo: the forced player when ``next`` names one, sometimes a player who may
        announce his compulsory solo. Seats, dealer, compulsory and forced are the server's
        to derive; 2..238 Augen, as 1 and 239 cannot be made from the cards."""
        nxt, rng = self.next, self.rng
        soloist = nxt["forced"]
        if soloist is None and nxt["compulsory_allowed"] and rng.random() < 0.15:
            soloist = rng.choice(nxt["compulsory_allowed"])
        record: dict[str, Any]
        if soloist is None:
            record = {"contract": "normal", "re": sorted(rng.sample([1, 2, 3, 4], 2))}
        else:
            record = {"contract": "solo", "solo": rng.choice(SOLO_TYPES), "re": [soloist]}
        record["announcements"] = {
            "re": rng.choice((None, None, "ansage")),
            "kontra": rng.choice((None, None, "ansage")),
        }
        record["re_points"] = rng.randint(2, 238)
        return record

    def enter(self, client: Client, trace: bool = False) -> int:
        """Send the next game; on 201 take the new version and ``next``. The status."""
        headers = {
            **self.auth,
            "Idempotency-Key": uuid.uuid4().hex,
            "If-Match": f'"{self.version}"',
            **({"X-Bench-Trace": "1"} if trace else {}),
        }
        status, body = client.call("POST", self.games_url, self.game(), headers)
        if status == 201:
            self.version = body["sheet"]["version"]
            self.next = body["sheet"]["next"]
        else:
            self.next = {**self.next, "finished": True}  # stop this table; counted as error
            errors_seen.append(f"table {self.table}: {status} {json.dumps(body)[:300]}")
        return status


errors_seen: list[str] = []


# --- measurement ------------------------------------------------------------------------


@dataclass
class Result:
    name: str
    latencies: list[float] = field(default_factory=list)  # ms, send to answer
    scheduled: list[float] = field(default_factory=list)  # ms, schedule to answer (open loop)
    errors: int = 0
    unsent: int = 0
    wall: float = 0.0
    cpu: float = 0.0  # server CPU seconds (gunicorn + PostgreSQL backends) in the phase
    cpu_db: float = 0.0  # the PostgreSQL backends' part of it
    statements: int = 0  # the server's count over the successful requests
    transactions: int = 0
    connects: int = 0
    uncounted: int = 0  # successful answers without the count header
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(
        self, ok: bool, latency: float, late: float | None = None, sql: Sql | None = None
    ) -> None:
        with self.lock:
            if ok:
                self.latencies.append(latency)
                if late is not None:
                    self.scheduled.append(late)
                if sql is None:
                    self.uncounted += 1
                else:
                    self.statements += sql.statements
                    self.transactions += sql.transactions
                    self.connects += sql.connects
            else:
                self.errors += 1

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.wall if self.wall else 0.0

    @property
    def counted(self) -> int:
        return len(self.latencies) - self.uncounted

    @property
    def sql(self) -> float:
        """Statements per successful request, BEGIN and COMMIT included."""
        return self.statements / self.counted if self.counted else float("nan")

    @property
    def sql_without_tx(self) -> float:
        """The same without BEGIN and COMMIT/ROLLBACK."""
        if not self.counted:
            return float("nan")
        return (self.statements - 2 * self.transactions) / self.counted

    @property
    def cpu_db_ms(self) -> float:
        """The PostgreSQL backends' part of ``cpu_ms``."""
        return self.cpu_db * 1000 / len(self.latencies) if self.latencies else float("nan")

    @property
    def cpu_ms(self) -> float:
        """Server CPU milliseconds per successful request."""
        return self.cpu * 1000 / len(self.latencies) if self.latencies else float("nan")


def percentiles(samples: list[float]) -> tuple[float, float, float, float]:
    if not samples:
        return (float("nan"),) * 4
    if len(samples) == 1:
        return samples[0], samples[0], samples[0], samples[0]
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[94], cuts[98], max(samples)


def ping(client: Client) -> int:
    status, body = client.call("POST", PING_PATH, {})
    if status != 201:
        errors_seen.append(f"ping: {status} {body}")
    return status


# --- the phases -------------------------------------------------------------------------


def closed_loop(
    name: str, clients: int, limit: int, seconds: float, step: Callable[[Client], int | None],
    server: Server,
) -> Result:  # fmt: skip
    """``clients`` threads call ``step`` (None: nothing left) one after the other, at most
    ``limit`` calls in all and for at most ``seconds``."""
    result = Result(name)
    budget = threading.Semaphore(limit)
    deadline = time.monotonic() + seconds
    last_done = [0.0]

    def worker() -> None:
        client = Client(server.port)
        while time.monotonic() < deadline and budget.acquire(blocking=False):
            start = time.perf_counter()
            try:
                status = step(client)
            except (OSError, http.client.HTTPException) as exc:
                errors_seen.append(f"transport: {exc!r}")
                status = 0
            if status is None:
                budget.release()
                return
            result.add(status == 201, (time.perf_counter() - start) * 1000, sql=client.sql)
            with result.lock:
                last_done[0] = max(last_done[0], time.perf_counter())

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(clients)]
    started = time.perf_counter()
    with measured(server, result):
        for thread in threads:
            thread.start()
        join(threads, deadline + 20)
    result.wall = (last_done[0] or time.perf_counter()) - started
    return result


def entry_step(queue: list[Captain]) -> Callable[[Client], int | None]:
    """Each client takes a table and enters its whole series, then takes the next table."""
    lock = threading.Lock()
    mine: dict[int, Captain] = {}

    def step(client: Client) -> int | None:
        me = threading.get_ident()
        captain = mine.get(me)
        if captain is None or captain.finished:
            with lock:
                if not queue:
                    return None
                captain = mine[me] = queue.pop(0)
        return captain.enter(client)

    return step


def open_loop(
    name: str, rate: float, seconds: float, server: Server, send: Callable[[Client], int | None]
) -> Result:
    """``rate`` requests per second at fixed times for ``seconds``, whatever the answers;
    ``send`` returns None when it has nothing to send at that moment (counted as unsent)."""
    result = Result(name)
    total = int(rate * seconds)
    interval = 1.0 / rate
    pool = ThreadPoolExecutor(max_workers=64, thread_name_prefix="open")
    started = time.perf_counter()
    last_done = [started]

    def job(due: float) -> None:
        client = thread_client(server.port)
        start = time.perf_counter()
        if start - due > DRAIN_LIMIT:  # the server fell far behind: give up on this one
            with result.lock:
                result.unsent += 1
            return
        try:
            status = send(client)
        except (OSError, http.client.HTTPException) as exc:
            errors_seen.append(f"transport: {exc!r}")
            status = 0
        end = time.perf_counter()
        if status is None:
            with result.lock:
                result.unsent += 1
            return
        result.add(status == 201, (end - start) * 1000, (end - due) * 1000, client.sql)
        with result.lock:
            last_done[0] = max(last_done[0], end)

    with measured(server, result):
        try:
            schedule(pool, job, started, interval, total, seconds, result)
            pool.shutdown(wait=True)
        except BaseException:  # Ctrl-C: drop what is queued, do not wait for it
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    result.wall = last_done[0] - started
    return result


def schedule(
    pool: ThreadPoolExecutor, job: Callable[[float], None], started: float, interval: float,
    total: int, seconds: float, result: Result,
) -> None:  # fmt: skip
    """Submit ``job(due)`` at its due time, ``total`` times ``interval`` apart."""
    for i in range(total):
        due = started + i * interval
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        if time.perf_counter() - started > seconds + 5:
            with result.lock:
                result.unsent += total - i  # the client itself fell far behind
            return
        pool.submit(job, due)


def entry_sender(captains: list[Captain]) -> Callable[[Client], int | None]:
    """Round robin over the tables, skipping a table still waiting for its last answer."""
    lock = threading.Lock()
    turn = [0]

    def send(client: Client) -> int | None:
        with lock:
            for _ in range(len(captains)):
                captain = captains[turn[0] % len(captains)]
                turn[0] += 1
                if not captain.busy and not captain.finished:
                    captain.busy = True
                    break
            else:
                return None
        try:
            return captain.enter(client)
        finally:
            captain.busy = False

    return send


def join(threads: list[threading.Thread], until: float) -> None:
    for thread in threads:
        while thread.is_alive() and time.monotonic() < until:
            thread.join(timeout=0.5)


def open_captains(captains: list[Captain], port: int) -> None:
    client = Client(port)
    for captain in captains:
        captain.open(client)


# --- report -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Targets:
    statements: float  # per game, at most
    cpu_ms: float  # server CPU per game, at most
    ratio: float  # closed-loop entry throughput / ping throughput, at least
    p95_ms: float  # open loop at --rate games/s, below


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def line(result: Result) -> str:
    p50, p95, p99, worst = percentiles(result.latencies)
    return (
        f"{result.name:<28} {len(result.latencies):>5} {result.errors:>4} {result.unsent:>6} "
        f"{result.wall:>6.1f} {result.rate:>7.1f} {p50:>7.1f} {p95:>7.1f} {p99:>7.1f} "
        f"{worst:>7.1f} {result.cpu_ms:>7.2f} {result.sql:>7.2f}"
    )


def report(
    results: list[Result], entry: Result, ping_: Result, open_entry: Result, rate: float,
    target: Targets,
) -> dict[str, float]:  # fmt: skip
    """Prints the table and the summary; returns the summary figures."""
    print()
    print(
        f"{'scenario':<28} {'ok':>5} {'err':>4} {'unsent':>6} {'wall s':>6} {'req/s':>7} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7} {'CPU ms':>7} {'SQL/req':>7}"
    )
    print("-" * 112)
    for result in results:
        print(line(result))
    print("-" * 112)
    print(
        "CPU ms: CPU time of the gunicorn workers and their PostgreSQL backends per request "
        "(not disturbed by other processes; a backend that ends within a phase loses its part)"
    )
    print(
        "  of it PostgreSQL: "
        + ", ".join(f"{r.name.split(': ')[1]} {r.cpu_db_ms:.2f} ms" for r in results[:2])
        + " (closed loop)"
    )
    print(
        "SQL/req: statements per request counted by the server at the driver (psycopg), "
        "BEGIN and COMMIT included, savepoints and the connection health check too"
    )
    for result in results:
        if result.uncounted or result.connects:
            print(
                f"  {result.name}: {result.connects} new database connections, "
                f"{result.uncounted} answers without a count"
            )
    # Statements per game over complete series (the closed loop enters whole series; the
    # open loop stops mid-series, which weighs the first game of a sheet more).
    games, pings = entry, ping_
    ratio = entry.rate / ping_.rate if ping_.rate else 0.0
    p50, p95 = percentiles(open_entry.latencies)[:2]
    late95 = percentiles(open_entry.scheduled)[1]
    open_ok = (
        p95 < target.p95_ms
        and open_entry.errors == 0
        and open_entry.unsent == 0
        and open_entry.rate >= 0.95 * rate
    )
    print()
    print(
        "summary (closed loop unless said; statements: all a request sends to PostgreSQL, "
        "BEGIN and COMMIT included):"
    )
    print(
        f"  statements per game: {games.sql:.2f} over complete series "
        f"({games.sql_without_tx:.2f} without BEGIN/COMMIT of "
        f"{games.transactions / max(games.counted, 1):.2f} transactions); per ping: "
        f"{pings.sql:.2f} ({pings.sql_without_tx:.2f} without)  "
        f"(target <= {target.statements:g}: {verdict(games.sql <= target.statements)})"
    )
    print(
        f"  server CPU per game: {entry.cpu_ms:.2f} ms (PostgreSQL {entry.cpu_db_ms:.2f}); "
        f"per ping: {ping_.cpu_ms:.2f} ms (PostgreSQL {ping_.cpu_db_ms:.2f}) "
        f"(closed loop, gunicorn + PostgreSQL backends)  "
        f"(target <= {target.cpu_ms:g} ms: {verdict(entry.cpu_ms <= target.cpu_ms)})"
    )
    print(
        f"  closed-loop entry throughput: {entry.rate:.1f} games/s vs ping {ping_.rate:.1f} "
        f"req/s = {ratio:.2f} x ping  "
        f"(target >= {target.ratio:g}: {verdict(ratio >= target.ratio)})"
    )
    print(
        f"  open-loop p95 at {rate:g} games/s: {p95:.1f} ms (p50 {p50:.1f} ms; "
        f"{open_entry.rate:.1f} games/s achieved, {open_entry.errors} errors, "
        f"{open_entry.unsent} unsent; p95 from the scheduled send time {late95:.1f} ms)  "
        f"(target < {target.p95_ms:g} ms: {verdict(open_ok)})"
    )
    print(
        f"  CPU-bound ceiling on {os.cpu_count()} idle cores "
        f"~{(os.cpu_count() or 1) * 1000 / entry.cpu_ms:.0f} games/s; ratio by CPU cost "
        f"{ping_.cpu_ms / entry.cpu_ms:.2f}"
    )
    return {
        "statements_game": round(games.sql, 3),
        "statements_game_without_tx": round(games.sql_without_tx, 3),
        "statements_ping": round(pings.sql, 3),
        "cpu_ms_game": round(entry.cpu_ms, 3),
        "cpu_ms_ping": round(ping_.cpu_ms, 3),
        "cpu_db_ms_game": round(entry.cpu_db_ms, 3),
        "cpu_db_ms_ping": round(ping_.cpu_db_ms, 3),
        "closed_games_s": round(entry.rate, 2),
        "closed_ping_req_s": round(ping_.rate, 2),
        "ratio": round(ratio, 3),
        "open_p50_ms": round(p50, 2),
        "open_p95_ms": round(p95, 2),
        "open_games_s": round(open_entry.rate, 2),
        "errors": sum(r.errors for r in results),
    }


# --- traced requests --------------------------------------------------------------------


def trace_requests(captain: Captain, port: int, trace_file: Path, games: int = 3) -> None:
    """Enter ``games`` games on a table of their own and send two pings, each traced by the
    server; print the statements of the second game and of the last ping."""
    client = Client(port)
    labels = []
    for _ in range(games):
        number = captain.next["game"]
        status = captain.enter(client, trace=True)
        labels.append(f"POST games/ (game {number}) -> {status}")
    for n in range(2):
        status, _body = client.call("POST", PING_PATH, {}, {"X-Bench-Trace": "1"})
        labels.append(f"POST ping ({n + 1}) -> {status}")
    try:
        entries = [json.loads(row) for row in trace_file.read_text().splitlines() if row]
    except (OSError, ValueError) as exc:
        print(f"traced requests: no trace ({exc!r})")
        return
    if len(entries) != len(labels):
        print(f"traced requests: {len(entries)} traces for {len(labels)} requests")
        return
    print()
    print(
        "traced requests: statements counted (BEGIN/COMMIT included) / sent per libpq's "
        "own trace (Query and Execute messages; n/a on a connection opened in the request)"
    )
    for label, entry in zip(labels, entries, strict=True):
        sent = entry["libpq_sent"]
        print(
            f"  {label}: {entry['statements']} / {'n/a' if sent is None else sent}; "
            f"{entry['transactions']} transactions, {entry['connects']} new connections"
        )
    shown = [("the first entry of a table (game 1)", entries[0])]
    if games > 1:
        shown.append(("a later entry (game 2)", entries[1]))
    for title, entry in [*shown, ("one ping", entries[-1])]:
        print(f"SQL of {title}, in order, with the project code that issued it:")
        for n, statement in enumerate(entry["trace"], 1):
            sql = " ".join(statement["sql"].split())
            print(f"  {n:>2}. {statement['origin']}")
            print(f"      {sql[:150]}{' ...' if len(sql) > 150 else ''}")


# --- main -------------------------------------------------------------------------------


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (4)")
    parser.add_argument("--clients", type=int, default=8, help="closed-loop clients (8)")
    parser.add_argument(
        "--closed-tables", type=int, default=32, help="series entered in the closed loop (32)"
    )
    parser.add_argument(
        "--ping-requests", type=int, default=3000, help="closed-loop ping requests (3000)"
    )
    parser.add_argument("--rate", type=float, default=100.0, help="open-loop games/s (100)")
    parser.add_argument("--duration", type=float, default=10.0, help="open-loop seconds (10)")
    parser.add_argument(
        "--gunicorn-args",
        default="",
        help="more gunicorn options, e.g. '-c conf.py' with a post_worker_init hook that "
        "patches a function to try a change",
    )
    parser.add_argument(
        "--max-statements", type=float, default=7.0, help="target: statements per game (7)"
    )
    parser.add_argument(
        "--max-cpu-ms", type=float, default=5.0, help="target: server CPU ms per game (5)"
    )
    parser.add_argument(
        "--min-ratio", type=float, default=0.35, help="target: entry/ping throughput (0.35)"
    )
    parser.add_argument(
        "--max-p95-ms", type=float, default=50.0, help="target: open-loop entry p95 ms (50)"
    )
    parser.add_argument(
        "--trace-out",
        type=Path,
        help="also write the traced requests (every statement, full SQL) to this file, "
        "one JSON line per request",
    )
    parser.add_argument(
        "--time-limit", type=float, default=120.0, help="seconds per closed-loop phase (120)"
    )
    args = parser.parse_args()
    if not (1 <= args.workers <= 16 and 1 <= args.clients <= 64):
        parser.error("--workers 1..16, --clients 1..64")
    if not 1 <= args.ping_requests <= 100_000:
        parser.error("--ping-requests 1..100000")
    if not (1 <= args.closed_tables <= 500 and 1 <= args.rate <= 1000 and args.duration <= 120):
        parser.error("--closed-tables 1..500, --rate 1..1000, --duration up to 120")
    return args


def on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    args = arguments()
    url = postgres_url()
    signal.signal(signal.SIGTERM, on_sigterm)
    games_per_series = 24
    open_tables = -(-int(args.rate * args.duration) // games_per_series) + 2
    tables = args.closed_tables + open_tables + 1  # the last one for the traced requests
    load_before = os.getloadavg()
    with (
        tempfile.TemporaryDirectory(prefix="entry-bench-") as scratch,
        throwaway_database(url) as database_url,
    ):
        trace_file = Path(scratch) / "trace.jsonl"
        env = bench_environment(database_url, str(trace_file))
        os.environ.update(env)
        for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
            os.environ.pop(name, None)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        started = time.perf_counter()
        tokens = build(tables)
        print(
            f"database {urlsplit(database_url).path[1:]}: {tables} tables, {4 * tables} "
            f"players (built in {time.perf_counter() - started:.1f} s); "
            f"gunicorn --workers {args.workers}"
        )
        extra = shlex.split(args.gunicorn_args)
        with gunicorn(env, args.workers, extra, database_url) as server:
            captains = [Captain(n + 1, token) for n, token in enumerate(tokens)]
            open_captains(captains, server.port)  # also warms every worker up
            closed, opened = captains[: args.closed_tables], captains[args.closed_tables : -1]
            limit = games_per_series * len(closed)
            warm = Client(server.port)
            for _ in range(20):
                ping(warm)
            results = [
                closed_loop(
                    f"closed, {args.clients} clients: ping", args.clients, args.ping_requests,
                    args.time_limit, ping, server,
                ),
                closed_loop(
                    f"closed, {args.clients} clients: entry", args.clients, limit,
                    args.time_limit, entry_step(list(closed)), server,
                ),
                open_loop(
                    f"open, {args.rate:g}/s: entry", args.rate, args.duration, server,
                    entry_sender(opened),
                ),
                open_loop(
                    f"open, {args.rate:g}/s: ping", args.rate, args.duration, server, ping
                ),
            ]  # fmt: skip
            traced = io.StringIO()
            with contextlib.redirect_stdout(traced):
                trace_requests(captains[-1], server.port, trace_file)
        counts = stored_counts()
        load_after = os.getloadavg()
        target = Targets(args.max_statements, args.max_cpu_ms, args.min_ratio, args.max_p95_ms)
        figures = report(results, results[1], results[0], results[2], args.rate, target)
        complete = sum(c.next.get("games_left") == 0 for c in closed)
        print(
            f"stored: {counts['games']} games, {counts['idempotency records']} idempotency "
            f"records, {counts['ping rows']} ping rows; closed loop: {complete} of "
            f"{len(closed)} series complete"
        )
        before, after = (" ".join(f"{x:.2f}" for x in load) for load in (load_before, load_after))
        print(f"load average before: {before}, after: {after}; {os.cpu_count()} CPUs")
        for message in errors_seen[:10]:
            print("error:", message)
        print(traced.getvalue(), end="")
        if args.trace_out and trace_file.exists():
            args.trace_out.write_text(trace_file.read_text())
            print(f"traced requests written to {args.trace_out}")
        print("figures:", json.dumps(figures))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("interrupted; gunicorn stopped and the database dropped")
