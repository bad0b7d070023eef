"""Entering, correcting and deleting games of a table's score sheet.

One function per use case. Each locks the table's sheet row and checks the version and the
state on that row as read under the lock, so two phones writing at once cannot both be
accepted: the second waits, then finds the version moved and gets a conflict. The client
sends only the game's facts; the rules engine completes the record from one replay of the
sheet (design decision 8), checks and scores it; the game, its per-player scores and an
audit entry are saved in the same transaction.

Retries: the audit entry keeps the request's Idempotency-Key, a fingerprint of what the
client sent and the answer. A request that finds its version stale or the sheet moved on
looks its key up first and answers the original outcome; a unique constraint on the key
turns a concurrent duplicate into the same lookup.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import IntegrityError, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from common.sql import prepared_cursor
from rules.errors import EngineError
from rules.ruleset import RuleSet
from rules.series import Completion, Finding, Severity
from scoring.doors import CAPTAIN
from scoring.messages import engine_error_message, finding_message
from scoring.models import AuditEntry, Game, PlayerScore, ScoreSheet
from scoring.modes import MODES, Mode, Outcome
from scoring.reads import stored_sheet
from scoring.rulesets import ruleset_for
from scoring.services import GameEntered, SheetChanged
from scoring.services.series_totals import (
    NewScore,
    compact,
    lock_ctes,
    refresh_totals,
    save_with_totals,
    sql_values,
)
from scoring.signals import ASKED
from tournaments.models import Seat, Series, Table
from tournaments.services.lifecycle import series_not_running

T = TypeVar("T", GameEntered, SheetChanged)


def fingerprint(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def current_sheet(table: Table) -> ScoreSheet:
    """The table's sheet for reading; an unsaved empty one before the first entry (a GET
    never writes)."""
    sheet = stored_sheet(table)  # never a cached copy
    return sheet or ScoreSheet(table=table, mode=table.series.tournament.entry_mode)


def lock_sheet(table: Table) -> ScoreSheet:
    """The sheet row, locked and read under the lock (created on first use). Nothing
    references the sheet, so the lock holds up no other table's inserts."""
    locked = ScoreSheet.objects.select_for_update(no_key=True)
    sheet = next(iter(locked.filter(table_id=table.pk)), None)
    if sheet is None:
        ScoreSheet.objects.get_or_create(
            table=table, defaults={"mode": table.series.tournament.entry_mode}
        )
        sheet = locked.get(table_id=table.pk)
    sheet.table = table
    return sheet


@dataclass
class Claim:
    """A sheet locked for one change, with what the change needs: the seats' registrations,
    the stored rows (records with their dealer), and whether the version is already bumped."""

    sheet: ScoreSheet
    registrations: dict[int, int]
    rows: list[dict[str, Any]]
    bumped: bool
    #: The answers to the questions of ``totals_changed``'s receivers (``scoring.signals``),
    #: when the claim read them.
    answers: dict[str, Any] | None = None


def claim_sheet(table: Table, expected_version: int | None) -> Claim:
    """Lock the sheet and read what a change needs, after the lock.

    On PostgreSQL, when the client names the version it saw, one statement creates or locks
    the row, moves the version on and returns the seats and rows (``_claim_in_one``); a version
    that matches proves that every change to the sheet committed before that statement
    began, so what it returns is current. A refusal later rolls the bump back. Otherwise,
    the lock first and fresh reads after it."""
    if expected_version is not None and connection.vendor == "postgresql":
        return _claim_in_one(table)
    sheet = lock_sheet(table)
    seats = Seat.objects.filter(table=table).order_by().values_list("position", "registration")
    return Claim(sheet, dict(seats), stored_rows(table), bumped=False)


def _claim_in_one(table: Table) -> Claim:
    """The sheet row, created for the table's first entry (an upsert), locked and its
    version moved on, with the seats and the stored rows: one statement. It also creates
    and locks the seated players' totals (after the sheet: ``series_totals.lock_ctes``),
    which ``_save_scores`` recomputes."""
    now = timezone.now()
    params = {
        **sql_values(table.series, []),
        "table": table.pk, "open": ScoreSheet.Status.OPEN.value,
        "mode": table.series.tournament.entry_mode, "now": now,
    }  # fmt: skip
    with prepared_cursor() as cursor:
        cursor.execute(_claim_sql(), params)
        found = cursor.fetchone()
    pk, version, status, mode, timeout, unconfirmed, seat_pairs, game_pairs = found[:8]
    sheet = ScoreSheet(
        id=pk, table_id=table.pk, version=version, status=status, mode=mode, timeout=timeout,
        closed_unconfirmed=unconfirmed, last_activity=now,
    )  # fmt: skip
    registrations = {int(position): int(reg) for position, reg in seat_pairs}
    rows = [{**record, "dealer": dealer} for record, dealer in game_pairs]
    answers = dict(zip(ASKED, found[8:], strict=True))
    return Claim(sheet, registrations, rows, bumped=True, answers=answers)


@functools.cache
def _claim_sql() -> str:
    """The statement of ``_claim_in_one``, built once, with the questions of
    ``totals_changed``'s receivers (``scoring.signals.ASKED``) as its last columns."""
    sheets, seats, games = (m._meta.db_table for m in (ScoreSheet, Seat, Game))
    seated = f"(SELECT registration_id AS r FROM {seats} WHERE table_id = %(table)s) AS players"
    sql = f"""
        WITH claimed AS (
            INSERT INTO {sheets} AS sheet (table_id, version, status, mode, timeout,
                closed_unconfirmed, submitted_device, confirmed_device, last_activity)
            VALUES (%(table)s, 1, %(open)s, %(mode)s, false, false, '', '', %(now)s)
            ON CONFLICT (table_id) DO UPDATE
                SET version = sheet.version + 1, last_activity = EXCLUDED.last_activity
            RETURNING id, version, status, mode, timeout, closed_unconfirmed
        ), {lock_ctes(seated, after="(SELECT count(*) FROM claimed) > 0")}
        SELECT claimed.*,
          (SELECT coalesce(json_agg(json_build_array(s.position, s.registration_id)), '[]')
             FROM {seats} s WHERE s.table_id = %(table)s),
          (SELECT coalesce(json_agg(json_build_array(g.record, g.dealer) ORDER BY g.number),
                           '[]')
             FROM {games} g WHERE g.table_id = %(table)s)
          {"".join(f", ({asked})" for asked in ASKED.values())}
          FROM claimed
    """  # table names come from the models; every value is a parameter
    return compact(sql)


def mode_of(sheet: ScoreSheet) -> Mode:
    return MODES[sheet.mode]


def stored_rows(table: Table) -> list[dict[str, Any]]:
    """The sheet's rows as the engine replays them: each record with its dealer."""
    return [
        {**record, "dealer": dealer}
        for record, dealer in Game.objects.filter(table=table)
        .order_by("number")
        .values_list("record", "dealer")
    ]


def captain_too_early_or_late(table: Table) -> ServiceError:
    """A captain's write outside the running series (organizers may correct afterwards)."""
    return series_not_running(
        table.series, refusal=Refusal.FORBIDDEN, hint=_("The captain link is not valid now.")
    )


def check_permission(table: Table, sheet: ScoreSheet, actor: Actor, reason: str) -> None:
    """Captains write to an open sheet of a running series; organizers also later, with a
    reason once the sheet is submitted or the series closed."""
    status = table.series.status
    if actor.via == CAPTAIN:
        if status != Series.Status.RUNNING:
            raise captain_too_early_or_late(table)
        if sheet.status != ScoreSheet.Status.OPEN:
            raise ServiceError(
                "sheet_submitted",
                _("The sheet has been submitted; only the organizers can change it now."),
                refusal=Refusal.FORBIDDEN,
            )
        return
    if not actor.is_organizer:
        raise ServiceError("forbidden", _("You may not change results."), refusal=Refusal.FORBIDDEN)
    if status not in (Series.Status.RUNNING, Series.Status.CLOSED):
        raise series_not_running(
            table.series,
            refusal=Refusal.INVALID,
            hint=_("Results can be entered once the series has started."),
        )
    locked = status == Series.Status.CLOSED or sheet.status != ScoreSheet.Status.OPEN
    if locked and not reason.strip():
        raise ServiceError(
            "reason_required",
            _("Give a reason: the sheet is submitted or the series closed."),
            field="reason",
        )


def check_version(sheet: ScoreSheet, expected_version: int | None, *, bumped: bool = False) -> None:
    """The version the client saw must be the sheet's (before this change's bump)."""
    current = sheet.version - 1 if bumped else sheet.version
    if expected_version is not None and expected_version != current:
        raise ServiceError(
            "version_conflict",
            _(
                "The sheet was changed on another device in the meantime. "
                "Your entry was not saved; please check the current state."
            ),
            refusal=Refusal.CONFLICT,
            data={"version": current},
        )


def check_next_number(expected: int, next_number: int) -> None:
    """A new game the client numbered ``expected`` must be the sheet's next one: a lower
    number was taken by another device meanwhile; a higher one means an earlier game of the
    client never arrived (games are accepted in order only)."""
    data = {"next_number": next_number}
    if expected < next_number:
        raise ServiceError(
            "number_taken",
            _(
                "Game %(number)d has already been entered on another device; "
                "this entry was kept for the organizers."
            )
            % {"number": expected},
            refusal=Refusal.CONFLICT,
            data=data,
        )
    if expected > next_number:
        raise ServiceError(
            "out_of_order",
            _("Game %(number)d cannot be saved before game %(next)d.")
            % {"number": expected, "next": next_number},
            refusal=Refusal.CONFLICT,
            data=data,
        )


def engine_error(error: EngineError) -> ServiceError:
    return ServiceError(
        error.code,
        engine_error_message(error.code, error.field),
        field=error.field,
        refusal=Refusal.INVALID,
    )


def finding_error(finding: Finding) -> ServiceError:
    field = "dealer" if finding.code == "dealer_wrong" else ""
    return ServiceError(
        finding.code,
        finding_message(finding.code, finding.data),
        field=field,
        refusal=Refusal.INVALID,
        data={"finding": finding.to_json()},
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


def state_json(sheet: ScoreSheet, nxt: dict[str, Any]) -> dict[str, Any]:
    return {
        "version": sheet.version,
        "status": sheet.status,
        "mode": sheet.mode,
        "closed_unconfirmed": sheet.closed_unconfirmed,
        "next": nxt,
    }


def sheet_state(table: Table, sheet: ScoreSheet) -> dict[str, Any]:
    """The sheet's version, status and what comes next (one replay)."""
    size = len(table.seats.all())
    nxt = mode_of(sheet).next(
        stored_rows(table), size, ruleset_for(table.series.tournament), timeout=sheet.timeout
    )
    return state_json(sheet, nxt.to_json())


def record_audit(
    table: Table, number: int | None, action: str, actor: Actor, before: Any, after: Any,
    reason: str = "", *, key: str | None = None, sent: Any = None, response: Any = None,
) -> None:  # fmt: skip
    audit_entry(
        table, number, action, actor, before, after, reason, key=key, sent=sent,
        response=response,
    ).save()  # fmt: skip


def audit_entry(
    table: Table, number: int | None, action: str, actor: Actor, before: Any, after: Any,
    reason: str = "", *, key: str | None = None, sent: Any = None, response: Any = None,
) -> AuditEntry:  # fmt: skip
    """The audit entry of a change of the table's sheet, unsaved."""
    return AuditEntry(
        tournament_id=table.series.tournament_id,
        table=table,
        game_number=number,
        action=action,
        before=before,
        after=after,
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(table.number),
        device=actor.device,
        reason=reason,
        idempotency_key=key or "",
        fingerprint=fingerprint(sent) if key else "",
        response=response if key else None,
    )


def earlier_with_key(
    entries: QuerySet[AuditEntry], key: str | None, sent: Any
) -> AuditEntry | None:
    """The audit entry, among ``entries``, of an earlier request with this key, or None.
    The same key with other input is refused: the client reused a key it should not have."""
    if not key:
        return None
    entry = entries.filter(idempotency_key=key).only("fingerprint", "response").first()
    if entry is not None and entry.fingerprint != fingerprint(sent):
        raise ServiceError(
            "idempotency_key_reused",
            _("This idempotency key was already used for a different entry."),
            field="Idempotency-Key",
        )
    return entry


def replayed(table: Table, key: str | None, sent: Any) -> dict[str, Any] | None:
    """The answer a request with this key got before, or None."""
    entry = earlier_with_key(AuditEntry.objects.filter(table=table), key, sent)
    if entry is None:
        return None
    assert isinstance(entry.response, dict)
    return entry.response


def idempotent(
    table: Table, key: str | None, sent: Any, rebuild: Callable[[dict[str, Any]], T],
    change: Callable[[], T],
) -> T:  # fmt: skip
    """Run ``change``; when it is refused or races a duplicate, answer the original outcome
    of a request with the same key and input instead, if there was one."""
    try:
        return change()
    except (ServiceError, IntegrityError):
        before = replayed(table, key, sent)
        if before is None:
            raise
        return rebuild(before)


def _rebuild_entered(response: dict[str, Any]) -> GameEntered:
    return GameEntered(
        response["game"], response["sheet"], created=response["created"], replayed=True
    )


def _rebuild_changed(response: dict[str, Any]) -> SheetChanged:
    return SheetChanged(response["sheet"], replayed=True)


def save_game(
    table: Table,
    facts: Any,
    *,
    number: int | None = None,
    expected_version: int | None = None,
    actor: Actor,
    reason: str = "",
    idempotency_key: str | None = None,
    expected_number: int | None = None,
    review: bool = False,
) -> GameEntered:
    """Enter the next game (``number`` None or the next number) or correct game ``number``.
    ``facts``: the game as the table reports it; derived fields are completed (and checked
    if sent) by the rules engine. ``expected_number`` (a new game only): the number the
    client believes the next game has; checked under the lock, so a game another device
    entered meanwhile is never corrected by it (``number_taken``, ``out_of_order``).
    ``review``: the answer carries the sheet's report (``GameEntered.report``), read from
    the completion's one replay, so a page can show the sheet without replaying it again."""
    sent = {"action": "game", "number": number, "facts": facts}
    return idempotent(
        table,
        idempotency_key,
        sent,
        _rebuild_entered,
        lambda: _save_game(
            table,
            facts,
            number,
            expected_version,
            actor,
            reason,
            idempotency_key,
            sent,
            expected_number,
            review,
        ),
    )


@transaction.atomic
def _save_game(
    table: Table, facts: Any, number: int | None, expected_version: int | None, actor: Actor,
    reason: str, key: str | None, sent: Any, expected_number: int | None = None,
    review: bool = False,
) -> GameEntered:  # fmt: skip
    claim = claim_sheet(table, expected_version)
    sheet, registrations, rows = claim.sheet, claim.registrations, claim.rows
    check_permission(table, sheet, actor, reason)
    next_number = len(rows) + 1
    if expected_number is not None:
        check_next_number(expected_number, next_number)
    check_version(sheet, expected_version, bumped=claim.bumped)
    if number is None:
        number = next_number
    if type(number) is not int or not 1 <= number <= next_number:
        raise ServiceError(
            "game_number_out_of_range",
            _("Game %(number)s does not exist; the next game is %(next)d.")
            % {"number": number, "next": next_number},
            field="number",
        )
    completion, outcome = _complete(
        table, sheet, rows, facts, number, len(registrations), review=review
    )
    assert completion.data is not None
    new = number == next_number
    if new:
        game, before = Game(table=table, series_id=table.series_id, number=number), None
    else:
        game = Game.objects.get(table=table, number=number)
        before = game_json(game)
        game.revision += 1
    fill_game(game, completion, outcome)
    if not (new and claim.bumped):
        game.save()  # else inserted with its score rows (_save_scores)
    if not claim.bumped:
        _bump(sheet)  # the sheet is locked already (lock_sheet)
    entered = GameEntered(
        game_json(game),
        state_json(sheet, completion.after.to_json()),
        created=new,
        report=completion.report,
    )
    action = "scoring.game.created" if new else "scoring.game.corrected"
    audit = audit_entry(
        table, number, action, actor, before, entered.game, reason,
        key=key, sent=sent, response={**entered.to_json(), "created": new},
    )  # fmt: skip
    _save_scores(
        game, table, outcome, registrations, audit, new=new, locked=claim.bumped,
        answers=claim.answers,
    )  # fmt: skip
    return entered


def _complete(
    table: Table, sheet: ScoreSheet, rows: list[dict[str, Any]], facts: Any, number: int,
    size: int, *, review: bool = False,
) -> tuple[Completion, Outcome]:  # fmt: skip
    """The game completed, checked and scored by the engine, or the refusal."""
    ruleset = ruleset_for(table.series.tournament)
    return score_row(
        mode_of(sheet), ruleset, rows, facts, number, size, timeout=sheet.timeout, review=review
    )


def score_row(
    mode: Mode, ruleset: RuleSet, rows: list[dict[str, Any]], facts: Any, number: int,
    size: int, *, timeout: bool, review: bool = False,
) -> tuple[Completion, Outcome]:  # fmt: skip
    """Row ``number`` of a sheet whose earlier rows are ``rows``, completed, checked and
    scored by the engine, or the refusal (``ServiceError``): what every saved game passes,
    an entry as well as an imported archive's game. ``review``: with the whole sheet's
    report from the same replay (``Completion.report``)."""
    completion = mode.complete(
        rows, facts, size, ruleset, number=number, timeout=timeout, review=review
    )
    if isinstance(completion, EngineError):
        raise engine_error(completion)
    for finding in completion.findings:
        if finding.severity is Severity.ERROR:
            raise finding_error(finding)
    assert completion.record is not None
    return completion, mode.outcome(completion, ruleset)


def fill_game(game: Game, completion: Completion, outcome: Outcome) -> None:
    """Put a completed and scored row into ``game`` (unsaved)."""
    assert completion.data is not None
    dealer = completion.data.get("dealer")
    game.dealer = dealer if isinstance(dealer, int) else 0
    game.record = {k: v for k, v in completion.data.items() if k != "dealer"}
    game.winner = outcome.winner
    game.value = outcome.value
    game.scores = outcome.scores
    game.breakdown = outcome.breakdown


def player_scores(
    game: Game, series: Series, outcome: Outcome, registrations: dict[int, int]
) -> list[PlayerScore]:
    """The score rows of a saved game: one per seat (``registrations``: seat → registration)."""
    return [
        PlayerScore(
            tournament_id=series.tournament_id,
            series_id=series.pk,
            series_number=series.number,
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
    ]


def _save_scores(
    game: Game, table: Table, outcome: Outcome, registrations: dict[int, int],
    audit: AuditEntry, *, new: bool, locked: bool, answers: dict[str, Any] | None = None,
) -> None:  # fmt: skip
    """Replace the game's score rows, recompute the totals of the players concerned and
    save the change's ``audit`` entry. ``locked``: the claim of the sheet locked the seated
    players' totals already (on PostgreSQL); the rows, the totals and the audit entry then
    take one statement, and so does a new ``game`` (unsaved until then). ``answers``: the
    claim's, for the receivers of ``totals_changed``."""
    touched = {registrations[seat] for seat in outcome.seats}
    if not new:
        old = PlayerScore.objects.filter(game=game)
        touched.update(old.values_list("registration_id", flat=True))
        old.delete()
    if locked:
        seated = set(registrations.values())
        rows = [
            NewScore(registrations[seat], seat, s.points, s.played, s.solo, s.compulsory, s.won)
            for seat, s in outcome.seats.items()
        ]
        save_with_totals(table.series, game, rows, sorted(seated), also=audit, answers=answers)
        refresh_totals(table.series, touched - seated)  # rows of players seated no more
    else:
        PlayerScore.objects.bulk_create(player_scores(game, table.series, outcome, registrations))
        refresh_totals(table.series, touched)
        audit.save()


def _bump(sheet: ScoreSheet) -> None:
    sheet.version += 1
    sheet.last_activity = timezone.now()
    sheet.save(update_fields=["version", "last_activity"])


def preview_game(table: Table, facts: Any, *, number: int | None = None) -> dict[str, Any]:
    """Complete and score an entry without saving it (the form shows the value before it is
    saved). Raises ``ServiceError`` as ``save_game`` would for the game itself."""
    sheet = current_sheet(table)
    rows = stored_rows(table)
    if number is None or not 1 <= number <= len(rows):
        number = len(rows) + 1
    size = len(table.seats.all())
    completion, outcome = _complete(table, sheet, rows, facts, number, size)
    return {
        "winner": outcome.winner or None,
        "value": outcome.value,
        "scores": outcome.scores,
        "breakdown": outcome.breakdown,
        "record": completion.data,
    }


def delete_last_game(
    table: Table,
    *,
    number: int | None = None,
    expected_version: int | None,
    actor: Actor,
    reason: str = "",
    idempotency_key: str | None = None,
) -> SheetChanged:
    """Remove the last row (a mistaken entry); earlier rows are corrected, never removed, so
    that the numbering stays that of the paper sheet. ``number``, if given, must be the last
    game's: checked under the lock, so a game entered meanwhile is never the one removed."""
    sent = {"action": "delete", "number": number}
    return idempotent(
        table,
        idempotency_key,
        sent,
        _rebuild_changed,
        lambda: _delete_last(table, number, expected_version, actor, reason, idempotency_key),
    )


@transaction.atomic
def _delete_last(
    table: Table, number: int | None, expected_version: int | None, actor: Actor, reason: str,
    key: str | None,
) -> SheetChanged:  # fmt: skip
    sheet = lock_sheet(table)
    check_permission(table, sheet, actor, reason)
    check_version(sheet, expected_version)
    game = Game.objects.filter(table=table).order_by("-number").first()
    if game is None:
        raise ServiceError("no_game", _("There is no game to delete."), refusal=Refusal.INVALID)
    if number is not None and number != game.number:
        raise ServiceError(
            "not_last_game",
            _("Only the last game can be deleted; correct earlier games instead."),
            refusal=Refusal.CONFLICT,
        )
    before = game_json(game)
    touched = set(game.player_scores.values_list("registration_id", flat=True))
    game.delete()
    refresh_totals(table.series, touched)
    _bump(sheet)
    changed = SheetChanged(sheet_state(table, sheet))
    record_audit(
        table, before["number"], "scoring.game.deleted", actor, before, None, reason,
        key=key, sent={"action": "delete", "number": number}, response=changed.to_json(),
    )  # fmt: skip
    return changed
