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
from rules.record import GameRecord, parse_record
from rules.scoring import score
from rules.series import Severity, next_game, validate_series
from scoring.messages import engine_error_message, finding_message
from scoring.models import AuditEntry, Game, IdempotencyRecord, PlayerScore, ScoreSheet
from scoring.rulesets import ruleset_for
from scoring.services import Actor, EntryError, EntryResult
from tournaments.models import Seat, Series, Table

#: Fields of the game record a client may send (number and dealer travel beside them).
RECORD_FIELDS = frozenset(
    (
        "contract", "solo", "compulsory", "forced", "hochzeit_partner_trick", "seats",
        "sitting_out", "re", "announcements", "re_points", "re_tricks", "extras", "penalties",
        "deductions", "bock", "not_played", "scores",
    )
)  # fmt: skip


def fingerprint(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def lock_table(table_id: int) -> tuple[Table, ScoreSheet]:
    table = Table.objects.select_for_update().select_related("series__tournament").get(pk=table_id)
    sheet, _created = ScoreSheet.objects.get_or_create(table=table)
    return table, sheet


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


def build_record(payload: dict[str, Any], dealer: Any, size: int) -> dict[str, Any]:
    """The game record as the engine wants it: the table's seats and, at a five-player
    table, the dealer sitting out, unless the client sent them."""
    unknown = sorted(set(payload) - RECORD_FIELDS)
    if unknown:
        raise EntryError(
            "unknown_field", engine_error_message("unknown_field", unknown[0]), field=unknown[0]
        )
    record = dict(payload)
    record.setdefault("seats", list(range(1, size + 1)))
    if size == 5 and "sitting_out" not in record:
        record["sitting_out"] = dealer
    record["dealer"] = dealer
    return record


def _engine_error(error: EngineError) -> EntryError:
    return EntryError(error.code, engine_error_message(error.code, error.field), field=error.field)


def _series_errors(
    records: list[dict[str, Any]], number: int, size: int, table: Table, timeout: bool
) -> None:
    """Refuse the game when the series check finds an error in its own row."""
    ruleset = ruleset_for(table.series.tournament)
    report = validate_series(records, size, ruleset, timeout=timeout, complete=False)
    for finding in report.findings:
        if finding.game == number and finding.severity is Severity.ERROR:
            field = "dealer" if finding.code == "dealer_wrong" else ""
            raise EntryError(
                finding.code,
                finding_message(finding.code, finding.data),
                field=field,
                data={"finding": finding.to_json()},
            )


def _save_scores(game: Game, table: Table, record: GameRecord) -> None:
    seats = {
        seat.position: seat.registration_id
        for seat in Seat.objects.filter(table=table).only("position", "registration_id")
    }
    PlayerScore.objects.filter(game=game).delete()
    soloist = record.soloist if record.contract.value == "solo" else None
    winner = game.winner
    PlayerScore.objects.bulk_create(
        PlayerScore(
            tournament_id=table.series.tournament_id,
            series_id=table.series_id,
            series_number=table.series.number,
            registration_id=seats[seat],
            game=game,
            seat=seat,
            points=int(game.scores.get(str(seat), 0)),
            played=not record.not_played and seat != record.sitting_out,
            solo=seat == soloist,
            compulsory=seat == soloist and record.compulsory,
            won=bool(winner)
            and ((seat in record.re) == (winner == "re"))
            and seat != record.sitting_out,
        )
        for seat in record.seats
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
    records = stored_records(table)
    ruleset = ruleset_for(table.series.tournament)
    return {
        "version": sheet.version,
        "status": sheet.status,
        "next": next_game(records, size, ruleset, timeout=sheet.timeout).to_json(),
    }


def situation_before(table: Table, number: int | None) -> dict[str, Any]:
    """What the table faced before game ``number`` (None: the next new game): dealer,
    sitting-out seat, forced player and open compulsory solos, from the rules engine."""
    records = stored_records(table)
    if number is not None:
        records = records[: number - 1]
    sheet = ScoreSheet.objects.filter(table=table).only("timeout").first()
    ruleset = ruleset_for(table.series.tournament)
    timeout = bool(sheet and sheet.timeout)
    return next_game(records, table_size(table), ruleset, timeout=timeout).to_json()


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
    size = table_size(table)
    records = stored_records(table)
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
    record_dict = build_record(payload, dealer, size)
    record = parse_record(record_dict, ruleset, require_dealer=True)
    if isinstance(record, EngineError):
        raise _engine_error(record)
    if len(record.seats) != size:
        raise EntryError(
            "table_size_mismatch",
            _("This table has %(n)d seats.") % {"n": size},
            field="seats",
        )
    candidate = [*records[: number - 1], record_dict, *records[number:]]
    _series_errors(candidate, number, size, table, sheet.timeout)

    result = score(record, ruleset)
    stored = {k: v for k, v in record_dict.items() if k != "dealer"}
    game = Game.objects.filter(table=table, number=number).first()
    before = game_json(game) if game else None
    if game is None:
        game = Game(table=table, series_id=table.series_id, number=number)
    else:
        game.revision += 1
    game.dealer = record.dealer or 0
    game.record = stored
    game.winner = "" if result.winner is None else result.winner.value
    game.value = result.value
    game.scores = {str(seat): points for seat, points in result.scores.items()}
    game.breakdown = result.to_json()["breakdown"]
    game.save()
    _save_scores(game, table, record)

    sheet.version += 1
    sheet.last_activity = timezone.now()
    sheet.save(update_fields=["version", "last_activity"])
    action = "scoring.game.created" if before is None else "scoring.game.corrected"
    record_audit(table, number, action, actor, before, game_json(game), reason)
    body = {"game": game_json(game), "sheet": sheet_state(table, sheet, size)}
    return _remember(
        table, idempotency_key, request, EntryResult(201 if before is None else 200, body)
    )


def preview_game(table: Table, payload: dict[str, Any], *, dealer: Any) -> dict[str, Any]:
    """Score an entry without saving it (the form shows the value before saving).
    Raises ``EntryError`` exactly as ``save_game`` would for the record itself."""
    size = table_size(table)
    record = parse_record(
        build_record(payload, dealer, size), ruleset_for(table.series.tournament),
        require_dealer=True,
    )  # fmt: skip
    if isinstance(record, EngineError):
        raise _engine_error(record)
    return score(record, ruleset_for(table.series.tournament)).to_json()


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
