"""A player's page across tournaments and seasons: what each visitor sees of him, his places
as the standings have them, and a fixed number of statements."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.standings import overall_standings
from seasons.entries import refresh_season_entries
from seasons.models import Season, SeasonTournament
from seasons.players import player_history
from tests.factories import page_client
from tests.seasons.conftest import KONTRA_WINS, RE_WINS, tournament_with_hans
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def names(response: object) -> str:
    return response.content.decode()  # type: ignore[attr-defined]


def test_a_visitor_sees_public_tournaments_only(hans: Player, bob: User) -> None:
    url = reverse("seasons:player", args=[hans.pk])
    for client in (page_client(language="en"), page_client(bob, language="en")):
        html = names(client.get(url))
        assert "Turnier herbst" in html and "Turnier winter" in html
        assert "Turnier geheim" not in html


def test_the_registry_owner_sees_every_tournament(hans: Player, alice: User) -> None:
    html = names(page_client(alice, language="en").get(reverse("seasons:player", args=[hans.pk])))
    assert "Turnier geheim" in html
    # Newest first.
    assert (
        html.index("Turnier geheim") < html.index("Turnier winter") < html.index("Turnier herbst")
    )


def test_a_player_of_private_tournaments_only_is_not_found(hans: Player, alice: User) -> None:
    secret = Player.objects.get(
        registrations__tournament__slug="geheim", registrations__start_number=2
    )
    url = reverse("seasons:player", args=[secret.pk])
    assert page_client().get(url).status_code == 404
    assert page_client(alice).get(url).status_code == 200
    assert page_client().get(reverse("seasons:player", args=[999_999])).status_code == 404


def test_places_and_points_are_the_standings(hans: Player, alice: User) -> None:
    history = player_history(hans, alice)
    assert history is not None
    by_slug = {r.slug: r for r in history.results}
    assert [r.slug for r in history.results] == ["geheim", "winter", "herbst"]
    for slug, result in by_slug.items():
        standings = overall_standings(Tournament.objects.get(slug=slug))
        (row,) = [row for row in standings if row["start_number"] == result.start_number]
        assert (result.place, result.points, result.players) == (
            row["place"],
            row["total"],
            len(standings),
        )
    # Seat 1 is Re in every game: won both in autumn, lost in winter.
    assert by_slug["herbst"].points > 0 > by_slug["winter"].points
    assert by_slug["herbst"].place == 1 and by_slug["winter"].place == 3
    assert history.statistics.overall.games == 4
    assert (history.statistics.overall.re.count, history.statistics.overall.re.of) == (3, 4)
    assert history.charts and all(c.svg.startswith("<svg") for c in history.charts)


def test_statements_do_not_grow_with_tournaments(hans: Player, alice: User) -> None:
    def statements() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert player_history(hans, alice) is not None
        return len(queries)

    three = statements()
    tournament_with_hans(alice, "frueh", 1, hans, [RE_WINS])
    tournament_with_hans(alice, "spaet", 30, hans, [KONTRA_WINS])
    assert statements() == three


def test_his_line_in_a_public_season(hans: Player, alice: User) -> None:
    season = Season.objects.create(
        name="Herbstpokal", slug="pokal", owner=alice, preset="best_n", is_public=True
    )
    for slug in ("herbst", "winter"):
        SeasonTournament.objects.create(season=season, tournament=Tournament.objects.get(slug=slug))
    refresh_season_entries(season)  # the attach use case does it; this test attached by hand
    Season.objects.create(name="Geheime Serie", slug="intern", owner=alice, is_public=False)
    history = player_history(hans, AnonymousUser())
    assert history is not None
    ((found, line),) = history.seasons
    assert found == season and line.player == hans.pk and line.tournaments == 2
    html = names(page_client(language="en").get(reverse("seasons:player", args=[hans.pk])))
    assert "Herbstpokal" in html and reverse("seasons:detail", args=["pokal"]) in html
    assert "Geheime Serie" not in html
