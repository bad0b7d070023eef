"""A stored document is current only while everything it prints is unchanged: also the base
URL of its links and QR codes, and texts in its own language whatever the caller's."""

from __future__ import annotations

import pytest
from django.utils import translation

from common.actors import ORGANIZER, Actor
from documents import pipeline, services
from documents.models import GeneratedDocument
from scoring.services.entry import save_game
from tests.documents.pdftools import pdf_text, stored_pdf
from tournaments.models import Table

pytestmark = pytest.mark.django_db

Kind = GeneratedDocument.Kind


@pytest.mark.parametrize("kind", [Kind.PRINT_PACK, Kind.RESULTS])
def test_fingerprint_changes_with_site_url(world, settings, kind) -> None:
    series = world.series if kind == Kind.PRINT_PACK else None

    def key() -> str:
        data = pipeline.load_data(kind, world.tournament, series, "de")
        return pipeline.compute_fingerprint(kind, world.tournament, series, "de", data)

    settings.SITE_URL = "http://127.0.0.1:8000"
    before = key()
    assert key() == before
    settings.SITE_URL = "http://192.168.1.20:8101"
    assert key() != before


def test_a_pack_made_for_another_address_is_outdated_and_made_again(
    world, settings, django_capture_on_commit_callbacks, tmp_path
) -> None:
    settings.SITE_URL = "http://127.0.0.1:8000"
    with django_capture_on_commit_callbacks(execute=True):
        first = services.request_document(Kind.PRINT_PACK, world.tournament, world.series)
    first.refresh_from_db()
    assert "127.0.0.1:8000/" in "".join(pdf_text(stored_pdf(first), tmp_path).split())

    settings.SITE_URL = "http://192.168.1.20:8101"
    assert not pipeline.is_current(first)
    with django_capture_on_commit_callbacks(execute=True):
        second = services.request_document(Kind.PRINT_PACK, world.tournament, world.series)
    second.refresh_from_db()
    assert second.pk != first.pk and second.status == "done", second.error
    text = "".join(pdf_text(stored_pdf(second), tmp_path).split())
    assert "192.168.1.20:8101/" in text and ":8000/" not in text


def test_texts_are_in_the_documents_language_whatever_the_worker_speaks(
    world, django_capture_on_commit_callbacks, tmp_path
) -> None:
    """A worker has no request language: an English report with notes ("Silent Hochzeit")
    must not look changed to it (and fail) because it reads them in German."""
    world.series.status = "running"
    world.series.save(update_fields=["status"])
    table = Table.objects.select_related("series__tournament").get(pk=world.tables[0].pk)
    actor = Actor(ORGANIZER, user=world.organizer)
    save_game(table, {"contract": "stille_hochzeit", "re": [3], "re_points": 150}, actor=actor)
    with translation.override("en"):
        document = services.request_document(Kind.RESULTS, world.tournament, queue=False)
    with translation.override("de"):  # the worker
        assert pipeline.is_current(document)
        pipeline.generate_inline(document)
    document.refresh_from_db()
    assert document.status == "done", document.error
    assert "Silent Hochzeit" in pdf_text(stored_pdf(document), tmp_path)
