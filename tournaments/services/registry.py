"""Keeping a registry clean: a player's details corrected, two entries for one person made one.

A correction (``correct_player``: the API's ``PATCH players/<id>/``) changes the details in
one transaction and logs them before and after in the registry's log (``RegistryChange``),
which the hall's fingerprint reads: a corrected name reaches every hall screen.

A person registered twice under slightly different details (a club added later, a typing
error in the name) has two players in the registry, and his results are split between them.
Merging moves every registration of the duplicate to the player kept, completes the kept
player's empty details from the duplicate and deletes the duplicate, in one transaction;
the registry's log keeps both entries as they were.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils.translation import gettext as _

from common.services import Refusal, ServiceError
from tournaments.models import Player, Registration, RegistryChange, Series
from tournaments.names import folded
from tournaments.permissions import may_merge, readable_players
from tournaments.services.privacy import CONSENT, change_consent
from tournaments.signals import announce_print_pack_changed, players_merged

DETAILS = ("first_name", "last_name", "club", "ddv_number", "email")
PRINTED = frozenset({"first_name", "last_name", "club"})  # the details a print pack shows


def _details(player: Player) -> dict[str, Any]:
    return {"id": player.pk, **{name: getattr(player, name) for name in DETAILS}}


@transaction.atomic
def correct_player(
    user: AbstractBaseUser | AnonymousUser, player: Player, changes: dict[str, Any]
) -> Player:
    """Correct ``player``'s details (``DETAILS``, values already validated; text stripped),
    logged as ``tournaments.player.corrected`` when anything changed. Whoever may read the
    player's details may correct them (``readable_players``). A changed consent among the
    ``changes`` (``privacy.CONSENT``) is recorded by ``privacy.change_consent`` in the same
    transaction: refused, nothing is saved."""
    if not readable_players(user).filter(pk=player.pk).exists():
        raise ServiceError("player_not_found", _("Player not found."), refusal=Refusal.NOT_FOUND)
    consent = {name: changes[name] for name in CONSENT if name in changes}
    details = {name: value for name, value in changes.items() if name not in CONSENT}
    if not set(details) <= set(DETAILS):  # the edges validate: a caller's mistake
        raise ValueError(f"not a player's detail: {sorted(set(details) - set(DETAILS))}")
    locked = Player.objects.select_for_update().filter(pk=player.pk).first()
    if locked is None:
        raise ServiceError("player_not_found", _("Player not found."), refusal=Refusal.CONFLICT)
    before = _details(locked)
    cleaned = {k: v.strip() if isinstance(v, str) else v for k, v in details.items()}
    changed = [name for name, value in cleaned.items() if getattr(locked, name) != value]
    if changed:
        for name in changed:
            setattr(locked, name, cleaned[name])
        locked.save(update_fields=changed)
        _log("tournaments.player.corrected", locked, before, user)
        if PRINTED.intersection(changed):  # drawn series print the name on their pack
            drawn = Series.objects.filter(
                status=Series.Status.DRAWN, seats__registration__player=locked
            )
            announce_print_pack_changed(drawn.values_list("pk", flat=True).distinct())
    if consent:
        locked = change_consent(user, locked, consent)
    return locked


@transaction.atomic
def merge_players(
    user: AbstractBaseUser | AnonymousUser, keep: Player, duplicate: Player
) -> Player:
    """Merge ``duplicate`` into ``keep``; both must be in one registry ``user`` keeps.

    Refused when both played in the same tournament (one person has one registration) and
    when their DDV numbers differ (two members are two people)."""
    if not may_merge(user, keep) or not may_merge(user, duplicate):
        raise ServiceError(
            "player_not_found", _("Player not found."), "duplicate", refusal=Refusal.NOT_FOUND
        )
    if keep.pk == duplicate.pk:
        raise ServiceError(
            "same_player", _("Choose another player than the one kept."), "duplicate"
        )
    if keep.registry_club_id != duplicate.registry_club_id:
        raise ServiceError(
            "other_registry",
            _("Only players of the same registry can be merged."),
            "duplicate",
        )
    # Both rows locked in one order: two merges of the same pair at once cannot interleave.
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update()
        .filter(pk__in=[keep.pk, duplicate.pk])
        .order_by("pk")
    }
    if len(locked) != 2:
        raise ServiceError(
            "player_not_found",
            _("Player not found."),
            "duplicate",
            refusal=Refusal.CONFLICT,
        )
    keep, duplicate = locked[keep.pk], locked[duplicate.pk]
    if keep.ddv_number and duplicate.ddv_number and keep.ddv_number != duplicate.ddv_number:
        raise ServiceError(
            "ddv_number_differs",
            _("The two players have different DDV numbers (%(a)s and %(b)s): they are two people.")
            % {"a": keep.ddv_number, "b": duplicate.ddv_number},
            "duplicate",
        )
    shared = list(
        Registration.objects.filter(player=duplicate, tournament__registrations__player=keep)
        .values_list("tournament__name", flat=True)
        .order_by("tournament__starts_on")
    )
    if shared:
        raise ServiceError(
            "both_registered",
            _("Both players are registered in %(tournaments)s: they are two people.")
            % {"tournaments": ", ".join(shared)},
            "duplicate",
        )
    before: dict[str, Any] = {"kept": _details(keep), "merged": _details(duplicate)}
    moved_rows = list(
        Registration.objects.filter(player=duplicate)
        .values_list("pk", "tournament_id")
        .order_by("pk")
    )
    moved = [pk for pk, _tournament in moved_rows]
    before["registrations"] = moved
    Registration.objects.filter(pk__in=moved).update(player=keep)
    tournaments = sorted({tournament for _pk, tournament in moved_rows})
    transaction.on_commit(
        lambda: players_merged.send(sender=Player, tournament_ids=tournaments), robust=True
    )
    completed = [name for name in DETAILS if not getattr(keep, name) and getattr(duplicate, name)]
    for name in completed:
        setattr(keep, name, getattr(duplicate, name))
    # The duplicate goes first: the DDV number it gives to the kept player is unique per
    # registry.
    duplicate.delete()
    if completed:
        keep.save(update_fields=completed)
    _log("tournaments.player.merged", keep, before, user)
    return keep


def _log(action: str, player: Player, before: dict[str, Any], user: Any) -> None:
    """The registry's change log: the player as he is now beside how he was. The log's
    registry is the player's (``registry_club``); ``owner`` keeps who created him."""
    owner = player.owner_id if player.owner_id is not None else user.pk
    RegistryChange.objects.create(
        owner_id=owner, action=action, player=player, before=before,
        after=_details(player), user_id=user.pk,
    )  # fmt: skip


def possible_duplicates(players: list[Player]) -> list[list[Player]]:
    """Groups of players who may be one person: the same last name and first names where
    one begins the other ("Hans", "Hans-Peter", "H."), compared as a German list does.
    A suggestion for the organizer, who decides; players with two different DDV numbers
    are never offered together."""
    by_last_name: dict[str, list[Player]] = {}
    for player in players:
        by_last_name.setdefault(folded(player.last_name.strip()), []).append(player)
    groups = []
    for namesakes in by_last_name.values():
        namesakes.sort(key=lambda p: (folded(p.first_name), p.pk))
        group: list[Player] = []
        for player in namesakes:
            if group and _same_person(group[0], player):
                group.append(player)
                continue
            if len(group) > 1:
                groups.append(group)
            group = [player]
        if len(group) > 1:
            groups.append(group)
    return groups


def _same_person(a: Player, b: Player) -> bool:
    if a.ddv_number and b.ddv_number and a.ddv_number != b.ddv_number:
        return False
    first_a, first_b = (folded(p.first_name).rstrip(".").strip() for p in (a, b))
    return first_a.startswith(first_b) or first_b.startswith(first_a)
