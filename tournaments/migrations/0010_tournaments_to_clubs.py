# The data step on its own: PostgreSQL alters no table in a transaction with pending
# trigger events, so the column is added (and removed) in a migration of its own.
#
# Forward: a tournament goes to its first organizer's personal club, the other organizers
# becoming organizers of that club. Back: the club's keepers become its organizers (the first
# organizer, whose registry holds its players, stays first).
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


def _join(membership_model: Any, club: Any, user: Any, role: str) -> None:
    membership_model.objects.get_or_create(club=club, user=user, defaults={"role": role})


def tournaments_forward(apps: Any, schema_editor: Any) -> None:
    club_model, membership_model, user_model = _models(apps)
    tournament_model = apps.get_model("tournaments", "Tournament")
    through = tournament_model.organizers.through
    for tournament in tournament_model.objects.filter(club=None).order_by("pk"):
        ids = list(
            through.objects.filter(tournament_id=tournament.pk)
            .order_by("pk")
            .values_list("user_id", flat=True)
        )
        if not ids:
            continue  # no organizer: kept by superusers only, as before
        club = _personal_club(club_model, membership_model, user_model.objects.get(pk=ids[0]))
        for other in ids[1:]:
            _join(membership_model, club, user_model.objects.get(pk=other), _ORGANIZER)
        tournament.club = club
        tournament.save(update_fields=["club"])


def tournaments_backward(apps: Any, schema_editor: Any) -> None:
    _club_model, membership_model, _user_model = _models(apps)
    tournament_model = apps.get_model("tournaments", "Tournament")
    through = tournament_model.organizers.through
    for tournament in tournament_model.objects.exclude(club=None).order_by("pk"):
        present = set(
            through.objects.filter(tournament_id=tournament.pk).values_list("user_id", flat=True)
        )
        keepers = membership_model.objects.filter(
            club_id=tournament.club_id, role__in=KEEPERS
        ).order_by("pk")
        for membership in keepers:  # one at a time: the order names the registry's owner
            if membership.user_id not in present:
                through.objects.create(tournament_id=tournament.pk, user_id=membership.user_id)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0009_tournament_club"),
    ]

    operations = [
        migrations.RunPython(tournaments_forward, tournaments_backward),
    ]
