"""The organizers' use cases of the hall: say something to the hall, take it back. Each runs
in one transaction and leaves an entry in the change log."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from hall.models import MAX_ANNOUNCEMENT, Announcement
from scoring.models import AuditEntry
from tournaments.models import Tournament
from tournaments.permissions import is_organizer

MADE = "hall.announcement.made"
WITHDRAWN = "hall.announcement.withdrawn"


def _require_organizer(tournament: Tournament, actor: Actor) -> None:
    if actor.user is None or not is_organizer(actor.user, tournament):
        raise ServiceError(
            "forbidden",
            _("Only the organizers of this tournament can make announcements."),
            refusal=Refusal.FORBIDDEN,
        )


def _audit(tournament: Tournament, action: str, actor: Actor, text: str) -> None:
    # The text is the entry's reason: the change log shows it as it was written.
    AuditEntry.objects.create(
        tournament=tournament,
        action=action,
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(),
        device=actor.device,
        reason=text,
    )


@transaction.atomic
def announce(tournament: Tournament, text: str, *, actor: Actor) -> Announcement:
    """Show a line of text on top of the hall display (the newest few are shown)."""
    _require_organizer(tournament, actor)
    text = " ".join(str(text).split())  # one line: no line breaks, no runs of spaces
    if not text:
        raise ServiceError(
            "announcement_empty", _("Write the announcement."), field="text",
            refusal=Refusal.INVALID,
        )  # fmt: skip
    if len(text) > MAX_ANNOUNCEMENT:
        raise ServiceError(
            "announcement_too_long",
            _("An announcement has at most %(max)d characters (this one has %(n)d).")
            % {"max": MAX_ANNOUNCEMENT, "n": len(text)},
            field="text",
            refusal=Refusal.INVALID,
        )
    user = actor.user if getattr(actor.user, "pk", None) else None
    announcement = Announcement.objects.create(tournament=tournament, text=text, created_by=user)
    _audit(tournament, MADE, actor, text)
    return announcement


@transaction.atomic
def withdraw(announcement: Announcement, *, actor: Actor) -> Announcement:
    """Take an announcement off the display; withdrawing it twice changes nothing."""
    locked = (
        Announcement.objects.select_for_update()
        .select_related("tournament")
        .get(pk=announcement.pk)
    )
    _require_organizer(locked.tournament, actor)
    if locked.ended_at is None:
        locked.ended_at = timezone.now()
        locked.save(update_fields=["ended_at"])
        _audit(locked.tournament, WITHDRAWN, actor, locked.text)
    return locked
