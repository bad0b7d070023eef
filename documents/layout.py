"""Page plans: which page templates a document consists of, with what geometry and data.

Pure Python. Every page is one fixed-size A4 sheet whose boxes are positioned in millimetres
computed here, so the renderer never has to flow content across pages: the page count is
known before rendering (for the progress bar) and any run of pages can be rendered on its
own (for parallel rendering). Texts are measured (``documents.textfit``) so that none is cut:
lists give a long entry more lines (``Row``), fixed boxes set it smaller or on two lines.

This module plans the print pack (seating lists, table cards, score sheets) and holds what
all documents share; ``documents.report_layout`` plans the result report.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext

from documents.data import (
    SeatInfo,
    SeriesInfo,
    TableInfo,
)
from documents.textfit import PT_MM, Fit, fit, text_width, wrap

PAGE_W = 210.0
PAGE_H = 297.0
MARGIN = 10.0
CONTENT_W = PAGE_W - 2 * MARGIN

# A layout version: part of every fingerprint, bump it when templates or geometry change
# (here or in report_layout), so stored documents are made again.
LAYOUT_VERSION = "7"


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


SIGN_PT = 6.5  # the signature labels below their lines; see .sign in print.css
SIGN_H = 2 * SIGN_PT * 1.2 * PT_MM  # room for two lines of a label
SEATS_TOP, SEATS_LEFT, SEATS_W, SEATS_ROW_H, SEATS_PT = 29.0, 46.0, 92.0, 4.5, 8.5
ROLE_PT = 7.5  # "- deals first" after a name in the seat list; see .role


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
        "sign_label_h": round(SIGN_H, 2),
        "referee_x": round(MARGIN + players * signature_w, 2),
        "footer_top": round(geometry.bottom + 3, 2),
        "sign_top": round(geometry.bottom + 25, 2),
        "note_top": round(geometry.bottom + 26 + SIGN_H + 0.5, 2),
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


@dataclass(frozen=True, slots=True)
class FittedLine:
    """One line of a text column that did not fit at the column's size: printed in a box
    of its own at ``top`` (its line in the column stays empty)."""

    index: int
    top: float
    fit: Fit


def _seat_roles(table: TableInfo) -> dict[int, str]:
    """Seat position to the role printed after the name in the score sheet's seat list."""
    roles: dict[int, str] = {}
    if table.dealer is not None:
        roles[table.dealer.position] = "– " + gettext("deals first")
    if table.keeper is not None:
        roles[table.keeper.position] = "– " + gettext("keeps the list")
    return roles


def _sheet_seat_lines(table: TableInfo) -> list[dict[str, Any]]:
    """The seat list of a score sheet, name and role per line; a name too long for the
    line is set smaller (there is no room for a second line)."""
    roles = _seat_roles(table)
    lines = []
    for i, seat in enumerate(table.seats):
        role = roles.get(seat.position, "")
        room = SEATS_W - (text_width(" " + role, ROLE_PT) if role else 0.0)
        fitted = fit(seat.label, room, SEATS_PT, max_lines=1)
        lines.append(
            {
                "seat": seat,
                "role": role,
                "fit": fitted if fitted.changed else None,
                "top": round(SEATS_TOP + i * SEATS_ROW_H, 2),
            }
        )
    return lines


COLHEAD_PT = 8.5  # a player's name in the column head, bold; see .colhead-v
# The team's box starts below the name's descenders, above the rest of the name's line.
COLHEAD_LINE = COLHEAD_PT * 1.2 * PT_MM
COLHEAD_TEAM_PT = 6.5  # a team group's: the team below the name; see .colhead-team


def _column_head(seat: SeatInfo, column: Column, name_h: float, top: float) -> dict[str, Any]:
    """A player's column head on the score sheet: his name, at most two lines in the
    room below "Seat n"; in a team group's series his name on one line and his team below
    it, smaller (a long team on two lines)."""
    width = column.w - 2.4
    if not seat.team:
        return {
            "seat": seat,
            "column": column,
            "fit": fit(seat.name, width, COLHEAD_PT, bold=True, height_mm=name_h),
        }
    return {
        "seat": seat,
        "column": column,
        "fit": fit(seat.name, width, COLHEAD_PT, bold=True, max_lines=1),
        "team": fit(seat.team, width, COLHEAD_TEAM_PT, height_mm=name_h - COLHEAD_LINE),
        "team_top": round(top + COLHEAD_LINE, 3),
    }


def score_sheet_page(info: SeriesInfo, table: TableInfo, underlay: Page | None = None) -> Page:
    """The variable layer of a table's score sheet: table number, names, code and link."""
    shape = (table.size, table.normal_games, table.compulsory_solos)
    underlay = underlay or score_sheet_static(info, *shape)
    frame = _sheet_frame(info, *shape)
    g = frame["g"]
    name_h = g.header_h - COLHEAD_NAME_OFFSET - 0.4
    return Page(
        "score_sheet.html",
        {
            **frame,
            "table": table,
            "seat_lines": _sheet_seat_lines(table),
            "cells": [
                _column_head(seat, column, name_h, frame["colhead_name_top"])
                for seat, column in zip(table.seats, g.player_columns, strict=False)
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


CARD_SEATS_LEFT, CARD_SEATS_TOP, CARD_SEATS_W, CARD_ROW_H, CARD_PT = 112.0, 27.0, 88.0, 9.5, 14.0
# A team group's card: each name moves up to make room for its team on a smaller line below
# (see .card-team).
CARD_TEAM_RAISE, CARD_TEAM_OFFSET, CARD_TEAM_PT = 2.0, 7.3, 8.0


def _card_seats_top(table: TableInfo) -> float:
    teams = any(seat.team for seat in table.seats)
    return CARD_SEATS_TOP - CARD_TEAM_RAISE if teams else CARD_SEATS_TOP


def _card_seat_lines(table: TableInfo) -> tuple[float, list[FittedLine]]:
    """The seat lines of a table card ("<b>n</b>&nbsp; name"), the names that are set
    smaller or on two lines in boxes of their own, and where those boxes start (after the
    seat number). A name with a team below it has one line."""
    offset = round(text_width("5", CARD_PT, bold=True) + text_width("\u00a0 ", CARD_PT), 2)
    top = _card_seats_top(table)
    fitted = []
    for i, seat in enumerate(table.seats):
        lines = 1 if seat.team else 2
        result = fit(seat.name, CARD_SEATS_W - offset, CARD_PT, height_mm=CARD_ROW_H,
                     leading=1.15, max_lines=lines)  # fmt: skip
        if result.changed:
            fitted.append(FittedLine(i, round(top + i * CARD_ROW_H, 2), result))
    return offset, fitted


def _card_team_lines(table: TableInfo, offset: float) -> list[FittedLine]:
    """A team group's card: each player's team below his name, set smaller if long."""
    top = _card_seats_top(table) + CARD_TEAM_OFFSET
    return [
        FittedLine(i, round(top + i * CARD_ROW_H, 2),
                   fit(seat.team, CARD_SEATS_W - offset, CARD_TEAM_PT, max_lines=1))
        for i, seat in enumerate(table.seats)
        if seat.team
    ]  # fmt: skip


def table_card_page(info: SeriesInfo, table: TableInfo, underlay: Page | None = None) -> Page:
    """The variable layer of a table card: number, names with seats, the code. Only the lower
    half is laid out; the upper half of the tent is the same content turned 180° about the
    centre of the sheet, which the joined PDF draws from the same page content."""
    offset, fitted = _card_seat_lines(table)
    shown = {line.index for line in fitted}
    return Page(
        "table_card.html",
        {
            "info": info,
            "size": table.size,
            "table": table,
            "mirrored": True,
            "seat_lines": [(seat, i not in shown) for i, seat in enumerate(table.seats)],
            "fitted": fitted,
            "fitted_left": round(CARD_SEATS_LEFT + offset, 2),
            "fitted_w": round(CARD_SEATS_W - offset, 2),
            "seats_top": _card_seats_top(table),
            "teams": _card_team_lines(table, offset),
        },
        layer=VARIABLE,
        underlay=underlay or table_card_static(info, table.size),
        mirror=True,
    )


def chunked(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@dataclass(frozen=True, slots=True)
class Row:
    """One entry of a list printed as text columns (one ``white-space: pre`` box per column,
    a line per entry): its cells, each as the lines it takes. A long value is broken into
    more lines instead of being cut; the entry then takes as many lines as its tallest
    cell, and the other cells get empty lines below theirs."""

    cells: tuple[tuple[str, ...], ...]

    @property
    def height(self) -> int:
        return max((len(cell) for cell in self.cells), default=1)


def cell(
    text: Any, width: float | None = None, size: float = 9.0, bold: bool = False
) -> tuple[str, ...]:
    """A cell's lines: ``text`` broken to ``width`` (mm) at ``size`` (pt), or one line."""
    value = "" if text is None else str(text)
    return (value,) if width is None else tuple(wrap(value, width, size, bold))


def column_text(rows: Sequence[Row], column: int) -> str:
    """The text of one column box: each entry's lines, padded to the entry's height."""
    lines: list[str] = []
    for row in rows:
        cell = row.cells[column]
        lines += [*cell, *([""] * (row.height - len(cell)))]
    return "\n".join(lines)


def chunk_rows(rows: Sequence[Row], capacity: int) -> list[list[Row]]:
    """The rows split into runs of at most ``capacity`` lines (an entry is never split; one
    taller than ``capacity`` gets a run of its own)."""
    runs: list[list[Row]] = []
    run: list[Row] = []
    used = 0
    for row in rows:
        if run and used + row.height > capacity:
            runs.append(run)
            run, used = [], 0
        run.append(row)
        used += row.height
    if run or not runs:
        runs.append(run)
    return runs


def row_stripes(
    rows: Sequence[Row], x: float, width: float, top: float, row_h: float
) -> tuple[tuple[float, float, float, float], ...]:
    """The shaded bands (x, y, width, height) behind every second entry of a list."""
    bands = []
    line = 0
    for i, row in enumerate(rows):
        if i % 2:
            bands.append((round(x, 2), round(top + line * row_h, 2), round(width, 2),
                          round(row.height * row_h, 2)))  # fmt: skip
        line += row.height
    return tuple(bands)


ALPHA_ROWS = 36  # lines per column of the alphabetical seating list
ALPHA_TOP = 43.0
ALPHA_ROW_H = 6.6
ALPHA_COLUMNS = 2
ALPHA_PT = 11.0
ALPHA_NAME_W = 64.0  # the name box (66mm) less its left padding (1.5mm) and a little air
TABLES_PER_ROW = 3
TABLE_BOX_H = 32.0
TABLE_ROWS = 7
TABLE_NAMES_TOP, TABLE_ROW_H, TABLE_PT = 9.0, 4.2, 9.0
TABLE_LINES = 5  # name lines a table's box holds


def _alpha_name(seat: SeatInfo) -> str:
    """ "Last, First", with the team in a team group's series."""
    name = f"{seat.last_name}, {seat.first_name}"
    return f"{name} ({seat.team})" if seat.team else name


def _alpha_pages(info: SeriesInfo) -> list[list[list[Row]]]:
    """The alphabetical list: pages of columns of entries (name, table, seat)."""
    seated: list[tuple[SeatInfo, TableInfo]] = [(s, t) for t in info.tables for s in t.seats]
    seated.sort(key=lambda pair: (*pair[0].sort_key, pair[1].number))
    rows = [
        Row(
            (
                cell(_alpha_name(s), ALPHA_NAME_W, ALPHA_PT),
                cell(t.number),
                cell(s.position),
            )
        )
        for s, t in seated
    ]
    columns = chunk_rows(rows, ALPHA_ROWS)
    pages = [[row for column in page for row in column] for page in chunked(columns, ALPHA_COLUMNS)]
    return [balanced_columns(page, ALPHA_COLUMNS, ALPHA_ROWS) for page in pages] or [[[]]]


def balanced_columns(rows: Sequence[Row], columns: int, capacity: int) -> list[list[Row]]:
    """The rows of one page in at most ``columns`` columns of about the same length (37
    names: 19 and 18, not 36 and 1), none longer than ``capacity`` lines unless one entry
    is; ``rows`` must fit the page (``chunk_rows(rows, capacity)`` gives at most
    ``columns`` runs)."""
    lines = sum(row.height for row in rows)
    per = max(-(-lines // columns), max((row.height for row in rows), default=1))
    while per < capacity and len(chunk_rows(rows, per)) > columns:
        per += 1
    return chunk_rows(rows, per)


def _table_box(table: TableInfo, x: float, y: float, names_w: float) -> dict[str, Any]:
    """One table of the seating list by table (a team group's: each name with its team,
    ``SeatInfo.label``). A name a little too long for its line is set
    a little smaller; a much longer one takes two lines where the box has room for them (a
    table of four leaves one line free); else it is set as small as it must be, in a box of
    its own (on two half-height lines if that is larger)."""
    positions: list[str] = []
    names: list[str] = []
    fitted: list[FittedLine] = []
    for i, seat in enumerate(table.seats):
        one_line = fit(seat.label, names_w, TABLE_PT, max_lines=1)
        top = round(TABLE_NAMES_TOP + len(names) * TABLE_ROW_H, 2)
        if one_line.changed and one_line.size >= TABLE_PT * 0.85:
            fitted.append(FittedLine(i, top, one_line))
            lines = [""]
        else:
            lines = wrap(seat.label, names_w, TABLE_PT)
        positions += [str(seat.position)] + [""] * (len(lines) - 1)
        names += lines
    if len(names) > TABLE_LINES:  # no room for the extra lines: one line per seat
        positions = [str(s.position) for s in table.seats]
        names, fitted = [], []
        for i, seat in enumerate(table.seats):
            result = fit(seat.label, names_w, TABLE_PT, height_mm=TABLE_ROW_H, leading=1.1)
            if result.changed:
                top = round(TABLE_NAMES_TOP + i * TABLE_ROW_H, 2)
                fitted.append(FittedLine(i, top, result))
            names.append("" if result.changed else seat.label)
    return {
        "table": table,
        "x": x,
        "y": y,
        "names": "\n".join(names),
        "positions": "\n".join(positions),
        "fitted": fitted,
    }


def seating_pages(info: SeriesInfo) -> list[Page]:
    alpha = _alpha_pages(info)
    tables = list(chunked(info.tables, TABLES_PER_ROW * TABLE_ROWS)) or [()]
    total = len(alpha) + len(tables)
    pages = []
    column_w = CONTENT_W / ALPHA_COLUMNS
    for index, page_columns in enumerate(alpha):
        columns = []
        stripes: tuple[tuple[float, float, float, float], ...] = ()
        for c, rows in enumerate(page_columns):
            x = MARGIN + c * (column_w + 2)
            columns.append(
                {
                    "x": x,
                    "names": column_text(rows, 0),
                    "tables": column_text(rows, 1),
                    "seats": column_text(rows, 2),
                }
            )
            stripes += row_stripes(rows, x, column_w - 2, ALPHA_TOP, ALPHA_ROW_H)
        pages.append(
            Page(
                "seating_alpha.html",
                {
                    "info": info,
                    "columns": columns,
                    "page": index + 1,
                    "pages": total,
                    "stripes": stripes,
                },
            )
        )
    box_w = (CONTENT_W - (TABLES_PER_ROW - 1) * 4) / TABLES_PER_ROW
    names_w = round(box_w - 11, 2)
    for index, page_tables in enumerate(tables):
        boxes = [
            _table_box(
                table,
                round(MARGIN + (i % TABLES_PER_ROW) * (box_w + 4), 2),
                round(36 + (i // TABLES_PER_ROW) * (TABLE_BOX_H + 4), 2),
                names_w - 0.5,
            )
            for i, table in enumerate(page_tables)
        ]
        pages.append(
            Page(
                "seating_tables.html",
                {
                    "info": info,
                    "boxes": boxes,
                    "box_w": round(box_w, 2),
                    "names_w": names_w,
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


def table_pages(pages: Sequence[Page]) -> tuple[list[int], dict[int, list[int]]]:
    """The pages (indexes into ``pages``) that belong to no table, and each table's pages,
    by table number, in page order."""
    loose: list[int] = []
    tables: dict[int, list[int]] = {}
    for i, page in enumerate(pages):
        table = page.context.get("table")
        if table is None:
            loose.append(i)
        else:
            tables.setdefault(table.number, []).append(i)
    return loose, tables


def part_runs(pages: Sequence[Page], size: int) -> list[list[int]]:
    """Which pages are rendered together (indexes into ``pages``), run by run; each run is
    rendered on its own, in parallel. The pages of one table (its card and its score sheet)
    share a run, so its QR code is made once; a run holds at most ``size`` pages unless one
    table alone has more. Runs need not be contiguous: the parts are put in page order when
    the document is joined (``page_order``)."""
    loose, tables = table_pages(pages)
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
