"""The lists of seasons and leagues share one page: the public list shows what a visitor may
see, the keeper's list what he keeps, with his links; both follow the one ownership rule."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import page_client
from tests.seasons.helpers import season_of
from tests.teams.helpers import league_with_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def things(alice: User, bob: User) -> None:
    season_of(alice, slug="offen", name="Offene Saison")
    season_of(alice, slug="geheim", name="Geheime Saison", is_public=False)
    season_of(bob, slug="bobs", name="Bobs Saison")
    league_with_teams(alice, 4, name="Alices Liga")
    league_with_teams(bob, 4, name="Bobs Liga")


def test_the_public_lists_show_public_things_to_visitors(things: None) -> None:
    seasons = page_client().get("/saisons/").content.decode()
    assert "Offene Saison" in seasons and "Bobs Saison" in seasons
    assert "Geheime Saison" not in seasons
    assert "/verwaltung/saisons/" not in seasons  # no "My seasons" for a visitor
    leagues = page_client().get("/ligen/").content.decode()
    assert "Alices Liga" in leagues and "Bobs Liga" in leagues


def test_the_keepers_list_shows_his_own_with_his_links(things: None, alice: User) -> None:
    mine = page_client(alice).get("/verwaltung/saisons/").content.decode()
    assert "Offene Saison" in mine and "Geheime Saison" in mine
    assert "(nicht öffentlich)" in mine
    assert "Bobs Saison" not in mine
    assert "/verwaltung/saisons/geheim/bearbeiten/" in mine  # the settings link
    assert "Neue Saison" in mine
    leagues = page_client(alice).get("/verwaltung/ligen/").content.decode()
    assert "Alices Liga" in leagues and "Bobs Liga" not in leagues
    assert "Spieltage" in leagues


def test_the_keepers_list_asks_a_visitor_to_log_in(things: None) -> None:
    answer = page_client().get("/verwaltung/saisons/")
    assert answer.status_code == 302 and "login" in answer["Location"]


def test_the_empty_lists_say_so_in_english(bob: User) -> None:
    assert (
        "You keep no season yet."
        in page_client(bob, language="en").get("/verwaltung/saisons/").content.decode()
    )
    assert "No team competitions yet." in page_client(language="en").get("/ligen/").content.decode()
