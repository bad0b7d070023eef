"""The report as files: CSV and XLSX (the columns of ``seasons.ddv.columns``, a block with
the tournament's data above them), PDF (``templates/seasons/print/ddv_report.html``) and the
JSON another Doko-Turnier imports into a season (``seasons.ddv.importing``).

CSV: UTF-8 with a byte order mark and ``;`` between fields, decimals with a comma (what a
spreadsheet in a German locale expects). A text cell that a spreadsheet would run as a
formula gets a leading ``'``."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from openpyxl import Workbook

from seasons.ddv.columns import COLUMNS, Cell, cells, header
from seasons.ddv.report import Report

#: The JSON's format and version: an import refuses others.
FORMAT = "doko-turnier/ddv-report"
VERSION = 1
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def _safe(value: Cell) -> Cell:
    if isinstance(value, str) and value.startswith(DANGEROUS):
        return "'" + value
    return value


def head_rows(report: Report) -> list[tuple[str, str]]:
    """The tournament's data as (label, value) pairs, for every file but the JSON."""
    head = report.head
    date = head.starts_on.isoformat()
    if head.ends_on and head.ends_on != head.starts_on:
        date += f" – {head.ends_on.isoformat()}"
    return [
        (_("Tournament"), head.name),
        (_("Date"), date),
        (_("Venue"), head.venue),
        (_("Organizing club"), head.club),
        (_("Tournament director"), head.director),
        (_("Referee"), head.referee),
        (_("Number of series"), str(head.series_count)),
    ]


def _csv_cell(value: Cell) -> str | int:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return str(value).replace(".", ",")
    if isinstance(value, str):
        return "'" + value if value.startswith(DANGEROUS) else value
    return value


def to_csv(report: Report) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    for label, value in head_rows(report):
        writer.writerow([label, _safe(value)])
    writer.writerow([])
    writer.writerow(header())
    for line in report.lines:
        writer.writerow([_csv_cell(v) for v in cells(line)])
    return out.getvalue().encode("utf-8-sig")


def to_xlsx(report: Report) -> bytes:
    book = Workbook(write_only=True)
    sheet = book.create_sheet(_("DDV report")[:31])
    for label, value in head_rows(report):
        sheet.append([label, _safe(value)])
    sheet.append([])
    sheet.append(header())
    for line in report.lines:
        sheet.append([_safe(v) for v in cells(line)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def to_pdf(report: Report) -> bytes:
    from weasyprint import HTML

    html = render_to_string(
        "seasons/print/ddv_report.html",
        {
            "report": report,
            "head": head_rows(report),
            "header": header(),
            "rows": [cells(line) for line in report.lines],
        },
    )
    pdf: bytes = HTML(string=html).write_pdf()
    return pdf


def _json_cell(value: Cell) -> Any:
    return str(value) if isinstance(value, Decimal) else value


def to_json(report: Report) -> dict[str, Any]:
    """What another Doko-Turnier imports: the tournament's data, the column keys and each
    player's columns plus his points per series (the season ranks by them) and how his
    name may be published."""
    head = report.head
    return {
        "format": FORMAT,
        "version": VERSION,
        "source": {"site": head.site, "tournament": head.slug},
        "qualifies": report.qualifies,
        "reasons": [str(r) for r in report.reasons],
        "tournament": {
            "name": head.name,
            "starts_on": head.starts_on.isoformat(),
            "ends_on": head.ends_on.isoformat() if head.ends_on else None,
            "venue": head.venue,
            "club": head.club,
            "director": head.director,
            "referee": head.referee,
            "ruleset": head.ruleset,
            "series_count": head.series_count,
            "tiebreak": list(head.tiebreak),
        },
        "columns": [column.key for column in COLUMNS],
        "players": [
            {
                **{c.key: _json_cell(c.value(line)) for c in COLUMNS},
                "series_points": list(line.series_points),
                "name_form": line.name_form,
            }
            for line in report.lines
        ],
    }
