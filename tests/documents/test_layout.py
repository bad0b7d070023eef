"""Page plans and geometry: pure, no database, no rendering."""

from __future__ import annotations

import datetime as dt

from documents.data import SeatInfo, SeriesInfo, TableInfo, fingerprint
from documents.layout import (
    ALPHA_COLUMNS,
    ALPHA_ROWS,
    SHEET_BOTTOM_LIMIT,
    TABLE_ROWS,
    TABLES_PER_ROW,
    Row,
    balanced_columns,
    print_pack_pages,
    seating_pages,
    sheet_geometry,
)


def _series(tables: int, size: int = 4) -> SeriesInfo:
    return SeriesInfo(
        tournament_name="T",
        tournament_slug="t",
        venue="",
        series_number=1,
        date=dt.date(2026, 1, 1),
        starts_at=None,
        playing_minutes_4=100,
        playing_minutes_5=125,
        tables=tuple(
            TableInfo(
                number=n,
                entry_url=f"http://x/tisch/{n}/",
                seats=tuple(SeatInfo(p, "F", f"L{n}-{p}", n * 10 + p) for p in range(1, size + 1)),
                normal_games=20 if size == 4 else 25,
            )
            for n in range(1, tables + 1)
        ),
    )


def test_sheet_has_normal_rows_solo_rubric_and_fits_the_page() -> None:
    for players, games in ((4, 20), (5, 25)):
        g = sheet_geometry(players, games)
        assert g.normal_games == games
        assert g.solo_rows == players
        assert len(g.player_columns) == players
        assert g.bottom <= SHEET_BOTTOM_LIMIT + 0.01
        assert g.row_h >= 5.5  # room to write a number by hand
        assert g.right <= 200.01


def test_dealer_and_list_keeper() -> None:
    four = _series(1, 4).tables[0]
    five = _series(1, 5).tables[0]
    assert four.dealer.position == 1 and four.keeper.position == 4
    assert five.dealer.position == 1 and five.keeper.position == 5


def test_print_pack_page_count() -> None:
    info = _series(250)
    pages = print_pack_pages(info)
    alpha = -(-1000 // (ALPHA_ROWS * ALPHA_COLUMNS))
    by_table = -(-250 // (TABLES_PER_ROW * TABLE_ROWS))
    assert len(pages) == alpha + by_table + 2 * 250
    assert [p.template for p in pages].count("score_sheet.html") == 250
    assert [p.template for p in pages].count("table_card.html") == 250


def _names_per_column(players: int) -> list[list[int]]:
    """Lines per column on each alphabetical page of a field of ``players`` (fours)."""
    info = _series(players // 4)
    return [
        [column["names"].count("\n") + 1 for column in page.context["columns"]]
        for page in seating_pages(info)
        if page.template == "seating_alpha.html"
    ]


def test_the_alphabetical_columns_are_balanced() -> None:
    """37 names were 36 in one column and 1 in the other; now each page's columns differ by
    one line at most, and full pages stay full."""
    assert _names_per_column(40) == [[20, 20]]
    assert _names_per_column(36) == [[18, 18]]
    assert _names_per_column(8) == [[4, 4]]
    assert _names_per_column(4 * 19) == [[36, 36], [2, 2]]


def test_balanced_columns_keep_entries_whole() -> None:
    rows = [Row((("a",) * h,)) for h in (1, 2, 1, 2, 1, 1, 2)]  # 10 lines
    columns = balanced_columns(rows, 2, 36)
    assert [sum(r.height for r in c) for c in columns] == [6, 4]
    assert [r for c in columns for r in c] == rows
    assert balanced_columns([], 2, 36) == [[]]
    # Never past the page's capacity, even if the columns come out uneven.
    tall = [Row((("a",) * 3,)) for _ in range(4)]  # 12 lines, entries of three
    assert [len(c) for c in balanced_columns(tall, 2, 6)] == [2, 2]


def test_fingerprint_changes_with_a_seat() -> None:
    info = _series(2)
    swapped = SeriesInfo(
        **{**{f: getattr(info, f) for f in info.__dataclass_fields__}, "tables": info.tables[::-1]}
    )
    assert fingerprint(info) == fingerprint(_series(2))
    assert fingerprint(info) != fingerprint(swapped)
