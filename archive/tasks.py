"""The archive import's task: an id in, the work in ``archive.work.run``. Acknowledged
after it ran and put back when its worker dies (the redelivery finds the import started
and leaves it to the stall watch); stopped at ARCHIVE_IMPORT_TIME_LIMIT."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from archive import work

IMPORT_TASK: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "soft_time_limit": settings.ARCHIVE_IMPORT_TIME_LIMIT - 20,
    "time_limit": settings.ARCHIVE_IMPORT_TIME_LIMIT,
}


@shared_task(name="archive.run_import", **IMPORT_TASK)
def run_import(job_id: int) -> None:
    try:
        work.run(job_id)
    except SoftTimeLimitExceeded as exc:
        work.fail(job_id, exc, work.Failure.TIME_LIMIT)
    except Exception as exc:
        work.fail(job_id, exc)
        raise
