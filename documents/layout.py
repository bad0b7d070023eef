"""Page plans: which page templates a document consists of, with what geometry and data.

Pure Python. Every page is one fixed-size A4 sheet whose boxes are positioned in millimetres
computed here, so the renderer never has to flow content across pages: the page count is
known before rendering (for the progress bar) and any run of pages can be rendered on its
own (for parallel rendering).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext

from documents.data import (
    GameRow,
    ResultsInfo,
    SeatInfo,
    SeriesInfo,
    StandingRow,
    TableGames,
    TableInfo,
)

PAGE_W = 210.0
PAGE_H = 297.0
MARGIN = 10.0
CONTENT_W = PAGE_W - 2 * MARGIN

# A layout version: part of every fingerprint, bump it when templates or geometry change.
LAYOUT_VERSION = "4"


FULL = "full"
STATIC = "static"
VARIABLE = "variable"


@dataclass(frozen=True, slots=True)
class Page:
    """One A4 sheet: a template below templates/documents/print/ and its context.

    Pages that repeat one design many times (score sheets, table cards) are split in two
    layers rendered by the same template: ``layer`` VARIABLE pages hold only what differs per
    table and name their ``underlay``, a STATIC page with everything that is the same on every
    sheet of that shape. A static page is rendered once per document and drawn under each of
    its variable pages as one shared PDF form. FULL pages are rendered whole.
    """

    template: str
    context: dict[str, Any] = field(hash=False, compare=False)
    layer: str = FULL
    underlay: Page | None = None
    key: str = ""  # static pages: their identity within a document (template and shape)
    mirror: bool = False  # drawn twice: as laid out and turned 180° (a folded table card)

    @property
    def draws_static(self) -> bool:
        return self.layer != VARIABLE

    @property
    def draws_variable(self) -> bool:
        return self.layer != STATIC


def static_layers(pages: Sequence[Page]) -> list[Page]:
    """The distinct static pages under ``pages``, in order of first use."""
    seen: dict[str, Page] = {}
    for page in pages:
        if page.underlay is not None:
            seen.setdefault(page.underlay.key, page.underlay)
    return list(seen.values())


@dataclass(frozen=True, slots=True)
class Placement:
    """How a rendered page is finished when the document is joined: the index of the static
    layer drawn under it (None: none), and whether its own content is drawn a second time
    turned 180° about the centre of the sheet."""

    underlay: int | None = None
    mirror: bool = False


def placements(pages: Sequence[Page], layers: Sequence[Page]) -> list[Placement]:
    """Page by page, how to finish it; ``layers`` as returned by ``static_layers``."""
    index = {layer.key: i for i, layer in enumerate(layers)}
    return [
        Placement(None if p.underlay is None else index[p.underlay.key], p.mirror) for p in pages
    ]


# --- score sheet ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Column:
    x: float
    w: float


@dataclass(frozen=True, slots=True)
class SheetGeometry:
    """Where the ruling of a score sheet goes; one per table shape."""

    players: int
    normal_games: int
    solo_rows: int
    top: float
    header_h: float
    row_h: float
    rubric_h: float
    number: Column
    player_columns: tuple[Column, ...]
    value: Column
    marks: Column

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.players, self.normal_games, self.solo_rows)

    @property
    def normal_top(self) -> float:
        return self.top + self.header_h

    @property
    def rubric_top(self) -> float:
        return self.normal_top + self.normal_games * self.row_h

    @property
    def solo_top(self) -> float:
        return self.rubric_top + self.rubric_h

    @property
    def sum_top(self) -> float:
        return self.solo_top + self.solo_rows * self.row_h

    @property
    def bottom(self) -> float:
        return self.sum_top + self.row_h

    @property
    def left(self) -> float:
        return self.number.x

    @property
    def right(self) -> float:
        return self.marks.x + self.marks.w

    def ruling(self) -> dict[str, Any]:
        """The grid as SVG path data in page millimetres: ``fill`` (shaded cells: header, solo
        rubric, soloist cells, sum row) and ``strokes`` (stroke width, path), one path per
        line weight, so WeasyPrint draws a handful of SVG elements per page."""
        left, right, width = self.left, self.right, self.right - self.left

        def rect(x: float, y: float, w: float, h: float) -> str:
            return f"M{x:.2f} {y:.2f}h{w:.2f}v{h:.2f}h{-w:.2f}z"

        fills = [
            rect(left, self.top, width, self.header_h),
            rect(left, self.rubric_top, width, self.rubric_h),
            rect(left, self.sum_top, width, self.row_h),
        ]
        per_player = max(self.solo_rows // self.players, 1)
        for i in range(self.solo_rows):  # the soloist's cell of each compulsory-solo row
            column = self.player_columns[min(i // per_player, self.players - 1)]
            fills.append(rect(column.x, self.solo_top + i * self.row_h, column.w, self.row_h))
        weights: dict[float, list[str]] = {}

        def hline(y: float, weight: float) -> None:
            weights.setdefault(weight, []).append(f"M{left:.2f} {y:.2f}H{right:.2f}")

        def vline(x: float, y1: float, y2: float, weight: float) -> None:
            weights.setdefault(weight, []).append(f"M{x:.2f} {y1:.2f}V{y2:.2f}")

        for i in range(1, self.normal_games):
            hline(self.normal_top + i * self.row_h, 0.3 if i % 5 == 0 else 0.12)
        for i in range(1, self.solo_rows):
            hline(self.solo_top + i * self.row_h, 0.12)
        for y in (self.top, self.normal_top, self.rubric_top, self.solo_top, self.sum_top):
            hline(y, 0.45)
        hline(self.bottom, 0.6)
        heavy = (self.player_columns[0].x, self.value.x)
        for column in (*self.player_columns, self.value, self.marks):
            weight = 0.45 if column.x in heavy else 0.25
            vline(column.x, self.top, self.rubric_top, weight)
            vline(column.x, self.solo_top, self.bottom, weight)
        for x in (left, right):
            vline(x, self.top, self.bottom, 0.6)
        return {
            "fill": "".join(fills),
            "strokes": [(weight, "".join(parts)) for weight, parts in sorted(weights.items())],
        }

    @property
    def normal_numbers(self) -> str:
        return "\n".join(str(i) for i in range(1, self.normal_games + 1))


# The table number's box inside its frame: frame top 29 + border 0.6 + padding 1.5, then the
# label's line (7pt x 1.25 = 8.75pt = 3.087mm); see .tableno in print.css.
TABLENO_TOP = round(29.0 + 0.6 + 1.5 + 8.75 * 25.4 / 72, 3)
# A player's name in the column head: below the head's top padding (1mm) and its first line
# ("Seat n", 7.5pt x 1.35); see .colhead in print.css.
COLHEAD_NAME_OFFSET = round(1.0 + 7.5 * 1.35 * 25.4 / 72, 3)
SHEET_TOP = 57.0
SHEET_BOTTOM_LIMIT = 252.0  # the checks and signatures below need the rest of the page


@lru_cache(maxsize=32)
def sheet_geometry(players: int, normal_games: int, solos_per_player: int = 1) -> SheetGeometry:
    players = max(players, 1)
    solo_rows = players * solos_per_player
    header_h, rubric_h = 11.0, 6.0
    rows = normal_games + solo_rows + 1  # + the sum row
    row_h = min(7.5, (SHEET_BOTTOM_LIMIT - SHEET_TOP - header_h - rubric_h) / rows)
    number_w, value_w, marks_w = 9.0, 18.0, 22.0
    player_w = (CONTENT_W - number_w - value_w - marks_w) / players
    x = MARGIN + number_w
    columns = []
    for _ in range(players):
        columns.append(Column(round(x, 2), round(player_w, 2)))
        x += player_w
    return SheetGeometry(
        players=players,
        normal_games=normal_games,
        solo_rows=solo_rows,
        top=SHEET_TOP,
        header_h=header_h,
        row_h=round(row_h, 3),
        rubric_h=rubric_h,
        number=Column(MARGIN, number_w),
        player_columns=tuple(columns),
        value=Column(round(x, 2), value_w),
        marks=Column(round(x + value_w, 2), marks_w),
    )


def _sheet_frame(info: SeriesInfo, players: int, normal_games: int, solos: int) -> dict[str, Any]:
    """Geometry and the per-shape parts of a score sheet, shared by both layers."""
    geometry = sheet_geometry(players, normal_games, solos)
    signature_w = CONTENT_W / (players + 1)
    return {
        "info": info,
        "size": players,
        "minutes": info.minutes_for(players),
        "g": geometry,
        "signature_xs": [round(MARGIN + i * signature_w, 2) for i in range(players)],
        "signature_w": round(signature_w - 4, 2),
        "referee_x": round(MARGIN + players * signature_w, 2),
        "footer_top": round(geometry.bottom + 3, 2),
        "sign_top": round(geometry.bottom + 25, 2),
        "note_top": round(geometry.bottom + 29.5, 2),
        "tableno_top": TABLENO_TOP,
        "colhead_name_top": round(geometry.top + COLHEAD_NAME_OFFSET, 3),
    }


def score_sheet_static(info: SeriesInfo, players: int, normal_games: int, solos: int) -> Page:
    """Everything on a score sheet that is the same at every table of this shape: grid, row
    numbers, headings, the series header, checks and signature lines."""
    frame = _sheet_frame(info, players, normal_games, solos)
    g = frame["g"]
    return Page(
        "score_sheet.html",
        {
            **frame,
            "cells": [
                {"position": i + 1, "column": column} for i, column in enumerate(g.player_columns)
            ],
            "solo_labels": "\n".join(
                f"P{position}" for position in range(1, players + 1) for _ in range(solos)
            ),
            "seat_numbers": "\n".join(str(position) for position in range(1, players + 1)),
            "signatures": [{"x": x} for x in frame["signature_xs"]],
        },
        layer=STATIC,
        key=f"score_sheet:{players}:{normal_games}:{solos}",
    )


def score_sheet_page(info: SeriesInfo, table: TableInfo, underlay: Page | None = None) -> Page:
    """The variable layer of a table's score sheet: table number, names, code and link."""
    shape = (table.size, table.normal_games, table.compulsory_solos)
    underlay = underlay or score_sheet_static(info, *shape)
    frame = _sheet_frame(info, *shape)
    columns = frame["g"].player_columns
    return Page(
        "score_sheet.html",
        {
            **frame,
            "table": table,
            "cells": [
                {"seat": seat, "column": column}
                for seat, column in zip(table.seats, columns, strict=False)
            ],
            "signatures": [
                {"seat": seat, "x": x}
                for seat, x in zip(table.seats, frame["signature_xs"], strict=False)
            ],
        },
        layer=VARIABLE,
        underlay=underlay,
    )


# --- table card and seating lists ------------------------------------------------------------


def table_card_static(info: SeriesInfo, size: int) -> Page:
    """Series line, labels and fold of a table card for tables of ``size`` players."""
    return Page(
        "table_card.html",
        {"info": info, "size": size},
        layer=STATIC,
        key=f"table_card:{size}",
    )


def table_card_page(info: SeriesInfo, table: TableInfo, underlay: Page | None = None) -> Page:
    """The variable layer of a table card: number, names with seats, the code. Only the lower
    half is laid out; the upper half of the tent is the same content turned 180° about the
    centre of the sheet, which the joined PDF draws from the same page content."""
    return Page(
        "table_card.html",
        {"info": info, "size": table.size, "table": table, "mirrored": True},
        layer=VARIABLE,
        underlay=underlay or table_card_static(info, table.size),
        mirror=True,
    )


@dataclass(frozen=True, slots=True)
class SeatingLine:
    name: str
    table: int
    seat: int


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def chunked(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


ALPHA_ROWS = 36  # lines per column of the alphabetical seating list
ALPHA_TOP = 43.0
ALPHA_ROW_H = 6.6
ALPHA_COLUMNS = 2
TABLES_PER_ROW = 3
TABLE_BOX_H = 32.0
TABLE_ROWS = 7


def seating_pages(info: SeriesInfo) -> list[Page]:
    seated: list[tuple[SeatInfo, TableInfo]] = [(s, t) for t in info.tables for s in t.seats]
    seated.sort(key=lambda pair: (*pair[0].sort_key, pair[1].number))
    lines = [
        SeatingLine(_clip(f"{s.last_name}, {s.first_name}", 34), t.number, s.position)
        for s, t in seated
    ]
    per_page = ALPHA_ROWS * ALPHA_COLUMNS
    alpha = list(chunked(lines, per_page)) or [[]]
    tables = list(chunked(info.tables, TABLES_PER_ROW * TABLE_ROWS)) or [()]
    total = len(alpha) + len(tables)
    pages = []
    for index, page_lines in enumerate(alpha):
        columns = []
        for c, column in enumerate(chunked(page_lines, ALPHA_ROWS)):
            columns.append(
                {
                    "x": MARGIN + c * (CONTENT_W / ALPHA_COLUMNS + 2),
                    "names": "\n".join(line.name for line in column),
                    "tables": "\n".join(str(line.table) for line in column),
                    "seats": "\n".join(str(line.seat) for line in column),
                    "rows": len(column),
                }
            )
        pages.append(
            Page(
                "seating_alpha.html",
                {"info": info, "columns": columns, "page": index + 1, "pages": total},
            )
        )
    box_w = (CONTENT_W - (TABLES_PER_ROW - 1) * 4) / TABLES_PER_ROW
    for index, page_tables in enumerate(tables):
        boxes = [
            {
                "table": table,
                "x": round(MARGIN + (i % TABLES_PER_ROW) * (box_w + 4), 2),
                "y": round(36 + (i // TABLES_PER_ROW) * (TABLE_BOX_H + 4), 2),
                "names": "\n".join(_clip(s.name, 30) for s in table.seats),
                "positions": "\n".join(str(s.position) for s in table.seats),
            }
            for i, table in enumerate(page_tables)
        ]
        pages.append(
            Page(
                "seating_tables.html",
                {
                    "info": info,
                    "boxes": boxes,
                    "box_w": round(box_w, 2),
                    "names_w": round(box_w - 11, 2),
                    "page": len(alpha) + index + 1,
                    "pages": total,
                },
            )
        )
    return pages


def print_pack_pages(info: SeriesInfo) -> list[Page]:
    """Seating list, then a table card per table, then a score sheet per table. Cards and
    sheets are variable layers over one static page per shape."""
    cards: dict[int, Page] = {}
    sheets: dict[tuple[int, int, int], Page] = {}
    pages = seating_pages(info)
    for table in info.tables:
        card = cards.get(table.size) or cards.setdefault(
            table.size, table_card_static(info, table.size)
        )
        pages.append(table_card_page(info, table, card))
    for table in info.tables:
        shape = (table.size, table.normal_games, table.compulsory_solos)
        sheet = sheets.get(shape) or sheets.setdefault(shape, score_sheet_static(info, *shape))
        pages.append(score_sheet_page(info, table, sheet))
    return pages


# --- results ---------------------------------------------------------------------------------

STANDINGS_ROWS = 44
STANDINGS_TOP = 43.0
STANDINGS_ROW_H = 5.4
GAMES_ROWS = 31  # rows of one table block; two blocks per page


def _lines(values: Sequence[Any]) -> str:
    return "\n".join("" if v is None else str(v) for v in values)


def _standings_columns(rows: Sequence[StandingRow], series_numbers: Sequence[int]) -> list[dict]:
    """Text columns of a standings page: x, width, alignment, header and one line per row."""
    per_series = 13.0 if series_numbers else 0.0
    fixed = [("place", 12.0, "right"), ("start", 12.0, "right")]
    total_w = 18.0
    name_w = 62.0 if series_numbers else 90.0
    club_w = CONTENT_W - 12 - 12 - name_w - total_w - per_series * len(series_numbers) - 6
    columns: list[dict] = []
    x = MARGIN
    for key, width, align in [*fixed, ("name", name_w, "left"), ("club", club_w, "left")]:
        if key == "place":
            lines = _lines(f"{r.place}." for r in rows)
        elif key == "start":
            lines = _lines(r.start_number for r in rows)
        elif key == "name":
            lines = _lines(_clip(r.name, 30 if series_numbers else 44) for r in rows)
        else:
            lines = _lines(_clip(r.club, max(int(width / 2.1), 4)) for r in rows)
        columns.append({"key": key, "x": x, "w": width, "align": align, "lines": lines})
        x += width + (2 if key in ("start", "name") else 0)
    for i, number in enumerate(series_numbers):
        lines = _lines((r.series_points[i] if i < len(r.series_points) else None) for r in rows)
        columns.append(
            {"key": f"s{number}", "number": number, "x": x, "w": per_series,
             "align": "right", "lines": lines}
        )  # fmt: skip
        x += per_series
    columns.append(
        {"key": "total", "x": x + 2, "w": total_w - 2, "align": "right",
         "lines": _lines(r.total for r in rows)}
    )  # fmt: skip
    return columns


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
    pages = []
    parts = list(chunked(list(rows), STANDINGS_ROWS)) or [[]]
    for index, part in enumerate(parts):
        pages.append(
            Page(
                "standings.html",
                {
                    "info": info,
                    "series_number": series_number,
                    "columns": _standings_columns(part, series_numbers),
                    "rows": len(part),
                    "part": index + 1,
                    "parts": len(parts),
                    "note": unconfirmed_note(info, series_number)
                    if index == len(parts) - 1
                    else "",
                },
            )
        )
    return pages


@dataclass(frozen=True, slots=True)
class GamesBlock:
    table: TableGames
    games: tuple[GameRow, ...]
    continued: bool


def _games_block_context(block: GamesBlock, y: float) -> dict[str, Any]:
    names = block.table.names
    seat_w = (CONTENT_W - 10 - 14 - 30) / max(len(names), 1)
    games = block.games
    seats = [
        {
            "name": name,
            "x": round(MARGIN + 10 + i * seat_w, 2),
            "w": round(seat_w, 2),
            "total_w": round(seat_w - 3, 2),
            "points": _lines(g.points[i] if i < len(g.points) else "" for g in games),
            "totals": _lines(g.totals[i] if i < len(g.totals) else "" for g in games),
        }
        for i, name in enumerate(names)
    ]
    return {
        "block": block,
        "y": y,
        "head_y": y + 6,
        "rows_y": y + 11,
        "seats": seats,
        "numbers": _lines(("P" if g.compulsory else "") + str(g.number) for g in games),
        "values": _lines(g.value for g in games),
        "notes": _lines(_clip(g.note, 14) for g in games),
        "value_x": round(MARGIN + 10 + len(names) * seat_w, 2),
        "note_x": round(MARGIN + 10 + len(names) * seat_w + 14, 2),
        "rows": len(games),
    }


def games_pages(info: ResultsInfo) -> list[Page]:
    blocks = [
        GamesBlock(table, tuple(part), i > 0)
        for table in info.tables
        for i, part in enumerate(list(chunked(list(table.games), GAMES_ROWS)) or [[]])
    ]
    pages = []
    for pair in chunked(blocks, 2):
        pages.append(
            Page(
                "table_games.html",
                {
                    "info": info,
                    "blocks": [
                        _games_block_context(b, 22.0 + i * 136.0) for i, b in enumerate(pair)
                    ],
                },
            )
        )
    return pages


def results_pages(info: ResultsInfo) -> list[Page]:
    """Final standings, standings per series, then the digital Spielliste of every table."""
    pages = standings_pages(info, info.final, info.series_numbers, None)
    for series in info.series:
        pages += standings_pages(info, series.rows, (), series.number)
    pages += games_pages(info)
    return pages


def part_runs(pages: Sequence[Page], size: int) -> list[list[int]]:
    """Which pages are rendered together (indexes into ``pages``), run by run; each run is
    rendered on its own, in parallel. The pages of one table (its card and its score sheet)
    share a run, so its QR code is made once; a run holds at most ``size`` pages unless one
    table alone has more. Runs need not be contiguous: the parts are put in page order when
    the document is joined (``page_order``)."""
    loose: list[int] = []
    tables: dict[int, list[int]] = {}
    for i, page in enumerate(pages):
        table = page.context.get("table")
        if table is None:
            loose.append(i)
        else:
            tables.setdefault(table.number, []).append(i)
    runs = [list(run) for run in chunked(loose, size)]
    group: list[int] = []
    for indexes in tables.values():
        if group and len(group) + len(indexes) > size:
            runs.append(sorted(group))
            group = []
        group += indexes
    if group:
        runs.append(sorted(group))
    return runs or [[]]


def page_order(runs: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """For each page of the document in order: (run, position of the page in that run)."""
    where = {page: (r, k) for r, run in enumerate(runs) for k, page in enumerate(run)}
    return [where[page] for page in range(len(where))]
