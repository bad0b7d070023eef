"""The use case of the documents app: ask for a document of a tournament or a series.

A stored document is reused while its data is unchanged; otherwise a new one is created
and its generation queued (``documents.tasks``, which run the steps of
``documents.pipeline``). The organizer views and the management commands call this.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from documents.models import GeneratedDocument
from documents.pipeline import (
    current_document,
    document_language,
    fail_if_stalled,
    other_languages_ahead,
)
from documents.tasks import generate_document, prepare_print_pack_task
from tournaments.models import Series, Tournament

logger = logging.getLogger(__name__)


def latest_document(
    kind: str, tournament: Tournament, series: Series | None, language: str
) -> GeneratedDocument | None:
    document = (
        GeneratedDocument.objects.filter(
            kind=kind, tournament=tournament, series=series, language=language
        )
        .select_related("tournament", "series")
        .first()
    )
    return None if document is None else fail_if_stalled(document)


def request_document(
    kind: str,
    tournament: Tournament,
    series: Series | None = None,
    *,
    language: str | None = None,
    user: User | AnonymousUser | None = None,
    queue: bool = True,
) -> GeneratedDocument:
    """The current document of this kind: a stored one if its data is unchanged, else a new
    row whose generation is queued once the transaction commits. A stored one that stalled
    is marked failed first, so asking again starts a new one."""
    requested_by = user if user is not None and user.is_authenticated else None
    document, created = current_document(
        kind, tournament, series, document_language(language), requested_by
    )
    if created and queue:
        transaction.on_commit(lambda: generate_document.delay(document.pk), robust=True)
    return document


def render_ahead(sender: Any, series_id: int, **kwargs: Any) -> None:
    """Receiver of ``tournaments.signals.print_pack_changed``: queue the pack's rendering
    ahead in the language of whoever changed it, then (a small pack) in each other one,
    each a task of its own: a worker of two processes renders both at once, one process the
    language of the change first. Without a broker (DOCUMENT_PRERENDER off) it would render
    inside their request; with the broker down the click renders it."""
    if not settings.DOCUMENT_PRERENDER:
        return
    language = document_language()
    try:
        for code in [language, *other_languages_ahead(series_id, language)]:
            prepare_print_pack_task.delay(series_id, code, [])
    except Exception as exc:  # the broker is down: the change stands, the click renders
        logger.warning("print pack of series %s not queued ahead: %s", series_id, exc)
