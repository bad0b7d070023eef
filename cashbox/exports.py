"""The ledger as a spreadsheet (CSV and XLSX, openpyxl as the archive's exports use it).

Amounts are exact: euros with two decimals (a ``Decimal`` from the integer cents, so the
spreadsheet adds them up without a rounding error). CSV: UTF-8 with a byte order mark and
``;`` between fields, the decimal mark of the page's language; a text cell that would start a
formula (``=``, ``+``, ``-``, ``@``, tab, carriage return) gets a leading ``'``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook

from cashbox.models import Booking

Cell = str | int | Decimal | None
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def safe(value: Cell) -> Cell:
    if isinstance(value, str) and value.startswith(DANGEROUS):
        return "'" + value
    return value


def _euros(cents: int) -> Decimal:
    return Decimal(cents) / 100


def _name(user: object) -> str:
    if user is None:
        return ""
    full = getattr(user, "get_full_name", lambda: "")()
    return str(full or getattr(user, "get_username", lambda: "")())


def ledger_rows(bookings: Sequence[Booking]) -> tuple[tuple[str, ...], list[tuple[Cell, ...]]]:
    """The header and one row per booking with the balance after it."""
    header = (
        _("No."),
        _("date"),
        _("kind"),
        _("text"),
        _("member"),
        _("amount (EUR)"),
        _("balance (EUR)"),
        _("reverses No."),
        _("booked by"),
        _("booked at"),
    )
    rows: list[tuple[Cell, ...]] = []
    running = 0
    for booking in bookings:
        running += booking.cents
        rows.append(
            (
                booking.pk,
                booking.booked_on.isoformat(),
                booking.get_kind_display(),
                booking.text,
                _name(booking.member),
                _euros(booking.cents),
                _euros(running),
                booking.reverses_id,
                _name(booking.booked_by),
                timezone.localtime(booking.booked_at).strftime("%Y-%m-%d %H:%M"),
            )
        )
    return header, rows


def to_csv(header: Sequence[str], rows: list[tuple[Cell, ...]], language: str) -> bytes:
    mark = "." if language.startswith("en") else ","
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow([safe(h) for h in header])
    for row in rows:
        writer.writerow(
            [
                "" if v is None else f"{v:.2f}".replace(".", mark) if isinstance(v, Decimal)
                else safe(v)
                for v in row
            ]
        )  # fmt: skip
    return out.getvalue().encode("utf-8-sig")


def to_xlsx(title: str, header: Sequence[str], rows: list[tuple[Cell, ...]]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title[:31]
    sheet.append([safe(h) for h in header])
    for row in rows:
        sheet.append([safe(v) for v in row])
    for column in ("F", "G"):
        for cell in sheet[column][1:]:
            cell.number_format = "#,##0.00"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
