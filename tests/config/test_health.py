import threading

import pytest
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections
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
def test_healthz_reports_dead_database_as_503(client: Client, monkeypatch, settings) -> None:
    """Only this thread's connection refuses, and only for the request. Patching the
    cursor on the class broke the database for every thread of the test process (a live
    server left running by a browser test) and for whatever ran before the patch was
    undone at teardown; no broker either, so nothing but the database is checked."""
    settings.CELERY_BROKER_URL = None

    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    wrapper = connections[DEFAULT_DB_ALIAS]
    seen_elsewhere: list[object] = []
    with monkeypatch.context() as patch:
        patch.setitem(vars(wrapper), "cursor", refuse)
        response = client.get("/healthz")
        other = threading.Thread(target=lambda: seen_elsewhere.append(_select_one(close=True)))
        other.start()
        other.join(timeout=30)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["failed"] == ["database"]
    assert body["database"] == {"ok": False, "error": "OperationalError"}
    assert seen_elsewhere == [1]  # another thread's connection never saw the patch
    assert "cursor" not in vars(wrapper) and _select_one() == 1  # undone before teardown


def _select_one(*, close: bool = False) -> object:
    """SELECT 1 on this thread's connection; ``close`` it afterwards in a thread of its
    own, so no connection outlives the thread."""
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone()[0]
    finally:
        if close:
            connections.close_all()


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
    from django.db.migrations.loader import MigrationLoader
    from django.db.migrations.recorder import MigrationRecorder

    # as if the code of a deploy came without `manage.py migrate` of its newest documents
    # migration (undone with the test's transaction)
    leaf = MigrationLoader(connection).graph.leaf_nodes("documents")
    assert len(leaf) == 1
    MigrationRecorder(connection).record_unapplied(*leaf[0])
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
