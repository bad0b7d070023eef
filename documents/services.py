"""Use cases of the documents app: request a document, and the steps that generate it.

The Celery tasks, the organizer views and the management commands all go through here.
A document is identified by a fingerprint over the data it shows, so it is reused until a
seat, a name or a result changes, and regenerated afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation

from documents.builders import load_series
from documents.data import ResultsInfo, SeriesInfo, fingerprint
from documents.layout import (
    LAYOUT_VERSION,
    Page,
    page_order,
    part_runs,
    placements,
    print_pack_pages,
    results_pages,
    static_layers,
)
from documents.models import GeneratedDocument
from documents.render import join_pdfs, render_pdf
from documents.results import load_results
from tournaments.models import Series, Tournament

logger = logging.getLogger(__name__)

Kind = GeneratedDocument.Kind
Status = GeneratedDocument.Status

PART_PAGES = 40  # pages rendered per task; parts are rendered in parallel by the workers


class DataChangedError(RuntimeError):
    """The data changed while the document was being generated."""


def document_language(language: str | None = None) -> str:
    code = (language or translation.get_language() or "de").split("-")[0]
    return code if code in ("de", "en") else "de"


def load_data(kind: str, tournament: Tournament, series: Series | None) -> SeriesInfo | ResultsInfo:
    if kind == Kind.PRINT_PACK:
        if series is None:
            raise ValueError("a print pack needs a series")
        return load_series(series)
    if kind == Kind.RESULTS:
        return load_results(tournament)
    raise ValueError(f"unknown document kind {kind!r}")


def compute_fingerprint(
    kind: str,
    tournament: Tournament,
    series: Series | None,
    language: str,
    data: SeriesInfo | ResultsInfo,
) -> str:
    series_id = series.pk if series is not None else None
    return fingerprint(kind, tournament.pk, series_id, language, LAYOUT_VERSION, data)


def plan_pages(kind: str, data: SeriesInfo | ResultsInfo) -> list[Page]:
    if isinstance(data, SeriesInfo):
        return print_pack_pages(data)
    return results_pages(data)


def current_fingerprint(document: GeneratedDocument) -> str:
    data = load_data(document.kind, document.tournament, document.series)
    return compute_fingerprint(
        document.kind, document.tournament, document.series, document.language, data
    )


def is_current(document: GeneratedDocument) -> bool:
    """Whether the document still shows today's data (no seat or result changed since)."""
    return current_fingerprint(document) == document.fingerprint


def latest_document(
    kind: str, tournament: Tournament, series: Series | None, language: str
) -> GeneratedDocument | None:
    return (
        GeneratedDocument.objects.filter(
            kind=kind, tournament=tournament, series=series, language=language
        )
        .select_related("tournament", "series")
        .first()
    )


def request_document(
    kind: str,
    tournament: Tournament,
    series: Series | None = None,
    *,
    language: str | None = None,
    user=None,
    queue: bool = True,
) -> GeneratedDocument:
    """The current document of this kind: a stored one if its data is unchanged, else a new
    row whose generation is queued once the transaction commits."""
    language = document_language(language)
    data = load_data(kind, tournament, series)
    key = compute_fingerprint(kind, tournament, series, language, data)
    live = GeneratedDocument.objects.exclude(status=Status.FAILED)
    existing = live.filter(fingerprint=key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            document = GeneratedDocument.objects.create(
                kind=kind,
                tournament=tournament,
                series=series,
                language=language,
                fingerprint=key,
                requested_by=user if getattr(user, "is_authenticated", False) else None,
            )
    except IntegrityError:  # the same request raced us; its row is the one
        return live.get(fingerprint=key)
    if queue:
        from documents.tasks import generate_document

        transaction.on_commit(lambda: generate_document.delay(document.pk), robust=True)
    return document


# --- generation steps (run by the tasks, or inline by the management commands) --------------


def _pages_for(document: GeneratedDocument) -> list[Page]:
    data = load_data(document.kind, document.tournament, document.series)
    key = compute_fingerprint(
        document.kind, document.tournament, document.series, document.language, data
    )
    if key != document.fingerprint:
        raise DataChangedError(
            "The data changed while the document was being generated; request it again."
        )
    return plan_pages(document.kind, data)


def _part_name(document_id: int, index: int) -> str:
    return f"documents/parts/{document_id}/{index:04d}.pdf"


def _layers_name(document_id: int) -> str:
    return f"documents/parts/{document_id}/layers.pdf"


def _store(name: str, pdf: bytes) -> str:
    if default_storage.exists(name):
        default_storage.delete(name)
    return default_storage.save(name, ContentFile(pdf))


def start(document_id: int) -> int:
    """Mark the document running and return how many parts it is rendered in."""
    document = GeneratedDocument.objects.select_related("tournament", "series").get(pk=document_id)
    pages = _pages_for(document)
    GeneratedDocument.objects.filter(pk=document_id).update(
        status=Status.RUNNING, pages_total=len(pages), pages_done=0, error=""
    )
    return len(part_runs(pages, PART_PAGES))


def render_layers(document_id: int) -> str:
    """Render the document's static layers (one page per shape of score sheet and table card)
    into a file; returns its storage name, or "" when no page has an underlay. Runs beside
    the parts; ``assemble`` draws these pages under the parts' variable pages."""
    document = GeneratedDocument.objects.select_related("tournament", "series").get(pk=document_id)
    if document.status == Status.FAILED:
        return ""
    layers = static_layers(_pages_for(document))
    if not layers:
        return ""
    return _store(_layers_name(document_id), render_pdf(layers, document.language))


def render_part(document_id: int, index: int) -> str:
    """Render one run of pages (the variable layer where pages are split) into a part file;
    returns its storage name."""
    document = GeneratedDocument.objects.select_related("tournament", "series").get(pk=document_id)
    if document.status == Status.FAILED:  # another part failed already
        return ""
    pages = _pages_for(document)
    run = [pages[i] for i in part_runs(pages, PART_PAGES)[index]]
    name = _store(_part_name(document_id, index), render_pdf(run, document.language))
    GeneratedDocument.objects.filter(pk=document_id).update(pages_done=F("pages_done") + len(run))
    return name


def _read(name: str) -> bytes:
    with default_storage.open(name, "rb") as handle:
        return handle.read()


def assemble(
    document_id: int, part_names: Sequence[str], layers_name: str = ""
) -> GeneratedDocument:
    """Join the parts into the document's file, the static layers under their pages, and
    mark it done."""
    document = GeneratedDocument.objects.select_related("tournament", "series").get(pk=document_id)
    parts = [_read(name) for name in part_names]
    pages = _pages_for(document)
    order = page_order(part_runs(pages, PART_PAGES))
    if layers_name:
        layers = static_layers(pages)
        pdf = join_pdfs(parts, order, _read(layers_name), placements(pages, layers))
    else:
        pdf = join_pdfs(parts, order)
    document.file.save(document.filename, ContentFile(pdf), save=False)
    document.status = Status.DONE
    document.pages_done = document.pages_total
    document.finished_at = timezone.now()
    document.save(update_fields=["file", "status", "pages_done", "finished_at"])
    for name in [*part_names, layers_name]:
        if name:
            default_storage.delete(name)
    _drop_superseded(document)
    return document


def fail(document_id: int, exc: BaseException) -> None:
    """Record a failure so the organizer sees it; the caller re-raises."""
    logger.error("document %s failed", document_id, exc_info=exc)
    message = str(exc) or type(exc).__name__
    GeneratedDocument.objects.filter(pk=document_id).exclude(status=Status.FAILED).update(
        status=Status.FAILED,
        error=f"{type(exc).__name__}: {message}"[:2000],
        finished_at=timezone.now(),
    )


def _drop_superseded(document: GeneratedDocument) -> None:
    """Older finished documents of the same kind, target and language (and their files)."""
    older = GeneratedDocument.objects.filter(
        kind=document.kind,
        tournament_id=document.tournament_id,
        series_id=document.series_id,
        language=document.language,
        status__in=[Status.DONE, Status.FAILED],
        created_at__lte=document.created_at,
    ).exclude(pk=document.pk)
    for old in older:
        if old.file:
            old.file.delete(save=False)
        old.delete()


def generate_inline(document: GeneratedDocument) -> GeneratedDocument:
    """All steps in this process, one part after the other (management commands)."""
    if document.status == Status.DONE:
        return document
    try:
        parts = start(document.pk)
        layers = render_layers(document.pk)
        names = [render_part(document.pk, i) for i in range(parts)]
        return assemble(document.pk, names, layers)
    except Exception as exc:
        fail(document.pk, exc)
        raise
