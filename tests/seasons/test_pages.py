"""Season pages: the public ranking (dropped results struck through, unranked apart, the club
filter, junk input), constant queries, and the owner's pages (form errors next to the field,
attach and detach among his own tournaments only)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from seasons.models import Season, SeasonChange
from tests.factories import page_client
from tests.seasons.helpers import played, season_of

pytestmark = pytest.mark.django_db

CLUBS = {"Anna Albers": "Füchse", "Bernd Bäcker": "Damen", "Carla Czerwinski": "Füchse"}


@pytest.fixture
def cup(alice: User) -> Season:
    t1 = played(
        alice,
        "t1",
        "2026-01-10",
        {"Anna Albers": [10, 0], "Bernd Bäcker": [5, 5], "Carla Czerwinski": [1]},
        clubs=CLUBS,
    )
    t2 = played(alice, "t2", "2026-02-10", {"Anna Albers": [20, 10], "Bernd Bäcker": [30, 0]})
    t3 = played(alice, "t3", "2026-03-10", {"Anna Albers": [5], "Bernd Bäcker": [-5, 0]})
    return season_of(
        alice, [t1, t2, t3], preset="best_n", overrides={"best_n": 2}, slug="cup", name="Cup"
    )


def english() -> Client:
    return page_client(language="en")


def test_the_ranking_page_explains_each_line(cup: Season) -> None:
    response = english().get("/saisons/cup/")
    assert response.status_code == 200
    html = response.content.decode()
    # Anna 10, 30, 5 -> best two: 40; Bernd 10, 30, -5 -> 40: the same value and the same
    # best result (30), so the place is shared
    assert html.count("<details") == 3
    assert "<s>Turnier t3" in html  # the dropped results are struck through
    assert "dropped: not among the best results" in html
    ranking = response.context["ranking"]
    assert [(ln.name, ln.place, ln.shared, ln.value) for ln in ranking.ranked] == [
        ("Anna Albers", 1, True, 40),
        ("Bernd Bäcker", 1, True, 40),
        ("Carla Czerwinski", 3, False, 1),
    ]
    assert 'href="/turniere/t1/"' in html


def test_unranked_players_are_listed_apart_with_what_they_need(alice: User) -> None:
    t = played(alice, "t", "2026-05-01", {"Anna Albers": [1, 2, 3], "Bernd Bäcker": [4]})
    season_of(alice, [t], overrides={"min_series": 3}, slug="rl")
    html = english().get("/saisons/rl/").content.decode()
    ranked, unranked = html.split("Not ranked yet")
    assert "Anna Albers" in ranked and "Bernd Bäcker" not in ranked
    assert "1 series, still needs 2 more." in unranked
    assert "2.00" in ranked  # (1 + 2 + 3) / 3 with two decimals


def test_the_club_filter_and_junk_input(cup: Season) -> None:
    client = english()
    filtered = client.get("/saisons/cup/", {"club": "Füchse"})
    assert [ln.name for ln in filtered.context["ranking"].lines] == [
        "Anna Albers",
        "Carla Czerwinski",
    ]
    assert '<option value="Füchse" selected>' in filtered.content.decode()
    for junk in ("\x00", "x" * 5000, "' OR 1=1 --", "<script>"):
        response = client.get("/saisons/cup/", {"club": junk})
        assert response.status_code == 200
    response = client.get("/saisons/cup/?club=a&club=b")
    assert response.status_code == 200


def test_the_page_reads_a_constant_number_of_statements(alice: User) -> None:
    def statements(slug: str) -> int:
        client = english()
        client.get(f"/saisons/{slug}/")  # the session and language settle
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/saisons/{slug}/").status_code == 200
        return len(queries)

    few = [played(alice, f"a{i}", "2026-03-01", {"Anna Albers": [i]}) for i in range(2)]
    many = [
        played(alice, f"b{i}", "2026-03-02", {"Anna Albers": [i], f"X{i} Y{i}": [1]})
        for i in range(7)
    ]
    season_of(alice, few, slug="few")
    season_of(alice, many, slug="many")
    assert statements("few") == statements("many")


def test_private_seasons_are_hidden_from_others(alice: User, bob: User) -> None:
    season_of(alice, slug="geheim", is_public=False)
    assert page_client(bob).get("/saisons/geheim/").status_code == 404
    assert english().get("/saisons/geheim/").status_code == 404
    assert page_client(alice).get("/saisons/geheim/").status_code == 200
    assert "geheim" not in english().get("/saisons/").content.decode()
    assert page_client(bob).get("/verwaltung/saisons/geheim/bearbeiten/").status_code == 403


def test_the_owner_creates_a_season_and_errors_stay_next_to_the_field(alice: User) -> None:
    client = page_client(alice, language="en")
    response = client.post(
        "/verwaltung/saisons/neu/",
        {"name": "Cup", "preset": "placement_points", "placement_points": "10, x, 3"},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["placement_points"]
    assert 'value="Cup"' in response.content.decode()  # what was typed stays
    response = client.post(
        "/verwaltung/saisons/neu/",
        {"name": "Cup", "preset": "placement_points", "placement_points": "10, 20"},
    )
    assert response.context["form"].errors == {
        "placement_points": ["A better place cannot get fewer points."]
    }
    response = client.post(
        "/verwaltung/saisons/neu/",
        {
            "name": "Cup 2026",
            "preset": "placement_points",
            "placement_points": "10, 6, 3",
            "window_months": "0",
            "tiebreak_1": "total",
            "is_public": "on",
        },
    )
    assert response.status_code == 302
    season = Season.objects.get(slug="cup-2026")
    assert season.rule_overrides == {
        "window_months": None,
        "placement_points": [10, 6, 3],
        "tiebreak": ["total"],
    }
    edit = client.get("/verwaltung/saisons/cup-2026/bearbeiten/")
    assert edit.context["form"].initial["placement_points"] == "10, 6, 3"
    assert edit.context["form"].initial["window_months"] == 0


def test_attach_and_detach_only_own_tournaments(
    alice: User, bob: User, tournament, other_tournament
) -> None:
    season = season_of(alice, slug="cup")
    client = page_client(alice, language="en")
    page = client.get("/verwaltung/saisons/cup/turniere/")
    assert [t.slug for t in page.context["others"]] == ["herbst"]
    client.post(
        "/verwaltung/saisons/cup/turniere/", {"action": "attach", "tournament": tournament.pk}
    )
    assert list(season.tournaments.all()) == [tournament]
    response = client.post(
        "/verwaltung/saisons/cup/turniere/",
        {"action": "attach", "tournament": other_tournament.pk},
        follow=True,
    )
    assert "Choose one of your tournaments." in response.content.decode()
    for junk in ("", "abc", "9" * 30, "-1"):
        response = client.post(
            "/verwaltung/saisons/cup/turniere/", {"action": "attach", "tournament": junk}
        )
        assert response.status_code == 302
    client.post(
        "/verwaltung/saisons/cup/turniere/", {"action": "detach", "tournament": tournament.pk}
    )
    assert not season.tournaments.exists()
    assert SeasonChange.objects.filter(season=season).count() == 3  # created, attached, detached
    response = page_client(bob).post(
        "/verwaltung/saisons/cup/turniere/", {"action": "attach", "tournament": tournament.pk}
    )
    assert response.status_code == 403


def test_the_tournament_page_links_its_public_seasons(alice: User, tournament) -> None:
    season_of(alice, [tournament], slug="offen", name="Offene Saison")
    season_of(alice, [tournament], slug="geheim", name="Geheime Saison", is_public=False)
    html = english().get("/turniere/herbst/").content.decode()
    assert 'href="/saisons/offen/"' in html and "Geheime Saison" not in html
