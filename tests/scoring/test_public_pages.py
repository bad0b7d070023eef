"""What a player reads on the public standings and on his own page: columns under their
headings, the rank (not the seat), a running series said as such, and every game from the
player's point of view (his party, won or lost, who scored the extras)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from common.actors import ORGANIZER, Actor
from scoring.models import ScoreSheet
from tests.factories import RE_WINS as NORMAL
from tests.factories import (
    add_players,
    make_tournament,
    play,
    running_table,
    seat_table,
    set_status,
)
from tournaments.models import Series, Table

FOX = {  # Kontra wins, Re caught a fox: the extra belongs to the losing party
    "contract": "normal",
    "re": [1, 2],
    "re_points": 100,
    "extras": {"re": {"fuchs": 1}},
}
SOLO = {"contract": "solo", "solo": "damen", "re": [3], "re_points": 150}


class Tables(HTMLParser):
    """Cells per row of every <table>: (header cells, [cells of each body row])."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[list[str], list[list[str]]]] = []
        self._section = ""
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append(([], []))
        elif tag in ("thead", "tbody"):
            self._section = tag
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            header, body = self.tables[-1]
            if self._section == "thead":
                header[:] = self._row
            else:
                body.append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables_of(html: str) -> list[tuple[list[str], list[list[str]]]]:
    parser = Tables()
    parser.feed(html)
    return parser.tables


def assert_rows_match_header(html: str) -> list[tuple[list[str], list[list[str]]]]:
    """The data tables of the page (those with a header row; a table of figures names each
    row in its first cell instead), each row as wide as its header."""
    tables = [(header, body) for header, body in tables_of(html) if header]
    assert tables, "no table on the page"
    for header, body in tables:
        assert body, "a table without rows"
        for row in body:
            assert len(row) == len(header), (header, row)
    return tables


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def cup(db):
    """Series 1 closed (two tables), series 2 running: table 1 has handed in its sheet,
    table 2 is still playing."""
    tournament = make_tournament(slug="cup", series_count=3)
    first, second = tournament.series.get(number=1), tournament.series.get(number=2)
    players = add_players(tournament, 8)
    set_status(first, Series.Status.RUNNING)
    for number, group in ((1, players[:4]), (2, players[4:])):
        play(seat_table(first, group, number), [NORMAL, FOX])
    set_status(first, Series.Status.CLOSED)
    done = seat_table(second, [players[0], players[4], players[1], players[5]], 1)
    open_ = seat_table(second, [players[2], players[6], players[3], players[7]], 2)
    set_status(second, Series.Status.RUNNING)
    play(done, [NORMAL])
    play(open_, [SOLO])
    ScoreSheet.objects.filter(table=done).update(status=ScoreSheet.Status.SUBMITTED)
    return tournament


STANDINGS = [
    "/turniere/cup/tabelle/",
    "/turniere/cup/tabelle/?serien=1",
    "/turniere/cup/serie/1/tabelle/",
    "/turniere/cup/serie/2/tabelle/",
]


@pytest.mark.parametrize("path", STANDINGS)
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("partial", [False, True])
def test_standings_rows_have_as_many_cells_as_the_header(
    client: Client, cup, path: str, language: str, partial: bool
) -> None:
    client.cookies["django_language"] = language
    headers = {"HTTP_HX_REQUEST": "true"} if partial else {}
    html = client.get(path, **headers).content.decode()
    ((_header, body),) = assert_rows_match_header(html)
    assert len(body) == 8


def test_series_standings_show_the_series_score_once(client: Client, cup) -> None:
    html = english(client).get("/turniere/cup/serie/1/tabelle/").content.decode()
    ((header, body),) = tables_of(html)
    assert header == ["Rank", "Player", "Points", "Games", "Solos"]
    points = [row[2] for row in body]
    assert all(p.lstrip("-").isdigit() for p in points)


def test_overall_standings_have_a_column_per_series(client: Client, cup) -> None:
    html = english(client).get("/turniere/cup/tabelle/").content.decode()
    ((header, _body),) = tables_of(html)
    assert header == ["Rank", "Player", "S1", "S2", "Points", "Games", "Solos"]


def test_rank_column_is_not_called_seat(client: Client, cup) -> None:
    html = client.get("/turniere/cup/tabelle/").content.decode()
    header = tables_of(html)[0][0]
    assert "Platz" not in header


def test_running_series_is_said_and_open_tables_marked(client: Client, cup) -> None:
    html = english(client).get("/turniere/cup/tabelle/").content.decode()
    assert "Series 2 is running:" in html
    assert "interim standings, 1 of 2 tables finished." in html
    _header, body = tables_of(html)[0]
    playing = {row[1].split(" still playing")[0] for row in body if "still playing" in row[1]}
    assert playing == {"Vorname3 Nachname3", "Vorname7 Nachname7", "Vorname4 Nachname4",
                       "Vorname8 Nachname8"}  # fmt: skip


def test_closed_series_standings_say_nothing_of_running(client: Client, cup) -> None:
    html = english(client).get("/turniere/cup/serie/1/tabelle/").content.decode()
    assert "is running" not in html and "still playing" not in html


def test_no_table_finished_marks_nobody(client: Client, cup) -> None:
    ScoreSheet.objects.update(status=ScoreSheet.Status.OPEN)
    html = english(client).get("/turniere/cup/tabelle/").content.decode()
    assert "interim standings, 0 of 2 tables finished." in html
    assert "still playing" not in html


def test_points_per_series_on_phones_on_request(client: Client, cup) -> None:
    plain = english(client).get("/turniere/cup/tabelle/").content.decode()
    assert "series-line" not in plain and "?serien=1" in plain
    html = client.get("/turniere/cup/tabelle/?serien=1").content.decode()
    assert 'class="series-line">S1 ' in html and " · S2 " in html
    assert 'hx-get="/turniere/cup/tabelle/?serien=1"' in html


def test_standings_queries_do_not_grow_with_the_field(client: Client, cup) -> None:
    def count(path: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path).status_code == 200
        return len(ctx.captured_queries)

    before = {path: count(path) for path in STANDINGS}
    second = Series.objects.get(tournament=cup, number=2)
    play(seat_table(second, add_players(cup, 4), 3), [NORMAL, SOLO])
    assert {path: count(path) for path in STANDINGS} == before


# -- A player's page -----------------------------------------------------------------------


@pytest.fixture
def table(db) -> Table:
    table = running_table(make_tournament(slug="cup"))
    play(table, [NORMAL, FOX, SOLO])
    return table


def game_rows(html: str) -> list[list[str]]:
    ((header, body),) = assert_rows_match_header(html)
    assert header == ["No.", "Seat", "Game", "Party", "Value", "Points"]
    return body


def test_player_sees_his_party_and_result(client: Client, table) -> None:
    seat_1 = game_rows(english(client).get("/turniere/cup/spieler/1/").content.decode())
    assert [row[3] for row in seat_1] == ["Re won", "Re lost", "Kontra lost"]
    seat_2 = game_rows(client.get("/turniere/cup/spieler/2/").content.decode())
    assert [row[3] for row in seat_2] == ["Kontra lost", "Re lost", "Kontra lost"]
    seat_3 = game_rows(client.get("/turniere/cup/spieler/3/").content.decode())
    assert [row[3] for row in seat_3] == ["Re won", "Kontra won", "Soloist won"]
    assert [row[5] for row in seat_3] == ["1", "1", "3"]


def test_points_agree_with_won_and_lost(client: Client, table) -> None:
    for start_number in (1, 2, 3, 4):
        rows = game_rows(
            english(client).get(f"/turniere/cup/spieler/{start_number}/").content.decode()
        )
        for row in rows:
            points = int(row[5])
            assert (points > 0) == row[3].endswith("won"), row


def test_extras_name_the_party_that_scored_them(client: Client, table) -> None:
    rows = game_rows(english(client).get("/turniere/cup/spieler/1/").content.decode())
    fox_game = rows[1][2]
    assert "Kontra wins" in fox_game and "fox caught (Re)" in fox_game
    assert "won," not in fox_game  # the winner's point names the party, not "won"
    solo_game = rows[2][2]
    assert solo_game.startswith("Queens solo") and "Soloist wins" in solo_game


def test_sitting_out_at_a_table_of_five(client: Client, db) -> None:
    five = running_table(make_tournament(slug="five"), size=5)
    play(five, [{"contract": "normal", "re": [2, 3], "re_points": 130}])
    rows = game_rows(english(client).get("/turniere/five/spieler/1/").content.decode())
    assert rows[0][3] == "sat out" and rows[0][5] == "0"


def test_game_headings_are_not_repeated(client: Client, table) -> None:
    html = client.get("/turniere/cup/spieler/1/").content.decode()
    ((header, _body),) = assert_rows_match_header(html)
    assert len(set(header)) == len(header), header


def test_current_table_and_seat_come_first(client: Client, table) -> None:
    html = english(client).get("/turniere/cup/spieler/2/").content.decode()
    assert "Series 1 is running" in html and "Table 1, seat 2" in html
    assert html.index("Table 1, seat 2") < html.index("<table")
    assert "Vorname1 Nachname1 (seat 1)" in html and "Vorname2 Nachname2 (seat" not in html
    assert 'href="/turniere/cup/serie/1/#tisch-1"' in html


def test_his_figures_in_this_tournament(client: Client, table) -> None:
    """Seat 1: Re and won (NORMAL), Re and lost (FOX), Kontra against the soloist of seat 3,
    who won (SOLO): Re 1 of 2, Kontra 0 of 1, no solo of his own."""
    html = english(client).get("/turniere/cup/spieler/1/").content.decode()
    figures = html.split('class="statistics-figures"')[1]
    cells = re.findall(r'<td class="num">([^<]*)(?:<small>\(([^)]*)\))?', figures)
    assert [c[0].strip() for c in cells[:4]] == ["3", "50 %", "0 %", "0 %"]
    assert [c[1] for c in cells[:4]] == ["", "1/2", "0/1", "0/3"]


def test_no_current_table_after_the_series(client: Client, table) -> None:
    set_status(table.series, Series.Status.CLOSED)
    html = english(client).get("/turniere/cup/spieler/2/").content.decode()
    assert "Table 1, seat 2" not in html


def test_points_are_counted_in_words(client: Client, table) -> None:
    html = english(client).get("/turniere/cup/spieler/3/").content.decode()
    assert "<h2>Series 1 · 5 points</h2>" in html
    html = client.get("/turniere/cup/spieler/1/").content.decode()
    assert "<h2>Series 1 · -1 point</h2>" in html


def test_player_page_queries_do_not_grow_with_the_games(client: Client, table) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/turniere/cup/spieler/1/").status_code == 200
        return len(ctx.captured_queries)

    before = count()
    play(table, [NORMAL, FOX, NORMAL])
    assert count() == before


def test_penalty_row_has_the_cells_of_a_game(client: Client, table, alice) -> None:
    from scoring.services.deductions import add_deduction

    add_deduction(
        table.series, table.seats.get(position=1).registration, -2, "Handy am Tisch",
        Actor(ORGANIZER, user=alice),
    )  # fmt: skip
    rows = game_rows(english(client).get("/turniere/cup/spieler/1/").content.decode())
    assert rows[-1] == ["", "", "Deduction: Handy am Tisch", "", "", "-2"]


def test_transcribed_games_read_off_the_points(client: Client, db) -> None:
    paper = running_table(make_tournament(slug="paper", entry_mode="transcription"))
    ScoreSheet.objects.create(table=paper, mode=ScoreSheet.Mode.TRANSCRIPTION)
    play(paper, [{"scores": {"1": 3, "2": -3, "3": 3, "4": -3}}])
    first = game_rows(english(client).get("/turniere/paper/spieler/1/").content.decode())
    second = game_rows(client.get("/turniere/paper/spieler/2/").content.decode())
    assert first[0][2] == "Game from the paper sheet" and first[0][3] == "won"
    assert second[0][3] == "lost" and second[0][5] == "-3"


def test_current_table_is_that_of_the_series_drawn_next(client: Client, cup) -> None:
    second, third = cup.series.get(number=2), cup.series.get(number=3)
    set_status(second, Series.Status.CLOSED)
    players = list(cup.registrations.order_by("start_number"))
    seat_table(third, [players[4], players[2], players[0], players[6]], 4)
    set_status(third, Series.Status.DRAWN)
    html = english(client).get("/turniere/cup/spieler/1/").content.decode()
    assert "Series 3 has been drawn" in html and "Table 4, seat 3" in html
    assert 'href="/turniere/cup/serie/3/#tisch-4"' in html
