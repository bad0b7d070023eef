"""A worker process warms up for documents when it starts, and only a worker process."""

from __future__ import annotations

from celery.signals import worker_process_init
from django.urls import clear_url_caches, get_resolver

from documents import tasks, warmup


def test_the_warm_up_runs_when_a_worker_process_starts(monkeypatch) -> None:
    calls: list[bool] = []
    monkeypatch.setattr(warmup, "warm", lambda: calls.append(True))
    worker_process_init.send(sender="celery@test")
    assert calls == [True] and tasks.warm_worker_process.__module__ == "documents.tasks"


def test_the_warm_up_loads_what_the_first_document_waits_for(monkeypatch) -> None:
    rendered: list[str] = []
    real = warmup.render.render_sample

    def spy(body: str, language: str) -> bytes:
        pdf = real(body, language)
        rendered.append(language)
        return pdf

    monkeypatch.setattr(warmup.render, "render_sample", spy)
    clear_url_caches()
    assert not get_resolver()._populated
    warmup.warm()
    assert rendered == ["de"]
    assert get_resolver()._populated
    assert real(warmup.SAMPLE, "en").startswith(b"%PDF")


def test_a_failing_warm_up_keeps_the_worker_process(monkeypatch, caplog) -> None:
    def broken() -> None:
        raise OSError("no fonts")

    monkeypatch.setattr(warmup, "warm", broken)
    worker_process_init.send(sender="celery@test")  # no exception
    assert "the first one renders cold" in caplog.text
