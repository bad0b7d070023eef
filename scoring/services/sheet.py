"""Submitting and confirming a table's sheet; time-out; reopening by the organizers.

Submit and confirm are idempotent by state: a phone that retries after a lost answer is told
that its step is done (``replayed``) and nothing is written twice.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from rules.series import Finding, NextGame, SeriesReport
from scoring.messages import finding_json, finding_message
from scoring.models import ScoreSheet
from scoring.rulesets import ruleset_for
from scoring.services import SheetChanged
from scoring.services.entry import (
    captain_too_early_or_late,
    check_version,
    lock_sheet,
    mode_of,
    record_audit,
    sheet_state,
    stored_rows,
)
from tournaments.models import Series, Table
from tournaments.services.lifecycle import require_running

DONE = (ScoreSheet.Status.SUBMITTED, ScoreSheet.Status.CONFIRMED)


def findings_for(table: Table, sheet: ScoreSheet, *, complete: bool = True) -> tuple[Finding, ...]:
    report = mode_of(sheet).validate(
        stored_rows(table),
        len(table.seats.all()),
        ruleset_for(table.series.tournament),
        timeout=sheet.timeout,
        complete=complete,
    )
    return report.findings


def review(
    table: Table, sheet: ScoreSheet, records: list[dict[str, Any]], size: int
) -> SeriesReport:
    """What comes next and the findings of the sheet so far, from one replay (the findings
    of a complete sheet, missing games and compulsory solos, once it is finished)."""
    mode, ruleset = mode_of(sheet), ruleset_for(table.series.tournament)
    return mode.validate(records, size, ruleset, timeout=sheet.timeout, complete=None)


def after_time_out(
    table: Table, sheet: ScoreSheet, records: list[dict[str, Any]], size: int
) -> NextGame:
    """What the table may still play once its time is up, whether or not time has been
    called yet (TSR 8.5.1): the game in progress, then only the compulsory solos still
    open, as forced solos (``compulsory_open``; ``finished`` when none is)."""
    mode, ruleset = mode_of(sheet), ruleset_for(table.series.tournament)
    return mode.next(records, size, ruleset, timeout=True)


def _changed(table: Table, sheet: ScoreSheet) -> SheetChanged:
    return SheetChanged(sheet_state(table, sheet))


def _forbidden(code: str, message: str) -> ServiceError:
    return ServiceError(code, message, refusal=Refusal.FORBIDDEN)


@transaction.atomic
def submit_sheet(
    table: Table, *, seat: int | None, expected_version: int | None, actor: Actor
) -> SheetChanged:
    sheet = lock_sheet(table)
    if sheet.status in DONE:
        return SheetChanged(sheet_state(table, sheet), replayed=True)
    if table.series.status != Series.Status.RUNNING and not actor.is_organizer:
        raise captain_too_early_or_late(table)
    check_version(sheet, expected_version)
    errors = [f for f in findings_for(table, sheet) if f.is_error]
    if errors:
        first = finding_message(errors[0].code, errors[0].data, errors[0].game)
        raise ServiceError(
            "sheet_has_errors",
            _("The sheet cannot be submitted yet: %(first)s") % {"first": first},
            refusal=Refusal.INVALID,
            data={"findings": [finding_json(f) for f in errors]},
        )
    sheet.status = ScoreSheet.Status.SUBMITTED
    sheet.submitted_at = timezone.now()
    sheet.submitted_by_seat = seat
    sheet.submitted_device = actor.device
    sheet.version += 1
    sheet.save()
    record_audit(table, None, "scoring.sheet.submitted", actor, None, {"seat": seat})
    return _changed(table, sheet)


@transaction.atomic
def confirm_sheet(table: Table, *, seat: int | None, actor: Actor) -> SheetChanged:
    """Another player at the table, on another phone, confirms; or an organizer (only they,
    when the tournament says so)."""
    sheet = lock_sheet(table)
    if sheet.status == ScoreSheet.Status.CONFIRMED:
        return SheetChanged(sheet_state(table, sheet), replayed=True)
    if sheet.status != ScoreSheet.Status.SUBMITTED:
        raise ServiceError(
            "not_submitted",
            _("Only a submitted sheet can be confirmed."),
            refusal=Refusal.INVALID,
        )
    if not actor.is_organizer:
        _check_confirming_player(table, sheet, seat, actor)
    sheet.status = ScoreSheet.Status.CONFIRMED
    sheet.confirmed_at = timezone.now()
    sheet.confirmed_by_seat = seat
    sheet.confirmed_by_user = actor.user if actor.is_organizer else None
    sheet.confirmed_device = actor.device
    sheet.version += 1
    sheet.save()
    record_audit(table, None, "scoring.sheet.confirmed", actor, None, {"seat": seat})
    return _changed(table, sheet)


def _check_confirming_player(
    table: Table, sheet: ScoreSheet, seat: int | None, actor: Actor
) -> None:
    if table.series.tournament.confirmation == "organizer":
        raise _forbidden(
            "organizers_confirm", _("In this tournament the organizers confirm the sheets.")
        )
    if table.series.status != Series.Status.RUNNING:
        raise captain_too_early_or_late(table)
    if seat is None or not 1 <= seat <= len(table.seats.all()):
        raise ServiceError("seat_required", _("Choose your seat."), field="seat")
    if seat == sheet.submitted_by_seat:
        raise ServiceError(
            "same_player",
            _("Another player at the table must confirm, not the one who submitted."),
            field="seat",
        )
    if not actor.device:
        raise ServiceError(
            "device_required",
            _("Confirm on your own phone: this browser does not keep cookies."),
            refusal=Refusal.INVALID,
        )
    if actor.device == sheet.submitted_device:
        raise ServiceError(
            "same_device",
            _("Confirm on another phone than the one the sheet was submitted from."),
            refusal=Refusal.INVALID,
        )


@transaction.atomic
def reopen_sheet(table: Table, *, actor: Actor, reason: str) -> SheetChanged:
    if not actor.is_organizer:
        raise _forbidden("forbidden", _("Only organizers can reopen a sheet."))
    if not reason.strip():
        raise ServiceError("reason_required", _("Give a reason."), field="reason")
    sheet = lock_sheet(table)
    before = sheet.status
    sheet.status = ScoreSheet.Status.OPEN
    sheet.version += 1
    sheet.save()
    record_audit(
        table, None, "scoring.sheet.reopened", actor, {"status": before}, {"status": "open"}, reason
    )
    return _changed(table, sheet)


@transaction.atomic
def set_timeout(table: Table, *, timeout: bool, actor: Actor) -> SheetChanged:
    """The referee called time: remaining normal games are struck, forced solos remain."""
    if not actor.is_organizer:
        raise _forbidden("forbidden", _("Only organizers can call time."))
    sheet = lock_sheet(table)
    sheet.timeout = timeout
    sheet.version += 1
    sheet.save()
    record_audit(table, None, "scoring.sheet.timeout", actor, None, {"timeout": timeout})
    return _changed(table, sheet)


@transaction.atomic
def call_time(series: Series, *, actor: Actor) -> int:
    """Time is up for the whole series (TSR 8.5.1): every table that has not finished gets
    the time-out flag. Returns the number of tables concerned."""
    require_running(series, refusal=Refusal.INVALID)
    if series.time_called_at is None:
        series.time_called_at = timezone.now()
        series.save(update_fields=["time_called_at"])
    count = 0
    for table in series.tables.select_related("series__tournament"):
        sheet = lock_sheet(table)
        if not sheet.timeout and sheet.status == ScoreSheet.Status.OPEN:
            set_timeout(table, timeout=True, actor=actor)
            count += 1
    return count
