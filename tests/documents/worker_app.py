"""The Celery app of the worker that ``test_worker_loss.py`` starts and kills: the project's
app, on a queue of the test's own (so no other worker takes its tasks, and the tasks the
worker sends go there too), rendering each part a little slower so that the test can kill
it in the middle of a document."""

from __future__ import annotations

import os
import time

from celery.signals import worker_process_init

from config.celery import app

app.conf.task_default_queue = os.environ["DOKO_TEST_QUEUE"]


@worker_process_init.connect
def _slow_rendering(**kwargs: object) -> None:
    from documents import pieces

    delay = float(os.environ.get("DOKO_TEST_RENDER_DELAY", "0"))
    render = pieces.render_pdf

    def slow_render(pages, language):  # type: ignore[no-untyped-def]
        time.sleep(delay)
        return render(pages, language)

    pieces.render_pdf = slow_render


__all__ = ["app"]
