"""The progress board: time left in the series, tables behind the field, the order of the
tables, and a layout that fits a phone (players only on wide screens)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from freezegun import freeze_time

from common.actors import Actor
from scoring import doors
from scoring.progress import behind_the_field
from scoring.services.entry import save_game
from tests.factories import RE_ANNOUNCES_AND_WINS as GAME
from tests.factories import build_world, make_tournament, page_client

CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="captain-phone")
START = datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)


# --- behind the field (pure) -----------------------------------------------------------


def test_behind_means_more_than_four_games_short_of_the_median_share() -> None:
    # Shares 0.5, 0.5, 0.5, 0.25, 0.29: the median is 0.5, i.e. game 12 of 24 (15 of 30).
    rows = [(12, 24, True), (12, 24, True), (15, 30, True), (6, 24, True), (7, 24, True)]
    assert behind_the_field(rows) == [False, False, False, True, True]


def test_behind_rule_in_detail() -> None:
    field = [(12, 24, True)] * 4
    assert behind_the_field([*field, (8, 24, True)]) == [False] * 4 + [False]  # 4 short
    assert behind_the_field([*field, (7, 24, True)]) == [False] * 4 + [True]  # 5 short
    # A table of five is measured against its own 30 games: 15 is where the field stands.
    assert behind_the_field([*field, (10, 30, True)]) == [False] * 4 + [True]
    assert behind_the_field([*field, (11, 30, True)]) == [False] * 5
    # A table no longer playing (finished, submitted, time called) is never behind.
    assert behind_the_field([*field, (2, 24, False)]) == [False] * 5
    assert behind_the_field([]) == []


# --- the page --------------------------------------------------------------------------


@pytest.fixture
def world(alice: User):
    """Alice's series 1 at three tables: six games at table 1, none at 2, seven at 3."""
    tournament = make_tournament(slug="board", organizers=[alice])
    tables = build_world(tournament, (4, 4, 4)).tables
    for _ in range(6):
        save_game(tables[0], GAME, actor=CAPTAIN)
    for _ in range(7):
        save_game(tables[2], GAME, actor=CAPTAIN)
    return tournament, tables, page_client(alice, language="en")


URL = "/verwaltung/board/serie/1/fortschritt/"


def table_order(html: str) -> list[int]:
    """Table numbers in the order of the board's rows."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [int(cell.split(">", 1)[1].split("<", 1)[0]) for cell in body.split("<a href")[1:]]


def test_time_left_shown_once_the_series_started(world) -> None:
    tournament, _tables, client = world
    assert "minutes left" not in client.get(URL).content.decode()  # starts_at unset
    series = tournament.series.get(number=1)
    with freeze_time("2026-11-28 10:00:00"):
        series.starts_at = timezone.now()
        series.save()
    with freeze_time("2026-11-28 10:58:30"):
        html = client.get(URL).content.decode()
    assert "42 minutes left (until 12:40)" in html  # Europe/Berlin
    with freeze_time("2026-11-28 11:45:00"):
        html = client.get(URL, HTTP_HX_REQUEST="true").content.decode()
    assert "Time is up (since 12:40)." in html and "<html" not in html


def test_no_clock_when_the_series_is_closed(world) -> None:
    tournament, _tables, client = world
    tournament.series.filter(number=1).update(
        status="closed", starts_at=timezone.now() - datetime.timedelta(minutes=10)
    )
    html = client.get(URL).content.decode()
    assert "minutes left" not in html and "row-behind" not in html


def test_tables_needing_attention_first_and_by_number_on_request(world) -> None:
    _tournament, _tables, client = world
    html = client.get(URL).content.decode()
    assert table_order(html) == [2, 1, 3]  # 0, 6, 7 of 24 games entered
    assert 'href="/verwaltung/board/serie/1/fortschritt/?order=table"' in html
    by_number = client.get(URL, {"order": "table"}).content.decode()
    assert table_order(by_number) == [1, 2, 3]
    # The auto-refresh keeps the chosen order.
    assert 'hx-get="/verwaltung/board/serie/1/fortschritt/?order=table"' in by_number
    assert client.get(URL, {"order": "<script>"}).status_code == 200


def test_table_behind_the_field_is_highlighted_and_explained(world) -> None:
    _tournament, _tables, client = world
    html = client.get(URL).content.decode()
    # Median 6 of 24: table 2 (0 games) is 6 short, table 1 and 3 are not.
    assert html.count('class="row-behind"') == 1
    row = html.split('class="row-behind"', 1)[1].split("</tr>", 1)[0]
    assert ">2</a>" in row and "behind" in row
    assert "more than 4 games short of the middle of the field" in html


def test_players_only_on_wide_screens_and_cells_match_the_header(world) -> None:
    _tournament, _tables, client = world
    html = client.get(URL).content.decode()
    head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert '<th class="wide-only">Players</th>' in head
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    for row in body.split("</tr>")[:-1]:
        assert row.count("<td") == head.count("<th")
    assert "overflow-auto" not in html.split("<div hx-get", 1)[1]
