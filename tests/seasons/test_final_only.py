"""Only final results count in a season, everywhere it shows: a series once it is closed, a
tournament's total and place once every series of it is closed. The season's page, its API,
the stored lines (``SeasonEntry``), a player's page and his API say the same."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from seasons.entries import refresh_season_entries
from seasons.models import SeasonEntry
from seasons.placed import placed_entries
from seasons.standings import season_ranking
from tests.factories import page_client
from tests.seasons.conftest import RE_WINS, tournament_with_hans
from tests.seasons.helpers import played, player, season_of
from tournaments.models import Series, Tournament

pytestmark = pytest.mark.django_db


def series_status(tournament: Tournament, **status: str) -> None:
    for number, value in status.items():
        Series.objects.filter(tournament=tournament, number=int(number[1:])).update(status=value)


def test_a_tournament_with_one_of_three_series_gives_no_placement_points(alice: User) -> None:
    t = played(
        alice,
        "cup1",
        "2026-05-01",
        {"Anna Albers": [40, None, None], "Bernd Bäcker": [-40, None, None]},
    )
    series_status(t, s2=Series.Status.PLANNED, s3=Series.Status.PLANNED)
    season = season_of(alice, [t], preset="placement_points", slug="serie")
    anna = player(alice, "Anna Albers")

    ranking = season_ranking(season)
    assert ranking.ranked == ()
    line = next(ln for ln in ranking.unranked if ln.player == anna.pk)
    (result,) = line.results
    assert (result.why, result.place, result.provisional_place) == ("pending", 1, True)
    # The stored line (a player's page, his API) counts nothing either.
    entry = SeasonEntry.objects.get(season=season, player=anna)
    assert (entry.ranked, entry.tournaments, entry.value_numerator) == (False, 0, 0)

    client = page_client(language="en")
    html = client.get("/saisons/serie/").content.decode()
    assert "nothing final yet: provisional results only." in html
    explained = client.get(f"/saisons/serie/spieler/{anna.pk}/").content.decode()
    assert "provisional place 1" in explained
    assert "provisional: counts once its series are closed" in explained
    assert "25 ranking points" not in html + explained
    api = APIClient()
    data = api.get("/api/v1/seasons/serie/ranking/").json()
    listed = next(ln for ln in data["results"] if ln["player"] == anna.pk)
    assert (listed["place"], listed["provisional"]) == (None, True)
    line = api.get(f"/api/v1/seasons/serie/ranking/{anna.pk}/").json()
    (api_result,) = line["results"]
    assert (api_result["why"], api_result["place_final"]) == ("pending", False)
    assert api.get("/api/v1/seasons/serie/tournaments/").json()[0]["complete"] is False

    # Every series closed: final, counted, and the stored line follows.
    series_status(t, s2=Series.Status.CLOSED, s3=Series.Status.CLOSED)
    ranking = season_ranking(season)
    assert next((ln.player, ln.place, ln.value) for ln in ranking.ranked) == (anna.pk, 1, 25)
    refresh_season_entries(season)
    entry, place, _shared = placed_entries(season)[0]
    assert (entry.player_id, entry.ranked, place, entry.value_numerator) == (anna.pk, True, 1, 25)


def test_a_running_series_is_not_a_series_of_the_average(alice: User) -> None:
    t = played(alice, "rl1", "2026-05-01", {"Anna Albers": [20, 30], "Bernd Bäcker": [0, 0]})
    series_status(t, s2=Series.Status.RUNNING)
    season = season_of(alice, [t], overrides={"min_series": 0}, slug="rl")
    anna = player(alice, "Anna Albers")
    line = next(ln for ln in season_ranking(season).lines if ln.player == anna.pk)
    assert (line.place, str(line.value), line.series, line.total) == (1, "20.00", 1, 20)
    (result,) = line.results
    assert (result.why, result.series_points, result.open_points) == ("counted", (20,), (30,))
    entry = SeasonEntry.objects.get(season=season, player=anna)
    assert (entry.series, entry.value_numerator, entry.value_denominator) == (1, 20, 1)
    data = APIClient().get("/api/v1/seasons/rl/ranking/").json()
    first = data["results"][0]
    assert (first["value"], first["series"], first["provisional"]) == ("20.00", 1, True)
    line = APIClient().get(f"/api/v1/seasons/rl/ranking/{anna.pk}/").json()
    assert line["results"][0]["open_points"] == [30]
    client = page_client(language="en")
    html = client.get("/saisons/rl/").content.decode()
    assert "Provisional results of running tournaments are not counted yet." in html
    explained = client.get(f"/saisons/rl/spieler/{anna.pk}/").content.decode()
    assert "provisional: 30 points in 1 running series" in explained
    # Each ranked line links to the player's page.
    assert f'href="/spieler/{anna.pk}/"' in html


def test_the_player_page_and_api_average_closed_series_only(alice: User) -> None:
    _t, hans = tournament_with_hans(alice, "fertig", 3, None, [RE_WINS, RE_WINS])
    running, _h = tournament_with_hans(alice, "laeuft", 10, hans, [RE_WINS], closed=False)
    season_of(alice, [running], preset="best_n", slug="cup")
    html = page_client(language="en").get(f"/spieler/{hans.pk}/").content.decode()
    assert "2 tournaments · 1 series · average 2.0" in html  # not 3 points in 2 series
    assert "Not counted yet: 1 running series (provisional, marked *)." in html
    assert "1*</i>" in html
    data = APIClient().get(f"/api/v1/players/{hans.pk}/results/").json()
    assert (data["statistics"]["series"], data["statistics"]["points"]) == (1, 2)
    by_slug = {r["tournament"]: r for r in data["results"]}
    assert by_slug["laeuft"]["series_final"] == [False]
    assert by_slug["laeuft"]["place_final"] is False
    assert by_slug["fertig"]["series_final"] == [True]
    # His stored line in the cup: the running tournament counts for nothing yet.
    (season_line,) = data["seasons"]
    assert (season_line["place"], season_line["tournaments"]) == (None, 0)
