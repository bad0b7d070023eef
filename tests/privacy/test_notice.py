"""A club's privacy notice: public, German and English defaults, edited by its owners."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, ClubChange
from tests.factories import make_tournament, make_user, page_client


@pytest.fixture
def club(db: None) -> Club:
    tournament = make_tournament("herbst", organizers=[make_user("alice")])
    club = tournament.club
    assert club is not None
    return club


@pytest.mark.parametrize(
    ("language", "words"),
    [("de", "Datenschutzhinweise von"), ("en", "Privacy notice of")],
)
def test_the_default_notice_names_the_club_and_the_period(
    club: Club, language: str, words: str
) -> None:
    html = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("clubs:privacy", args=[club.slug]))
    text = html.content.decode()
    assert f"{words} {club.name}" in text
    assert ("2 Jahre lang" if language == "de" else "for 2 years") in text


def test_the_owner_edits_the_notice_and_the_period(club: Club) -> None:
    owner = page_client(club.personal_of)
    url = reverse("clubs:privacy-edit", args=[club.slug])
    assert owner.get(url).status_code == 200
    owner.post(url, {"publication_years": "3", "notice_de": "Unser Text.", "notice_en": ""})
    club.refresh_from_db()
    assert club.publication_years == 3 and club.privacy_notice_de == "Unser Text."
    assert ClubChange.objects.filter(club=club, action="clubs.club.privacy_changed").exists()
    public = reverse("clubs:privacy", args=[club.slug])
    assert "Unser Text." in Client(HTTP_ACCEPT_LANGUAGE="de").get(public).content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(public).content.decode()
    assert "for 3 years" in english
    assert page_client(make_user("bob")).get(url).status_code == 404


def test_self_registration_links_the_notice(club: Club) -> None:
    tournament = club.tournaments.get()
    tournament.registration_open = True
    tournament.save()
    html = Client().get(f"/turniere/herbst/anmeldung/{tournament.registration_token}/")
    assert reverse("clubs:privacy", args=[club.slug]) in html.content.decode()
