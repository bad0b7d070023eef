"""The DDV mark of a tournament and the names its report carries (director, referee): one
use case, logged in the tournament's change log."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from tournaments.models import Tournament, TournamentChange
from tournaments.permissions import TOURNAMENTS

CHANGED = "tournaments.ddv.changed"


@dataclass(frozen=True)
class DdvDetails:
    ddv_ranking: bool
    director: str = ""
    referee: str = ""


def details_of(tournament: Tournament) -> DdvDetails:
    return DdvDetails(tournament.ddv_ranking, tournament.director, tournament.referee)


@transaction.atomic
def save_ddv_details(tournament: Tournament, details: DdvDetails, *, actor: Actor) -> bool:
    """Mark the tournament (or not) and name its director and referee; False: no change."""
    if actor.user is None or not TOURNAMENTS.may_keep(actor.user, tournament):
        raise ServiceError(
            "not_organizer", _("Only its organizers may change this."), refusal=Refusal.FORBIDDEN
        )
    for field in ("director", "referee"):
        if len(getattr(details, field)) > 120:
            raise ServiceError("too_long", _("At most %(n)d characters.") % {"n": 120}, field=field)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = details_of(tournament)
    if before == details:
        return False
    for field, value in asdict(details).items():
        setattr(tournament, field, value)
    tournament.save(update_fields=list(asdict(details)))
    TournamentChange.objects.create(
        tournament=tournament,
        action=CHANGED,
        before=asdict(before),
        after=asdict(details),
        user=actor.user,
        via=actor.describe(),
    )
    return True
