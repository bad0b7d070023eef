"""Reading player lists from CSV or XLSX files into rows with per-row errors.

Pure parsing and checking; no database. The view shows the rows as a preview, looks up
possible duplicates, and nothing is saved while any row has an error.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

MAX_ROWS = 2000
MAX_BYTES = 2 * 1024 * 1024

# Accepted column headings (lower case, without spaces, dashes or dots) for each field.
HEADINGS = {
    "first_name": {"vorname", "firstname", "first", "givenname"},
    "last_name": {"nachname", "name", "lastname", "last", "surname", "familienname"},
    "club": {"verein", "club", "klub"},
    "ddv_number": {"ddvnr", "ddvnummer", "ddv", "mitgliedsnummer", "ddvnumber", "membernumber"},
    "email": {"email", "mail"},
    # Consent to publication (optional; without the column: full name, as before).
    "name_form": {"namensform", "veroffentlichung", "veroeffentlichung", "nameform", "publish"},
    "minor": {"minderjahrig", "minderjaehrig", "minor", "under18", "unter18"},
    "guardian_consent": {
        "einwilligungerziehungsberechtigte",
        "elterneinwilligung",
        "guardianconsent",
        "guardian",
    },
}
#: The values a consent column takes (lower case), German or English.
NAME_FORMS = {
    "full": "full", "voll": "full", "vollständig": "full", "name": "full",
    "initial": "initial", "initiale": "initial", "vorname": "initial",
    "anonymous": "anonymous", "anonym": "anonymous",
}  # fmt: skip
YES = {"ja", "j", "yes", "y", "x", "1", "true", "wahr"}
NO = {"", "nein", "n", "no", "0", "false", "falsch"}
DDV_NUMBER = re.compile(r"^[0-9]{1,10}$")


class ImportFileError(Exception):
    """The file as a whole cannot be read; the message is for people."""


@dataclass
class ParsedRow:
    line: int
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)


def _heading_key(text: str) -> str | None:
    word = re.sub(r"[\s_\-./]", "", text.strip().lower()).replace("ä", "a").replace("ö", "o")
    for key, words in HEADINGS.items():
        if word in words:
            return key
    return None


def _read_csv(content: bytes) -> list[list[str]]:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = content.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - cp1252 decodes nearly everything
        raise ImportFileError(_("The file is not readable text."))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=";,\t")
    except csv.Error:
        dialect = csv.excel
        dialect.delimiter = ";" if text.count(";") > text.count(",") else ","
    return [row for row in csv.reader(io.StringIO(text), dialect) if any(c.strip() for c in row)]


def _read_xlsx(content: bytes) -> list[list[str]]:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a broken file
        raise ImportFileError(_("The file is not a readable Excel workbook (.xlsx).")) from exc
    sheet = workbook.worksheets[0]
    rows = []
    for values in sheet.iter_rows(values_only=True):
        cells = ["" if v is None else _cell_text(v) for v in values]
        if any(c.strip() for c in cells):
            rows.append(cells)
    workbook.close()
    return rows


def _cell_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # DDV numbers typed as numbers come back as 1234.0
    return str(value)


def read_table(filename: str, content: bytes) -> list[list[str]]:
    if len(content) > MAX_BYTES:
        raise ImportFileError(_("The file is larger than 2 MB."))
    if filename.lower().endswith(".xlsx"):
        return _read_xlsx(content)
    if filename.lower().endswith((".csv", ".txt")):
        return _read_csv(content)
    raise ImportFileError(_("Please upload a .csv or .xlsx file."))


def parse_players(filename: str, content: bytes) -> list[ParsedRow]:
    table = read_table(filename, content)
    if not table:
        raise ImportFileError(_("The file is empty."))
    columns = [_heading_key(cell) for cell in table[0]]
    if "first_name" not in columns or "last_name" not in columns:
        raise ImportFileError(
            _(
                "The first row must name the columns; at least 'First name' and 'Last name' "
                "(optional: 'Club', 'DDV number', 'E-mail'; German headings work too)."
            )
        )
    if len(table) - 1 > MAX_ROWS:
        raise ImportFileError(_("At most %(n)d players per file.") % {"n": MAX_ROWS})
    rows = []
    for offset, cells in enumerate(table[1:], start=2):
        values = {key: "" for key in HEADINGS}
        for key, cell in zip(columns, cells, strict=False):
            if key is not None:
                values[key] = cell.strip()
        rows.append(ParsedRow(line=offset, values=values, errors=check_values(values)))
    _mark_repeats_in_file(rows)
    return rows


def check_values(values: dict[str, str]) -> dict[str, str]:
    errors = {}
    # Every message names its field: the preview shows them under the row, not per column.
    too_long = _("The %(field)s is longer than %(n)d characters.")
    for key, label in (("first_name", _("first name")), ("last_name", _("last name"))):
        if not values[key]:
            errors[key] = _("The %(field)s is missing.") % {"field": label}
        elif len(values[key]) > 80:
            errors[key] = too_long % {"field": label, "n": 80}
    if len(values["club"]) > 120:
        errors["club"] = too_long % {"field": _("club"), "n": 120}
    if values["ddv_number"] and not DDV_NUMBER.match(values["ddv_number"]):
        errors["ddv_number"] = _("A DDV member number has only digits.")
    if values["email"]:
        try:
            validate_email(values["email"])
        except ValidationError:
            errors["email"] = _("This is not an e-mail address.")
    form = values.get("name_form", "").strip().lower()
    if form and form not in NAME_FORMS:
        errors["name_form"] = _("The name form is full, initial or anonymous.")
    for key in ("minor", "guardian_consent"):
        if values.get(key, "").strip().lower() not in YES | NO:
            errors[key] = _("Yes or no, please: %(value)s") % {"value": values[key]}
    if not errors:
        data = consent_of_row(values)
        if (
            data["minor"]
            and not data["guardian_consent"]
            and data["name_form"] != NAME_FORMS["anonym"]
        ):
            errors["guardian_consent"] = _(
                "A player under 18 is published by name only with a parent's or guardian's "
                "consent. Tick the consent or choose anonymous."
            )
    return errors


def consent_of_row(values: dict[str, str]) -> dict[str, Any]:
    """The consent columns of a checked row as the registration takes them (no column:
    full name, as every list imported before)."""
    return {
        "name_form": NAME_FORMS.get(values.get("name_form", "").strip().lower(), "full"),
        "minor": values.get("minor", "").strip().lower() in YES,
        "guardian_consent": values.get("guardian_consent", "").strip().lower() in YES,
    }


def _mark_repeats_in_file(rows: list[ParsedRow]) -> None:
    seen: dict[tuple[str, str, str], int] = {}
    for row in rows:
        v = row.values
        key = (v["first_name"].lower(), v["last_name"].lower(), v["club"].lower())
        if key in seen and key[0] and key[1]:
            row.errors.setdefault(
                "last_name",
                _("Same name and club as in line %(line)d.") % {"line": seen[key]},
            )
        else:
            seen[key] = row.line
