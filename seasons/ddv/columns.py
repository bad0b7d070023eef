"""The report's columns, defined once: the CSV, the XLSX, the PDF and the JSON all list
these, in this order, under these keys and labels. The DDV's own column format is not known
to us (docs/ddv-report.md): to change a column, change it here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from seasons.ddv.report import ReportLine

Cell = str | int | Decimal | None


@dataclass(frozen=True)
class Column:
    key: str  # the JSON's key; stable
    label: str | Promise  # the heading of the CSV, XLSX and PDF
    value: Callable[[ReportLine], Cell]


COLUMNS: tuple[Column, ...] = (
    Column("place", _("Place"), lambda line: line.place),
    Column("last_name", _("Last name"), lambda line: line.last_name),
    Column("first_name", _("First name"), lambda line: line.first_name),
    Column("club", _("Club"), lambda line: line.club),
    Column("ddv_number", _("DDV number"), lambda line: line.ddv_number),
    Column("series", _("Series played"), lambda line: line.series),
    Column("points", _("Points"), lambda line: line.points),
    Column("average", _("Average per series"), lambda line: line.average),
)


def header() -> list[str]:
    return [str(column.label) for column in COLUMNS]


def cells(line: ReportLine) -> list[Cell]:
    return [column.value(line) for column in COLUMNS]
