"""Entering and correcting games of a table's score sheet.

One function per use case; each locks the table row, checks the sheet's version and the
idempotency key, lets the rules engine validate and score, saves the game with its
per-player scores and writes an audit entry, all in one transaction.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import EngineError
from rules.series import SeriesReport, Severity
from scoring.messages import engine_error_message, finding_message
from scoring.models import AuditEntry, Game, IdempotencyRecord, PlayerScore, ScoreSheet
from scoring.modes import MODES, Mode, Outcome
from scoring.rulesets import ruleset_for
from scoring.services import Actor, EntryError, EntryResult
from tournaments.models import Seat, Series, Table


def fingerprint(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def get_sheet(table: Table) -> ScoreSheet:
    """The table's sheet, created on first use in the tournament's entry mode."""
    sheet, _created = ScoreSheet.objects.get_or_create(
        table=table, defaults={"mode": table.series.tournament.entry_mode}
    )
    return sheet


def lock_table(table_id: int) -> tuple[Table, ScoreSheet]:
    """Lock the table row, and only it: ``no_key`` lets other tables' inserts that reference
    the same series or tournament go ahead (PostgreSQL; other databases lock otherwise or
    not at all). The sheet comes in the same query."""
    table = (
        Table.objects.select_for_update(of=("self",), no_key=True)
        .select_related("series__tournament", "sheet")
        .get(pk=table_id)
    )
    try:
        return table, table.sheet
    except ScoreSheet.DoesNotExist:
        return table, get_sheet(table)


def mode_of(sheet: ScoreSheet) -> Mode:
    return MODES[sheet.mode]


def table_size(table: Table) -> int:
    return table.seats.count()


def stored_records(table: Table) -> list[dict[str, Any]]:
    return [
        {**game.record, "dealer": game.dealer}
        for game in Game.objects.filter(table=table).only("record", "dealer").order_by("number")
    ]


def check_permission(table: Table, sheet: ScoreSheet, actor: Actor, reason: str) -> None:
    status = table.series.status
    if actor.via == "captain":
        if status != Series.Status.RUNNING:
            raise EntryError(
                "series_not_running",
                _("This series is not running; the captain link is not valid now."),
                status=403,
            )
        if sheet.status != ScoreSheet.Status.OPEN:
            raise EntryError(
                "sheet_submitted",
                _("The sheet has been submitted; only the organizers can change it now."),
                status=403,
            )
        return
    if not actor.is_organizer:
        raise EntryError("forbidden", _("You may not change results."), status=403)
    if status not in (Series.Status.RUNNING, Series.Status.CLOSED):
        raise EntryError(
            "series_not_running", _("Results can be entered once the series has started.")
        )
    locked = status == Series.Status.CLOSED or sheet.status != ScoreSheet.Status.OPEN
    if locked and not reason.strip():
        raise EntryError(
            "reason_required",
            _("Give a reason: the sheet is submitted or the series closed."),
            field="reason",
        )


def check_version(sheet: ScoreSheet, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != sheet.version:
        raise EntryError(
            "version_conflict",
            _(
                "The sheet was changed on another device in the meantime. "
                "Your entry was not saved; please check the current state."
            ),
            status=409,
            data={"version": sheet.version},
        )


def _engine_error(error: EngineError) -> EntryError:
    return EntryError(error.code, engine_error_message(error.code, error.field), field=error.field)


def _check_series(
    mode: Mode, records: list[dict[str, Any]], number: int, size: int, table: Table, timeout: bool
) -> SeriesReport:
    """Refuse the game when the series check finds an error in its own row; the report's
    ``next`` is what the table faces after it."""
    ruleset = ruleset_for(table.series.tournament)
    report = mode.validate(records, size, ruleset, timeout=timeout, complete=False)
    for finding in report.findings:
        if finding.game == number and finding.severity is Severity.ERROR:
            field = "dealer" if finding.code == "dealer_wrong" else ""
            raise EntryError(
                finding.code,
                finding_message(finding.code, finding.data),
                field=field,
                data={"finding": finding.to_json()},
            )
    return report


def _save_scores(
    game: Game, table: Table, outcome: Outcome, registrations: dict[int, int], *, new: bool
) -> None:
    if not new:
        PlayerScore.objects.filter(game=game).delete()
    PlayerScore.objects.bulk_create(
        PlayerScore(
            tournament_id=table.series.tournament_id,
            series_id=table.series_id,
            series_number=table.series.number,
            registration_id=registrations[seat],
            game=game,
            seat=seat,
            points=s.points,
            played=s.played,
            solo=s.solo,
            compulsory=s.compulsory,
            won=s.won,
        )
        for seat, s in outcome.seats.items()
    )


def game_json(game: Game) -> dict[str, Any]:
    return {
        "number": game.number,
        "dealer": game.dealer,
        "record": game.record,
        "winner": game.winner or None,
        "value": game.value,
        "scores": game.scores,
        "breakdown": game.breakdown,
        "revision": game.revision,
    }


def sheet_state(table: Table, sheet: ScoreSheet, size: int | None = None) -> dict[str, Any]:
    size = size or table_size(table)
    ruleset = ruleset_for(table.series.tournament)
    nxt = mode_of(sheet).next(stored_records(table), size, ruleset, timeout=sheet.timeout)
    return {
        "version": sheet.version,
        "status": sheet.status,
        "mode": sheet.mode,
        "next": nxt.to_json(),
    }


def situation_before(table: Table, number: int | None) -> dict[str, Any]:
    """What the table faced before game ``number`` (None: the next new game): dealer,
    sitting-out seat, forced player and open compulsory solos, from the rules engine."""
    records = stored_records(table)
    if number is not None:
        records = records[: number - 1]
    sheet = get_sheet(table)
    ruleset = ruleset_for(table.series.tournament)
    return mode_of(sheet).next(records, table_size(table), ruleset, timeout=sheet.timeout).to_json()


def _replay(table: Table, key: str | None, payload: Any) -> EntryResult | None:
    if not key:
        return None
    stored = IdempotencyRecord.objects.filter(table=table, key=key).first()
    if stored is None:
        return None
    if stored.fingerprint != fingerprint(payload):
        raise EntryError(
            "idempotency_key_reused",
            _("This idempotency key was already used for a different entry."),
            status=422,
        )
    return EntryResult(stored.status_code, stored.response, replayed=True)


def _remember(table: Table, key: str | None, payload: Any, result: EntryResult) -> EntryResult:
    if key:
        IdempotencyRecord.objects.create(
            table=table,
            key=key,
            fingerprint=fingerprint(payload),
            status_code=result.status,
            response=result.body,
        )
    return result


def record_audit(
    table: Table, number: int | None, action: str, actor: Actor, before: Any, after: Any,
    reason: str = "",
) -> None:  # fmt: skip
    AuditEntry.objects.create(
        tournament_id=table.series.tournament_id,
        table=table,
        game_number=number,
        action=action,
        before=before,
        after=after,
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(table.number),
        reason=reason,
    )


@transaction.atomic
def save_game(
    table_id: int,
    payload: dict[str, Any],
    *,
    dealer: Any,
    number: int | None = None,
    expected_version: int | None = None,
    actor: Actor,
    reason: str = "",
    idempotency_key: str | None = None,
) -> EntryResult:
    """Enter the next game (``number`` None or the next number) or correct game ``number``."""
    table, sheet = lock_table(table_id)
    request = {"payload": payload, "dealer": dealer, "number": number}
    replay = _replay(table, idempotency_key, request)
    if replay is not None:
        return replay
    check_permission(table, sheet, actor, reason)
    check_version(sheet, expected_version)
    if not isinstance(payload, dict):
        raise EntryError("not_an_object", engine_error_message("not_an_object", ""))
    registrations = dict(Seat.objects.filter(table=table).values_list("position", "registration"))
    size = len(registrations)
    games = list(Game.objects.filter(table=table).order_by("number"))
    records = [{**g.record, "dealer": g.dealer} for g in games]
    next_number = len(records) + 1
    if number is None:
        number = next_number
    if type(number) is not int or not 1 <= number <= next_number:
        raise EntryError(
            "game_number_out_of_range",
            _("Game %(number)s does not exist; the next game is %(next)d.")
            % {"number": number, "next": next_number},
            field="number",
        )
    ruleset = ruleset_for(table.series.tournament)
    mode = mode_of(sheet)
    record_dict = mode.build(payload, dealer, size)
    parsed = mode.parse(record_dict, size, ruleset)
    if isinstance(parsed, EngineError):
        raise _engine_error(parsed)
    if len(parsed.seats) != size:
        raise EntryError(
            "table_size_mismatch",
            _("This table has %(n)d seats.") % {"n": size},
            field="seats",
        )
    candidate = [*records[: number - 1], record_dict, *records[number:]]
    report = _check_series(mode, candidate, number, size, table, sheet.timeout)

    outcome = mode.outcome(parsed, ruleset)
    new = number == next_number
    if new:
        game, before = Game(table=table, series_id=table.series_id, number=number), None
    else:
        game = games[number - 1]
        before = game_json(game)
        game.revision += 1
    game.dealer = parsed.dealer or 0
    game.record = {k: v for k, v in record_dict.items() if k != "dealer"}
    game.winner = outcome.winner
    game.value = outcome.value
    game.scores = outcome.scores
    game.breakdown = outcome.breakdown
    game.save()
    _save_scores(game, table, outcome, registrations, new=new)

    sheet.version += 1
    sheet.last_activity = timezone.now()
    sheet.save(update_fields=["version", "last_activity"])
    action = "scoring.game.created" if new else "scoring.game.corrected"
    record_audit(table, number, action, actor, before, game_json(game), reason)
    state = {
        "version": sheet.version,
        "status": sheet.status,
        "mode": sheet.mode,
        "next": report.next.to_json(),
    }
    body = {"game": game_json(game), "sheet": state}
    return _remember(table, idempotency_key, request, EntryResult(201 if new else 200, body))


def preview_game(table: Table, payload: dict[str, Any], *, dealer: Any) -> dict[str, Any]:
    """Score an entry without saving it (the form shows the value before saving).
    Raises ``EntryError`` exactly as ``save_game`` would for the record itself."""
    sheet = get_sheet(table)
    mode = mode_of(sheet)
    size = table_size(table)
    ruleset = ruleset_for(table.series.tournament)
    parsed = mode.parse(mode.build(payload, dealer, size), size, ruleset)
    if isinstance(parsed, EngineError):
        raise _engine_error(parsed)
    outcome = mode.outcome(parsed, ruleset)
    return {
        "winner": outcome.winner or None,
        "value": outcome.value,
        "scores": outcome.scores,
        "breakdown": outcome.breakdown,
    }


@transaction.atomic
def delete_last_game(
    table_id: int, *, expected_version: int | None, actor: Actor, reason: str = ""
) -> EntryResult:
    """Remove the last row (a mistaken entry); earlier rows are corrected, never removed,
    so that the numbering stays that of the paper sheet."""
    table, sheet = lock_table(table_id)
    check_permission(table, sheet, actor, reason)
    check_version(sheet, expected_version)
    game = Game.objects.filter(table=table).order_by("-number").first()
    if game is None:
        raise EntryError("no_game", _("There is no game to delete."))
    before = game_json(game)
    game.delete()
    sheet.version += 1
    sheet.last_activity = timezone.now()
    sheet.save(update_fields=["version", "last_activity"])
    record_audit(table, before["number"], "scoring.game.deleted", actor, before, None, reason)
    return EntryResult(200, {"sheet": sheet_state(table, sheet)})
