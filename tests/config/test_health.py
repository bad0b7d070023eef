import pytest
from django.db import OperationalError
from django.test import Client


@pytest.mark.django_db
def test_healthz_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and "failed" not in body
    assert body["database"]["ok"] is True
    assert body["migrations"] == {"ok": True}


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


def _production_static(settings, root) -> None:
    """DEBUG off with the storage production uses (see settings.STORAGES)."""
    settings.DEBUG = False
    settings.STATIC_ROOT = root
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }


@pytest.mark.django_db
def test_healthz_without_collectstatic_is_503(client: Client, settings, tmp_path) -> None:
    _production_static(settings, tmp_path / "staticfiles")  # collectstatic never ran
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["static"]
    assert body["static"] == {
        "ok": False,
        "error": "static files manifest missing; run collectstatic",
    }
    assert body["database"]["ok"] is True and body["migrations"] == {"ok": True}


@pytest.mark.django_db
def test_healthz_with_the_manifest_is_ok(client: Client, settings, tmp_path) -> None:
    root = tmp_path / "staticfiles"
    root.mkdir()
    (root / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
    _production_static(settings, root)
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json()["static"] == {"ok": True}


@pytest.mark.django_db
def test_healthz_skips_the_manifest_in_development(client: Client, settings) -> None:
    settings.DEBUG = True
    assert client.get("/healthz").json()["static"] is None


@pytest.mark.django_db
def test_healthz_reports_unapplied_migrations_as_503(client: Client) -> None:
    from django.db import connection
    from django.db.migrations.recorder import MigrationRecorder

    # as if the code of a deploy came without `manage.py migrate` (undone with the test's
    # transaction)
    MigrationRecorder(connection).record_unapplied(
        "documents", "0002_generateddocument_progress_and_failure"
    )
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["failed"] == ["migrations"]
    assert body["migrations"] == {
        "ok": False,
        "error": "unapplied migrations",
        "unapplied": 1,
        "apps": ["documents"],
    }
