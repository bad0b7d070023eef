"""The result report lists the referees' rulings: table, time, reason, ruling, Nachspielzeit;
a ruling made after the report makes it stale."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from common.actors import Actor
from documents import pipeline, services
from documents.models import GeneratedDocument
from scoring.doors import REFEREE
from scoring.services.referee import call_referee, rule_call
from tests.documents.pdftools import pdf_text, stored_pdf
from tests.factories import CAPTAIN, World, set_status, started
from tournaments.models import Series, Table

pytestmark = pytest.mark.django_db


def _ruled(world: World, alice: User, table_index: int, reason: str, ruling: str, minutes: int):
    table = Table.objects.select_related("series__tournament").get(pk=world.tables[table_index].pk)
    call = call_referee(table, reason=reason, actor=CAPTAIN, link=table.captain_token).call
    return rule_call(
        call, ruling=ruling, actor=Actor(REFEREE, user=alice), extension_minutes=minutes
    )


def _results(capture, world: World, language: str) -> GeneratedDocument:
    with capture(execute=True):
        document = services.request_document(
            GeneratedDocument.Kind.RESULTS, world.tournament, None, language=language
        )
    document.refresh_from_db()
    assert document.status == "done", document.error
    return document


def test_the_report_lists_every_ruling(
    world: World, alice: User, django_capture_on_commit_callbacks, tmp_path
) -> None:
    set_status(world.series, Series.Status.RUNNING)
    started(world)
    first = _ruled(world, alice, 0, "Karte verworfen", "Spiel wird gewertet wie eingetragen.", 4)
    long = "Kontra hat Absage zu spät gemacht; das Spiel zählt ohne die Absage. " * 3
    _ruled(world, alice, 1, "Streit über die Absage", long, 0)
    document = _results(django_capture_on_commit_callbacks, world, "en")
    text = pdf_text(stored_pdf(document), tmp_path, raw=True)
    assert "REFEREE'S RULINGS" in text.replace("’", "'")
    assert "Karte verworfen" in text and "Spiel wird gewertet wie eingetragen." in text
    assert "+4 min" in text
    assert f"{timezone.localtime(first.called_at):%H:%M}" in text
    assert "Streit über die Absage" in text and "Kontra hat Absage" in text
    # a ruling made afterwards makes the report stale
    _ruled(world, alice, 0, "Noch ein Ruf", "Weiter.", 2)
    assert not pipeline.is_current(document)


def test_no_rulings_no_page(world: World, django_capture_on_commit_callbacks, tmp_path) -> None:
    document = _results(django_capture_on_commit_callbacks, world, "en")
    assert "rulings" not in pdf_text(stored_pdf(document), tmp_path).lower()
