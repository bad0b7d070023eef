"""Season pages: the public ranking read from the stored one (in pages, found by name and
club, each line's explanation a fragment of its own, unranked apart, junk input), constant
queries, and the owner's pages (form errors next to the field, attach and detach among his
own tournaments only)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from seasons.entries import refresh_season_entries
from seasons.models import Season, SeasonChange, SeasonEntry
from tests.factories import page_client
from tests.seasons.helpers import played, player, season_of
from tournaments.models import Tournament

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


def explained(client: Client, slug: str, player: int, **headers: str) -> str:
    response = client.get(f"/saisons/{slug}/spieler/{player}/", **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_the_ranking_page_loads_each_explanation_on_demand(cup: Season) -> None:
    client = english()
    response = client.get("/saisons/cup/")
    assert response.status_code == 200
    html = response.content.decode()
    # Anna 10, 30, 5 -> best two: 40; Bernd 10, 30, -5 -> 40: the same value and the same
    # best result (30), so the place is shared
    ranking = response.context["ranking"]
    assert [(ln.name, ln.place, ln.shared, ln.value) for ln in ranking.ranked] == [
        ("Anna Albers", 1, True, 40),
        ("Bernd Bäcker", 1, True, 40),
        ("Carla Czerwinski", 3, False, 1),
    ]
    # Each line can be opened; what it holds is not on the page but a fragment of its own.
    assert html.count("<details") == 3 and "dropped" not in html
    anna = ranking.ranked[0].player
    url = f"/saisons/cup/spieler/{anna}/"
    assert f'hx-get="{url}"' in html and f'<a href="{url}">Show the results</a>' in html
    fragment = explained(client, "cup", anna, HTTP_HX_REQUEST="true")
    assert "<s>Turnier t3" in fragment  # the dropped results are struck through
    assert "dropped: not among the best results" in fragment
    assert "<html" not in fragment
    page = explained(client, "cup", anna)  # without script: a page of its own
    assert "<html" in page and "<s>Turnier t3" in page and "place 1" in page
    assert 'href="/turniere/t1/"' in html
    # A player with no result in the season has no line to explain.
    stranger = player(cup.owner, "Doris Dorn")
    assert client.get(f"/saisons/cup/spieler/{stranger.pk}/").status_code == 404


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
    # with their places in the whole season
    assert [ln.place for ln in filtered.context["ranking"].lines] == [1, 3]
    assert '<option value="Füchse" selected>' in filtered.content.decode()
    for key in ("club", "q", "seite"):
        for junk in ("\x00", "x" * 5000, "' OR 1=1 --", "<script>", "²", "-1", "99999999999"):
            response = client.get("/saisons/cup/", {key: junk})
            assert response.status_code == 200
            assert "<script>" not in response.content.decode().split("<main")[-1]
    response = client.get("/saisons/cup/?club=a&club=b")
    assert response.status_code == 200


def test_the_search_finds_names_however_they_are_typed(alice: User) -> None:
    t = played(
        alice,
        "t",
        "2026-05-01",
        {"Jörg Müller": [5], "Anna Mueller": [4], "Bernd Weiß": [3], "Carla Albers": [2]},
        clubs={"Jörg Müller": "Füchse", "Carla Albers": "Füchse"},
    )
    season_of(alice, [t], overrides={"min_series": 0}, slug="rl")
    client = english()

    def names(**query: str) -> list[tuple[str, int | None]]:
        lines = client.get("/saisons/rl/", query).context["ranking"].lines
        return [(ln.name, ln.place) for ln in lines]

    assert names(q="muller") == [("Jörg Müller", 1), ("Anna Mueller", 2)]
    assert names(q="MÜLLER jörg") == [("Jörg Müller", 1)]
    assert names(q="weiss") == [("Bernd Weiß", 3)]
    assert names(q="muller", club="Füchse") == [("Jörg Müller", 1)]
    assert names(q="fuchse") == [("Jörg Müller", 1), ("Carla Albers", 4)]  # the club too
    html = client.get("/saisons/rl/", {"q": "zander"}).content.decode()
    assert "Nobody found." in html and 'value="zander"' in html


def test_the_ranking_comes_in_pages(alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("seasons.views.public.PAGE_SIZE", 2)
    names = [f"Spieler{i} Nachname{i}" for i in range(5)]
    t = played(
        alice,
        "t",
        "2026-05-01",
        {name: [10 - i] if i < 4 else [0, 0] for i, name in enumerate(names)},
    )
    season_of(alice, [t], overrides={"min_series": 1}, slug="rl")
    Season.objects.filter(slug="rl").update(rule_overrides={"min_series": 2})
    refresh_season_entries(Season.objects.get(slug="rl"))
    client = english()

    def page(number: object) -> tuple[list[str], int, str]:
        response = client.get("/saisons/rl/", {"seite": number})
        lines = [ln.name.split()[0] for ln in response.context["ranking"].lines]
        return lines, response.context["page"].number, response.content.decode()

    # Four players short of two series, one with two: ranked first, the rest by value
    lines, number, html = page(1)
    assert (lines, number) == (["Spieler4", "Spieler0"], 1)
    assert 'aria-label="Pages of the ranking"' in html and '<a aria-current="page">1</a>' in html
    assert 'href="?seite=2" rel="next"' in html and 'rel="prev"' not in html
    lines, number, html = page(2)
    assert (lines, number) == (["Spieler1", "Spieler2"], 2)
    assert "Not ranked yet" in html and "<table" not in html
    assert page(3)[:2] == (["Spieler3"], 3)
    assert page(99)[:2] == (["Spieler3"], 3)  # past the end: the last page
    assert page("x")[:2] == (["Spieler4", "Spieler0"], 1)
    # The search and the club filter are kept by the page links.
    html = client.get("/saisons/rl/", {"q": "spieler", "seite": "2"}).content.decode()
    assert 'href="?q=spieler&amp;seite=3"' in html


def test_the_page_reads_a_constant_number_of_statements(alice: User) -> None:
    def statements(slug: str, **query: str) -> int:
        client = english()
        client.get(f"/saisons/{slug}/")  # the session and language settle
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/saisons/{slug}/", query).status_code == 200
        return len(queries)

    few = [
        played(alice, f"a{i}", "2026-03-01", {"Anna Albers": [i]}, clubs={"Anna Albers": "Club 1"})
        for i in range(2)
    ]
    many = [
        played(
            alice,
            f"b{i}",
            "2026-03-02",
            {"Anna Albers": [i], **{f"X{i}{j} Y{i}{j}": [j] for j in range(6)}},
            clubs={f"X{i}{j} Y{i}{j}": f"Club {j}" for j in range(6)},
        )
        for i in range(14)
    ]
    season_of(alice, few, slug="few")
    season_of(alice, many, slug="many")
    assert statements("few") == statements("many")
    assert statements("few", q="anna") == statements("many", q="anna")
    assert statements("few", club="Club 1") == statements("many", club="Club 1")


def test_a_season_without_a_stored_ranking_computes_it_once(cup: Season) -> None:
    SeasonEntry.objects.filter(season=cup).delete()
    Season.objects.filter(pk=cup.pk).update(entries_at=None)
    response = english().get("/saisons/cup/")
    assert [ln.name for ln in response.context["ranking"].lines][:2] == [
        "Anna Albers",
        "Bernd Bäcker",
    ]
    cup.refresh_from_db()
    assert cup.entries_at is not None and cup.entries.count() == 3


def test_private_seasons_are_hidden_from_others(alice: User, bob: User) -> None:
    t = played(alice, "t", "2026-05-01", {"Anna Albers": [1]})
    season_of(alice, [t], slug="geheim", is_public=False)
    anna = player(alice, "Anna Albers")
    for path in (
        "/saisons/geheim/",
        f"/saisons/geheim/spieler/{anna.pk}/",
        "/saisons/geheim/turniere/",
    ):
        assert page_client(bob).get(path).status_code == 404
        assert english().get(path).status_code == 404
        assert page_client(alice).get(path).status_code == 200
    assert "geheim" not in english().get("/saisons/").content.decode()
    assert page_client(bob).get("/verwaltung/saisons/geheim/bearbeiten/").status_code == 403


def test_the_page_lists_the_newest_tournaments_and_links_them_all(alice: User) -> None:
    tournaments = [
        played(alice, f"t{i:02}", f"2026-01-{i + 1:02}", {"Anna Albers": [i]}) for i in range(12)
    ]
    season_of(alice, tournaments, slug="rl")
    Tournament.objects.filter(slug="t11").update(is_public=False)  # made private afterwards
    html = english().get("/saisons/rl/").content.decode()
    listed = html.split("<h2>Tournaments</h2>")[1]
    assert listed.count("<li>") == 10 and "Private tournament" in listed
    assert 'href="/turniere/t10/"' in listed and "/turniere/t01/" not in listed
    assert 'href="/saisons/rl/turniere/">All 12 tournaments' in listed
    every = english().get("/saisons/rl/turniere/").content.decode()
    assert every.count("1 participant") == 12 and 'href="/turniere/t00/"' in every
    assert "/turniere/t11/" not in every
    assert (
        'href="/turniere/t11/"' in page_client(alice).get("/saisons/rl/turniere/").content.decode()
    )


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
    # The next page confirms what happened.
    landed = client.get(response["Location"]).content.decode()
    assert "Season “Cup 2026” created. Now attach its tournaments." in landed
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
