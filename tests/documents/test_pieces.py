"""A pack is joined from pieces stored by their content: a swap renders the seating lists
and the two tables concerned, the rest is reused, and the pack is the one a render from
nothing makes. Pieces name players, so they go with the tournament's documents."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.core.files.storage import default_storage
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from documents import pieces, pipeline, services
from documents.forgetting import forget_documents
from documents.layout import Page
from documents.models import GeneratedDocument
from tests.documents.pdftools import pdf_pages, pdf_text, stored_pdf
from tests.factories import World
from tournaments.services.draw import swap_players

pytestmark = pytest.mark.django_db

Kind = GeneratedDocument.Kind


def _pack(world: World, capture: DjangoCaptureOnCommitCallbacks) -> GeneratedDocument:
    with capture(execute=True):
        document = services.request_document(
            Kind.PRINT_PACK, world.tournament, world.series, language="de"
        )
    document.refresh_from_db()
    assert document.status == "done", document.error
    return document


def _stored(world: World) -> list[str]:
    try:
        return default_storage.listdir(f"{pieces.PIECES_DIR}/{world.tournament.pk}")[1]
    except FileNotFoundError:
        return []


def test_a_swap_renders_only_the_seating_lists_and_the_two_tables(
    world: World,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    rendered: list[str] = []
    real = pieces.render_pdf

    def spy(pages: list[Page], language: str) -> bytes:
        for page in pages:
            table = page.context.get("table")
            rendered.append(page.template if table is None else f"table {table.number}")
        return real(pages, language)

    monkeypatch.setattr(pieces, "render_pdf", spy)
    first = _pack(world, django_capture_on_commit_callbacks)
    assert rendered.count("table 3") == 2  # its card and its sheet
    rendered.clear()
    first_seat = [t.seats.order_by("position")[0].registration for t in world.tables[:2]]
    swap_players(world.series, *first_seat)
    swapped = _pack(world, django_capture_on_commit_callbacks)
    assert swapped.pk != first.pk
    tables = sorted(r for r in rendered if r.startswith("table"))
    assert tables == ["table 1", "table 1", "table 2", "table 2"]  # not table 3, no layers
    assert {r for r in rendered if not r.startswith("table")} <= {
        "seating_alpha.html",
        "seating_tables.html",
    }
    joined = stored_pdf(swapped)
    # Made from nothing, the same pack: the same pages and the same text on them.
    GeneratedDocument.objects.all().delete()
    pieces.remove([world.tournament.pk])
    fresh = _pack(world, django_capture_on_commit_callbacks)
    assert pdf_pages(joined, tmp_path) == pdf_pages(stored_pdf(fresh), tmp_path) == 8
    assert pdf_text(joined, tmp_path) == pdf_text(stored_pdf(fresh), tmp_path)


def test_forgotten_documents_take_their_pieces_along(
    world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    _pack(world, django_capture_on_commit_callbacks)
    assert _stored(world)
    forget_documents(None, tournament_ids=[world.tournament.pk])
    assert _stored(world) == []


def test_the_sweep_removes_pieces_not_written_for_long(
    world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    _pack(world, django_capture_on_commit_callbacks)
    count = len(_stored(world))
    pipeline.sweep(timezone.now() + pieces.PIECE_KEEP - dt.timedelta(minutes=1))
    assert len(_stored(world)) == count
    pipeline.sweep(timezone.now() + pieces.PIECE_KEEP + dt.timedelta(minutes=1))
    assert _stored(world) == []
