"""The public statistics page: its figures, its visibility, a fixed number of queries, and
charts that are well-formed SVG without scripts or references outside themselves."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ElementTree

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from common.charts import integer_ticks
from scoring.charts import player_charts, solo_chart, tournament_charts
from scoring.statistics import SoloOutcomes
from scoring.stats_read import player_statistics, tournament_statistics
from tests.factories import add_players, make_tournament, make_user, play, seat_table
from tests.scoring.test_statistics_read import NORMAL, SOLO, series_world
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
NAMESPACES = ("http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink")


def page(client: Client, tournament: Tournament) -> str:
    response = client.get(reverse("scoring:statistics", args=[tournament.slug]))
    assert response.status_code == 200
    return response.content.decode()


def svgs(html: str) -> list[str]:
    found = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    return [base64.b64decode(data).decode() for data in found]


def check_self_contained(svg: str) -> ElementTree.Element:
    """Well-formed, no script, no reference to anything outside the SVG."""
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("viewBox")
    assert root.get("width") is None  # scales to its column
    for element in root.iter():
        assert element.tag not in (f"{SVG}script", f"{SVG}foreignObject", f"{SVG}image")
        for name, value in element.attrib.items():
            assert not name.endswith("href"), (element.tag, name, value)
            assert not name.startswith("on"), (element.tag, name)
    text = svg
    for namespace in NAMESPACES:
        text = text.replace(namespace, "")
    assert "http" not in text and "//" not in text.replace("://", "") and "url(" not in text
    assert "@import" not in text
    return root


@pytest.fixture
def played(client: Client) -> Tournament:
    tournament, _ = series_world(make_user("olga"))
    return tournament


def test_the_page_shows_the_figures(client: Client, played: Tournament) -> None:
    html = page(client, played)
    assert "Games played" in html or "Spiele" in html
    # the tournament: 6 games, Re won 3 of them, 2 solos of 6, 1 of 2 solos won
    assert "50 % <small>(3/6)</small>" in html
    assert "33 % <small>(2/6)</small>" in html
    assert "50 % <small>(1/2)</small>" in html
    # player 3: an average of 3.5 per series, Re 2 of 2
    row = re.search(r"Vorname3 Nachname3</a></td>(.*?)</tr>", html, re.S)
    assert row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    assert cells[0] == "3.5" or cells[0] == "3,5"
    assert cells[2].startswith("100 %") and "2/2" in cells[2]
    assert len(svgs(html)) == 3


def test_rates_over_nothing_show_a_dash(client: Client) -> None:
    tournament = make_tournament(slug="quiet", is_public=True)
    add_players(tournament, 2)
    html = page(client, tournament)
    assert svgs(html) == []
    assert html.count('<td class="num">–</td>') == 2  # each player's average


def test_visible_where_the_standings_are(client: Client) -> None:
    hidden = make_tournament(slug="hidden", is_public=False)
    url = reverse("scoring:statistics", args=[hidden.slug])
    assert client.get(url).status_code == 404
    assert client.get(reverse("scoring:standings", args=[hidden.slug])).status_code == 404


def test_a_fixed_number_of_queries(client: Client, played: Tournament) -> None:
    with CaptureQueriesContext(connection) as small:
        page(client, played)
    series = played.series.get(number=2)
    for number in (2, 3, 4):
        play(seat_table(series, add_players(played, 4), number), [NORMAL, SOLO])
    with CaptureQueriesContext(connection) as large:
        html = page(client, played)
    assert "Vorname16" in html
    assert len(large) == len(small)
    print(f"statistics page: {len(large)} queries")


def test_the_charts_are_self_contained_and_repeatable(played: Tournament) -> None:
    statistics = tournament_statistics(played)
    first = tournament_charts(statistics)
    second = tournament_charts(tournament_statistics(played))
    assert [c.svg for c in first] == [c.svg for c in second]
    for chart in first:
        root = check_self_contained(chart.svg)
        assert root.findtext(f"{SVG}title") == chart.title
        assert chart.description
    line = first[0]
    # the five leaders' running totals: one line each (4 players here)
    legends = ElementTree.fromstring(line.svg).findall(f".//{SVG}g[@class='legends']/{SVG}g")
    assert len(legends) == 4


def test_the_charts_of_a_player(played: Tournament) -> None:
    registrations = list(played.registrations.order_by("start_number"))
    charts = player_charts(player_statistics(registrations[:1]))
    assert [c.name for c in charts] == ["series", "parties", "solos"]
    for chart in charts:
        check_self_contained(chart.svg)
    assert charts[0].description == "S1: 2, S2: -1"
    empty = player_charts(player_statistics([]))
    for chart in empty:
        check_self_contained(chart.svg)


def test_the_check_finds_what_it_looks_for() -> None:
    """The self-containment check itself fails on a script and on an outside link."""
    ns = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"'
    for bad in (
        f"<svg {ns}><script>alert(1)</script></svg>",
        f'<svg {ns} xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<a xlink:href="https://example.org/">x</a></svg>',
        f"<svg {ns}><style>@import url(//cdn.example/x.css);</style></svg>",
    ):
        with pytest.raises(AssertionError):
            check_self_contained(bad)


def test_the_result_report_has_a_statistics_page(played: Tournament) -> None:
    from django.utils import translation

    from documents.report_layout import results_pages
    from documents.results import load_results

    with translation.override("en"):
        info = load_results(played)
    assert info.statistics is not None
    assert ("Won by Re", "50 % (3/6)") in info.statistics.figures
    for _, svg in info.statistics.charts:
        check_self_contained(svg)
    templates = [page.template for page in results_pages(info)]
    assert templates[:2] == ["standings.html", "statistics.html"]
    empty = make_tournament(slug="none")
    assert load_results(empty).statistics is None
    assert "statistics.html" not in [p.template for p in results_pages(load_results(empty))]


def test_the_page_links_from_the_standings(client: Client, played: Tournament) -> None:
    html = client.get(reverse("scoring:standings", args=[played.slug])).content.decode()
    assert reverse("scoring:statistics", args=[played.slug]) in html


def y_labels(svg: str) -> list[str]:
    root = ElementTree.fromstring(svg)
    axis = next(g for g in root.iter(f"{SVG}g") if "axis y" in (g.get("class") or ""))
    return [t.text or "" for t in axis.iter(f"{SVG}text")]


@pytest.mark.parametrize(("won", "lost", "ticks"), [(1, 0, 2), (2, 1, 4), (3, 4, 5), (0, 13, 4)])
def test_the_solo_chart_counts_in_whole_numbers(won: int, lost: int, ticks: int) -> None:
    """A player with one solo had the labels 0, 0, 0, 1, 1, 1: counts get whole-number ticks,
    each once, from 0 to at least the highest bar."""
    labels = y_labels(solo_chart(SoloOutcomes(won, lost, won + lost), SoloOutcomes(0, 0, 0)).svg)
    assert len(labels) == len(set(labels)) == ticks, labels
    numbers = [int(label) for label in labels]
    assert numbers == sorted(numbers) and numbers[0] == 0 and numbers[-1] >= won + lost


def test_integer_ticks() -> None:
    assert integer_ticks(0) == [0, 1]
    assert integer_ticks(5) == [0, 1, 2, 3, 4, 5]
    assert integer_ticks(7) == [0, 2, 4, 6, 8]
    assert integer_ticks(31) == [0, 10, 20, 30, 40]
    for highest in range(200):
        ticks = integer_ticks(highest)
        assert ticks[0] == 0 and ticks[-1] >= highest and len(ticks) <= 7
