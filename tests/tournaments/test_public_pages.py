"""The public tournament pages: the list fits a phone, the tournament page leads to the
current seating, and the seating page finds a player's table by name (without JavaScript)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import add_players, make_tournament, seat_table, set_status
from tests.scoring.test_public_pages import assert_rows_match_header, english, tables_of
from tournaments.models import Series, Tournament


@pytest.fixture
def cup(db) -> Tournament:
    """Series 1 drawn: table 1 with four players, table 2 with Ärger, Müller, Mueller, Zander."""
    tournament = make_tournament(slug="cup", venue="Bürgerhaus Musterstadt")
    first = tournament.series.get(number=1)
    numbered = add_players(tournament, 4)
    named = add_players(
        tournament,
        names=[("Zoe", "Zander"), ("Jürgen", "Müller"), ("Anna", "Ärger"), ("Hans", "Mueller")],
    )
    seat_table(first, numbered, 1)
    seat_table(first, named, 2)
    set_status(first, Series.Status.DRAWN)
    return tournament


def alphabetical(html: str) -> list[list[str]]:
    header, body = tables_of(html)[0]
    assert header == ["Name", "Table", "Seat"]
    return body


def shown_lines(html: str) -> list[str]:
    """Names of the alphabetical lines the server did not send hidden."""
    return [
        line.split('data-name="')[1].split('"')[0]
        for line in html.splitlines()
        if "data-seating-line" in line and " hidden" not in line
    ]


def test_list_fits_a_phone(client: Client, cup) -> None:
    html = client.get("/turniere/").content.decode()
    ((_header, body),) = assert_rows_match_header(html)
    assert len(body) == 1
    # date and venue are columns on wide screens and a second line under the name on phones
    assert '<th class="wide-only">Datum</th>' in html and '<th class="wide-only">Ort</th>' in html
    assert '<small class="narrow-line">28.11.2026 · Bürgerhaus Musterstadt</small>' in html


def test_tournament_page_leads_to_the_current_seating(client: Client, cup) -> None:
    html = english(client).get("/turniere/cup/").content.decode()
    assert '<a href="/turniere/cup/serie/1/" role="button">Find your table</a>' in html
    assert "/turniere/cup/serie/1/tabelle/" not in html  # nothing played yet
    set_status(cup.series.get(number=1), Series.Status.CLOSED)
    html = client.get("/turniere/cup/").content.decode()
    assert "Find your table" not in html
    assert '<a href="/turniere/cup/serie/1/tabelle/">standings</a>' in html


def test_seating_lists_everybody_by_name(client: Client, cup) -> None:
    html = english(client).get("/turniere/cup/serie/1/").content.decode()
    assert_rows_match_header(html)
    rows = alphabetical(html)
    names = [row[0].split(" #")[0] for row in rows]
    # umlauts sort with their base letter, as in a phone book
    assert names[:3] == ["Ärger, Anna", "Mueller, Hans", "Müller, Jürgen"]
    assert names[-1] == "Zander, Zoe" and len(names) == 8
    assert ["Zander, Zoe #5", "2", "1"] in rows
    assert 'href="#tisch-2"' in html and 'id="tisch-2"' in html
    assert "data-seating-none hidden" in html


@pytest.mark.parametrize(
    ("query", "found"),
    [
        # the umlaut and its typewriter spelling find each other: Müller and Mueller
        ("müller", ["hans mueller", "jurgen muller"]),
        ("MULLER", ["hans mueller", "jurgen muller"]),
        ("mueller", ["hans mueller", "jurgen muller"]),
        ("Muller, Jürgen", ["jurgen muller"]),
        ("arger", ["anna arger"]),
        ("7", ["anna arger"]),
        ("vorname1", ["vorname1 nachname1"]),
        ("nachname", ["vorname1 nachname1", "vorname2 nachname2", "vorname3 nachname3",
                      "vorname4 nachname4"]),
    ],
)  # fmt: skip
def test_seating_search_without_javascript(client: Client, cup, query: str, found) -> None:
    html = english(client).get("/turniere/cup/serie/1/", {"q": query}).content.decode()
    assert sorted(shown_lines(html)) == sorted(found)
    assert f'value="{query}"' in html
    assert "Show all" in html


def test_seating_search_marks_the_table(client: Client, cup) -> None:
    html = english(client).get("/turniere/cup/serie/1/", {"q": "zander"}).content.decode()
    assert '<li value="1" class="match">Zoe Zander' in html
    assert 'id="tisch-1" data-seating-table="1" hidden' in html
    assert 'id="tisch-2" data-seating-table="2">' in html
    assert "1 player found for “zander”." in html


def test_seating_search_without_a_match(client: Client, cup) -> None:
    html = english(client).get("/turniere/cup/serie/1/", {"q": "Niemand"}).content.decode()
    assert shown_lines(html) == []
    assert "data-seating-none>" in html and "No player of this series matches" in html


def test_seating_search_survives_any_input(client: Client, cup) -> None:
    for query in ["", " ", "x" * 5000, "<script>", "%", "ß", "\u0301"]:
        response = client.get("/turniere/cup/serie/1/", {"q": query})
        assert response.status_code == 200
        assert "<script>" not in response.content.decode().split("</header>")[1]


def test_seating_page_loads_the_javascript_only_there(client: Client, cup) -> None:
    assert "seating-search.js" in client.get("/turniere/cup/serie/1/").content.decode()
    assert "seating-search.js" not in client.get("/turniere/cup/").content.decode()


def test_seating_queries_do_not_grow_with_the_field(client: Client, cup) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/turniere/cup/serie/1/", {"q": "a"}).status_code == 200
        return len(ctx.captured_queries)

    before = count()
    seat_table(cup.series.get(number=1), add_players(cup, 5), 3)
    assert count() == before


def test_planned_series_has_no_seating(client: Client, cup) -> None:
    assert client.get("/turniere/cup/serie/2/").status_code == 404
    cup.is_public = False
    cup.save()
    assert client.get("/turniere/cup/serie/1/").status_code == 404
