"""Closing a series with sheets that were never confirmed: named, asked for, and marked
wherever results are shown."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from documents.results import load_results
from scoring import doors
from scoring.models import AuditEntry, ScoreSheet
from scoring.services.closing import close_series, unfinished_sheets
from scoring.services.entry import save_game
from scoring.services.sheet import confirm_sheet, submit_sheet
from tests.factories import RE_WINS as NORMAL
from tests.factories import build_world, make_tournament, page_client
from tournaments.models import Seat, Series, Table

CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="phone-4")
FORCED = [{"contract": "solo", "solo": "damen", "re": [s], "re_points": 121} for s in (2, 3, 4, 1)]


def load(table: Table) -> Table:
    return Table.objects.select_related("series__tournament").get(pk=table.pk)


@pytest.fixture
def world(alice: User):
    """Alice's series 1 with three tables: 1 confirmed, 2 submitted, 3 open with one game."""
    tournament = make_tournament(slug="close", organizers=[alice])
    tables = build_world(tournament, (4, 4, 4)).tables
    for table in tables[:2]:
        for facts in [NORMAL] * 20 + FORCED:
            save_game(load(table), facts, actor=CAPTAIN)
        submit_sheet(load(table), seat=4, expected_version=24, actor=CAPTAIN)
    confirm_sheet(load(tables[0]), seat=1, actor=Actor(doors.CAPTAIN, seat=1, device="phone-1"))
    save_game(load(tables[2]), NORMAL, actor=CAPTAIN)
    return tournament, alice, tables


def series_of(tournament) -> Series:
    return tournament.series.get(number=1)


def test_unfinished_sheets_are_named_and_refuse_the_close(world) -> None:
    tournament, organizer, _tables = world
    series = series_of(tournament)
    assert [(u.table, u.status) for u in unfinished_sheets(series)] == [
        (2, "submitted"),
        (3, "open"),
    ]
    with pytest.raises(ServiceError) as info:
        close_series(series, actor=Actor(ORGANIZER, user=organizer))
    assert info.value.code == "unconfirmed_sheets" and info.value.refusal is Refusal.CONFLICT
    assert info.value.data["tables"] == [
        {"table": 2, "status": "submitted"},
        {"table": 3, "status": "open"},
    ]
    assert series_of(tournament).status == "running"
    assert not ScoreSheet.objects.filter(closed_unconfirmed=True).exists()


def test_closing_past_them_marks_them_everywhere(world) -> None:
    tournament, organizer, tables = world
    versions = dict(ScoreSheet.objects.values_list("table_id", "version"))
    close_series(series_of(tournament), actor=Actor(ORGANIZER, user=organizer),
                 past_unfinished=True)  # fmt: skip
    assert series_of(tournament).status == "closed"
    marked = ScoreSheet.objects.filter(closed_unconfirmed=True)
    assert sorted(marked.values_list("table__number", flat=True)) == [2, 3]
    for sheet in ScoreSheet.objects.all():  # every version moved on under the lock
        assert sheet.version == versions[sheet.table_id] + 1
    audit = AuditEntry.objects.filter(action="scoring.sheet.closed_unconfirmed")
    assert sorted(audit.values_list("table__number", flat=True)) == [2, 3]
    assert {e.user for e in audit} == {organizer}
    # A captain who still holds the old version is refused.
    with pytest.raises(ServiceError):
        save_game(load(tables[2]), NORMAL, expected_version=versions[tables[2].pk], actor=CAPTAIN)

    client = page_client(organizer)
    board = client.get("/verwaltung/close/serie/1/fortschritt/").content.decode()
    assert board.count("von der Turnierleitung abgeschlossen, nicht bestätigt") == 2
    standings = client.get("/turniere/close/tabelle/").content.decode()
    assert "Serie 1 Tisch 2, Serie 1 Tisch 3" in standings
    # Not only a footnote: the line of every player of those tables is marked, in the
    # standings and on the hall's screen.
    seated = set(Seat.objects.filter(table__in=tables[1:3]).values_list("registration", flat=True))
    assert standings.count('<tr class="row-unconfirmed">') == len(seated) > 0
    assert standings.count("* Liste nicht bestätigt") == len(seated)
    hall = client.get("/turniere/close/halle/?view=standings").content.decode()
    assert hall.count('<tr class="row-unconfirmed">') == len(seated)
    assert "Liste nicht bestätigt" in hall
    results = load_results(tournament)
    assert [t.table_number for t in results.unconfirmed] == [2, 3]


def test_close_page_asks_explicitly(world) -> None:
    tournament, organizer, _tables = world
    client = page_client(organizer)
    page = client.get("/verwaltung/close/serie/1/abschliessen/").content.decode()
    assert "Tisch 2 (abgegeben, nicht bestätigt)" in page
    assert "Tisch 3 (nicht abgegeben)" in page and 'name="past_unfinished"' in page
    refused = client.post("/verwaltung/close/serie/1/abschliessen/", follow=True)
    assert series_of(tournament).status == "running"
    assert "flash-error" in refused.content.decode()
    client.post("/verwaltung/close/serie/1/abschliessen/", {"past_unfinished": "on"})
    assert series_of(tournament).status == "closed"


def test_close_page_is_for_organizers(world, bob_client: Client) -> None:
    tournament, _organizer, _tables = world
    assert bob_client.post("/verwaltung/close/serie/1/abschliessen/",
                           {"past_unfinished": "on"}).status_code == 403  # fmt: skip
    assert series_of(tournament).status == "running"
