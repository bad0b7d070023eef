"""The tournament settings form: every choice label translated; the short name for links
suggested from the name (server-side, and live by static/js/slug.js on a new tournament)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils.functional import Promise

from common.services import ServiceError
from rules.ruleset import PRESETS
from tournaments.forms import RULESET_LABELS, TournamentForm
from tournaments.models import Tournament
from tournaments.services.setup import save_tournament, slug_from_name, unique_slug

EN = {"accept-language": "en"}


def test_every_rule_set_preset_has_a_translatable_label() -> None:
    assert set(RULESET_LABELS) == set(PRESETS)
    assert all(isinstance(label, Promise) for label in RULESET_LABELS.values())


@pytest.mark.django_db
def test_every_choice_of_the_tournament_form_is_translated() -> None:
    form = TournamentForm()
    for name in ("ruleset", "entry_mode", "confirmation", "tiebreak"):
        labels = [label for value, label in form.fields[name].choices if value]
        assert labels and all(isinstance(label, Promise) for label in labels), name


def test_settings_show_the_rule_sets_in_the_interface_language(
    alice_client: Client, tournament: Tournament
) -> None:
    html = alice_client.get("/verwaltung/herbst/bearbeiten/", headers=EN).content.decode()
    assert '<option value="ddv" selected>DDV tournament rules</option>' in html


def test_slug_from_name_writes_umlauts_out() -> None:
    assert slug_from_name("Großer Bärenpreis der Öhringer Überflieger") == (
        "grosser-baerenpreis-der-oehringer-ueberflieger"
    )
    assert slug_from_name("ÄRGER am Tisch 5!") == "aerger-am-tisch-5"
    assert slug_from_name("!!!") == "turnier"
    assert len(slug_from_name("Doppelkopf " * 20)) <= 60


@pytest.mark.django_db
def test_unique_slug_numbers_a_taken_one() -> None:
    Tournament.objects.create(name="x", slug="herbst", starts_on="2026-11-28")
    Tournament.objects.create(name="y", slug="herbst-2", starts_on="2026-11-28")
    assert unique_slug("Herbst") == "herbst-3"
    long = "Sehr langer Turniername " * 5
    Tournament.objects.create(name="z", slug=slug_from_name(long), starts_on="2026-11-28")
    assert unique_slug(long).endswith("-2") and len(unique_slug(long)) <= 60


NEW = {"starts_on": "2026-12-12", "ruleset": "ddv", "series_count": "3"}
NEW |= {"entry_mode": "entry", "confirmation": "player", "is_public": "on"}


def test_empty_slug_is_derived_from_the_name(alice_client: Client, tournament: Tournament) -> None:
    response = alice_client.post("/verwaltung/neu/", {**NEW, "name": "Bärenstark Cup", "slug": ""})
    assert response["Location"] == "/verwaltung/baerenstark-cup/"
    response = alice_client.post("/verwaltung/neu/", {**NEW, "name": "Bärenstark-Cup", "slug": ""})
    assert response["Location"] == "/verwaltung/baerenstark-cup-2/"


def test_a_taken_slug_is_refused_with_a_free_one(
    alice_client: Client, tournament: Tournament
) -> None:
    response = alice_client.post(
        "/verwaltung/neu/", {**NEW, "name": "Noch ein Herbst", "slug": "herbst"}, headers=EN
    )
    assert response.status_code == 200
    assert "Another tournament has this short name; “herbst-2” is free." in (
        response.content.decode()
    )


def test_only_a_new_tournament_gets_the_live_suggestion(
    alice_client: Client, tournament: Tournament
) -> None:
    html = alice_client.get("/verwaltung/neu/").content.decode()
    assert 'src="/static/js/slug.js"' in html and "data-suggest-from-name" in html
    html = alice_client.get("/verwaltung/herbst/bearbeiten/").content.decode()
    assert "data-suggest-from-name" not in html


def test_a_refused_settings_form_keeps_the_menu_on_the_saved_slug(
    alice_client: Client, tournament: Tournament
) -> None:
    response = alice_client.post(
        "/verwaltung/herbst/bearbeiten/",
        {**NEW, "name": "Herbstturnier", "slug": "neu-herbst", "ends_on": "2026-01-01"},
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'class="field-error"' in html
    assert 'href="/verwaltung/herbst/spieler/"' in html
    assert "/verwaltung/neu-herbst/" not in html


def test_a_short_name_taken_meanwhile_is_refused_on_its_field(db: None) -> None:
    """Two organizers save the same name at once: the form checked a free slug, the other
    tournament took it before this one was saved. No error page: the field says so."""
    Tournament.objects.create(name="Herbst", slug="herbst", starts_on=datetime.date(2026, 11, 28))
    late = Tournament(name="Herbst", slug="herbst", starts_on=datetime.date(2026, 11, 28))
    with pytest.raises(ServiceError) as refused:
        save_tournament(late)
    assert refused.value.code == "slug_taken" and refused.value.field == "slug"
    assert "herbst-2" in refused.value.message
    assert Tournament.objects.filter(slug="herbst").count() == 1
