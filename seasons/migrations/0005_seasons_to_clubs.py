# The data step on its own: PostgreSQL alters no table in a transaction with pending
# trigger events, so the column is added (and removed) in a migration of its own.
#
# Forward: a season goes to its owner's personal club. Back: a season whose owner no
# longer keeps it goes to the club's first owner.
# What it needs of the clubs (a user's personal club, its short name, the roles) is frozen
# here as ``clubs.personal``, ``clubs.roles`` and ``common.slugs`` had it when it was written:
# a later change to those modules must not change what this migration does.

from __future__ import annotations

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


def _owned_forward(apps: Any, app: str, model: str) -> None:
    club_model, membership_model, _user_model = _models(apps)
    for thing in apps.get_model(app, model).objects.filter(club=None).select_related("owner"):
        thing.club = _personal_club(club_model, membership_model, thing.owner)
        thing.save(update_fields=["club"])


def _owned_backward(apps: Any, app: str, model: str) -> None:
    _club_model, membership_model, _user_model = _models(apps)
    for thing in apps.get_model(app, model).objects.exclude(club=None):
        members = membership_model.objects.filter(club_id=thing.club_id)
        if members.filter(user_id=thing.owner_id, role__in=KEEPERS).exists():
            continue
        first = members.filter(role=_OWNER).order_by("pk").first()
        if first is not None:
            thing.owner_id = first.user_id
            thing.save(update_fields=["owner"])


def seasons_forward(apps: Any, schema_editor: Any) -> None:
    _owned_forward(apps, "seasons", "Season")


def seasons_backward(apps: Any, schema_editor: Any) -> None:
    _owned_backward(apps, "seasons", "Season")


class Migration(migrations.Migration):

    dependencies = [
        ("seasons", "0004_season_club"),
    ]

    operations = [
        migrations.RunPython(seasons_forward, seasons_backward),
    ]
