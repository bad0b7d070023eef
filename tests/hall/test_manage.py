"""The organizers' page of the hall: the display's addresses, announcements made and withdrawn,
refusals next to the field; for the tournament's organizers only."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from common.actors import ORGANIZER, Actor
from hall.models import Announcement
from hall.services import announce
from tests.factories import page_client
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

PAGE = "/verwaltung/herbst/halle/"


@pytest.fixture
def organizer(alice: User) -> Client:
    return page_client(alice, language="en")


def test_the_page_links_the_display_and_its_views(
    organizer: Client, tournament: Tournament
) -> None:
    html = organizer.get(PAGE).content.decode()
    assert 'href="/turniere/herbst/halle/"' in html
    for view in ("seating", "clock", "tables", "standings"):
        assert f'href="/turniere/herbst/halle/?view={view}"' in html
    assert 'href="/turniere/herbst/halle/?sound=1"' in html
    dashboard = organizer.get("/verwaltung/herbst/").content.decode()
    assert 'href="/verwaltung/herbst/halle/"' in dashboard


def test_announce_and_withdraw(organizer: Client, tournament: Tournament) -> None:
    response = organizer.post(PAGE, {"text": "Mittagspause bis 13:30"})
    assert response.status_code == 302 and response["Location"] == PAGE
    note = Announcement.objects.get()
    page = organizer.get(PAGE).content.decode()
    assert "Mittagspause bis 13:30" in page and f'name="withdraw" value="{note.pk}"' in page
    assert organizer.post(PAGE, {"withdraw": str(note.pk)}).status_code == 302
    note.refresh_from_db()
    assert not note.active
    assert f'name="withdraw" value="{note.pk}"' not in organizer.get(PAGE).content.decode()


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "Write the announcement."), ("x" * 250, "An announcement has at most 200 characters")],
)
def test_refused_next_to_the_field(
    organizer: Client, tournament: Tournament, text: str, message: str
) -> None:
    response = organizer.post(PAGE, {"text": text})
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'<ul class="field-error" id="id_text-errors"><li>' + re.escape(message), html)
    assert not Announcement.objects.exists()


@pytest.mark.parametrize("junk", ["", "abc", "-1", "99999999999999999999999", "١٢"])
def test_withdrawing_something_unknown_is_not_found(
    organizer: Client, tournament: Tournament, junk: str
) -> None:
    assert organizer.post(PAGE, {"withdraw": junk}).status_code == 404


def test_other_organizers_and_strangers(
    tournament: Tournament, other_tournament: Tournament, alice: User, bob: User
) -> None:
    note = announce(tournament, "Hallo", actor=Actor(ORGANIZER, user=alice))
    other = page_client(bob)
    assert other.get(PAGE).status_code == 403
    assert other.post(PAGE, {"withdraw": str(note.pk)}).status_code == 403
    assert other.post(PAGE, {"text": "Gekapert"}).status_code == 403
    # Bob's own page does not reach Alice's announcement either.
    own = "/verwaltung/anderes/halle/"
    assert other.post(own, {"withdraw": str(note.pk)}).status_code == 404
    assert Announcement.objects.get().active
    anonymous = page_client()
    assert anonymous.get(PAGE)["Location"].startswith("/login/")
