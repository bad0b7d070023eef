"""The archive import task's work (``archive.tasks`` runs it): check the uploaded archive
with its progress on the row, or write the confirmed tournament. The use cases that queue
it are in ``archive.jobs``."""

from __future__ import annotations

import time

from django.utils import timezone, translation

from archive.models import RUNNING, ArchiveImport
from archive.reading import ArchiveRefused, content_hash, parse_json, read_archive
from archive.services import check_games, count_games, import_archive, summarize
from common.actors import API, ORGANIZER, Actor

Status = ArchiveImport.Status
Failure = ArchiveImport.Failure

#: The progress of a check is saved at most this often (seconds).
PROGRESS_EVERY = 1.0


def fail(job_id: int, exc: BaseException, failure: str = Failure.ERROR) -> None:
    """The task failed: nothing was written (the import is one transaction)."""
    ArchiveImport.objects.filter(pk=job_id, status__in=RUNNING).update(
        status=Status.FAILED,
        failure=failure,
        error=f"{type(exc).__name__}: {exc}"[:2000],
        data=b"",
        finished_at=timezone.now(),
    )


def _refused(job_id: int, refused: ArchiveRefused) -> None:
    ArchiveImport.objects.filter(pk=job_id).update(
        status=Status.REFUSED,
        problems=[{"where": p.where, "message": p.message} for p in refused.problems],
        more_problems=refused.more,
        data=b"",
        finished_at=timezone.now(),
    )


def run(job_id: int) -> None:
    """Check, or check and import, the queued import ``job_id``. A redelivered task finds
    it started (or finished) and does nothing: a lost worker's import stalls and fails."""
    confirmed = ArchiveImport.objects.filter(pk=job_id).values_list("confirmed", flat=True)
    working = Status.IMPORTING if confirmed.first() else Status.CHECKING
    claimed = ArchiveImport.objects.filter(pk=job_id, status=Status.QUEUED).update(
        status=working, progress_at=timezone.now()
    )
    if not claimed:
        return
    job = ArchiveImport.objects.select_related("owner").get(pk=job_id)
    with translation.override(job.language):
        try:
            if job.confirmed:
                _import(job)
            else:
                _check(job)
        except ArchiveRefused as refused:
            _refused(job_id, refused)


def _check(job: ArchiveImport) -> None:
    """Read and replay the archive; save its summary and wait for the confirmation."""
    data = parse_json(bytes(job.data))
    job.data = b""
    archive = read_archive(data)
    total = count_games(archive)
    ArchiveImport.objects.filter(pk=job.pk).update(
        games_total=total, games_done=0, progress_at=timezone.now()
    )
    last = time.monotonic()

    def progress(done: int) -> None:
        nonlocal last
        if time.monotonic() - last >= PROGRESS_EVERY:
            last = time.monotonic()
            ArchiveImport.objects.filter(pk=job.pk).update(
                games_done=done, progress_at=timezone.now()
            )

    check_games(archive, progress)
    ArchiveImport.objects.filter(pk=job.pk, status=Status.CHECKING).update(
        status=Status.CHECKED,
        summary=summarize(archive),
        content_hash=content_hash(data),
        games_done=total,
        progress_at=timezone.now(),
    )


def _import(job: ArchiveImport) -> None:
    """Write the tournament (checked again on the way: the file is the one checked)."""
    data = parse_json(bytes(job.data))
    job.data = b""
    ArchiveImport.objects.filter(pk=job.pk).update(data=b"")  # parsed: not needed any more
    digest = content_hash(data) if isinstance(data, dict) else ""
    user = job.owner
    actor = Actor(API if job.via_api else ORGANIZER, user=user)
    imported = import_archive(data, user, actor, content_hash=digest)
    ArchiveImport.objects.filter(pk=job.pk).update(
        status=Status.DONE,
        tournament=imported.tournament,
        players_new=imported.players_new,
        players_matched=imported.players_matched,
        summary=imported.summary,
        content_hash=digest,
        games_total=imported.games,
        games_done=imported.games,
        finished_at=timezone.now(),
        progress_at=timezone.now(),
    )
