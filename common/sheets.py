"""Spreadsheets to download (CSV and XLSX): a title, a header row and rows of plain values
(text, whole numbers, decimals or empty), and the response that sends one. Shared by every
app that exports lines its pages show (the standings, a league's individual ranking).

Both writers guard against formula injection: a text cell that starts with ``=``, ``+``,
``-``, ``@`` (or a tab or carriage return) gets a leading ``'``, so a spreadsheet shows it as
text instead of running it. Numbers stay numbers (a negative score is not text).

CSV: UTF-8 with a byte order mark (Excel then reads umlauts right), ``;`` between fields and
a decimal comma, what a spreadsheet in a German locale expects.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.http import Http404, HttpRequest, HttpResponse
from openpyxl import Workbook

Cell = str | int | Decimal | None
DELIMITER = ";"
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
#: Excel's limit for a sheet's name.
TITLE_LIMIT = 31
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclass(frozen=True)
class Sheet:
    title: str
    header: tuple[str, ...]
    rows: list[tuple[Cell, ...]]


def safe(value: Cell) -> Cell:
    """A cell as a spreadsheet may show it: text that would start a formula is quoted."""
    if isinstance(value, str) and value.startswith(DANGEROUS):
        return "'" + value
    return value


def _csv_cell(value: Cell) -> str | int:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return str(value).replace(".", ",")
    if isinstance(value, str) and value.startswith(DANGEROUS):
        return "'" + value
    return value


def to_csv(sheet: Sheet) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=DELIMITER, lineterminator="\r\n")
    writer.writerow([safe(h) for h in sheet.header])
    for row in sheet.rows:
        writer.writerow([_csv_cell(v) for v in row])
    return out.getvalue().encode("utf-8-sig")


def to_xlsx(sheets: Sequence[Sheet]) -> bytes:
    book = Workbook(write_only=True)
    for sheet in sheets:
        page = book.create_sheet(sheet.title[:TITLE_LIMIT])
        page.append([safe(h) for h in sheet.header])
        for row in sheet.rows:
            page.append([safe(v) for v in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def spreadsheet(request: HttpRequest, sheets: list[Sheet], name: str) -> HttpResponse:
    """``?format=xlsx`` a workbook of ``sheets``; otherwise (``csv``) the first as CSV."""
    chosen = request.GET.get("format", "csv")
    if chosen == "xlsx":
        return download(to_xlsx(sheets), XLSX, f"{name}.xlsx")
    if chosen == "csv":
        return download(to_csv(sheets[0]), "text/csv; charset=utf-8", f"{name}.csv")
    raise Http404
