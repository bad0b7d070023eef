"""The referee's hand on the clock (TSR 8.5.1): Nachspielzeit for one table, a pause of the
whole hall and its end. Only organizers act; every change is in the audit log.

Retries: a change made with an Idempotency-Key keeps it in its audit entry with a
fingerprint of the request. The same key again for the same action (and table), looked up
under the series lock so two retries cannot both pass, is answered as a replay and writes
nothing; the same key with another request for it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from scoring.models import MAX_EXTENSION_MINUTES, AuditEntry, Extension, Pause
from scoring.services.entry import earlier_with_key, fingerprint
from tournaments.models import Series, Table
from tournaments.services.lifecycle import require_running

MAX_REASON = 200


@dataclass(frozen=True)
class ClockChanged:
    """The clock of ``series`` after a change. ``replayed``: a retry (same Idempotency-Key
    and request) of a change already made; nothing was written again."""

    series: Series
    replayed: bool = False


def _organizer(actor: Actor) -> None:
    if not actor.is_organizer:
        raise ServiceError(
            "forbidden", _("Only organizers can change the clock."), refusal=Refusal.FORBIDDEN
        )


def _locked_series(series: Series) -> Series:
    """The series row locked: pauses and extensions of one series happen one after another."""
    return Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)


def _made_before(
    series: Series, table: Table | None, action: str, key: str | None, sent: dict[str, Any]
) -> bool:
    """Whether this request (key and content) was already carried out; the key used before
    for another request is refused. A table's keys are one set (as the database keeps them
    unique per table, games included); without a table, one set per action."""
    entries = AuditEntry.objects.filter(tournament_id=series.tournament_id, table=table)
    if table is None:
        entries = entries.filter(action=action)
    return earlier_with_key(entries, key, sent) is not None


def _audit(
    series: Series,
    table: Table | None,
    action: str,
    actor: Actor,
    after: dict[str, object],
    reason: str = "",
    *,
    key: str | None = None,
    sent: dict[str, Any] | None = None,
) -> None:
    AuditEntry.objects.create(
        tournament_id=series.tournament_id,
        table=table,
        action=action,
        after=after,
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(table.number if table else None),
        device=actor.device,
        reason=reason,
        idempotency_key=key or "",
        fingerprint=fingerprint(sent) if key else "",
    )


@transaction.atomic
def extend_table(
    table: Table, *, minutes: int, reason: str, actor: Actor, idempotency_key: str | None = None
) -> ClockChanged:
    """Grant one table Nachspielzeit (for example the length of a reclamation interruption);
    several extensions add up."""
    _organizer(actor)
    series = _locked_series(table.series)
    sent = {"action": "extend", "table": table.pk, "minutes": minutes, "reason": reason}
    if _made_before(series, table, "", idempotency_key, sent):
        return ClockChanged(series, replayed=True)
    require_running(series)
    if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
        raise ServiceError(
            "extension_minutes",
            _("Nachspielzeit is 1 to %(max)d minutes at a time.") % {"max": MAX_EXTENSION_MINUTES},
            field="minutes",
            refusal=Refusal.INVALID,
        )
    reason = reason.strip()
    if not reason or len(reason) > MAX_REASON:
        raise ServiceError(
            "reason_required",
            _("Say why the table gets more time (at most %(max)d characters).")
            % {"max": MAX_REASON},
            field="reason",
            refusal=Refusal.INVALID,
        )
    Extension.objects.create(
        table=table,
        minutes=minutes,
        reason=reason,
        created_by=actor.user if getattr(actor.user, "pk", None) else None,
    )
    _audit(
        series, table, "scoring.clock.extended", actor, {"minutes": minutes}, reason,
        key=idempotency_key, sent=sent,
    )  # fmt: skip
    return ClockChanged(series)


@transaction.atomic
def pause_hall(
    series: Series, *, reason: str, actor: Actor, idempotency_key: str | None = None
) -> ClockChanged:
    """Stop the clock of every table (an interruption of the whole hall)."""
    _organizer(actor)
    series = _locked_series(series)
    sent = {"action": "pause", "series": series.pk, "reason": reason}
    if _made_before(series, None, "scoring.clock.paused", idempotency_key, sent):
        return ClockChanged(series, replayed=True)
    require_running(series)
    if Pause.objects.filter(series=series, ended_at__isnull=True).exists():
        raise ServiceError(
            "already_paused", _("The clock is already paused."), refusal=Refusal.CONFLICT
        )
    reason = reason.strip()[:MAX_REASON]
    try:
        with transaction.atomic():
            pause = Pause.objects.create(series=series, started_at=timezone.now(), reason=reason)
    except IntegrityError:  # the database's own guard: one open pause per series
        raise ServiceError(
            "already_paused", _("The clock is already paused."), refusal=Refusal.CONFLICT
        ) from None
    after = {"at": pause.started_at.isoformat(), "series": series.number}
    _audit(
        series, None, "scoring.clock.paused", actor, after, reason,
        key=idempotency_key, sent=sent,
    )  # fmt: skip
    return ClockChanged(series)


@transaction.atomic
def resume_hall(
    series: Series, *, actor: Actor, idempotency_key: str | None = None
) -> ClockChanged:
    """Let the clock run on; every table still playing ends later by the pause's length."""
    _organizer(actor)
    series = _locked_series(series)
    sent = {"action": "resume", "series": series.pk}
    if _made_before(series, None, "scoring.clock.resumed", idempotency_key, sent):
        return ClockChanged(series, replayed=True)
    require_running(series)
    pause = Pause.objects.filter(series=series, ended_at__isnull=True).first()
    if pause is None:
        raise ServiceError("not_paused", _("The clock is not paused."), refusal=Refusal.CONFLICT)
    pause.ended_at = max(timezone.now(), pause.started_at)
    pause.save(update_fields=["ended_at"])
    after = {"at": pause.ended_at.isoformat(), "series": series.number}
    _audit(series, None, "scoring.clock.resumed", actor, after, key=idempotency_key, sent=sent)
    return ClockChanged(series)
