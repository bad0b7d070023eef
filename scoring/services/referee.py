"""Referee calls (Schiedsrichterruf): a table's captain calls the referee with a short
reason, a referee of the tournament's club takes the call and rules it. Where the
interruption cost time the ruling grants the table Nachspielzeit (TSR 8.5.1) through
``scoring.services.clock.extend_table``, a deduction through
``scoring.services.deductions.add_deduction``, and a correction of the game concerned
through ``scoring.services.entry.save_game``: all in the ruling's one transaction.

Who may: the captain of the table (his link) calls and withdraws; the club's referees,
owners and organizers (``tournaments.permissions.may_referee``) take and rule. Every step
is in the change log (``scoring.referee.*``).

One open call per table (the database's constraint ``referee_call_one_open``): calling
again while one is open, a double tap or a retried request whose answer was lost, answers
the open call and writes nothing. A call and a ruling may carry an idempotency key (the
API's ``Idempotency-Key``), kept on their change log entry like a game's: the same request
again, even after the call was ruled, answers that call and writes nothing; the same key
with other input is refused (``idempotency_key_reused``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from scoring.models import MAX_CALL_REASON, AuditEntry, Game, RefereeCall
from scoring.services.clock import MAX_REASON, extend_table
from scoring.services.deductions import add_deduction
from scoring.services.entry import earlier_with_key, fingerprint, save_game
from tournaments.models import Registration, Table
from tournaments.permissions import may_referee
from tournaments.services.lifecycle import require_running

#: The longest ruling kept (free text).
MAX_RULING = 2000


@dataclass(frozen=True)
class CallOutcome:
    """The call after a step. ``created``: this request made the call (False: it found the
    one already open, a double tap or a retry)."""

    call: RefereeCall
    created: bool = False
    replayed: bool = False  # the same request again (its idempotency key): nothing written


@dataclass(frozen=True)
class DeductionOrder:
    """A deduction the ruling imposes (TSR 9.7): the seat at the table and the points
    (negative)."""

    seat: int
    points: int


# --- reading ---------------------------------------------------------------------------


def open_call(table: Table) -> RefereeCall | None:
    """The table's open call (called or taken), if any."""
    return RefereeCall.objects.filter(table_id=table.pk, status__in=RefereeCall.OPEN).first()


def concerned_game(call: RefereeCall, games: list[Game] | None = None) -> int | None:
    """The number of the game a call concerns: the one the captain named, else the first
    game entered at the table after the call; None while there is none."""
    if call.game_number:
        return call.game_number
    if games is None:
        first = (
            Game.objects.filter(table_id=call.table_id, created_at__gte=call.called_at)
            .order_by("number")
            .values_list("number", flat=True)
            .first()
        )
        return first
    after = [g.number for g in games if g.created_at >= call.called_at]
    return min(after) if after else None


def provisional_numbers(table: Table, games: list[Game]) -> set[int]:
    """The games of the table shown as provisional ("vorläufig"): the game concerned by
    its open call, if it has been entered. Derived, nothing stored: the ruling (or the
    withdrawal) ends the call and with it the mark."""
    call = open_call(table)
    if call is None:
        return set()
    number = concerned_game(call, games)
    entered = {g.number for g in games}
    return {number} if number in entered else set()


# --- the steps -------------------------------------------------------------------------


def _captain_of(table: Table, actor: Actor, link: str) -> None:
    """The captain acts for his own table only: through its link (compared in constant
    time); an account must be allowed to handle the tournament's calls."""
    if actor.via.account:
        _referee(table, actor)
        return
    if not link or not secrets.compare_digest(link, table.captain_token):
        raise ServiceError(
            "not_your_table",
            _("Only this table's captain can call the referee for it."),
            refusal=Refusal.FORBIDDEN,
        )


def _referee(table: Table, actor: Actor) -> None:
    if not (actor.via.account and actor.user is not None):
        raise ServiceError(
            "forbidden", _("Only a referee can handle calls."), refusal=Refusal.FORBIDDEN
        )
    if not may_referee(actor.user, table.series.tournament):
        raise ServiceError(
            "forbidden",
            _("You are not a referee of this tournament."),
            refusal=Refusal.FORBIDDEN,
        )


def _replayed(table: Table, key: str | None, sent: dict[str, Any]) -> RefereeCall | None:
    """The call an earlier request with this key and input made or ruled, if any. A table's
    keys are one set, shared with its games (the database keeps them unique per table)."""
    entry = earlier_with_key(AuditEntry.objects.filter(table_id=table.pk), key, sent)
    if entry is None:
        return None
    pk = entry.after.get("call") if isinstance(entry.after, dict) else None
    found = RefereeCall.objects.filter(pk=pk).first() if isinstance(pk, int) else None
    if found is None:  # the key belongs to a game or a clock change of this table
        raise ServiceError(
            "idempotency_key_reused",
            _("This idempotency key was already used for a different entry."),
            field="Idempotency-Key",
        )
    return found


def _audit(
    call: RefereeCall,
    action: str,
    actor: Actor,
    after: dict[str, Any],
    *,
    key: str | None = None,
    sent: dict[str, Any] | None = None,
) -> None:
    AuditEntry.objects.create(
        tournament_id=call.series.tournament_id,
        table_id=call.table_id,
        game_number=call.ruled_game or call.game_number,
        action=action,
        after={"call": call.pk, "series": call.series.number, **after},
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(call.table.number),
        device=actor.device,
        reason=call.reason,
        idempotency_key=key or "",
        fingerprint=fingerprint(sent) if key else "",
    )


def _locked(call: RefereeCall) -> RefereeCall:
    return (
        RefereeCall.objects.select_for_update()
        .select_related("table__series__tournament", "series")
        .get(pk=call.pk)
    )


def _still_open(call: RefereeCall) -> None:
    if not call.is_open:
        raise ServiceError(
            "call_closed",
            _("This call has already been ruled or withdrawn."),
            refusal=Refusal.CONFLICT,
        )


@transaction.atomic
def call_referee(
    table: Table,
    *,
    reason: str,
    actor: Actor,
    link: str = "",
    game_number: int | None = None,
    idempotency_key: str | None = None,
) -> CallOutcome:
    """The captain calls the referee to his table. While a call of the table is open the
    open one is the answer (a double tap, a retry): nothing is written twice. A request
    with the key of an earlier one answers that one's call, whatever became of it."""
    _captain_of(table, actor, link)
    sent = {"action": "call", "reason": reason, "game": game_number}
    earlier = _replayed(table, idempotency_key, sent)
    if earlier is not None:
        return CallOutcome(earlier, created=True, replayed=True)
    require_running(table.series)
    existing = open_call(table)
    if existing is not None:
        return CallOutcome(existing)
    reason = " ".join(reason.split())
    if not reason or len(reason) > MAX_CALL_REASON:
        raise ServiceError(
            "reason_required",
            _("Say in a few words why (at most %(max)d characters).") % {"max": MAX_CALL_REASON},
            field="reason",
        )
    if game_number is not None and not 1 <= game_number <= 99:
        raise ServiceError("game_number", _("No such game."), field="game_number")
    try:
        with transaction.atomic():
            call = RefereeCall.objects.create(
                table=table,
                series=table.series,
                game_number=game_number,
                reason=reason,
                called_at=timezone.now(),
                called_seat=actor.seat,
            )
    except IntegrityError:  # the same table called at the same moment: one call
        found = open_call(table)
        if found is None:
            raise
        return CallOutcome(found)
    call.table = table
    _audit(
        call, "scoring.referee.called", actor, {"game": game_number},
        key=idempotency_key, sent=sent,
    )  # fmt: skip
    return CallOutcome(call, created=True)


@transaction.atomic
def take_call(call: RefereeCall, *, actor: Actor) -> RefereeCall:
    """A referee takes the call ("unterwegs"). Two referees taking it at once: one takes
    it, the other is told who did; the same referee again is a repeat and changes nothing."""
    call = _locked(call)
    _referee(call.table, actor)
    _still_open(call)
    if call.status == RefereeCall.Status.TAKEN:
        if call.taken_by_id == actor.user.pk:
            return call
        name = call.taken_by.get_username() if call.taken_by else ""
        raise ServiceError(
            "already_taken",
            _("%(name)s has already taken this call.") % {"name": name or _("Another referee")},
            refusal=Refusal.CONFLICT,
            data={"taken_by": name},
        )
    call.status = RefereeCall.Status.TAKEN
    call.taken_by = actor.user
    call.taken_at = timezone.now()
    call.save(update_fields=["status", "taken_by", "taken_at"])
    _audit(call, "scoring.referee.taken", actor, {})
    return call


@transaction.atomic
def rule_call(
    call: RefereeCall,
    *,
    ruling: str,
    actor: Actor,
    extension_minutes: int = 0,
    deduction: DeductionOrder | None = None,
    correction: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
) -> RefereeCall:
    """The referee's ruling, in one transaction: the ruling's text; Nachspielzeit for the
    table when the interruption cost time (``extend_table``); a deduction (TSR 9.7,
    ``add_deduction``); the game concerned confirmed as entered, or corrected
    (``correction``: the game's facts, through ``save_game``, the correction use case).
    A call not yet taken is taken by the ruling referee; one another referee took is his
    to rule. A request with the key of an earlier ruling answers that ruled call."""
    call = _locked(call)
    table = call.table
    _referee(table, actor)
    sent = {
        "action": "rule", "call": call.pk, "ruling": ruling, "minutes": extension_minutes,
        "deduction": [deduction.seat, deduction.points] if deduction else None,
        "correction": correction,
    }  # fmt: skip
    earlier = _replayed(table, idempotency_key, sent)
    if earlier is not None:
        return earlier
    _still_open(call)
    if call.status == RefereeCall.Status.TAKEN and call.taken_by_id != actor.user.pk:
        raise ServiceError(
            "taken_by_other",
            _("Another referee has taken this call."),
            refusal=Refusal.CONFLICT,
        )
    ruling = ruling.strip()
    if not ruling or len(ruling) > MAX_RULING:
        raise ServiceError(
            "ruling_required",
            _("Write down the ruling (at most %(max)d characters).") % {"max": MAX_RULING},
            field="ruling",
        )
    now = timezone.now()
    number = concerned_game(call)
    exists = number is not None and Game.objects.filter(table=table, number=number).exists()
    if correction is not None:
        if not exists:
            raise ServiceError("no_game", _("There is no game to correct yet."), field="verdict")
        save_game(table, correction, number=number, actor=actor, reason=ruling[:300])
    if extension_minutes:
        extend_table(
            table,
            minutes=extension_minutes,
            reason=(_("Referee call: %(reason)s") % {"reason": call.reason})[:MAX_REASON],
            actor=actor,
        )
    if deduction is not None:
        seat = table.seats.filter(position=deduction.seat).select_related("registration")
        registration: Registration | None = next((s.registration for s in seat), None)
        if registration is None:
            raise ServiceError("no_seat", _("Nobody sits on this seat."), field="deduction_seat")
        call.deduction = add_deduction(
            table.series, registration, deduction.points, ruling[:300], actor
        )
    if call.status == RefereeCall.Status.CALLED:
        call.taken_by, call.taken_at = actor.user, now
    call.status = RefereeCall.Status.RULED
    call.ruling = ruling
    call.ruled_by = actor.user
    call.ruled_at = now
    call.extension_minutes = extension_minutes
    call.ruled_game = number if exists else None
    if exists:
        # Corrected by this ruling, or on the sheet (the same correction use case) while
        # the call was open: the log says so.
        corrected = (
            correction is not None
            or AuditEntry.objects.filter(
                table_id=table.pk,
                game_number=number,
                action="scoring.game.corrected",
                created_at__gte=call.called_at,
            ).exists()
        )
        call.verdict = RefereeCall.Verdict.CORRECTED if corrected else RefereeCall.Verdict.CONFIRMED
    call.save()
    _audit(
        call,
        "scoring.referee.ruled",
        actor,
        {
            "ruling": ruling,
            "minutes": extension_minutes,
            "game": call.ruled_game,
            "verdict": call.verdict,
            "deduction": deduction.points if deduction else None,
        },
        key=idempotency_key,
        sent=sent,
    )
    return call


@transaction.atomic
def withdraw_call(call: RefereeCall, *, actor: Actor, link: str = "") -> RefereeCall:
    """The captain withdraws his call (settled at the table); a game it made provisional
    stands as entered. Withdrawing again changes nothing."""
    call = _locked(call)
    _captain_of(call.table, actor, link)
    if call.status == RefereeCall.Status.WITHDRAWN:
        return call
    _still_open(call)
    call.status = RefereeCall.Status.WITHDRAWN
    call.withdrawn_at = timezone.now()
    call.save(update_fields=["status", "withdrawn_at"])
    _audit(call, "scoring.referee.withdrawn", actor, {})
    return call
