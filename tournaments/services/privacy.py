"""A player's objection (DSGVO Art. 21): his identity leaves the registry, his results stay.

``anonymize_player`` clears the names, e-mail and DDV number and sets the name form to
anonymous, in one transaction with the player's row locked; every registration, seat,
score and total stays as it was, so no standings line changes but for its name (which
reads "Spieler 17" from then on). The registry's earlier log entries of the player lose
their details too (they held his name), the anonymization itself is logged
(``tournaments.player.anonymized``) without them, and once committed
``player_anonymized`` tells the layers above which tournaments' stored documents are
stale. Only the keepers of the player's registry decide (``may_merge``, as for a merge).

``change_consent`` records a changed consent (name form, under 18, guardian's consent)
with its time, refused where the database's check would be (a minor published by name
without his guardian's consent); logged before and after
(``tournaments.player.consent_changed``), and once committed ``player_consent_changed``
has his tournaments' stored documents made again. Pages read the consent when they are
read, so they follow at once; the hall display through the registry log."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.services import Refusal, ServiceError
from tournaments.models import NameForm, Player, Registration, RegistryChange
from tournaments.permissions import may_merge, readable_players
from tournaments.services.registrations import consent_problem
from tournaments.signals import player_anonymized, player_consent_changed

ANONYMIZED = "tournaments.player.anonymized"
CONSENT_CHANGED = "tournaments.player.consent_changed"
#: The fields of a player's consent a registry may change (``consent_at`` follows).
CONSENT = ("name_form", "minor", "guardian_consent")
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
    if is_anonymized(locked):
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


def is_anonymized(player: Player) -> bool:
    """Whether the player's identity was removed (``anonymize_player``): no name left."""
    return player.name_form == NameForm.ANONYMOUS and not (player.first_name or player.last_name)


@transaction.atomic
def change_consent(
    user: AbstractBaseUser | AnonymousUser, player: Player, changes: dict[str, Any]
) -> Player:
    """Record ``player``'s changed consent: ``changes`` holds some of ``CONSENT``, the rest
    stays as it is. Whoever may correct the player's details may (``readable_players``:
    the keepers of his registry and the organizers of his tournaments, who record the consent at
    registration). Refused (nothing saved) for a minor published by name without his
    guardian's consent, an unknown name form, and an anonymized player (his identity is
    gone; there is nothing to publish). Logged with the consent before and after."""
    if not readable_players(user).filter(pk=player.pk).exists():
        raise ServiceError("player_not_found", _("Player not found."), refusal=Refusal.NOT_FOUND)
    if not set(changes) <= set(CONSENT):  # the edges validate: a caller's mistake
        raise ValueError(f"not a consent field: {sorted(set(changes) - set(CONSENT))}")
    locked = Player.objects.select_for_update().filter(pk=player.pk).first()
    if locked is None:
        raise ServiceError("player_not_found", _("Player not found."), refusal=Refusal.CONFLICT)
    wanted = {name: changes.get(name, getattr(locked, name)) for name in CONSENT}
    changed = [name for name in CONSENT if getattr(locked, name) != wanted[name]]
    if not changed:
        return locked
    if is_anonymized(locked):
        raise ServiceError(
            "player_anonymized",
            _("This player is anonymized: there is no name left to publish."),
            field="name_form",
        )
    if problem := consent_problem(
        str(wanted["name_form"]), bool(wanted["minor"]), bool(wanted["guardian_consent"])
    ):
        field = "name_form" if wanted["name_form"] not in NameForm.values else "guardian_consent"
        raise ServiceError("consent_missing", problem, field=field)
    before = {"id": locked.pk, **consent_of(locked)}
    for name in changed:
        setattr(locked, name, wanted[name])
    locked.consent_at = timezone.now()
    locked.save(update_fields=[*changed, "consent_at"])
    owner = locked.owner_id if locked.owner_id is not None else user.pk
    assert owner is not None  # readable_players: an authenticated user
    RegistryChange.objects.create(
        owner_id=owner, action=CONSENT_CHANGED, player=locked, before=before,
        after={"id": locked.pk, **consent_of(locked)}, user_id=user.pk,
    )  # fmt: skip
    tournaments = list(
        Registration.objects.filter(player=locked).values_list("tournament_id", flat=True)
    )
    transaction.on_commit(
        lambda: player_consent_changed.send(sender=Player, tournament_ids=tournaments),
        robust=True,
    )
    return locked
