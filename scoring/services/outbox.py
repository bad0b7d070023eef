"""Games a phone typed without a connection (its outbox) and sends later, one at a time.

Each goes through ``entry.save_game`` like a game entered on the page: the rules engine
completes and scores it, the key makes a retry harmless. What the outbox adds: the number the
phone believes the game has is checked under the sheet's lock (``expected_number``), so a
number another device took is never corrected by a late phone; and a game the sheet cannot
take is kept, with its facts, as an ``OutboxConflict`` for the organizers, never dropped and
never written over anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from scoring.models import Game, OutboxConflict
from scoring.services import GameEntered
from scoring.services.entry import current_sheet, record_audit, save_game
from tournaments.models import Table

#: Refusals that keep the game as a conflict (the facts were fine; the sheet could not take
#: them); every other refusal is the facts' own fault and goes back to the phone.
CONFLICT_CODES = frozenset(OutboxConflict.Reason.values)


@dataclass(frozen=True)
class Synced:
    """What became of one game of an outbox: ``entered`` (accepted or replayed), else the
    refusal, with the conflict kept for the organizers when it is one."""

    entered: GameEntered | None = None
    error: ServiceError | None = None
    conflict: OutboxConflict | None = None

    @property
    def status(self) -> str:
        if self.entered is not None:
            return "replayed" if self.entered.replayed else "accepted"
        return "conflict" if self.conflict is not None else "refused"


def sheet_position(table: Table) -> tuple[int, int]:
    """The sheet's version and the number the next new game gets (every answer says both)."""
    sheet = current_sheet(table)
    return sheet.version, Game.objects.filter(table=table).count() + 1


def sync_game(
    table: Table,
    facts: Any,
    *,
    fields: dict[str, Any],
    key: str,
    number: int,
    expected_version: int | None,
    actor: Actor,
    review: bool = False,
) -> Synced:
    """Enter the outbox's game ``number`` (``facts`` as the engine reads them, ``fields`` as
    the phone posted them). A refusal of the facts raises nothing: it is returned, and when
    the sheet could not take them they are kept as a conflict. ``review`` as for
    ``save_game``."""
    try:
        entered = save_game(
            table,
            facts,
            expected_version=expected_version,
            actor=actor,
            idempotency_key=key,
            expected_number=number,
            review=review,
        )
    except ServiceError as exc:
        if exc.code not in CONFLICT_CODES:
            return Synced(error=exc)
        return Synced(error=exc, conflict=keep_conflict(table, fields, key, number, actor, exc))
    return Synced(entered=entered)


def keep_conflict(
    table: Table, fields: dict[str, Any], key: str, number: int, actor: Actor, error: ServiceError
) -> OutboxConflict:
    """The conflict of this key, kept once (a resend finds the first one) with an audit
    entry."""
    found = OutboxConflict.objects.filter(table=table, idempotency_key=key).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            conflict = OutboxConflict.objects.create(
                tournament_id=table.series.tournament_id,
                table=table,
                number=number,
                idempotency_key=key,
                device=actor.device,
                facts=fields,
                reason=error.code,
            )
            record_audit(
                table,
                number,
                "scoring.outbox.conflict",
                actor,
                None,
                {"reason": error.code, "key": key, "facts": fields},
            )
    except IntegrityError:  # the same key at the same moment: the other request kept it
        return OutboxConflict.objects.get(table=table, idempotency_key=key)
    return conflict


def resolve_conflict(conflict: OutboxConflict, *, actor: Actor) -> OutboxConflict:
    """An organizer marks a kept game as dealt with (entered through the sheet pages, or not
    needed). Only organizers; once."""
    if not actor.is_organizer:
        raise ServiceError("forbidden", _("You may not change results."), refusal=Refusal.FORBIDDEN)
    with transaction.atomic():
        locked = OutboxConflict.objects.select_for_update().get(pk=conflict.pk)
        if locked.resolved_at is None:
            locked.resolved_at = timezone.now()
            locked.resolved_by = actor.user
            locked.save(update_fields=["resolved_at", "resolved_by"])
            record_audit(
                locked.table,
                locked.number,
                "scoring.outbox.resolved",
                actor,
                {"reason": locked.reason, "key": locked.idempotency_key},
                None,
            )
    return locked
