import pytest
from django.db import OperationalError
from django.test import Client


@pytest.mark.django_db
def test_healthz_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True


@pytest.mark.django_db
def test_healthz_reports_dead_database_as_503(client: Client, monkeypatch) -> None:
    from django.db.backends.base.base import BaseDatabaseWrapper

    def refuse(self, *args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["database"] == {"ok": False, "error": "OperationalError"}


@pytest.mark.django_db
def test_healthz_reports_dead_broker_as_503(client: Client, settings) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False
