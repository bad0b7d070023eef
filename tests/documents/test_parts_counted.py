"""The database counts a document's stored parts; the part stored last has it joined.

No Celery chord decides when a print pack is complete: a pool child killed after its part's
result was stored but before the chord counted it (Celery acknowledges such a task and never
runs it again) left the chord one short and the pack stalled. Here the parts are recorded in
the document's row, each once however often it is delivered, and whichever of them is
stored last asks for the join, which happens once.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.db import connection

from documents import pipeline, services, tasks
from documents.models import GeneratedDocument
from tests.concurrency import race

Kind = GeneratedDocument.Kind
Status = GeneratedDocument.Status
LAYERS = pipeline.LAYERS


@pytest.fixture(autouse=True)
def _two_parts(settings: Any) -> None:
    # One worker process: the pack in its two parts, whatever the deploy's count.
    settings.DOCUMENT_WORKER_PROCESSES = 1


def _running(world: Any) -> GeneratedDocument:
    document = services.request_document(
        Kind.PRINT_PACK, world.tournament, world.series, language="de", queue=False
    )
    assert pipeline.start(document.pk) == 2  # the seating lists, then cards and sheets
    return document


def _store(document: GeneratedDocument, piece: int) -> bool:
    if piece == LAYERS:
        return pipeline.render_layers(document.pk)
    return pipeline.render_part(document.pk, piece)


def _parts(document: GeneratedDocument) -> list[str]:
    try:
        return sorted(default_storage.listdir(f"documents/parts/{document.pk}")[1])
    except FileNotFoundError:
        return []


@pytest.mark.django_db
@pytest.mark.parametrize("order", [(LAYERS, 0, 1), (1, LAYERS, 0), (0, 1, LAYERS)])
def test_only_the_piece_stored_last_completes_the_document(
    world: Any, order: tuple[int, ...]
) -> None:
    document = _running(world)
    said = [_store(document, piece) for piece in order]
    assert said == [False, False, True]
    document.refresh_from_db()
    assert document.parts_stored == [LAYERS, 0, 1]
    assert document.pages_done == document.pages_total == 8
    done = pipeline.assemble(document.pk)
    assert done is not None and done.status == Status.DONE


@pytest.mark.django_db
def test_a_part_delivered_again_is_not_rendered_again_and_counts_once(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = _running(world)
    runs = pipeline._runs(pipeline._pages_for(document))
    assert _store(document, 0) is False
    rendered: list[int] = []
    real = pipeline._render_run

    def counted(document: GeneratedDocument, pages: list[Any], run: list[int]) -> bytes:
        rendered.append(len(run))
        return real(document, pages, run)

    monkeypatch.setattr(pipeline, "_render_run", counted)
    assert _store(document, 0) is False  # redelivered: stored already, the file is kept
    assert rendered == []
    document.refresh_from_db()
    assert document.parts_stored == [0] and document.pages_done == len(runs[0])
    assert _store(document, LAYERS) is False
    assert _store(document, 1) is True
    # Its first run may have died before it asked for the join: a redelivery asks again.
    assert _store(document, 1) is True
    assert rendered == [len(runs[1])]  # part 1 rendered once
    document.refresh_from_db()
    assert document.pages_done == document.pages_total == 8


@pytest.mark.django_db
def test_the_tasks_join_the_document_without_a_chord(world: Any) -> None:
    """Each task run on its own, in any order, as a worker takes them; no chord counts."""
    document = _running(world)
    tasks.render_part.apply(args=(document.pk, 1))
    tasks.render_layers.apply(args=(document.pk,))
    document.refresh_from_db()
    assert document.status == Status.RUNNING
    tasks.render_part.apply(args=(document.pk, 0))  # the last: it asks for the join
    document.refresh_from_db()
    assert document.status == Status.DONE, document.error
    assert document.file and _parts(document) == []


@pytest.mark.django_db
def test_a_second_join_that_finds_the_parts_gone_does_nothing(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = _running(world)
    for piece in (LAYERS, 0, 1):
        _store(document, piece)
    real_read = pipeline._read
    joined: list[GeneratedDocument | None] = []

    def the_other_join_first(name: str) -> bytes:
        monkeypatch.setattr(pipeline, "_read", real_read)
        joined.append(pipeline.assemble(document.pk))  # finishes and removes the parts
        return real_read(name)

    monkeypatch.setattr(pipeline, "_read", the_other_join_first)
    assert pipeline.assemble(document.pk) is None
    assert [d and d.status for d in joined] == [Status.DONE]
    document.refresh_from_db()
    assert document.status == Status.DONE and document.error == ""
    assert default_storage.exists(document.file.name)


@pytest.mark.django_db
def test_a_missing_part_of_a_running_document_is_an_error(world: Any) -> None:
    document = _running(world)
    for piece in (LAYERS, 0, 1):
        _store(document, piece)
    default_storage.delete(f"documents/parts/{document.pk}/0001.pdf")
    with pytest.raises(FileNotFoundError):
        pipeline.assemble(document.pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks need PostgreSQL; SQLite runs one writer at a time",
)
def test_the_last_two_parts_stored_at_once_complete_it_once(world: Any) -> None:
    for _ in range(3):
        document = _running(world)
        assert _store(document, LAYERS) is False
        pk = document.pk
        outcomes = race(
            lambda: pipeline.render_part(pk, 0),  # noqa: B023 (called within the iteration)
            lambda: pipeline.render_part(pk, 1),  # noqa: B023
        )
        assert sorted(outcomes) == [False, True], outcomes
        document.refresh_from_db()
        assert document.parts_stored == [LAYERS, 0, 1] and document.pages_done == 8
        pipeline.fail(document.pk, RuntimeError("next trial"))
