"""A lost worker must not leave a document stuck: the stall rules, with frozen time."""

from __future__ import annotations

import datetime as dt

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.urls import get_resolver, reverse
from freezegun import freeze_time

from documents import pieces, pipeline, services
from documents.models import GeneratedDocument

pytestmark = pytest.mark.django_db

Kind = GeneratedDocument.Kind
Status = GeneratedDocument.Status
T0 = dt.datetime(2026, 10, 3, 9, 0, tzinfo=dt.UTC)
STALL = 300


@pytest.fixture(autouse=True)
def _stall_time(settings) -> None:
    settings.DOCUMENT_STALL_SECONDS = STALL
    # One worker process: the pack in its two parts, whatever the deploy's count.
    settings.DOCUMENT_WORKER_PROCESSES = 1
    # A C extension imported while time is frozen (psycopg's, through the URLconf) refuses
    # freezegun's date class: import everything the URLs need first.
    assert get_resolver().url_patterns


def _queued(world, language: str = "de") -> GeneratedDocument:
    """A print pack requested while no worker runs (nothing is queued)."""
    return services.request_document(
        Kind.PRINT_PACK, world.tournament, world.series, language=language, queue=False
    )


def _running_with_a_part(world, language: str = "de") -> GeneratedDocument:
    """A worker started the pack, rendered its first part, and was lost."""
    document = _queued(world, language)
    assert pipeline.start(document.pk) == 2  # the seating lists, then cards and sheets
    assert pipeline.render_part(document.pk, 0) is False  # part 1 and the layers to come
    document.refresh_from_db()
    return document


def _parts(document: GeneratedDocument) -> list[str]:
    try:
        return default_storage.listdir(f"documents/parts/{document.pk}")[1]
    except FileNotFoundError:
        return []


def test_a_running_document_stalls_only_after_the_stall_time(world) -> None:
    with freeze_time(T0) as clock:
        document = _running_with_a_part(world)
        assert document.status == Status.RUNNING and _parts(document) == ["0000.pdf"]
        clock.tick(STALL)  # exactly the stall time: still alive
        assert pipeline.fail_if_stalled(document).status == Status.RUNNING
        clock.tick(1)
        document = pipeline.fail_if_stalled(document)
    assert document.status == Status.FAILED
    assert document.failure == GeneratedDocument.Failure.STALLED
    assert f"No progress for more than {STALL} s" in document.error
    assert document.finished_at == T0 + dt.timedelta(seconds=STALL + 1)
    assert _parts(document) == []  # its part files are gone


def test_progress_keeps_a_document_alive(world) -> None:
    with freeze_time(T0) as clock:
        document = _queued(world)
        clock.tick(STALL - 10)
        pipeline.start(document.pk)  # a worker took it just in time
        clock.tick(STALL - 10)
        pipeline.render_layers(document.pk)
        clock.tick(STALL - 10)
        pipeline.render_part(document.pk, 0)
        clock.tick(STALL - 10)
        pipeline.render_part(document.pk, 1)
        clock.tick(STALL - 10)
        document.refresh_from_db()
        assert pipeline.fail_if_stalled(document).status == Status.RUNNING
        assert pipeline.assemble(document.pk) is not None
        clock.tick(10 * STALL)
        document.refresh_from_db()
        document = pipeline.fail_if_stalled(document)
    assert document.status == Status.DONE  # a finished document never stalls


def test_a_queued_document_nobody_takes_stalls_too(world) -> None:
    with freeze_time(T0) as clock:
        document = _queued(world)
        clock.tick(STALL + 1)
        document = services.latest_document(Kind.PRINT_PACK, world.tournament, world.series, "de")
    assert document is not None and document.status == Status.FAILED
    assert document.failure == GeneratedDocument.Failure.STALLED


def test_asking_again_replaces_a_stalled_document(world, django_capture_on_commit_callbacks):
    with freeze_time(T0) as clock:
        stuck = _running_with_a_part(world)
        clock.tick(STALL - 1)
        assert _queued(world).pk == stuck.pk  # not stalled yet: the same row
        clock.tick(2)
        with django_capture_on_commit_callbacks(execute=True):
            fresh = services.request_document(
                Kind.PRINT_PACK, world.tournament, world.series, language="de"
            )
    fresh.refresh_from_db()
    assert fresh.pk != stuck.pk and fresh.fingerprint == stuck.fingerprint
    assert fresh.status == Status.DONE, fresh.error
    # the stalled one was failed first (the one-live-per-fingerprint constraint holds) and
    # is dropped now that a newer one is done
    assert not GeneratedDocument.objects.filter(pk=stuck.pk).exists()


def test_late_tasks_of_a_stalled_document_do_nothing(world) -> None:
    with freeze_time(T0) as clock:
        document = _running_with_a_part(world)
        clock.tick(STALL + 1)
        pipeline.fail_if_stalled(document)
        # the lost worker's messages come back (redelivered) after the document failed
        assert pipeline.start(document.pk) is None
        assert pipeline.render_layers(document.pk) is False
        assert pipeline.render_part(document.pk, 0) is False
        assert pipeline.assemble(document.pk) is None
    document.refresh_from_db()
    assert document.status == Status.FAILED and not document.file and _parts(document) == []


def test_a_redelivered_generate_task_starts_nothing_twice(world) -> None:
    document = _queued(world)
    assert pipeline.start(document.pk) == 2
    assert pipeline.start(document.pk) is None  # the message came back: already running


def test_a_part_rendered_twice_never_counts_past_the_total(world) -> None:
    document = _queued(world)
    pipeline.start(document.pk)
    for index in (0, 1, 1):  # part 1's worker was lost after it counted its pages
        pipeline.render_part(document.pk, index)
    document.refresh_from_db()
    assert document.pages_done == document.pages_total == 8
    pipeline.render_layers(document.pk)
    assert pipeline.assemble(document.pk).status == Status.DONE
    assert _parts(document) == []


def test_a_late_failure_cannot_undo_a_done_document(world) -> None:
    document = _queued(world)
    done = pipeline.generate_inline(document)
    pipeline.fail(done.pk, RuntimeError("late duplicate"))
    done.refresh_from_db()
    assert done.status == Status.DONE and done.error == ""


def test_the_sweep_fails_stalled_documents_and_removes_leftover_parts(world) -> None:
    with freeze_time(T0) as clock:
        stuck = _running_with_a_part(world)
        clock.tick(STALL + 1)
        alive = _queued(world, language="en")
        pipeline.start(alive.pk)
        pipeline.render_part(alive.pk, 0)
        # a part that a lost worker wrote for a document that is gone
        default_storage.save("documents/parts/999999/0000.pdf", ContentFile(b"%PDF"))
        assert pipeline.sweep() == [stuck.pk]
    stuck.refresh_from_db()
    alive.refresh_from_db()
    assert stuck.status == Status.FAILED and alive.status == Status.RUNNING
    assert _parts(stuck) == [] and _parts(alive) == ["0000.pdf"]
    assert default_storage.listdir("documents/parts")[0] == [str(alive.pk)]


def test_the_sweep_task_calls_the_service(world) -> None:
    from documents.tasks import sweep

    with freeze_time(T0) as clock:
        _running_with_a_part(world)
        clock.tick(STALL + 1)
        assert sweep.delay().get() == 1


def test_a_soft_time_limit_is_recorded_as_such(
    world, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    def slow(pages, language):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(pieces, "render_pdf", slow)
    with django_capture_on_commit_callbacks(execute=True):
        document = services.request_document(
            Kind.PRINT_PACK, world.tournament, world.series, language="de"
        )
    document.refresh_from_db()
    assert document.status == Status.FAILED
    assert document.failure == GeneratedDocument.Failure.TIME_LIMIT


def test_the_organizer_sees_the_stall_and_can_retry(
    client, world, django_capture_on_commit_callbacks
) -> None:
    client.force_login(world.organizer)
    client.cookies["django_language"] = "en"  # the new sentences are checked in English
    page_url = reverse("documents:series", kwargs={"slug": "herbst", "number": 1})
    with freeze_time(T0) as clock:
        stuck = _running_with_a_part(world, language="en")
        status_url = reverse("documents:status", kwargs={"pk": stuck.pk})
        assert "hx-get" in client.get(status_url).content.decode()  # still polling
        clock.tick(STALL + 1)
        fragment = client.get(status_url).content.decode()  # the poll finds it stalled
    assert "hx-get" not in fragment and 'role="alert"' in fragment
    assert "made no progress for too long" in fragment
    assert f'action="{page_url}"' in fragment and "Try again" in fragment
    assert "csrfmiddlewaretoken" in fragment
    page = client.get(page_url).content.decode()
    assert "No progress for more than" in page and "Generate the PDF again" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page_url)  # the retry button
    assert response.status_code == 302
    fresh = GeneratedDocument.objects.get()
    assert fresh.pk != stuck.pk and fresh.status == Status.DONE
