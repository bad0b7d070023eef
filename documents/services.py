"""The use case of the documents app: ask for a document of a tournament or a series.

A stored document is reused while its data is unchanged; otherwise a new one is created
and its generation queued (``documents.tasks``, which run the steps of
``documents.pipeline``). The organizer views and the management commands call this.
"""

from __future__ import annotations

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
from documents.tasks import generate_document
from tournaments.models import Series, Tournament


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
