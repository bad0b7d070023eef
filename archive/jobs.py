"""Archive imports in the background: the use cases around an ``ArchiveImport`` row.

The page and the API only store the uploaded file (``start``) and answer at once; a Celery
task (``archive.tasks``, eager without a broker) runs ``archive.work.run``: it reads and checks the
archive with its progress on the row (``check``: every game replayed, one table held at a
time), then stops for the organizer's confirmation of the summary (``confirm``), or, when
the upload was confirmed already (the API's default), writes the tournament
(``services.import_archive``, a batch of tables at a time). One organizer has at most one
running import (a database constraint); a second is refused with ``ImportRunning``. An
import whose worker was lost makes no progress and is marked failed after
ARCHIVE_IMPORT_STALL_SECONDS (``fail_if_stalled``, whenever it is looked at)."""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from archive.models import RUNNING, ArchiveImport, ImportedTournament
from archive.reading import Problem
from archive.tasks import run_import
from tournaments.models import Tournament
from tournaments.permissions import TOURNAMENTS

logger = logging.getLogger(__name__)

Status = ArchiveImport.Status
Failure = ArchiveImport.Failure


class ImportRunning(Exception):
    """The organizer has an import running already; ``running`` is it."""

    def __init__(self, running: ArchiveImport) -> None:
        super().__init__(f"archive import {running.pk} is running")
        self.running = running


def _queue(job: ArchiveImport) -> None:
    pk = job.pk
    transaction.on_commit(lambda: run_import.delay(pk), robust=True)


def running_import(user: User) -> ArchiveImport | None:
    """The user's running import, once a stalled one is marked failed."""
    job = ArchiveImport.objects.defer("data").filter(owner=user, status__in=RUNNING).first()
    if job is None:
        return None
    job = fail_if_stalled(job)
    return job if job.is_running else None


def start(
    raw: bytes, user: User, *, confirmed: bool, language: str, via_api: bool = False
) -> ArchiveImport:
    """Store the uploaded file and queue its check (and, ``confirmed``, its import), or
    raise ``ImportRunning``."""
    running = running_import(user)
    if running is not None:
        raise ImportRunning(running)
    try:
        with transaction.atomic():
            job = ArchiveImport.objects.create(
                owner=user, confirmed=confirmed, language=language, via_api=via_api,
                data=raw, size=len(raw),
            )  # fmt: skip
            _queue(job)
    except IntegrityError:  # a second upload raced the first
        again = running_import(user)
        if again is None:
            raise
        raise ImportRunning(again) from None
    return job


def confirm(job: ArchiveImport, user: User) -> ArchiveImport:
    """The organizer confirmed the checked summary: queue the import. Anything but a
    checked import stays as it is (a second click, a finished import)."""
    if job.status != Status.CHECKED:
        return job
    running = running_import(user)
    if running is not None:
        raise ImportRunning(running)
    try:
        with transaction.atomic():
            updated = ArchiveImport.objects.filter(pk=job.pk, status=Status.CHECKED).update(
                status=Status.QUEUED, confirmed=True, progress_at=timezone.now()
            )
            if updated:
                _queue(job)
    except IntegrityError:
        again = running_import(user)
        if again is None:
            raise
        raise ImportRunning(again) from None
    job.refresh_from_db()
    return job


def duplicates(job: ArchiveImport) -> QuerySet[Tournament]:
    """The owner's tournaments imported from the same archive (same content hash)."""
    if not job.content_hash:
        return Tournament.objects.none()
    ids = ImportedTournament.objects.filter(content_hash=job.content_hash).values("tournament")
    return (
        Tournament.objects.filter(TOURNAMENTS.kept_by(job.owner), pk__in=ids)
        .exclude(pk=job.tournament_id or 0)
        .order_by("pk")
    )


# --- stalls ------------------------------------------------------------------------------------


def _stalled(jobs: QuerySet[ArchiveImport], now: dt.datetime) -> QuerySet[ArchiveImport]:
    cutoff = now - dt.timedelta(seconds=settings.ARCHIVE_IMPORT_STALL_SECONDS)
    return jobs.filter(status__in=RUNNING, progress_at__lt=cutoff)


def fail_if_stalled(job: ArchiveImport) -> ArchiveImport:
    """``job``, marked failed first if it made no progress for too long."""
    if not job.is_running:
        return job
    now = timezone.now()
    marked = _stalled(ArchiveImport.objects.filter(pk=job.pk), now).update(
        status=Status.FAILED,
        failure=Failure.STALLED,
        error=(
            f"No progress for more than {settings.ARCHIVE_IMPORT_STALL_SECONDS} s: "
            "the worker running it was probably stopped."
        ),
        data=b"",
        finished_at=now,
    )
    if marked:
        logger.warning("archive import %s stalled; marked failed", job.pk)
        job.refresh_from_db()
    return job


def problems_of(job: ArchiveImport) -> list[Problem]:
    return [Problem(p.get("where", ""), p.get("message", "")) for p in job.problems]
