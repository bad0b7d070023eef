"""A player across tournaments and seasons through the API: what his page shows, to whoever
may see the page, and never his e-mail or DDV number."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from seasons.entries import refresh_season_entries
from seasons.models import Season, SeasonTournament
from tests.factories import api_client
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def url(player: Player | int) -> str:
    return f"/api/v1/players/{getattr(player, 'pk', player)}/results/"


def test_the_public_sees_public_tournaments_and_figures(hans: Player, alice: User) -> None:
    Player.objects.filter(pk=hans.pk).update(email="hans@example.org", ddv_number="4711")
    season = Season.objects.create(name="Pokal", slug="pokal", owner=alice, preset="best_n")
    SeasonTournament.objects.create(season=season, tournament=Tournament.objects.get(slug="herbst"))
    refresh_season_entries(season)  # the attach use case does it; this test attached by hand
    response = api_client().get(url(hans))
    assert response.status_code == 200, response.content
    body = response.json()
    assert "hans@example.org" not in response.content.decode()
    assert "4711" not in response.content.decode()
    assert [r["tournament"] for r in body["results"]] == ["winter", "herbst"]
    herbst = body["results"][1]
    assert herbst["place"] == 1 and herbst["players"] == 4 and herbst["url"].endswith("/1/")
    assert herbst["points"] == sum(p for p in herbst["series_points"] if p is not None)
    (line,) = body["seasons"]
    assert (line["season"], line["place"], line["tournaments"]) == ("pokal", 1, 1)
    figures = body["statistics"]
    # Seat 1 was Re in the three public games and won two (herbst), lost one (winter).
    assert figures["games"] == 3
    assert figures["re"] == {"count": 2, "of": 3, "percent": 67}
    assert figures["kontra"] == {"count": 0, "of": 0, "percent": None}


def test_the_owner_sees_his_private_tournament_too(hans: Player, alice: User) -> None:
    body = api_client(user=alice).get(url(hans)).json()
    assert [r["tournament"] for r in body["results"]] == ["geheim", "winter", "herbst"]
    assert body["statistics"]["games"] == 4


def test_nothing_to_show_is_not_found(hans: Player, bob: User) -> None:
    secret = Player.objects.get(
        registrations__tournament__slug="geheim", registrations__start_number=2
    )
    assert api_client(user=bob).get(url(secret)).status_code == 404
    assert api_client().get(url(999_999)).status_code == 404
    assert api_client().get("/api/v1/players/abc/results/").status_code == 404
