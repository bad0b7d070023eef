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
from django.db import IntegrityError, transaction

from documents.models import GeneratedDocument
from documents.pipeline import (
    Status,
    compute_fingerprint,
    document_language,
    fail_if_stalled,
    load_data,
)
from documents.tasks import generate_document, prepare_print_pack_task
from tournaments.models import Series, Tournament

logger = logging.getLogger(__name__)

#: A print pack of at most this many tables is rendered ahead in both languages (about a
#: second of a worker's time each); a larger one only in the language of the change.
BOTH_LANGUAGES_TABLES = 40


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
    language = document_language(language)
    data = load_data(kind, tournament, series, language)
    key = compute_fingerprint(kind, tournament, series, language, data)
    live = GeneratedDocument.objects.exclude(status=Status.FAILED)
    existing = live.filter(fingerprint=key).first()
    if existing is not None:
        existing = fail_if_stalled(existing)
        if existing.status != Status.FAILED:
            return existing
    try:
        with transaction.atomic():
            document = GeneratedDocument.objects.create(
                kind=kind,
                tournament=tournament,
                series=series,
                language=language,
                fingerprint=key,
                requested_by=user if user is not None and user.is_authenticated else None,
            )
    except IntegrityError:  # the same request raced us; its row is the one
        return live.get(fingerprint=key)
    if queue:
        transaction.on_commit(lambda: generate_document.delay(document.pk), robust=True)
    return document


def prepare_print_pack(series_id: int, language: str) -> list[GeneratedDocument]:
    """Render a drawn series' print pack ahead of the organizer's click: in ``language``
    and, for a small pack, in the other languages too. A pack whose data is unchanged is
    found, not rendered again; the click still compares fingerprints, so a pack rendered
    ahead is never shown once anything it prints has changed."""
    series = (
        Series.objects.select_related("tournament")
        .filter(pk=series_id, status=Series.Status.DRAWN)
        .first()
    )
    if series is None:  # started, redrawn into another state, or gone
        return []
    language = document_language(language)
    languages = [language]
    if series.tables.count() <= BOTH_LANGUAGES_TABLES:
        languages += [code for code, _name in settings.LANGUAGES if code != language]
    kind = GeneratedDocument.Kind.PRINT_PACK
    return [request_document(kind, series.tournament, series, language=code) for code in languages]


def render_ahead(sender: Any, series_id: int, **kwargs: Any) -> None:
    """Receiver of ``tournaments.signals.print_pack_changed``: queue the pack's rendering
    ahead in the language of whoever changed it. Without a broker (DOCUMENT_PRERENDER off)
    it would render inside their request; with the broker down the click renders it."""
    if not settings.DOCUMENT_PRERENDER:
        return
    try:
        prepare_print_pack_task.delay(series_id, document_language())
    except Exception as exc:  # the broker is down: the change stands, the click renders
        logger.warning("print pack of series %s not queued ahead: %s", series_id, exc)
