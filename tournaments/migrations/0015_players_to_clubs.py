# The data step on its own: PostgreSQL alters no table in a transaction with pending
# trigger events, so the column is added (and removed) in a migration of its own.
#
# A registry's player goes to the personal club of the user whose registry held him (his
# ``owner``); back, he is in the registry of his creator again if that user still keeps the
# club's registry, else of the club's first owner. Going back is refused, with the players
# named, when it would put two players with one DDV number into one user's registry.
# What it needs of the clubs (a user's personal club, its short name, the roles) is frozen
# here as ``clubs.personal``, ``clubs.roles`` and ``common.slugs`` had it when it was written:
# a later change to those modules must not change what this migration does.

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import migrations
from django.utils.text import slugify

_OWNER = "owner"
_ORGANIZER = "organizer"
KEEPERS = (_OWNER, _ORGANIZER)
_GERMAN_LETTERS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def _models(apps: Any) -> tuple[Any, Any, Any]:
    return (
        apps.get_model("clubs", "Club"),
        apps.get_model("clubs", "Membership"),
        apps.get_model("auth", "User"),
    )


def _free_slug(club_model: Any, user: Any) -> str:
    """A new club's short name: from the user's full name, else his user name; a number
    added while another club has it."""
    name = f"{user.first_name} {user.last_name}".strip() or user.username
    base = (slugify(name.lower().translate(_GERMAN_LETTERS))[:60].strip("-") or "club")[:54]
    slug, number = base, 1
    while slug == "einladung" or club_model.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def _personal_club(club_model: Any, membership_model: Any, user: Any) -> Any:
    """The user's personal club, made on first use with him as its owner."""
    club = club_model.objects.filter(personal_of=user).first()
    if club is None:
        name = f"{user.first_name} {user.last_name}".strip() or user.username
        club = club_model.objects.create(
            name=name, slug=_free_slug(club_model, user), personal_of=user
        )
        membership_model.objects.create(club=club, user=user, role=_OWNER)
    return club


def players_forward(apps: Any, schema_editor: Any) -> None:
    club_model, membership_model, user_model = _models(apps)
    player_model = apps.get_model("tournaments", "Player")
    clubs: dict[int, Any] = {}
    waiting = player_model.objects.filter(registry_club=None).exclude(owner=None)
    for owner in waiting.values_list("owner", flat=True).distinct().order_by("owner"):
        user = user_model.objects.get(pk=owner)
        clubs[owner] = _personal_club(club_model, membership_model, user)
    for owner, club in clubs.items():  # one update per registry, not per player
        waiting.filter(owner=owner).update(registry_club=club)


def players_backward(apps: Any, schema_editor: Any) -> None:
    _club_model, membership_model, _user_model = _models(apps)
    player_model = apps.get_model("tournaments", "Player")
    owners: dict[int, int | None] = {}  # club → its first owner
    for player in player_model.objects.exclude(registry_club=None).order_by("pk"):
        members = membership_model.objects.filter(club_id=player.registry_club_id)
        if player.owner_id is not None and (
            members.filter(user_id=player.owner_id, role__in=KEEPERS).exists()
        ):
            continue
        if player.registry_club_id not in owners:
            first = members.filter(role=_OWNER).order_by("pk").first()
            owners[player.registry_club_id] = first.user_id if first is not None else None
        if owners[player.registry_club_id] is not None:
            player.owner_id = owners[player.registry_club_id]
            player.save(update_fields=["owner"])
    numbered = player_model.objects.exclude(owner=None).exclude(ddv_number="")
    twice = [
        key
        for key, count in Counter(numbered.values_list("owner_id", "ddv_number")).items()
        if count > 1
    ]
    if twice:
        owner, number = sorted(twice)[0]
        names = numbered.filter(owner_id=owner, ddv_number=number).order_by("pk")
        raise RuntimeError(
            f"Cannot move the registries back to users: the players "
            f"{', '.join(f'{p.first_name} {p.last_name} (id {p.pk})' for p in names)} "
            f"would share the DDV number {number} in the registry of user {owner}. "
            f"Merge them or correct a number first."
        )


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0014_player_registry_club"),
    ]

    operations = [
        migrations.RunPython(players_forward, players_backward),
    ]
