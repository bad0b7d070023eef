"""The import page and API answer at once and the archive is checked and written in the
background (eager here: the task runs when the upload's transaction commits): a summary to
confirm on the page, a duplicate warning, a private copy, one running import per organizer,
a stalled import marked failed."""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from archive import jobs, services, work
from archive.export import build_archive
from archive.models import ArchiveImport
from common.actors import API, Actor
from tests.factories import RE_WINS, api_client, build_world, page_client, play
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

GAME = {**RE_WINS, "dealer": 1}  # Re wins, value 1
Capture = Callable[..., Any]


@pytest.fixture
def played(tournament: Tournament) -> Tournament:
    world = build_world(tournament, (4,))
    Player.objects.filter(pk=world.players[1].pk).update(ddv_number="4711")
    play(world.tables[0], [GAME])
    return tournament


def upload(content: bytes, name: str = "archiv.json") -> dict[str, Any]:
    return {"file": SimpleUploadedFile(name, content, content_type="application/json")}


def test_page_checks_then_imports_on_confirmation(
    bob: User, played: Tournament, django_capture_on_commit_callbacks: Capture
) -> None:
    raw = json.dumps(build_archive(played)).encode()
    client = page_client(bob, language="en")
    assert client.get("/verwaltung/import/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/verwaltung/import/", upload(raw))
    job = ArchiveImport.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/verwaltung/import/{job.pk}/"
    assert job.status == "checked" and Tournament.objects.count() == 1  # nothing written yet
    page = client.get(response["Location"]).content.decode()
    assert "4 players, 1 game (3 series, 1 table), all valid." in " ".join(page.split()), page
    assert "private until you publish it" in page and "imported this archive before" not in page
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(response["Location"]).status_code == 302
    job.refresh_from_db()
    copy_of = Tournament.objects.get(slug="herbst-2")
    assert job.status == "done" and job.tournament == copy_of and job.data == b""
    assert list(copy_of.organizers.all()) == [bob] and not copy_of.is_public
    assert "Open the tournament" in client.get(response["Location"]).content.decode()
    # The same archive again (exported later, indented otherwise): the summary warns.
    again = json.dumps(build_archive(played), indent=2).encode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/verwaltung/import/", upload(again))
    page = client.get(response["Location"]).content.decode()
    assert "You have imported this archive before:" in page and "herbst-2" in page
    assert "Import anyway" in page
    # The status fragment (htmx) is the same article; nobody else sees the import.
    fragment = client.get(response["Location"], headers={"HX-Request": "true"})
    assert fragment.content.decode().lstrip().startswith('<article id="import-status"')
    other = page_client(make_other(), language="en")
    assert other.get(response["Location"]).status_code == 404
    assert other.post(response["Location"]).status_code == 404


def make_other() -> User:
    return User.objects.create_user("carla", password="x")


def test_page_lists_every_problem(
    bob: User, played: Tournament, django_capture_on_commit_callbacks: Capture
) -> None:
    archive = build_archive(played)
    archive["series"][0]["tables"][0]["games"][0]["record"]["re_points"] = 241
    archive["registrations"][0]["player"] = 99
    client = page_client(bob, language="en")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/verwaltung/import/", upload(json.dumps(archive).encode()))
    text = client.get(response["Location"]).content.decode()
    assert "The archive was not imported; nothing was saved." in text
    assert "registration 1" in text and "Player id 99 is not in the archive." in text
    assert Tournament.objects.count() == 1
    assert ArchiveImport.objects.get().data == b""  # the file is not kept


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "The file is not a JSON archive."),
        (b"[1, 2]", "Expected an object."),
        (b'{"format": "doko-turnier-archive", "version": "1"}', "Archive version 1 cannot"),
    ],
)
def test_page_refuses_junk(
    bob: User, content: bytes, message: str, django_capture_on_commit_callbacks: Capture
) -> None:
    client = page_client(bob, language="en")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/verwaltung/import/", upload(content))
    assert message in client.get(response["Location"]).content.decode()


def test_page_refuses_a_huge_file(bob: User) -> None:
    big = b" " * (5 * 1024 * 1024 + 1)
    response = page_client(bob, language="en").post("/verwaltung/import/", upload(big))
    assert "larger than 5 MB" in response.content.decode()
    assert not ArchiveImport.objects.exists()


def test_one_running_import_per_organizer(bob: User, played: Tournament) -> None:
    """Without its task run (no commit here), the first upload stays queued: a second one
    is refused with a link to it; another organizer is not held up."""
    raw = json.dumps(build_archive(played)).encode()
    client = page_client(bob, language="en")
    first = client.post("/verwaltung/import/", upload(raw))
    assert first.status_code == 302
    second = client.post("/verwaltung/import/", upload(raw))
    assert second.status_code == 200
    text = second.content.decode()
    assert "Another import of yours is still running" in text and first["Location"] in text
    assert ArchiveImport.objects.filter(owner=bob).count() == 1
    response = api_client(user=bob, lang="en").post(
        "/api/v1/imports/", raw, content_type="application/json"
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "import_running"
    other = page_client(make_other(), language="en")
    assert other.post("/verwaltung/import/", upload(raw)).status_code == 302


def test_a_stalled_import_fails_and_frees_the_organizer(
    bob: User, played: Tournament, settings: Any
) -> None:
    raw = json.dumps(build_archive(played)).encode()
    job = jobs.start(raw, bob, confirmed=False, language="en")
    late = timezone.now() - dt.timedelta(seconds=settings.ARCHIVE_IMPORT_STALL_SECONDS + 1)
    ArchiveImport.objects.filter(pk=job.pk).update(status="checking", progress_at=late)
    client = page_client(bob, language="en")
    page = client.get(f"/verwaltung/import/{job.pk}/").content.decode()
    assert "made no progress for too long" in page
    job.refresh_from_db()
    assert job.status == "failed" and job.failure == "stalled" and job.data == b""
    work.run(job.pk)  # a late redelivery of its task does nothing
    job.refresh_from_db()
    assert job.status == "failed"
    assert client.post("/verwaltung/import/", upload(raw)).status_code == 302


def test_api_import_answers_at_once(
    alice: User, bob: User, played: Tournament, django_capture_on_commit_callbacks: Capture
) -> None:
    archive = api_client(user=alice, lang="en").get("/api/v1/tournaments/herbst/archive/").json()
    bob_api = api_client(user=bob, lang="en")
    assert bob_api.get("/api/v1/tournaments/herbst/archive/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        response = bob_api.post("/api/v1/imports/", archive, format="json")
    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "queued" and response["Location"] == body["status_url"]
    status = bob_api.get(body["status_url"]).json()
    assert status["status"] == "done" and status["duplicates"] == []
    assert status["tournament"] == {"slug": "herbst-2", "url": "/api/v1/tournaments/herbst-2/"}
    assert (status["players_new"], status["players_matched"]) == (4, 0)
    assert status["summary"]["games"] == 1 and status["summary"]["players"] == 4
    assert not Tournament.objects.get(slug="herbst-2").is_public
    assert api_client(user=alice).get(body["status_url"]).status_code == 404
    # A refused archive: the problems with their rows.
    broken = copy.deepcopy(archive)
    broken["series"][0]["tables"][0]["seats"][0]["position"] = 6
    with django_capture_on_commit_callbacks(execute=True):
        response = bob_api.post("/api/v1/imports/", broken, format="json")
    status = bob_api.get(response.json()["status_url"]).json()
    assert status["status"] == "refused"
    assert status["problems"] == [{
        "code": "archive_problem", "field": "series 1, table 1, seat 6",
        "message": "The table has seats 1 to 4 only.",
    }]  # fmt: skip
    # Preview: checked, then confirmed; the duplicate is named.
    with django_capture_on_commit_callbacks(execute=True):
        response = bob_api.post("/api/v1/imports/?preview=true", archive, format="json")
    url = response.json()["status_url"]
    status = bob_api.get(url).json()
    assert status["status"] == "checked" and status["duplicates"] == ["herbst-2"]
    with django_capture_on_commit_callbacks(execute=True):
        response = bob_api.post(url + "confirm/")
    assert response.status_code == 202
    status = bob_api.get(url).json()
    assert status["status"] == "done" and status["tournament"]["slug"] == "herbst-3"
    assert bob_api.post(url + "confirm/").status_code == 409  # done: nothing to confirm


def test_api_import_junk_and_size(bob: User, django_capture_on_commit_callbacks: Capture) -> None:
    bob_api = api_client(user=bob, lang="en")
    for body in (b"[]", b"\xff", b"1e999999", b"", b"  null"):  # no object: refused at once
        response = bob_api.post("/api/v1/imports/", body, content_type="application/json")
        assert response.status_code == 400, body
        assert response.json()["error"]["code"] == "archive_refused"
    assert not ArchiveImport.objects.exists()
    for body in (b"{", b'\xef\xbb\xbf {"format": 1}'):  # read by the task
        with django_capture_on_commit_callbacks(execute=True):
            response = bob_api.post("/api/v1/imports/", body, content_type="application/json")
        assert response.status_code == 202, body
        status = bob_api.get(response.json()["status_url"]).json()
        assert status["status"] == "refused" and status["problems"], body
    big = b" " * (5 * 1024 * 1024 + 1)
    response = bob_api.post("/api/v1/imports/", big, content_type="application/json")
    assert response.status_code == 413
    assert api_client().post("/api/v1/imports/", {}, format="json").status_code == 401
    assert bob_api.post("/api/v1/imports/?preview=maybe", {}, format="json").status_code == 400


def test_a_short_name_taken_meanwhile_takes_the_next(
    bob: User, played: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two organizers importing the same archive at once both find its name free; the
    second insert fails on the unique slug and the import takes the next free name."""
    real = services.unique_slug
    answers = iter(["herbst"])  # what a concurrent import saw: free when it looked

    def racing(name: str) -> str:
        return next(answers, None) or real(name)

    monkeypatch.setattr(services, "unique_slug", racing)
    imported = services.import_archive(build_archive(played), bob, Actor(API, user=bob))
    assert imported.tournament.slug == "herbst-2"
