"""Organizer pages: permissions, the button, the progress fragment, the download, errors."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from documents import pieces
from documents.models import GeneratedDocument
from tests.documents.pdftools import stored_pdf

pytestmark = pytest.mark.django_db


@pytest.fixture
def page_url(world) -> str:
    return reverse("documents:series", kwargs={"slug": "herbst", "number": 1})


def test_anonymous_goes_to_login_and_strangers_get_403(client, bob_client, world, page_url) -> None:
    response = client.get(page_url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert bob_client.get(page_url).status_code == 403
    assert bob_client.post(page_url).status_code == 403
    assert not GeneratedDocument.objects.exists()


def test_superuser_may_print(client, django_user_model, world, page_url) -> None:
    django_user_model.objects.create_superuser("root", password="pw-root-123")
    client.login(username="root", password="pw-root-123")
    assert client.get(page_url).status_code == 200


def test_organizer_generates_watches_and_downloads(
    client, world, page_url, django_capture_on_commit_callbacks
) -> None:
    client.force_login(world.organizer)
    page = client.get(page_url)
    assert page.status_code == 200 and b"<form" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(page_url)
    assert response.status_code == 302
    document = GeneratedDocument.objects.get()
    assert document.status == "done" and document.requested_by == world.organizer

    page = client.get(page_url).content.decode()
    download = reverse("documents:download", kwargs={"pk": document.pk})
    assert download in page
    status = client.get(reverse("documents:status", kwargs={"pk": document.pk}))
    assert download in status.content.decode() and "hx-get" not in status.content.decode()
    pdf = client.get(download)
    assert pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
    assert stored_pdf(document).startswith(b"%PDF")


def test_progress_fragment_polls_while_running(client, world) -> None:
    client.force_login(world.organizer)
    document = GeneratedDocument.objects.create(
        kind="print_pack", tournament=world.tournament, series=world.series, language="de",
        fingerprint="x" * 64, status="running", pages_done=3, pages_total=8,
    )  # fmt: skip
    html = client.get(reverse("documents:status", kwargs={"pk": document.pk})).content.decode()
    assert "hx-get" in html and 'value="3"' in html and 'max="8"' in html
    download = reverse("documents:download", kwargs={"pk": document.pk})
    assert client.get(download).status_code == 404


def test_status_is_polled_soon_at_first_then_less_often(client, world, page_url) -> None:
    """A small print pack is done in a second or two: the polls come every 250 ms for two
    seconds, later ones back off to a second (documents.views.POLL_DELAYS_MS)."""
    client.force_login(world.organizer)
    document = GeneratedDocument.objects.create(
        kind="print_pack", tournament=world.tournament, series=world.series, language="de",
        fingerprint="y" * 64,
        status="running", pages_done=0, pages_total=8,
    )  # fmt: skip
    status = reverse("documents:status", kwargs={"pk": document.pk})

    def poll(html: str) -> tuple[str, str]:
        match = re.search(r'hx-get="([^"]+)" hx-trigger="load delay:(\d+)ms"', html)
        assert match is not None, html
        return match[1], match[2]

    page = client.get(page_url).content.decode()
    assert poll(page) == (f"{status}?poll=1", "250")
    seen = []
    url = f"{status}?poll=1"
    for _ in range(15):
        url, delay = poll(client.get(url).content.decode())
        seen.append(int(delay))
    assert seen == [250] * 7 + [500] * 4 + [1000] * 4
    assert poll(client.get(f"{status}?poll=-3").content.decode())[1] == "250"
    assert poll(client.get(f"{status}?poll=x").content.decode())[1] == "250"


def test_a_failed_task_shows_its_error(
    client, world, page_url, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    def broken(pages, language):
        raise ValueError("no paper")

    monkeypatch.setattr(pieces, "render_pdf", broken)
    client.force_login(world.organizer)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(page_url)
    html = client.get(page_url).content.decode()
    assert "ValueError: no paper" in html and 'role="alert"' in html


def test_outdated_document_is_flagged(
    client, world, page_url, django_capture_on_commit_callbacks
) -> None:
    client.force_login(world.organizer)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(page_url)
    before = client.get(page_url).content.decode()
    world.players[0].last_name = "Umbenannt"
    world.players[0].save()
    after = client.get(page_url).content.decode()
    assert 'class="notice"' not in before and 'class="notice"' in after
    # a current PDF is only downloaded; an outdated one can be made again
    assert '<form method="post">' not in before and "PDF neu erzeugen" not in before
    assert '<form method="post">' in after and "PDF neu erzeugen" in after


@pytest.mark.parametrize("name", ["documents:series", "documents:results"])
def test_print_pages_have_the_organizer_menu(client, world, name) -> None:
    """Like every organizer page: the tournament's menu, its own page not in it."""
    client.force_login(world.organizer)
    kwargs = {"slug": "herbst", "number": 1} if name == "documents:series" else {"slug": "herbst"}
    html = client.get(reverse(name, kwargs=kwargs)).content.decode()
    assert 'class="sub-nav"' in html
    for menu in ("tournaments:manage", "tournaments:registrations", "scoring:audit"):
        assert f'href="{reverse(menu, kwargs={"slug": "herbst"})}"' in html
    if name == "documents:series":  # the way back to the series
        assert f'href="{reverse("tournaments:series", kwargs=kwargs)}"' in html


def test_result_report_page(client, world) -> None:
    client.force_login(world.organizer)
    url = reverse("documents:results", kwargs={"slug": "herbst"})
    assert client.get(url).status_code == 200
