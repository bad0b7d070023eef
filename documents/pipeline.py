"""How a document is made: its data and fingerprint, its pages, and the generation steps
the Celery tasks run (start, static layers, parts, assembly), with the watch for stalls.

The use case that asks for a document is ``documents.services``; it queues the tasks
(``documents.tasks``), which call the steps here. A document is identified by a fingerprint
over the data it shows, so it is reused until a seat, a name or a result changes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import math
import os

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone, translation

from documents import pieces
from documents.builders import load_series
from documents.data import ResultsInfo, SeriesInfo, fingerprint
from documents.layout import (
    LAYOUT_VERSION,
    Page,
    page_order,
    part_runs,
    placements,
    print_pack_pages,
    static_layers,
)
from documents.models import GeneratedDocument
from documents.render import join_pdfs, templates_version
from documents.report_layout import results_pages
from documents.results import load_results
from tournaments.models import Series, Tournament

logger = logging.getLogger(__name__)

Kind = GeneratedDocument.Kind
Status = GeneratedDocument.Status
Failure = GeneratedDocument.Failure
UNFINISHED = (Status.QUEUED, Status.RUNNING)

PART_PAGES = 40  # pages rendered per task at most; parts are rendered in parallel by the workers
#: A print pack of at most this many tables is rendered ahead in every language (about a
#: second of a worker's time each); a larger one only in the language of the change.
AHEAD_IN_EVERY_LANGUAGE_TABLES = 40


class DataChangedError(RuntimeError):
    """The data changed while the document was being generated."""


def document_language(language: str | None = None) -> str:
    code = (language or translation.get_language() or "de").split("-")[0]
    return code if code in ("de", "en") else "de"


def load_data(
    kind: str, tournament: Tournament, series: Series | None, language: str
) -> SeriesInfo | ResultsInfo:
    """The document's data, its texts (notes such as "not played") in ``language`` whatever
    language the caller (a request, a worker) has active: the fingerprint compares them."""
    with translation.override(language):
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
    """Over everything the document shows: its data, the layout and its templates, and the
    base URL of the printed links and QR codes (a document made before SITE_URL changed is
    outdated)."""
    series_id = series.pk if series is not None else None
    layout = (LAYOUT_VERSION, templates_version())
    return fingerprint(kind, tournament.pk, series_id, language, layout, settings.SITE_URL, data)


def plan_pages(kind: str, data: SeriesInfo | ResultsInfo, language: str) -> list[Page]:
    """The pages, planned in the document's language (labels measured to fit)."""
    with translation.override(language):
        if isinstance(data, SeriesInfo):
            return print_pack_pages(data)
        return results_pages(data)


def current_fingerprint(document: GeneratedDocument) -> str:
    data = load_data(document.kind, document.tournament, document.series, document.language)
    return compute_fingerprint(
        document.kind, document.tournament, document.series, document.language, data
    )


def is_current(document: GeneratedDocument) -> bool:
    """Whether the document still shows today's data (no seat or result changed since)."""
    return current_fingerprint(document) == document.fingerprint


def current_document(
    kind: str,
    tournament: Tournament,
    series: Series | None,
    language: str,
    requested_by: User | None = None,
) -> tuple[GeneratedDocument, bool]:
    """The live document whose fingerprint is today's, or a new queued row for it (then
    True: its generation is the caller's to queue). A stored one that stalled is marked
    failed first, so asking again starts a new one."""
    data = load_data(kind, tournament, series, language)
    key = compute_fingerprint(kind, tournament, series, language, data)
    live = GeneratedDocument.objects.exclude(status=Status.FAILED)
    existing = live.filter(fingerprint=key).first()
    if existing is not None:
        existing = fail_if_stalled(existing)
        if existing.status != Status.FAILED:
            return existing, False
    try:
        with transaction.atomic():
            document = GeneratedDocument.objects.create(
                kind=kind,
                tournament=tournament,
                series=series,
                language=language,
                fingerprint=key,
                requested_by=requested_by,
            )
    except IntegrityError:  # the same request raced us; its row is the one
        return live.get(fingerprint=key), False
    return document, True


def _drawn(series_id: int) -> Series | None:
    return (
        Series.objects.select_related("tournament")
        .filter(pk=series_id, status=Series.Status.DRAWN)
        .first()
    )


def other_languages_ahead(series_id: int, language: str) -> list[str]:
    """The languages a drawn series' pack is rendered ahead in besides ``language``: every
    other one for a small pack, none for a large one (or a series no longer drawn)."""
    series = _drawn(series_id)
    if series is None or series.tables.count() > AHEAD_IN_EVERY_LANGUAGE_TABLES:
        return []
    language = document_language(language)
    return [code for code, _name in settings.LANGUAGES if code != language]


def print_packs_ahead(
    series_id: int, language: str, *, others: bool = True
) -> list[GeneratedDocument]:
    """A drawn series' print pack, to be rendered before the organizer asks for it: in
    ``language`` and, with ``others``, for a small pack in every other language too. The
    new rows (queued; their generation is the caller's to start): a pack whose data is
    unchanged is found, not made again. The click compares fingerprints as ever, so a pack rendered
    ahead is never shown once anything it prints has changed."""
    series = _drawn(series_id)
    if series is None:  # started meanwhile, or gone
        return []
    language = document_language(language)
    languages = [language]
    if others:
        languages += other_languages_ahead(series_id, language)
    tournament = series.tournament
    made = [current_document(Kind.PRINT_PACK, tournament, series, code) for code in languages]
    return [document for document, created in made if created]


# --- stalls: a lost worker leaves a document queued or running without progress -------------


def stall_cutoff(now: dt.datetime | None = None) -> dt.datetime:
    """Unfinished documents whose last progress lies before this have stalled."""
    return (now or timezone.now()) - dt.timedelta(seconds=settings.DOCUMENT_STALL_SECONDS)


def _stalled(
    documents: QuerySet[GeneratedDocument], now: dt.datetime
) -> QuerySet[GeneratedDocument]:
    return documents.filter(status__in=UNFINISHED, progress_at__lt=stall_cutoff(now))


def _fail_stalled(documents: QuerySet[GeneratedDocument], now: dt.datetime) -> list[int]:
    """Mark the stalled ones among ``documents`` failed and remove their part files. Each
    row is updated only if it still has no progress, so a worker that moves it on at the
    same moment keeps it alive; and only one caller wins each row."""
    failed = []
    for pk in _stalled(documents, now).values_list("pk", flat=True):
        marked = _stalled(GeneratedDocument.objects.filter(pk=pk), now).update(
            status=Status.FAILED,
            failure=Failure.STALLED,
            error=(
                f"No progress for more than {settings.DOCUMENT_STALL_SECONDS} s: "
                "the worker generating it was probably stopped."
            ),
            finished_at=now,
        )
        if marked:
            logger.warning("document %s stalled; marked failed", pk)
            remove_parts(pk)
            failed.append(pk)
    return failed


def fail_if_stalled(document: GeneratedDocument) -> GeneratedDocument:
    """``document``, marked failed first if it stalled (checked whenever it is asked for)."""
    if document.status not in UNFINISHED:
        return document
    if _fail_stalled(GeneratedDocument.objects.filter(pk=document.pk), timezone.now()):
        document.refresh_from_db()
    return document


def sweep(now: dt.datetime | None = None) -> list[int]:
    """Mark every stalled document failed and remove part files no generation needs any
    more; returns the ids marked failed. Run periodically (Celery beat)."""
    failed = _fail_stalled(GeneratedDocument.objects.all(), now or timezone.now())
    _remove_orphaned_parts()
    pieces.sweep(now)
    return failed


# --- generation steps (run by the tasks, or inline by the management commands) --------------


def _pages_for(document: GeneratedDocument) -> list[Page]:
    data = load_data(document.kind, document.tournament, document.series, document.language)
    key = compute_fingerprint(
        document.kind, document.tournament, document.series, document.language, data
    )
    if key != document.fingerprint:
        raise DataChangedError(
            "The data changed while the document was being generated; request it again."
        )
    return plan_pages(document.kind, data, document.language)


PARTS_DIR = "documents/parts"


def _parts_dir(document_id: int) -> str:
    return f"{PARTS_DIR}/{document_id}"


def _part_name(document_id: int, index: int) -> str:
    return f"{_parts_dir(document_id)}/{index:04d}.pdf"


def _layers_name(document_id: int) -> str:
    return f"{_parts_dir(document_id)}/layers.pdf"


def _store(name: str, pdf: bytes) -> str:
    if default_storage.exists(name):
        default_storage.delete(name)
    return default_storage.save(name, ContentFile(pdf))


def remove_parts(document_id: int) -> None:
    """Delete the document's part and layer files (and their folder where the storage has
    folders)."""
    folder = _parts_dir(document_id)
    try:
        _, files = default_storage.listdir(folder)
    except FileNotFoundError:
        return
    for name in files:
        default_storage.delete(f"{folder}/{name}")
    # not a local storage, or a late part arrived meanwhile: the folder stays
    with contextlib.suppress(NotImplementedError, OSError):
        os.rmdir(default_storage.path(folder))


def _remove_orphaned_parts() -> None:
    """Part folders of documents that are finished or gone (a part task that was still
    rendering when its document failed writes its file afterwards)."""
    try:
        folders, _ = default_storage.listdir(PARTS_DIR)
    except FileNotFoundError:
        return
    ids = {int(name) for name in folders if name.isdigit()}
    live = set(
        GeneratedDocument.objects.filter(pk__in=ids, status__in=UNFINISHED).values_list(
            "pk", flat=True
        )
    )
    for pk in sorted(ids - live):
        remove_parts(pk)


def _running(document_id: int) -> GeneratedDocument | None:
    """The document if it is running; None if it failed (stalled, or another part failed),
    finished, or is gone: a redelivered or late task then has nothing to do."""
    return (
        GeneratedDocument.objects.select_related("tournament", "series")
        .filter(pk=document_id, status=Status.RUNNING)
        .first()
    )


def part_size(pages: int) -> int:
    """Pages per part of a document of ``pages`` pages: at most PART_PAGES, and a small
    document in as many parts as the worker has processes (DOCUMENT_WORKER_PROCESSES), so
    all of them render it at once."""
    return max(1, min(PART_PAGES, math.ceil(pages / settings.DOCUMENT_WORKER_PROCESSES)))


def _runs(pages: list[Page]) -> list[list[int]]:
    return part_runs(pages, part_size(len(pages)))


def start(document_id: int) -> int | None:
    """Mark the queued document running and return how many parts it is rendered in; None
    if it is not queued any more (a redelivered task, or it failed meanwhile), so a
    generation is started at most once."""
    document = GeneratedDocument.objects.select_related("tournament", "series").get(pk=document_id)
    if document.status != Status.QUEUED:
        return None
    pages = _pages_for(document)
    claimed = GeneratedDocument.objects.filter(pk=document_id, status=Status.QUEUED).update(
        status=Status.RUNNING,
        pages_total=len(pages),
        pages_done=0,
        parts_stored=[],
        error="",
        failure="",
        progress_at=timezone.now(),
    )
    if not claimed:
        return None
    return len(_runs(pages))


#: The static layers' place in ``parts_stored``, beside the parts' indexes.
LAYERS = -1


def render_layers(document_id: int) -> bool:
    """Render the document's static layers (one page per shape of score sheet and table card)
    into a file, if any page has an underlay. Runs beside the parts; ``assemble`` draws
    these pages under the parts' variable pages. True when the document has every part now
    (see ``_stored``)."""
    document = _running(document_id)
    if document is None:
        return False
    pages = _pages_for(document)
    if LAYERS not in document.parts_stored:
        layers = static_layers(pages)
        if layers:
            piece = pieces.pieces(layers, [range(len(layers))], document.language)
            pdf = pieces.render(document.tournament_id, layers, piece, document.language)[0]
            _store(_layers_name(document_id), pdf)
    return _stored(document_id, LAYERS, _runs(pages))


def render_part(document_id: int, index: int) -> bool:
    """Render one run of pages (the variable layer where pages are split) into a part file.
    True when the document has every part now: the caller has it joined (``assemble``).
    A part redelivered after it was stored is not rendered again."""
    document = _running(document_id)
    if document is None:
        return False
    pages = _pages_for(document)
    runs = _runs(pages)
    if index not in document.parts_stored:
        _store(_part_name(document_id, index), _render_run(document, pages, runs[index]))
    return _stored(document_id, index, runs)


def _stored(document_id: int, index: int, runs: list[list[int]]) -> bool:
    """Record that part ``index`` (or the layers) is stored, and say whether that makes the
    document complete. Counted in the database under the document's row lock, not by the
    Celery chord: a worker killed after a part's result was stored but before the chord
    counted it (Celery 5.7 acknowledges such a task and never runs it again) left the
    chord one short and the document stalled. Each part is recorded once however often it
    is delivered, so the pages done never count past the total; a redelivery of a part
    that completed the document says so again (its first run may have died before it
    asked for the join; ``assemble`` joins once)."""
    with transaction.atomic():
        document = (
            GeneratedDocument.objects.select_for_update()
            .filter(pk=document_id, status=Status.RUNNING)
            .first()
        )
        if document is None:  # failed or finished meanwhile
            return False
        stored = set(document.parts_stored) | {index}
        document.parts_stored = sorted(stored)
        document.pages_done = sum(len(runs[i]) for i in stored if i != LAYERS)
        document.progress_at = timezone.now()
        document.save(update_fields=["parts_stored", "pages_done", "progress_at"])
    return stored >= {LAYERS, *range(len(runs))}


def _render_run(document: GeneratedDocument, pages: list[Page], run: list[int]) -> bytes:
    """The run's pages as one PDF, joined from their pieces (``documents.pieces``): the
    stored ones reused, the missing ones rendered together."""
    run_pages = [pages[i] for i in run]
    found = pieces.pieces(run_pages, pieces.groups(run_pages, PART_PAGES), document.language)
    pdfs = pieces.render(document.tournament_id, run_pages, found, document.language)
    return join_pdfs(pdfs, page_order([piece.pages for piece in found]))


def _read(name: str) -> bytes:
    with default_storage.open(name, "rb") as handle:
        data: bytes = handle.read()
    return data


def assemble(document_id: int) -> GeneratedDocument | None:
    """Join the parts into the document's file, the static layers under their pages, and
    mark it done. The part names follow from the id, so a part that was redelivered (and
    stored once more) changes nothing. Returns None if the document is no longer running;
    a document that failed meanwhile stays failed and keeps no file."""
    document = _running(document_id)
    if document is None:
        remove_parts(document_id)
        return None
    pages = _pages_for(document)
    runs = _runs(pages)
    layers = static_layers(pages)
    try:
        parts = [_read(_part_name(document_id, index)) for index in range(len(runs))]
        under = _read(_layers_name(document_id)) if layers else None
    except FileNotFoundError:
        # A second join of the same document (a part redelivered after it completed it)
        # found the parts gone: the first one finished, or the document failed meanwhile.
        if _running(document_id) is None:
            return None
        raise
    if under is not None:
        pdf = join_pdfs(parts, page_order(runs), under, placements(pages, layers))
    else:
        pdf = join_pdfs(parts, page_order(runs))
    return _save(document, pdf)


def _save(document: GeneratedDocument, pdf: bytes) -> GeneratedDocument | None:
    """Store the finished document's file and mark it done (None: it was marked failed
    meanwhile, and keeps no file)."""
    document_id = document.pk
    document.file.save(document.filename, ContentFile(pdf), save=False)
    now = timezone.now()
    done = GeneratedDocument.objects.filter(pk=document_id, status=Status.RUNNING).update(
        file=document.file.name,
        status=Status.DONE,
        pages_done=F("pages_total"),
        finished_at=now,
        progress_at=now,
    )
    remove_parts(document_id)
    if not done:  # marked stalled while we joined the parts
        document.file.delete(save=False)
        return None
    document.refresh_from_db()
    _drop_superseded(document)
    return document


def fail(document_id: int, exc: BaseException, failure: str = Failure.ERROR) -> None:
    """Record a failure so the organizer sees it; the caller re-raises. A document that is
    already finished stays as it is (a late duplicate task cannot undo a done one)."""
    if isinstance(exc, DataChangedError):  # a newer one is asked for or on its way
        logger.info("document %s outdated while it was being made", document_id)
    else:
        logger.error("document %s failed", document_id, exc_info=exc)
    message = str(exc) or type(exc).__name__
    failed = GeneratedDocument.objects.filter(pk=document_id, status__in=UNFINISHED).update(
        status=Status.FAILED,
        failure=failure,
        error=f"{type(exc).__name__}: {message}"[:2000],
        finished_at=timezone.now(),
    )
    if failed:
        remove_parts(document_id)


def _drop_superseded(document: GeneratedDocument) -> None:
    """Older finished documents of the same kind, target and language (and their files)."""
    older = GeneratedDocument.objects.filter(
        kind=document.kind,
        tournament_id=document.tournament_id,
        series=document.series_id,
        language=document.language,
        status__in=[Status.DONE, Status.FAILED],
        created_at__lte=document.created_at,
    ).exclude(pk=document.pk)
    for old in older:
        if old.file:
            old.file.delete(save=False)
        remove_parts(old.pk)
        old.delete()


def generate_here(document_id: int, limit: int) -> GeneratedDocument | None:
    """Make the running document in this process, without parts, if at most ``limit`` of
    its pages have no stored piece (``documents.pieces``): after a swap, the seating lists
    and the two tables concerned. Returns None, having done nothing, if more are missing or
    the document is not running; ``assemble``'s result otherwise."""
    document = _running(document_id)
    if document is None:
        return None
    pages = _pages_for(document)
    language, tournament_id = document.language, document.tournament_id
    found = pieces.pieces(pages, pieces.groups(pages, PART_PAGES), language)
    layers = static_layers(pages)
    under = pieces.pieces(layers, [range(len(layers))], language) if layers else []
    if sum(len(p.pages) for p in pieces.missing(tournament_id, found + under)) > limit:
        return None
    pdfs = pieces.render(tournament_id, pages, found, language)
    order = page_order([piece.pages for piece in found])
    if layers:
        layer_pdf = pieces.render(tournament_id, layers, under, language)[0]
        pdf = join_pdfs(pdfs, order, layer_pdf, placements(pages, layers))
    else:
        pdf = join_pdfs(pdfs, order)
    return _save(document, pdf)


class BusyError(RuntimeError):
    """A worker is generating the document already."""


def generate_inline(document: GeneratedDocument) -> GeneratedDocument:
    """All steps in this process, one part after the other (management commands)."""
    if document.status == Status.DONE:
        return document
    try:
        parts = start(document.pk)
        if parts is None:
            raise BusyError("A worker is generating this document; try again in a moment.")
        render_layers(document.pk)
        for index in range(parts):
            render_part(document.pk, index)
        done = assemble(document.pk)
        if done is None:
            raise RuntimeError("The document was marked failed while it was being generated.")
        return done
    except BusyError:
        raise
    except Exception as exc:
        fail(document.pk, exc)
        raise
