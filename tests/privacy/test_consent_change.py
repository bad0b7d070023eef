"""A registered player's consent changed later: on the registry page (errors next to the
field, German and English), through the API, logged before and after; public pages follow
at once and his tournaments' stored documents are made again."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.urls import reverse
from django.utils import translation
from freezegun import freeze_time

from documents.models import GeneratedDocument
from scoring.standings import overall_standings
from tests.factories import (
    RE_WINS,
    World,
    api_client,
    build_world,
    make_tournament,
    make_user,
    page_client,
    play,
)
from tournaments.models import NameForm, Player, RegistryChange
from tournaments.services.privacy import CONSENT_CHANGED, anonymize_player

pytestmark = pytest.mark.django_db
Capture = Callable[..., Any]
NAMES = [("Anna", "Schmidt"), ("Bernd", "Meier"), ("Carla", "Weber"), ("Dieter", "Roth")]
NOW = datetime.datetime(2026, 11, 28, 18, 30, tzinfo=datetime.UTC)


@pytest.fixture
def orga() -> User:
    return make_user("orga")


@pytest.fixture
def world(orga: User) -> World:
    tournament = make_tournament("cup", organizers=[orga], is_public=True)
    world = build_world(tournament, (4,), names=NAMES)
    play(world.tables[0], [{**RE_WINS, "dealer": 1}])
    return world


def anna(world: World) -> Player:
    return world.registrations[0].player


def public_names(world: World) -> dict[int, str]:
    with translation.override("de"):
        lines = overall_standings(world.tournament)
    return {line["start_number"]: line["name"] for line in lines}


def url(player: Player) -> str:
    return reverse("tournaments:registry-player-consent", args=[player.pk])


def test_the_owner_changes_the_consent_and_the_public_pages_follow(
    orga: User, world: World, django_capture_on_commit_callbacks: Capture
) -> None:
    player = anna(world)
    stored = GeneratedDocument.objects.create(
        tournament=world.tournament, kind="results", language="de", fingerprint="x" * 64
    )
    stored.file.save("results.pdf", ContentFile(b"%PDF Anna Schmidt"), save=True)
    assert public_names(world)[1] == "Anna Schmidt"
    page = page_client(orga).get(reverse("tournaments:registry-player", args=[player.pk]))
    assert 'name="name_form"' in page.content.decode()
    title = page.content.decode().split("<title>", 1)[1].split("</title>", 1)[0]
    assert "Anna Schmidt" in title and "<" not in title  # the title holds no form

    with freeze_time(NOW), django_capture_on_commit_callbacks(execute=True):
        response = page_client(orga).post(url(player), {"name_form": "initial"})

    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.name_form, player.minor, player.guardian_consent) == ("initial", False, False)
    assert player.consent_at == NOW
    assert public_names(world)[1] == "Anna S."
    log = RegistryChange.objects.get(action=CONSENT_CHANGED)
    assert log.player == player and log.user == orga
    assert (log.before["name_form"], log.after["name_form"]) == ("full", "initial")
    assert log.after["consent_at"] == NOW.isoformat()
    assert not GeneratedDocument.objects.filter(pk=stored.pk).exists()  # made again


def test_the_same_consent_again_changes_and_logs_nothing(orga: User, world: World) -> None:
    player = anna(world)
    response = page_client(orga).post(url(player), {"name_form": "full"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.consent_at is None
    assert not RegistryChange.objects.filter(action=CONSENT_CHANGED).exists()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("de", "unter 18 wird nur mit Einwilligung der Eltern oder Erziehungsberechtigten"),
        ("en", "A player under 18 is published by name only with a parent's or guardian's"),
    ],
)
def test_a_minor_by_name_without_the_guardians_consent_is_refused_next_to_the_field(
    orga: User, world: World, language: str, message: str
) -> None:
    player = anna(world)
    client = page_client(orga, language=language)
    response = client.post(url(player), {"name_form": "full", "minor": "on"})
    assert response.status_code == 200
    html = response.content.decode()
    errors = html.split('id="id_guardian_consent-errors"', 1)[1].split("</ul>", 1)[0]
    assert message in errors.replace("&#x27;", "'")
    player.refresh_from_db()
    assert (player.name_form, player.minor, player.consent_at) == ("full", False, None)
    assert not RegistryChange.objects.filter(action=CONSENT_CHANGED).exists()
    # With the guardian's consent, or anonymous, it is recorded.
    assert client.post(url(player), {"name_form": "anonymous", "minor": "on"}).status_code == 302
    assert public_names(world)[1] == "Spieler 1"
    data = {"name_form": "full", "minor": "on", "guardian_consent": "on"}
    assert client.post(url(player), data).status_code == 302
    player.refresh_from_db()
    assert (player.name_form, player.minor, player.guardian_consent) == ("full", True, True)


@pytest.mark.parametrize(
    ("language", "message"),
    [("de", "Wählen Sie, wie der Name"), ("en", "Choose how the name may be published.")],
)
def test_no_name_form_is_refused_next_to_the_field(
    orga: User, world: World, language: str, message: str
) -> None:
    response = page_client(orga, language=language).post(url(anna(world)), {"minor": "on"})
    html = response.content.decode()
    assert response.status_code == 200
    errors = html.split('id="id_name_form-errors"', 1)[1].split("</ul>", 1)[0]
    assert message in errors


def test_only_the_registry_owner_changes_it_on_the_page(orga: User, world: World) -> None:
    player = anna(world)
    other = page_client(make_user("other"))
    assert other.post(url(player), {"name_form": "anonymous"}).status_code == 404
    assert page_client().post(url(player), {"name_form": "anonymous"}).status_code == 302  # login
    assert page_client(orga).get(url(player)).status_code == 405
    player.refresh_from_db()
    assert player.name_form == NameForm.FULL


def test_an_anonymized_player_has_no_consent_to_change(orga: User, world: World) -> None:
    player = anna(world)
    anonymize_player(orga, player)
    page = page_client(orga).get(reverse("tournaments:registry-player", args=[player.pk]))
    assert url(player) not in page.content.decode()
    response = page_client(orga, language="en").post(url(player), {"name_form": "full"})
    assert "This player is anonymized" in response.content.decode()
    player.refresh_from_db()
    assert player.name_form == NameForm.ANONYMOUS


def test_the_api_changes_the_consent_with_the_details(orga: User, world: World) -> None:
    player = anna(world)
    client = api_client(user=orga, lang="en")
    address = reverse("api:player-detail", args=[player.pk])
    with freeze_time(NOW):
        response = client.patch(address, {"name_form": "anonymous", "club": "Kreuz"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["name_form"], body["club"]) == ("anonymous", "Kreuz")
    assert body["consent_at"].startswith("2026-11-28T")
    assert public_names(world)[1] == "Spieler 1"
    actions = set(RegistryChange.objects.values_list("action", flat=True))
    assert actions == {CONSENT_CHANGED, "tournaments.player.corrected"}
    # A minor by name without the guardian's consent: refused, nothing saved (the club too).
    response = client.patch(
        address, {"name_form": "full", "minor": True, "club": "Pik"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "guardian_consent"
    player.refresh_from_db()
    assert (player.name_form, player.minor, player.club) == ("anonymous", False, "Kreuz")
    response = client.patch(address, {"name_form": "sometimes"}, format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "name_form"
