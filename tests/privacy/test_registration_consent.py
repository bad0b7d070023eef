"""Consent at registration: the organizer's form, self-registration and the CSV import."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import make_tournament, make_user, page_client
from tournaments.models import NameForm, Player, Tournament

KARLA = {"first_name": "Karla", "last_name": "Kreuz"}


@pytest.fixture
def tournament(db: None) -> Tournament:
    return make_tournament("herbst", organizers=[make_user("alice")])


@pytest.fixture
def alice(tournament: Tournament) -> Client:
    return page_client(tournament.organizers.get())


@pytest.mark.parametrize(
    ("language", "choose", "minor"),
    [
        ("de", "Wählen Sie, wie der Name veröffentlicht werden darf.", "unter 18 wird nur mit"),
        ("en", "Choose how the name may be published.", "under 18 is published by name only"),
    ],
)
def test_the_form_asks_for_the_name_form_and_a_guardians_consent(
    alice: Client, language: str, choose: str, minor: str
) -> None:
    url = "/verwaltung/herbst/spieler/"
    headers = {"accept-language": language}
    html = alice.post(url, KARLA, headers=headers).content.decode()
    assert choose in html
    data = {**KARLA, "name_form": "initial", "minor": "on"}
    html = alice.post(url, data, headers=headers).content.decode()
    assert minor in html
    assert not Player.objects.exists()
    alice.post(url, {**data, "guardian_consent": "on"}, headers=headers)
    player = Player.objects.get()
    assert (player.name_form, player.minor, player.guardian_consent) == ("initial", True, True)
    assert player.consent_at is not None


def test_self_registration_records_the_consent(tournament: Tournament) -> None:
    tournament.registration_open = True
    tournament.save()
    url = f"/turniere/herbst/anmeldung/{tournament.registration_token}/"
    client = Client()
    client.post(url, {**KARLA, "name_form": "anonymous", "minor": "on"})
    player = Player.objects.get()
    assert player.name_form == NameForm.ANONYMOUS and player.minor
    assert not player.guardian_consent


def test_the_import_reads_the_optional_consent_columns(alice: Client) -> None:
    csv = (
        "Vorname;Nachname;Namensform;Minderjährig;Einwilligung Erziehungsberechtigte\n"
        "Karla;Kreuz;initial;nein;\n"
        "Tim;Jung;anonym;ja;nein\n"
        "Pia;Pik;;;\n"
    )
    upload = SimpleUploadedFile("liste.csv", csv.encode())
    html = alice.post("/verwaltung/herbst/import/", {"file": upload}).content.decode()
    assert "row-error" not in html
    alice.post("/verwaltung/herbst/import/", {"confirm": "1"})
    forms = {p.first_name: (p.name_form, p.minor) for p in Player.objects.all()}
    assert forms == {
        "Karla": ("initial", False),
        "Tim": ("anonymous", True),
        "Pia": ("full", False),
    }
    bad = SimpleUploadedFile("liste.csv", b"Vorname;Nachname;Minor\nTom;Jung;ja\n")
    html = alice.post("/verwaltung/herbst/import/", {"file": bad}).content.decode()
    assert "row-error" in html
