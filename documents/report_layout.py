"""Page plans of the result report: final standings, the standings of every series, and
the digital Spielliste of every table. Pure Python like ``documents.layout``, whose pages,
text columns and fitting it uses: a long name, club or note takes more lines, never cut.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from documents.data import ResultsInfo, StandingRow, TableGames
from documents.layout import (
    CONTENT_W,
    MARGIN,
    Page,
    Row,
    cell,
    chunk_rows,
    chunked,
    column_text,
    row_stripes,
)
from documents.textfit import PT_MM, fit

STANDINGS_ROWS = 44  # lines per page
STANDINGS_TOP = 43.0
STANDINGS_ROW_H = 5.4
STANDINGS_PT = 9.0
GAMES_ROWS = 31  # lines of one table block; two blocks per page
GAMES_PT = 7.6


@dataclass(frozen=True, slots=True)
class TextColumn:
    key: str
    x: float
    w: float
    align: str
    number: int | None = None  # the series of a per-series column


def standings_columns(series_numbers: Sequence[int]) -> list[TextColumn]:
    """The columns of a standings page: place, start number, name, club, the points of
    every series (final standings), total. With many series the series columns narrow
    (never below what four digits need) before name and club do."""
    count = len(series_numbers)
    fixed = 12.0 + 12.0 + 18.0 + 6.0  # place, start number, total, gaps
    per_series = min(13.0, max(9.0, (CONTENT_W - fixed - 90.0) / count)) if count else 0.0
    rest = CONTENT_W - fixed - per_series * count
    name_w = round(rest * 0.6, 2) if count else 90.0
    club_w = round(rest - name_w, 2)
    columns = []
    x = MARGIN
    for key, width, align in (("place", 12.0, "right"), ("start", 12.0, "right"),
                              ("name", name_w, "left"), ("club", club_w, "left")):  # fmt: skip
        columns.append(TextColumn(key, round(x, 2), width, align))
        x += width + (2 if key in ("start", "name") else 0)
    for number in series_numbers:
        columns.append(TextColumn(f"s{number}", round(x, 2), per_series, "right", number))
        x += per_series
    columns.append(TextColumn("total", round(x + 2, 2), 16.0, "right"))
    return columns


def standings_rows(rows: Sequence[StandingRow], columns: Sequence[TextColumn]) -> list[Row]:
    """One entry per player; long names and clubs take more lines."""
    result = []
    for r in rows:
        cells = []
        for column in columns:
            if column.key == "place":
                cells.append(cell(f"{r.place}."))
            elif column.key == "start":
                cells.append(cell(r.start_number))
            elif column.key == "name":
                cells.append(cell(r.name, column.w - 1.0, STANDINGS_PT))
            elif column.key == "club":
                cells.append(cell(r.club, column.w - 1.0, STANDINGS_PT))
            elif column.key == "total":
                cells.append(cell(r.total))
            else:
                i = series_index(columns, column)
                cells.append(cell(r.series_points[i] if i < len(r.series_points) else None))
        result.append(Row(tuple(cells)))
    return result


def series_index(columns: Sequence[TextColumn], column: TextColumn) -> int:
    return [c.key for c in columns if c.number is not None].index(column.key)


def unconfirmed_note(info: ResultsInfo, series_number: int | None) -> str:
    """The footnote naming the tables closed by the organizers before their sheets were
    confirmed: of one series, or of all (final standings)."""
    tables: dict[int, list[str]] = {}
    for table in info.unconfirmed:
        if series_number in (None, table.series_number):
            tables.setdefault(table.series_number, []).append(str(table.table_number))
    if not tables:
        return ""
    parts = "; ".join(
        gettext("series %(series)d: table %(tables)s") % {"series": n, "tables": ", ".join(numbers)}
        for n, numbers in sorted(tables.items())
    )
    return gettext("* Closed by the organizers, not confirmed: %(tables)s.") % {"tables": parts}


def standings_pages(
    info: ResultsInfo,
    rows: Sequence[StandingRow],
    series_numbers: Sequence[int],
    series_number: int | None,
) -> list[Page]:
    """Final standings (``series_number`` None, a column per series) or one series'."""
    columns = standings_columns(series_numbers)
    parts = chunk_rows(standings_rows(rows, columns), STANDINGS_ROWS)
    pages = []
    for index, part in enumerate(parts):
        pages.append(
            Page(
                "standings.html",
                {
                    "info": info,
                    "series_number": series_number,
                    "columns": [
                        {
                            "key": c.key,
                            "number": c.number,
                            "x": c.x,
                            "w": c.w,
                            "align": c.align,
                            "lines": column_text(part, i),
                        }
                        for i, c in enumerate(columns)
                    ],
                    "rows": len(part),
                    "stripes": row_stripes(part, MARGIN, CONTENT_W, STANDINGS_TOP, STANDINGS_ROW_H),
                    "part": index + 1,
                    "parts": len(parts),
                    "note": unconfirmed_note(info, series_number)
                    if index == len(parts) - 1
                    else "",
                },
            )
        )
    return pages


GAMES_NUMBER_W, GAMES_VALUE_W = 10.0, 14.0
GAMES_HEAD_H = 7.0  # the names above the columns: up to three lines
GAMES_TOP, GAMES_BLOCK_H = 20.0, 136.0  # two blocks per page


@dataclass(frozen=True, slots=True)
class GamesBlock:
    table: TableGames
    rows: tuple[Row, ...]  # number, value, note, then points and total per seat
    continued: bool


def _games_geometry(seats: int) -> tuple[float, float]:
    """Width of a player's column (points and running total) and of the note column."""
    seat_w = 26.0 if seats <= 4 else 24.0
    note_w = CONTENT_W - GAMES_NUMBER_W - GAMES_VALUE_W - seats * seat_w
    return seat_w, note_w


def games_rows(table: TableGames) -> list[Row]:
    """The table's games, a line each; a long note (a penalty with its reason) takes more."""
    _, note_w = _games_geometry(len(table.names))
    rows = []
    for g in table.games:
        number = "" if g.number is None else ("P" if g.compulsory else "") + str(g.number)
        cells = [cell(number), cell(g.value), cell(g.note, note_w - 2.5, GAMES_PT)]
        for i in range(len(table.names)):
            cells.append(cell(g.points[i] if i < len(g.points) else ""))
            cells.append(cell(g.totals[i] if i < len(g.totals) else ""))
        rows.append(Row(tuple(cells)))
    return rows


def _games_block_context(block: GamesBlock, y: float) -> dict[str, Any]:
    names = block.table.names
    seat_w, note_w = _games_geometry(len(names))
    rows = block.rows
    heads = [
        fit(name, seat_w - 2, GAMES_PT, bold=True, max_lines=3, height_mm=GAMES_HEAD_H)
        for name in names
    ]
    # the names' head is as tall as its tallest name (at most GAMES_HEAD_H)
    head_h = max((len(h.lines) * h.size * h.leading * PT_MM for h in heads), default=0.0)
    seats = [
        {
            "name": name,
            "head": head,
            "x": round(MARGIN + GAMES_NUMBER_W + i * seat_w, 2),
            "w": round(seat_w, 2),
            "total_w": round(seat_w - 3, 2),
            "points": column_text(rows, 3 + 2 * i),
            "totals": column_text(rows, 4 + 2 * i),
        }
        for i, (name, head) in enumerate(zip(names, heads, strict=True))
    ]
    value_x = MARGIN + GAMES_NUMBER_W + len(names) * seat_w
    return {
        "block": block,
        "y": y,
        "head_y": y + 5.5,
        "rows_y": round(y + 5.5 + min(max(head_h, 3.5), GAMES_HEAD_H) + 1.0, 2),
        "seats": seats,
        "numbers": column_text(rows, 0),
        "values": column_text(rows, 1),
        "notes": column_text(rows, 2),
        "value_x": round(value_x, 2),
        "note_x": round(value_x + GAMES_VALUE_W, 2),
        "note_w": round(note_w, 2),
        "rows": len(rows),
    }


def games_pages(info: ResultsInfo) -> list[Page]:
    blocks = [
        GamesBlock(table, tuple(part), i > 0)
        for table in info.tables
        for i, part in enumerate(chunk_rows(games_rows(table), GAMES_ROWS))
    ]
    pages = []
    for pair in chunked(blocks, 2):
        pages.append(
            Page(
                "table_games.html",
                {
                    "info": info,
                    "blocks": [
                        _games_block_context(b, GAMES_TOP + i * GAMES_BLOCK_H)
                        for i, b in enumerate(pair)
                    ],
                },
            )
        )
    return pages


def statistics_pages(info: ResultsInfo) -> list[Page]:
    """One page: the games' figures and two charts (none before the first game)."""
    if info.statistics is None:
        return []
    charts = [
        {
            "title": title,
            "uri": "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode(),
            "x": (210 - width) / 2,
            "y": y,
            "img_y": y + 5,
            "w": width,
        }
        # the running totals are taller (a line per name below them): drawn narrower
        for (title, svg), (y, width) in zip(
            info.statistics.charts, ((93, 105.0), (194, 130.0)), strict=False
        )
    ]
    figures = [
        {"label": label, "value": value, "y": round(38 + i * 5.6, 2)}
        for i, (label, value) in enumerate(info.statistics.figures)
    ]
    return [Page("statistics.html", {"info": info, "figures": figures, "charts": charts})]


#: The list of rulings: rows a page, the first row's top and a row's height (mm).
RULINGS_ROWS = 20
RULINGS_TOP = 40.0
RULINGS_ROW_H = 12.0


def rulings_pages(info: ResultsInfo) -> list[Page]:
    """The referees' rulings (TSR 8.5.1: with the Nachspielzeit granted), none without."""
    parts = list(chunked(list(info.rulings), RULINGS_ROWS))
    return [
        Page(
            "rulings.html",
            {
                "info": info,
                "page": index + 1,
                "pages": len(parts),
                "head_y": RULINGS_TOP - 6,
                "rows": [
                    {"r": row, "y": round(RULINGS_TOP + i * RULINGS_ROW_H, 2)}
                    for i, row in enumerate(part)
                ],
            },
        )
        for index, part in enumerate(parts)
        if part
    ]


def results_pages(info: ResultsInfo) -> list[Page]:
    """Final standings, the statistics, standings per series, the referees' rulings, then
    the digital Spielliste of every table."""
    pages = standings_pages(info, info.final, info.series_numbers, None)
    pages += statistics_pages(info)
    for series in info.series:
        pages += standings_pages(info, series.rows, (), series.number)
    pages += rulings_pages(info)
    pages += games_pages(info)
    return pages
