"""A player's objection (DSGVO Art. 21): his identity leaves the registry, his results stay.

``anonymize_player`` clears the names, e-mail and DDV number and sets the name form to
anonymous, in one transaction with the player's row locked; every registration, seat,
score and total stays as it was, so no standings line changes but for its name (which
reads "Spieler 17" from then on). The registry's earlier log entries of the player lose
their details too (they held his name), the anonymization itself is logged
(``tournaments.player.anonymized``) without them, and once committed
``player_anonymized`` tells the layers above which tournaments' stored documents are
stale. Only the keepers of the player's registry decide (``may_merge``, as for a merge)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.services import Refusal, ServiceError
from tournaments.models import NameForm, Player, Registration, RegistryChange
from tournaments.permissions import may_merge
from tournaments.signals import player_anonymized

ANONYMIZED = "tournaments.player.anonymized"
#: What an earlier log entry of an anonymized player keeps: no detail of the person.
SCRUBBED = {"anonymized": True}


@transaction.atomic
def anonymize_player(user: AbstractBaseUser | AnonymousUser, player: Player) -> Player:
    """Remove ``player``'s identity for good (on his objection); his results stay."""
    if not may_merge(user, player):
        raise ServiceError("player_not_found", _("Player not found."), refusal=Refusal.NOT_FOUND)
    locked = Player.objects.select_for_update().filter(pk=player.pk).first()
    if locked is None:
        raise ServiceError("player_not_found", _("Player not found."), refusal=Refusal.CONFLICT)
    if locked.name_form == NameForm.ANONYMOUS and not (locked.first_name or locked.last_name):
        return locked  # already anonymized: nothing to do, nothing to log
    locked.first_name = locked.last_name = locked.email = locked.ddv_number = ""
    locked.name_form = NameForm.ANONYMOUS
    locked.save(update_fields=["first_name", "last_name", "email", "ddv_number", "name_form"])
    RegistryChange.objects.filter(player=locked).update(before=SCRUBBED, after=SCRUBBED)
    creator = locked.owner_id if locked.owner_id is not None else user.pk
    assert creator is not None  # may_merge: an authenticated user
    RegistryChange.objects.create(
        owner_id=creator,
        action=ANONYMIZED,
        player=locked,
        before={"id": locked.pk},
        after={"id": locked.pk, "name_form": NameForm.ANONYMOUS.value,
               "at": timezone.now().isoformat()},
        user_id=user.pk,
    )  # fmt: skip
    tournaments = list(
        Registration.objects.filter(player=locked).values_list("tournament_id", flat=True)
    )
    transaction.on_commit(
        lambda: player_anonymized.send(sender=Player, tournament_ids=tournaments), robust=True
    )
    return locked


def consent_of(player: Player) -> dict[str, Any]:
    """The player's consent as the registry holds it (for his data export)."""
    return {
        "name_form": player.name_form,
        "minor": player.minor,
        "guardian_consent": player.guardian_consent,
        "consent_at": player.consent_at.isoformat() if player.consent_at else None,
    }
