"""A real Celery worker is killed in the middle of a print pack; the document still ends.

Killing the pool child that renders a part: its message is requeued (``acks_late`` +
``reject_on_worker_lost``), a new child renders it, and the pack is done. Killing the whole
worker (main process and children): the document stalls, the status poll marks it failed,
its part files go, and asking again with a restarted worker gives a new, finished pack.
Needs PostgreSQL (the worker process must see the test database) and Redis.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings

from documents import pipeline, services
from documents.layout import print_pack_pages
from documents.models import GeneratedDocument
from tests.factories import build_world, make_tournament
from tournaments.models import Series

ROOT = Path(__file__).resolve().parents[2]
TABLES = 40  # 85 pages: the seating lists, a card and a sheet per table; four parts
RENDER_DELAY = 2.0  # seconds added to each part in the worker, so a kill lands mid-document
DEADLINE = 60.0  # the document ends (failed or done) within this after the kill

Status = GeneratedDocument.Status

pytestmark = [
    pytest.mark.broker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not django_settings.CELERY_BROKER_URL,
        reason="CELERY_BROKER_URL is not set: needs Redis and a real Celery worker",
    ),
    pytest.mark.skipif(
        "sqlite" in django_settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: the worker process must see the test database",
    ),
]


def _database_url() -> str:
    db = django_settings.DATABASES["default"]  # the test database pytest-django created
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _children(pid: int) -> list[int]:
    """The pool processes of a worker's main process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _wait_for(what: str, check: Callable[[], Any], timeout: float) -> Any:
    """Poll ``check`` until it returns something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.05)


def _fresh(document: GeneratedDocument) -> GeneratedDocument:
    document.refresh_from_db()
    return document


def _polled(document: GeneratedDocument) -> GeneratedDocument | None:
    """What the organizer's status poll does: reload, check for a stall; the document once
    it is finished."""
    document = pipeline.fail_if_stalled(_fresh(document))
    return document if document.is_finished else None


def _mid_document(document: GeneratedDocument) -> bool:
    document = _fresh(document)
    assert document.status != Status.FAILED, document.error
    return document.status == Status.RUNNING and 0 < document.pages_done < document.pages_total


@pytest.fixture
def big_series() -> Series:
    """Series 1 drawn at TABLES tables of four."""
    tournament = make_tournament(
        "winter", 3, name="Winterturnier", starts_on=dt.date(2026, 12, 5), venue="Ehrenfeld"
    )
    return build_world(tournament, (4,) * TABLES, status=Series.Status.DRAWN).series


@pytest.fixture
def queue() -> Iterator[str]:
    """A queue of the test's own; this process sends its tasks there too. Emptied after."""
    from config.celery import app

    name = f"ci-docs-{uuid.uuid4().hex[:8]}"
    default = app.conf.task_default_queue
    app.conf.task_default_queue = name
    try:
        yield name
    finally:
        app.conf.task_default_queue = default
    with app.connection_for_write() as conn:
        channel: Any = conn.default_channel
        channel.queue_purge(name)
        client = channel.client
        # messages a killed worker held: kombu would restore them after the visibility timeout
        for tag, raw in client.hgetall(channel.unacked_key).items():
            if json.loads(raw)[-1] == name:
                client.hdel(channel.unacked_key, tag)
                client.zrem(channel.unacked_index_key, tag)
        # the exchange celery declared for the queue (it carries the queue's name)
        client.delete(f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")


@pytest.fixture
def start_worker(queue: str, settings, tmp_path: Path) -> Iterator[Callable[[], subprocess.Popen]]:
    """Starts ``celery worker`` processes (prefork, two children) on the test's queue; stops
    whatever is left of them afterwards and prints their logs (shown when the test fails)."""
    workers: list[tuple[subprocess.Popen, Path]] = []

    def start() -> subprocess.Popen:
        log = tmp_path / f"worker-{len(workers)}.log"
        env = dict(
            os.environ,
            DATABASE_URL=_database_url(),
            MEDIA_ROOT=str(settings.MEDIA_ROOT),
            DOKO_TEST_QUEUE=queue,
            DOKO_TEST_RENDER_DELAY=str(RENDER_DELAY),
        )
        with log.open("w") as out:
            worker = subprocess.Popen(
                [
                    sys.executable, "-m", "celery", "-A", "tests.documents.worker_app", "worker",
                    "--pool", "prefork", "--concurrency", "2", "--queues", queue,
                    "--without-heartbeat", "--without-gossip", "--without-mingle",
                    "--loglevel", "WARNING",
                ],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killpg hits it and its pool
            )  # fmt: skip
        workers.append((worker, log))
        return worker

    yield start
    for worker, log in workers:
        if worker.poll() is None:
            worker.terminate()
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()
        print(f"--- {log.name} ---\n{log.read_text()}")


def _pages(series: Series) -> int:
    return len(print_pack_pages(pipeline.load_series(series)))


def _parts(document: GeneratedDocument) -> list[Path]:
    folder = Path(django_settings.MEDIA_ROOT) / "documents" / "parts" / str(document.pk)
    return sorted(folder.iterdir()) if folder.exists() else []


def test_killed_pool_child_mid_document_the_pack_still_completes(big_series, start_worker):
    worker = start_worker()
    document = services.request_document(
        GeneratedDocument.Kind.PRINT_PACK, big_series.tournament, big_series, language="de"
    )
    _wait_for("the first part", lambda: _mid_document(document), timeout=90)
    children = _children(worker.pid)
    assert children, "the worker has no pool processes"
    for pid in children:  # as the kernel's OOM killer would
        os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()

    document = _wait_for("the document to end", lambda: _polled(document), timeout=DEADLINE)
    took = time.monotonic() - killed
    print(f"pool children killed: document {document.status} {took:.1f} s later")
    assert document.status == Status.DONE, document.error
    assert document.pages_done == document.pages_total == _pages(big_series)
    assert document.file and _parts(document) == []
    assert worker.poll() is None  # the main process replaced its children


def test_killed_worker_mid_document_fails_and_may_be_asked_again(
    big_series, start_worker, settings
):
    worker = start_worker()
    document = services.request_document(
        GeneratedDocument.Kind.PRINT_PACK, big_series.tournament, big_series, language="en"
    )
    _wait_for("the first part", lambda: _mid_document(document), timeout=90)
    assert _parts(document)  # the parts rendered so far
    os.killpg(worker.pid, signal.SIGKILL)  # main process and pool: the machine went away
    worker.wait()
    killed = time.monotonic()
    settings.DOCUMENT_STALL_SECONDS = 5  # shortened for the test (default 300)

    document = _wait_for("the document to end", lambda: _polled(document), timeout=DEADLINE)
    took = time.monotonic() - killed
    print(f"worker killed: document {document.status} {took:.1f} s later")
    assert document.status == Status.FAILED
    assert document.failure == GeneratedDocument.Failure.STALLED
    assert _parts(document) == []

    # Asking again gives a new document (the old one no longer blocks its fingerprint);
    # the restarted worker makes it, and the old one's leftover messages do nothing.
    settings.DOCUMENT_STALL_SECONDS = 300
    retry = services.request_document(
        GeneratedDocument.Kind.PRINT_PACK, big_series.tournament, big_series, language="en"
    )
    assert retry.pk != document.pk and retry.fingerprint == document.fingerprint
    start_worker()
    retry = _wait_for("the new document", lambda: _polled(retry), timeout=120)
    assert retry.status == Status.DONE, retry.error
    assert retry.pages_done == _pages(big_series)
    assert not GeneratedDocument.objects.filter(pk=document.pk).exists()  # superseded
