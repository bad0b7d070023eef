"""Making texts fit their boxes: measured, broken into lines or set smaller, never cut.
Pure: no database, no rendering."""

from __future__ import annotations

import datetime as dt

import pytest

from documents import textfit
from documents.data import GameRow, ResultsInfo, SeatInfo, SeriesInfo, StandingRow, TableGames
from documents.layout import (
    ALPHA_NAME_W,
    ALPHA_PT,
    ALPHA_ROWS,
    Row,
    chunk_rows,
    column_text,
    print_pack_pages,
    row_stripes,
)
from documents.report_layout import games_pages, standings_columns, standings_pages
from documents.textfit import fit, text_width, wrap

LONG_NAME = "Müller-Lüdenscheidt, Klaus-Dieter"
LONG_CLUB = "Doko-Club Testhausen-Niederrheinische Tiefebene e.V."


def _joined(lines: list[str] | tuple[str, ...]) -> str:
    """Lines read as one text again (a line broken after a hyphen joins without a space)."""
    text = ""
    for line in lines:
        text += line if not text or text.endswith(("-", "/")) else " " + line
    return text


def test_widths_grow_with_text_size_and_weight() -> None:
    assert text_width("", 9) == 0
    assert text_width("Müller", 9) < text_width("Müller-Lüdenscheidt", 9)
    assert text_width(LONG_NAME, 9) < text_width(LONG_NAME, 11)
    assert text_width(LONG_NAME, 9) < text_width(LONG_NAME, 9, bold=True)
    assert text_width("ABC", 9) < text_width("ABC", 9, tracking=0.12)


def test_without_the_font_every_letter_counts_wide(monkeypatch) -> None:
    measured = text_width(LONG_NAME, 10)
    monkeypatch.setattr(textfit, "_advances", lambda bold: None)
    textfit._em.cache_clear()
    try:
        assert text_width(LONG_NAME, 10) > measured  # on the safe side
    finally:
        textfit._em.cache_clear()


@pytest.mark.parametrize("text", [LONG_NAME, LONG_CLUB, "von Hohenzollern-Sigmaringen, Anna"])
@pytest.mark.parametrize("width", [20.0, 35.0, 60.0])
def test_wrap_keeps_every_letter_and_each_line_fits(text: str, width: float) -> None:
    lines = wrap(text, width, 9)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(text_width(line, 9) <= width for line in lines)
    if width >= 35:  # wide enough for every word: broken at spaces and hyphens only
        assert _joined(lines) == text


def test_wrap_prefers_spaces_to_hyphens() -> None:
    assert wrap(LONG_NAME, ALPHA_NAME_W, ALPHA_PT) == ["Müller-Lüdenscheidt,", "Klaus-Dieter"]
    # hyphens where a word alone is too wide, never inside "-3"
    lines = wrap("Strafpunkte: Müller-Lüdenscheidt -3", 25, 9)
    assert "Müller-" in lines and "-3" in " ".join(lines).split()


def test_a_word_wider_than_the_line_is_cut_between_letters_not_dropped() -> None:
    word = "Donaudampfschifffahrtsgesellschaftskapitän"
    lines = wrap(word, 20, 9)
    assert len(lines) > 1 and "".join(lines) == word


def test_fit_leaves_short_texts_alone() -> None:
    result = fit("Anna Albers", 40, 9)
    assert result == textfit.Fit(("Anna Albers",), 9, False)
    assert result.style == ""


def test_fit_shrinks_a_little_then_breaks_into_lines() -> None:
    width = text_width(LONG_NAME, 10) * 0.95
    slightly = fit(LONG_NAME, width, 10)
    assert slightly.lines == (LONG_NAME,) and 9 <= slightly.size < 10
    assert "font-size:" in slightly.style and "line-height" not in slightly.style
    two = fit(LONG_NAME, 40, 10, height_mm=9)
    assert len(two.lines) == 2 and _joined(two.lines) == LONG_NAME
    assert all(text_width(line, two.size) <= 40 for line in two.lines)
    assert two.size * two.leading * textfit.PT_MM * 2 <= 9 + 1e-6
    assert "line-height:" in two.style


def test_fit_one_line_only_shrinks_as_far_as_needed() -> None:
    result = fit(LONG_CLUB, 30, 9, max_lines=1)
    assert result.lines == (LONG_CLUB,) and text_width(LONG_CLUB, result.size) <= 30


def test_rows_take_the_lines_of_their_tallest_cell() -> None:
    rows = [Row((("A",), ("1",))), Row((("B", "b"), ("2",))), Row((("C",), ("3",)))]
    assert column_text(rows, 0) == "A\nB\nb\nC"
    assert column_text(rows, 1) == "1\n2\n\n3"
    assert [len(run) for run in chunk_rows(rows, 3)] == [2, 1]
    assert chunk_rows([], 3) == [[]]
    # every second entry shaded, over all its lines
    assert row_stripes(rows, 10, 50, 40, 5) == ((10, 45, 50, 10),)


def _series(first: str, last: str) -> SeriesInfo:
    seats = tuple(SeatInfo(p, first if p == 1 else "F", last if p == 1 else f"L{p}", p)
                  for p in range(1, 5))  # fmt: skip
    return SeriesInfo(
        tournament_name="T", tournament_slug="t", venue="", series_number=1,
        date=dt.date(2026, 1, 1), starts_at=None, playing_minutes_4=100, playing_minutes_5=125,
        tables=(textfit_table(seats),),
    )  # fmt: skip


def textfit_table(seats):
    from documents.data import TableInfo

    return TableInfo(number=1, entry_url="http://x/t/1/", seats=seats, normal_games=20)


def test_print_pack_plans_long_names_in_full() -> None:
    pages = print_pack_pages(_series("Klaus-Dieter", "Müller-Lüdenscheidt"))
    # The seating list's columns are balanced by lines: the long name is in one of them.
    (alpha,) = [c for c in pages[0].context["columns"] if "Müller-Lüdenscheidt" in c["names"]]
    assert "Müller-Lüdenscheidt,\nKlaus-Dieter" in alpha["names"]
    wrapped = alpha["names"].split("\n").index("Müller-Lüdenscheidt,")
    # the table number beside the name's first line, nothing beside its wrap
    assert alpha["tables"].split("\n")[wrapped : wrapped + 2] == ["1", ""]
    card = next(p for p in pages if p.template == "table_card.html")
    (line,) = card.context["fitted"]
    assert _joined(line.fit.lines) == "Klaus-Dieter Müller-Lüdenscheidt"
    sheet = next(p for p in pages if p.template == "score_sheet.html")
    head = sheet.context["cells"][0]["fit"]
    assert _joined(head.lines) == "Klaus-Dieter Müller-Lüdenscheidt"


def test_standings_break_long_names_and_clubs_into_lines() -> None:
    rows = [
        StandingRow(1, "Anna Albers", 1, "", 10, (10,)),
        StandingRow(2, "Klaus-Dieter Müller-Lüdenscheidt", 2, LONG_CLUB, 5, (5,)),
    ]
    info = ResultsInfo("T", "t", "", dt.date(2026, 1, 1), (1,), (), tuple(rows), ())
    (page,) = standings_pages(info, rows, (1,), None)
    columns = {c["key"]: c for c in page.context["columns"]}
    club = columns["club"]["lines"].split("\n")
    assert club[0] == "" and _joined(club[1:]) == LONG_CLUB
    assert columns["total"]["lines"].split("\n")[:2] == ["10", "5"]
    assert len(page.context["stripes"]) == 1  # the second entry, all its lines


def test_many_series_leave_room_for_name_and_club() -> None:
    columns = {c.key: c for c in standings_columns(range(1, 9))}
    assert columns["name"].w >= 35 and columns["club"].w >= 25
    assert columns["total"].x + columns["total"].w <= 200.01


def test_archive_notes_take_more_lines_instead_of_being_cut() -> None:
    note = "Penalty points: Klaus-Dieter Müller-Lüdenscheidt -3 (Karte vorzeitig ausgespielt)"
    games = (
        GameRow(1, False, 2, (2, -2, 2, -2), (2, -2, 2, -2), note),
        GameRow(2, False, 1, (1, -1, 1, -1), (3, -3, 3, -3), "Stille Hochzeit"),
    )
    table = TableGames(1, 1, ("A", "B", "C", "D"), games)
    info = ResultsInfo("T", "t", "", dt.date(2026, 1, 1), (1,), (), (), (table,))
    (page,) = games_pages(info)
    (block,) = page.context["blocks"]
    notes = block["notes"].split("\n")
    assert notes[-1] == "Stille Hochzeit"
    assert _joined(notes[:-1]) == note
    numbers = block["numbers"].split("\n")
    assert numbers[0] == "1" and numbers[len(notes) - 1] == "2"


def test_archive_rows_count_lines_per_block() -> None:
    games = tuple(GameRow(n, False, 1, (1, -1, 1, -1), (n, -n, n, -n)) for n in range(1, 41))
    table = TableGames(1, 1, ("A", "B", "C", "D"), games)
    info = ResultsInfo("T", "t", "", dt.date(2026, 1, 1), (1,), (), (), (table,))
    (page,) = games_pages(info)
    assert [b["rows"] for b in page.context["blocks"]] == [31, 9]
    assert ALPHA_ROWS == 36
