"""The spreadsheets (CSV parsed back, XLSX opened with openpyxl), the archive download and
the import page and API, with who may see what."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from openpyxl import load_workbook

from common.sheets import safe
from tests.factories import RE_WINS, build_world, page_client, play
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

GAME = {**RE_WINS, "dealer": 1}  # Re wins, value 1
NAMES = [("=HYPERLINK(1)", "Müller", "@Club"), ("Anna", "Schäfer", "DK Köln"),
         ("Bernd", "Weiß", ""), ("Carla", "-Ost", "+Verein")]  # fmt: skip


@pytest.fixture
def client(db: None) -> Client:
    return page_client(language="en")


@pytest.fixture
def alice_client(alice: User) -> Client:
    return page_client(alice, language="en")


@pytest.fixture
def bob_client(bob: User) -> Client:
    return page_client(bob, language="en")


@pytest.fixture
def played(tournament: Tournament) -> Tournament:
    world = build_world(tournament, (4,), names=NAMES)
    Player.objects.filter(pk=world.players[1].pk).update(
        email="anna@example.org", ddv_number="4711"
    )
    play(world.tables[0], [GAME])
    return tournament


def rows_of_csv(content: bytes) -> list[list[str]]:
    assert content.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads UTF-8
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))


def test_safe_quotes_what_would_start_a_formula() -> None:
    assert [safe(v) for v in ("=1+1", "+49", "-x", "@A1", "\tx", "Anna", -3, None)] == [
        "'=1+1", "'+49", "'-x", "'@A1", "'\tx", "Anna", -3, None,
    ]  # fmt: skip


def test_standings_csv(client: Client, played: Tournament) -> None:
    response = client.get("/turniere/herbst/export/tabelle/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="herbst-tabelle.csv"'
    rows = rows_of_csv(response.content)
    assert rows[0] == ["Rank", "Start number", "Player", "Club", "Series 1", "Points", "Games",
                       "Compulsory solos", "Voluntary solos", "Solos won"]  # fmt: skip
    # Re (seats 1 and 3) won a game worth 1; places shared, the line order by start number.
    assert rows[1:] == [
        ["1", "1", "'=HYPERLINK(1) Müller", "'@Club", "1", "1", "1", "0", "0", "0"],
        ["1", "3", "Bernd Weiß", "", "1", "1", "1", "0", "0", "0"],
        ["3", "2", "Anna Schäfer", "DK Köln", "-1", "-1", "1", "0", "0", "0"],
        ["3", "4", "Carla -Ost", "'+Verein", "-1", "-1", "1", "0", "0", "0"],
    ]
    assert b"4711" not in response.content and b"anna@" not in response.content


def test_standings_xlsx_has_a_sheet_per_series(client: Client, played: Tournament) -> None:
    response = client.get("/turniere/herbst/export/tabelle/?format=xlsx")
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Standings", "Series 1"]
    overall = [[c.value for c in row] for row in book["Standings"].iter_rows()]
    assert overall[1] == [1, 1, "'=HYPERLINK(1) Müller", "'@Club", 1, 1, 1, 0, 0, 0]
    assert overall[3][4:6] == [-1, -1]  # numbers stay numbers, negative ones too
    series = [[c.value for c in row] for row in book["Series 1"].iter_rows()]
    assert series[0][4] == "Points" and len(series) == 5


def test_series_standings_and_unknown_format(client: Client, played: Tournament) -> None:
    rows = rows_of_csv(client.get("/turniere/herbst/serie/1/export/tabelle/").content)
    assert [r[4] for r in rows[1:]] == ["1", "1", "-1", "-1"]  # no series columns
    assert client.get("/turniere/herbst/serie/9/export/tabelle/").status_code == 404
    assert client.get("/turniere/herbst/export/tabelle/?format=pdf").status_code == 404


def test_games_csv_and_xlsx(client: Client, played: Tournament) -> None:
    rows = rows_of_csv(client.get("/turniere/herbst/export/spiele/").content)
    assert rows[0][:5] == ["Series", "Table", "Game", "Dealer", "Seat 1"]
    assert rows[0][-1] == "Record (JSON)"
    game = rows[1]
    assert game[:4] == ["1", "1", "1", "1"]
    assert game[4:9] == ["1 =HYPERLINK(1) Müller", "2 Anna Schäfer", "3 Bernd Weiß",
                         "4 Carla -Ost", ""]  # fmt: skip
    assert game[9:12] == ["Normal game", "Re", "1"]
    assert game[12:17] == ["1", "-1", "1", "-1", ""]
    record = json.loads(game[17])
    assert record["re"] == [1, 3] and record["re_points"] == 130 and record["dealer"] == 1
    book = load_workbook(
        io.BytesIO(client.get("/turniere/herbst/export/spiele/?format=xlsx").content)
    )
    cells = [c.value for c in next(book["Games"].iter_rows(min_row=2))]
    assert cells[:4] == [1, 1, 1, 1] and cells[12:16] == [1, -1, 1, -1]


def test_private_tournament_exports_are_hidden(
    client: Client, bob_client: Client, alice_client: Client, played: Tournament
) -> None:
    Tournament.objects.filter(pk=played.pk).update(is_public=False)
    for path in ("/turniere/herbst/export/tabelle/", "/turniere/herbst/export/spiele/",
                 "/turniere/herbst/serie/1/export/tabelle/"):  # fmt: skip
        assert client.get(path).status_code == 404
        assert bob_client.get(path).status_code == 404
        assert alice_client.get(path).status_code == 200


def test_archive_download_for_the_organizers_only(
    client: Client, bob_client: Client, alice_client: Client, played: Tournament
) -> None:
    response = alice_client.get("/verwaltung/herbst/archiv/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="herbst-archiv.json"'
    archive = json.loads(response.content)
    assert (archive["format"], archive["version"]) == ("doko-turnier-archive", 2)
    assert {p["ddv_number"] for p in archive["players"]} == {"", "4711"}
    assert b"anna@example.org" not in response.content  # no e-mail ever leaves
    games = archive["series"][0]["tables"][0]["games"]
    assert games == [{
        "number": 1, "dealer": 1, "record": games[0]["record"],
        "result": {"winner": "re", "value": 1, "scores": {"1": 1, "2": -1, "3": 1, "4": -1}},
    }]  # fmt: skip
    assert archive["audit"]["actions"] == {"scoring.game.created": 1}
    assert bob_client.get("/verwaltung/herbst/archiv/").status_code == 403
    assert client.get("/verwaltung/herbst/archiv/").status_code == 302  # to the login
