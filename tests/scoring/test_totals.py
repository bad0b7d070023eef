"""Running totals of a sheet: one function behind the captain's sheet and the printed list."""

from django.test import Client

from documents.results import from_scoring
from scoring.totals import TotalsRow, running_totals, seat_points
from tests.factories import make_tournament, running_table


def test_running_totals_per_seat_in_seat_order() -> None:
    rows = [{1: 2, 2: -2, 3: 2, 4: -2}, {2: -3}, {1: -1, 2: 3, 3: -1, 4: -1, 9: 50}]
    assert running_totals(rows, [1, 2, 3, 4]) == [
        TotalsRow((2, -2, 2, -2), (2, -2, 2, -2)),
        TotalsRow((0, -3, 0, 0), (2, -5, 2, -2)),  # a penalty-only row: missing seats score 0
        TotalsRow((-1, 3, -1, -1), (1, -2, 1, -3)),  # a seat outside the table is left out
    ]
    assert running_totals([], [1, 2, 3, 4]) == []


def test_seat_points_reads_stored_scores() -> None:
    assert seat_points({"1": 3, "2": "-3"}) == {1: 3, 2: -3}
    assert seat_points(None) == {}


def test_captain_sheet_and_printed_list_show_the_same_totals(db) -> None:
    table = running_table(make_tournament())
    client = Client()
    base = f"/tisch/{table.captain_token}/"
    for version, re_players, re_points in ((0, ["1", "3"], "130"), (1, ["2", "3"], "100")):
        data = {"contract": "normal", "re_players": re_players, "re_points": re_points}
        data |= {"version": str(version), "idempotency_key": f"g{version}"}
        response = client.post(base + "spiel/", data)
        assert response.status_code == 302
    page = client.get(base).context["page"]
    rows = page.rows
    assert len(rows) == 2
    assert rows[1].totals == tuple(
        a + b for a, b in zip(rows[0].points, rows[1].points, strict=True)
    )
    assert page.totals == rows[1].totals
    printed = from_scoring(table.series.tournament).tables[0].games
    assert [g.totals for g in printed] == [r.totals for r in rows]
    assert [g.points for g in printed] == [r.points for r in rows]
