"""A drawn series' print pack is rendered ahead when its seats or names change, so the
organizer's click finds it ready; a pack rendered ahead is never shown once anything it
prints has changed since."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from kombu.exceptions import OperationalError
from pytest_django import DjangoCaptureOnCommitCallbacks
from pytest_django.fixtures import Settings

from documents import pipeline, tasks
from documents.models import GeneratedDocument
from tests.documents.pdftools import pdf_text, stored_pdf
from tests.factories import World
from tournaments.models import Player, Registration, Series
from tournaments.services.draw import seat_series, swap_players
from tournaments.services.registry import correct_player

pytestmark = pytest.mark.django_db

Kind = GeneratedDocument.Kind


@pytest.fixture
def ahead(settings: Settings) -> None:
    settings.DOCUMENT_PRERENDER = True


def _seated(world: World, table: int) -> Registration:
    seat = world.tables[table].seats.select_related("registration").order_by("position")[0]
    return seat.registration


def _organizer(world: World) -> User:
    user = world.organizer
    assert user is not None
    return user


def _swap(world: World, capture: DjangoCaptureOnCommitCallbacks, language: str = "de") -> None:
    with translation.override(language), capture(execute=True):
        swap_players(world.series, _seated(world, 0), _seated(world, 1))


def _packs() -> dict[str, GeneratedDocument]:
    return {d.language: d for d in GeneratedDocument.objects.filter(kind=Kind.PRINT_PACK)}


def test_a_swap_renders_a_small_pack_ahead_in_both_languages(
    ahead: None, world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    _swap(world, django_capture_on_commit_callbacks)
    packs = _packs()
    assert set(packs) == {"de", "en"}
    for document in packs.values():
        assert document.status == "done", document.error
        assert document.requested_by is None and pipeline.is_current(document)


def test_the_click_finds_the_pack_rendered_ahead(
    ahead: None,
    client: Client,
    world: World,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    _swap(world, django_capture_on_commit_callbacks)
    ready = _packs()["en"]
    client.force_login(_organizer(world))
    url = reverse("documents:series", kwargs={"slug": world.tournament.slug, "number": 1})
    headers = {"Accept-Language": "en"}
    with django_capture_on_commit_callbacks(execute=True) as queued:
        page = client.post(url, follow=True, headers=headers).content.decode()
    assert not queued  # nothing rendered at the click
    assert reverse("documents:download", kwargs={"pk": ready.pk}) in page
    assert GeneratedDocument.objects.count() == 2


def test_a_name_changed_after_the_pack_was_rendered_ahead_gets_a_fresh_pack(
    ahead: None,
    client: Client,
    world: World,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    tmp_path: Path,
) -> None:
    _swap(world, django_capture_on_commit_callbacks)
    old = _packs()["de"]
    # A change that announces nothing (as a bulk edit would): the click must notice it.
    Player.objects.filter(pk=world.players[0].pk).update(last_name="Neuname")
    client.force_login(_organizer(world))
    url = reverse("documents:series", kwargs={"slug": world.tournament.slug, "number": 1})
    with django_capture_on_commit_callbacks(execute=True):
        clicked = client.post(url, follow=True).content.decode()
    assert reverse("documents:download", kwargs={"pk": old.pk}) not in clicked
    fresh = _packs()["de"]
    assert fresh.pk != old.pk and fresh.status == "done", fresh.error
    page = client.get(url).content.decode()  # the status fragment's next poll
    assert reverse("documents:download", kwargs={"pk": fresh.pk}) in page
    assert reverse("documents:download", kwargs={"pk": old.pk}) not in page
    assert not GeneratedDocument.objects.filter(pk=old.pk).exists()  # superseded
    assert "Neuname" in pdf_text(stored_pdf(fresh), tmp_path)


def test_a_corrected_name_renders_the_pack_ahead_again(
    ahead: None,
    world: World,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    tmp_path: Path,
) -> None:
    _swap(world, django_capture_on_commit_callbacks)
    old = _packs()["de"]
    with django_capture_on_commit_callbacks(execute=True):
        correct_player(_organizer(world), world.players[0], {"last_name": "Neuname"})
    fresh = _packs()["de"]
    assert fresh.pk != old.pk and fresh.status == "done", fresh.error
    assert "Neuname" in pdf_text(stored_pdf(fresh), tmp_path)


def test_a_detail_the_pack_does_not_print_renders_nothing(
    ahead: None, world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as queued:
        correct_player(_organizer(world), world.players[0], {"email": "anna@example.org"})
    assert not queued and not GeneratedDocument.objects.exists()


def test_a_large_pack_is_rendered_ahead_in_the_language_of_the_change_only(
    ahead: None,
    world: World,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pipeline, "AHEAD_IN_EVERY_LANGUAGE_TABLES", 2)  # the world has 3 tables
    _swap(world, django_capture_on_commit_callbacks, language="en")
    assert set(_packs()) == {"en"}


def test_nothing_is_rendered_ahead_when_it_is_off(
    world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    _swap(world, django_capture_on_commit_callbacks)
    assert not GeneratedDocument.objects.exists()


def test_a_pack_outdated_before_its_generation_started_fails_quietly(
    ahead: None, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Several swaps in a row queue several packs; the older ones find their data changed
    when a worker gets to them, which is no error."""
    (queued, *_others) = pipeline.print_packs_ahead(world.series.pk, "de")
    Player.objects.filter(pk=world.players[0].pk).update(last_name="Neuname")
    with caplog.at_level(logging.INFO, logger="documents"):
        tasks.generate_document.delay(queued.pk)  # eager: raises nothing
    queued.refresh_from_db()
    assert queued.status == "failed" and "DataChangedError" in queued.error
    assert "outdated" in caplog.text and not [r for r in caplog.records if r.levelname == "ERROR"]


def test_a_started_series_gets_nothing_ahead(ahead: None, world: World) -> None:
    Series.objects.filter(pk=world.series.pk).update(status=Series.Status.RUNNING)
    assert pipeline.print_packs_ahead(world.series.pk, "de") == []


def test_with_the_broker_down_the_swap_stands_and_the_click_renders(
    ahead: None,
    client: Client,
    world: World,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def down(*args: object, **kwargs: object) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.prepare_print_pack_task, "delay", down)
    with caplog.at_level(logging.WARNING, logger="documents.services"):
        _swap(world, django_capture_on_commit_callbacks)
    assert "not queued ahead" in caplog.text and not GeneratedDocument.objects.exists()
    assert world.tables[0].seats.filter(registration=_seated(world, 0)).exists()

    client.force_login(_organizer(world))
    url = reverse("documents:series", kwargs={"slug": world.tournament.slug, "number": 1})
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    assert _packs()["de"].status == "done"


def test_a_changed_print_template_outdates_the_pack(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = pipeline.load_data(Kind.PRINT_PACK, world.tournament, world.series, "de")

    def key() -> str:
        return pipeline.compute_fingerprint(
            Kind.PRINT_PACK, world.tournament, world.series, "de", data
        )

    before = key()
    monkeypatch.setattr(pipeline, "templates_version", lambda: "another")
    assert key() != before


def test_a_draw_renders_the_pack_ahead(
    ahead: None, world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        seat_series(world.series, seed=7)  # drawn again before it starts
    packs = _packs()
    assert set(packs) == {"de", "en"} and all(p.status == "done" for p in packs.values())


def test_the_language_of_the_change_is_made_first(
    ahead: None, world: World, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    _swap(world, django_capture_on_commit_callbacks, language="en")
    packs = _packs()
    assert packs["en"].status == packs["de"].status == "done"
    # queued after it: run eagerly (or by one worker process), asked for once it is made
    assert packs["en"].finished_at is not None and packs["en"].pk < packs["de"].pk
    assert packs["en"].finished_at <= packs["de"].created_at


def test_a_change_queues_every_language_at_once(
    ahead: None,
    world: World,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One task per language, the change's first: a worker of two processes renders both
    at the same time instead of one after the other."""
    queued: list[tuple[object, ...]] = []
    monkeypatch.setattr(tasks.prepare_print_pack_task, "delay", lambda *a: queued.append(a))
    _swap(world, django_capture_on_commit_callbacks, language="en")
    assert queued == [(world.series.pk, "en", []), (world.series.pk, "de", [])]
