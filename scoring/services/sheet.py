"""Submitting and confirming a table's sheet; time-out; reopening by the organizers."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.series import SeriesReport, Severity
from scoring.messages import finding_message
from scoring.models import ScoreSheet
from scoring.rulesets import ruleset_for
from scoring.services import Actor, EntryError, EntryResult
from scoring.services.entry import (
    check_version,
    get_sheet,
    lock_table,
    mode_of,
    record_audit,
    sheet_state,
    stored_records,
    table_size,
)
from tournaments.models import Series, Table


def _findings(report: SeriesReport) -> list[dict[str, Any]]:
    return [
        {**f.to_json(), "message": finding_message(f.code, f.data, f.game)} for f in report.findings
    ]


def findings_for(table: Table, sheet: ScoreSheet, *, complete: bool = True) -> list[dict[str, Any]]:
    report = mode_of(sheet).validate(
        stored_records(table),
        table_size(table),
        ruleset_for(table.series.tournament),
        timeout=sheet.timeout,
        complete=complete,
    )
    return _findings(report)


def review(
    table: Table, sheet: ScoreSheet, records: list[dict[str, Any]], size: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What comes next and the findings of the sheet so far, from one replay (two when the
    sheet is complete: only then do missing games and compulsory solos count)."""
    mode, ruleset = mode_of(sheet), ruleset_for(table.series.tournament)
    report = mode.validate(records, size, ruleset, timeout=sheet.timeout, complete=False)
    if report.next.finished:
        report = mode.validate(records, size, ruleset, timeout=sheet.timeout, complete=True)
    return report.next.to_json(), _findings(report)


def _state(table: Table, sheet: ScoreSheet) -> dict[str, Any]:
    return {"sheet": sheet_state(table, sheet)}


@transaction.atomic
def submit_sheet(
    table_id: int, *, seat: int | None, expected_version: int | None, actor: Actor
) -> EntryResult:
    table, sheet = lock_table(table_id)
    if table.series.status != Series.Status.RUNNING and not actor.is_organizer:
        raise EntryError("series_not_running", _("This series is not running."), status=403)
    if sheet.status != ScoreSheet.Status.OPEN:
        raise EntryError("already_submitted", _("The sheet has already been submitted."))
    check_version(sheet, expected_version)
    errors = [f for f in findings_for(table, sheet) if f["severity"] == Severity.ERROR.value]
    if errors:
        raise EntryError(
            "sheet_has_errors",
            _("The sheet cannot be submitted yet: %(first)s") % {"first": errors[0]["message"]},
            data={"findings": errors},
        )
    sheet.status = ScoreSheet.Status.SUBMITTED
    sheet.submitted_at = timezone.now()
    sheet.submitted_by_seat = seat
    sheet.version += 1
    sheet.save()
    record_audit(table, None, "scoring.sheet.submitted", actor, None, {"seat": seat})
    return EntryResult(200, _state(table, sheet))


@transaction.atomic
def confirm_sheet(table_id: int, *, seat: int | None, actor: Actor) -> EntryResult:
    """Another player at the table (not the one who submitted) or an organizer confirms."""
    table, sheet = lock_table(table_id)
    if sheet.status != ScoreSheet.Status.SUBMITTED:
        raise EntryError("not_submitted", _("Only a submitted sheet can be confirmed."))
    if not actor.is_organizer:
        if seat is None or not 1 <= seat <= table_size(table):
            raise EntryError("seat_required", _("Choose your seat."), field="seat")
        if seat == sheet.submitted_by_seat:
            raise EntryError(
                "same_player",
                _("Another player at the table must confirm, not the one who submitted."),
                field="seat",
            )
    sheet.status = ScoreSheet.Status.CONFIRMED
    sheet.confirmed_at = timezone.now()
    sheet.confirmed_by_seat = seat
    sheet.confirmed_by_user = actor.user if actor.is_organizer else None
    sheet.version += 1
    sheet.save()
    record_audit(table, None, "scoring.sheet.confirmed", actor, None, {"seat": seat})
    return EntryResult(200, _state(table, sheet))


@transaction.atomic
def reopen_sheet(table_id: int, *, actor: Actor, reason: str) -> EntryResult:
    if not actor.is_organizer:
        raise EntryError("forbidden", _("Only organizers can reopen a sheet."), status=403)
    if not reason.strip():
        raise EntryError("reason_required", _("Give a reason."), field="reason")
    table, sheet = lock_table(table_id)
    before = sheet.status
    sheet.status = ScoreSheet.Status.OPEN
    sheet.version += 1
    sheet.save()
    record_audit(
        table, None, "scoring.sheet.reopened", actor, {"status": before}, {"status": "open"}, reason
    )
    return EntryResult(200, _state(table, sheet))


@transaction.atomic
def set_timeout(table_id: int, *, timeout: bool, actor: Actor) -> EntryResult:
    """The referee called time: remaining normal games are struck, forced solos remain."""
    if not actor.is_organizer:
        raise EntryError("forbidden", _("Only organizers can call time."), status=403)
    table, sheet = lock_table(table_id)
    sheet.timeout = timeout
    sheet.version += 1
    sheet.save()
    record_audit(table, None, "scoring.sheet.timeout", actor, None, {"timeout": timeout})
    return EntryResult(200, _state(table, sheet))


@transaction.atomic
def call_time(series: Series, *, actor: Actor) -> int:
    """Time is up for the whole series (TSR 8.5.1): every table that has not finished gets
    the time-out flag. Returns the number of tables concerned."""
    if series.status != Series.Status.RUNNING:
        raise EntryError("series_not_running", _("This series is not running."))
    count = 0
    for table in series.tables.all():
        sheet = get_sheet(table)
        if not sheet.timeout and sheet.status == ScoreSheet.Status.OPEN:
            set_timeout(table.pk, timeout=True, actor=actor)
            count += 1
    return count
