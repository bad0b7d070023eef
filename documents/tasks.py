"""Celery tasks: ids in, a stored PDF out. The static layers and the parts of a document
render in parallel on the workers (a group), and the task that stores the last of them
asks for the one that joins them, drawing the static layers under their pages: the
database counts the parts (``pipeline._stored``), not a Celery chord, whose count a worker
killed at the wrong moment could leave one short. Without a broker all of it runs eagerly.

A lost worker must not leave a document stuck: every task is acknowledged only after it
ran (``acks_late``) and put back in the queue when its worker process dies
(``reject_on_worker_lost``), so another worker renders the part again; each task has a
soft and a hard time limit; and a document without progress for DOCUMENT_STALL_SECONDS is
marked failed by ``pipeline`` (when it is asked for, and by the periodic ``sweep``), which
also ends a task that kills its worker every time: its redeliveries find the document
failed and do nothing."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import group, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_process_init
from django.conf import settings

from documents import pipeline, warmup

logger = logging.getLogger(__name__)

DOCUMENT_TASK: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "soft_time_limit": settings.DOCUMENT_TASK_TIME_LIMIT - 20,
    "time_limit": settings.DOCUMENT_TASK_TIME_LIMIT,
}


@worker_process_init.connect
def warm_worker_process(**kwargs: Any) -> None:
    """A new worker process renders its first document as fast as its hundredth, in any
    language: the organizer waits for the first one. A failing warm-up only costs that
    time; it never keeps the process from working."""
    start = time.perf_counter()
    try:
        warmup.warm()
    except Exception:
        logger.exception("Warming up for documents failed; the first one renders cold.")
    else:
        logger.info("Warmed up for documents in %.2f s.", time.perf_counter() - start)


def _fail(document_id: int, exc: Exception) -> None:
    if isinstance(exc, SoftTimeLimitExceeded):
        pipeline.fail(document_id, exc, pipeline.Failure.TIME_LIMIT)
    else:
        pipeline.fail(document_id, exc)


#: A document with at most this many pages left to render (no stored piece, see
#: ``documents.pieces``) is made in the task that starts it: the parts' hops through the
#: broker would cost more than rendering them in parallel saves.
HERE_PAGES = 12


@shared_task(name="documents.generate", **DOCUMENT_TASK)
def generate_document(document_id: int) -> None:
    try:
        parts = pipeline.start(document_id)
        if parts is None:  # redelivered after it started, or failed meanwhile
            return
        if pipeline.generate_here(document_id, HERE_PAGES) is not None:
            return
        tasks = [render_layers.si(document_id)]
        tasks += [render_part.si(document_id, index) for index in range(parts)]
        group(tasks).apply_async()
    except pipeline.DataChangedError as exc:  # outdated before it started: nothing is wrong
        pipeline.fail(document_id, exc)
    except Exception as exc:
        _fail(document_id, exc)
        raise


@shared_task(name="documents.render_layers", **DOCUMENT_TASK)
def render_layers(document_id: int) -> None:
    try:
        complete = pipeline.render_layers(document_id)
    except Exception as exc:
        _fail(document_id, exc)
        raise
    if complete:  # asked for after the commit: the join sees every part
        assemble.delay(document_id)


@shared_task(name="documents.render_part", **DOCUMENT_TASK)
def render_part(document_id: int, index: int) -> None:
    try:
        complete = pipeline.render_part(document_id, index)
    except Exception as exc:
        _fail(document_id, exc)
        raise
    if complete:
        assemble.delay(document_id)


@shared_task(name="documents.assemble", **DOCUMENT_TASK)
def assemble(document_id: int) -> None:
    """Join the stored parts; a second join of the same document does nothing."""
    try:
        pipeline.assemble(document_id)
    except Exception as exc:
        _fail(document_id, exc)
        raise


@shared_task(name="documents.prepare_print_pack", acks_late=True, time_limit=60)
def prepare_print_pack_task(
    series_id: int, language: str, then: list[str] | None = None
) -> list[int]:
    """Render a drawn series' print pack ahead of the click (``pipeline.print_packs_ahead``)
    in ``language``, here, and then in the other languages (``then``; None: every other
    one of a small pack), each asked for once the one before is made, so a lost task
    leaves no pack queued that nobody makes (a click asks for its own). A change queues
    one task per language with ``then`` empty (``services.render_ahead``), so the worker's
    processes render them at once. The ids of the documents it made."""
    if then is None:
        then = pipeline.other_languages_ahead(series_id, language)
    documents = pipeline.print_packs_ahead(series_id, language, others=False)
    try:
        for document in documents:
            generate_document(document.pk)
    finally:
        if then:
            prepare_print_pack_task.delay(series_id, then[0], then[1:])
    return [document.pk for document in documents]


@shared_task(name="documents.sweep", acks_late=True, time_limit=60)
def sweep() -> int:
    """Mark stalled documents failed and remove leftover part files (Celery beat)."""
    return len(pipeline.sweep())


@shared_task(name="documents.publication_period")
def publication_period() -> int:
    """Nightly: the stored documents of tournaments whose publication period ended are
    deleted (``services.forget_expired_documents``); the number deleted."""
    from documents.forgetting import forget_expired_documents

    return sum(count for _tournament, count in forget_expired_documents())
