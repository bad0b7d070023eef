"""What the migrations that give tournaments, seasons and leagues a club do, forward and
back, with the historical models they are given.

Forward: a season or a league goes to its owner's personal club; a tournament to its first
organizer's, the other organizers becoming organizers of that club. Back: whoever keeps a
thing through its club keeps it again as a user: a tournament gets the club's keepers as
organizers (the first organizer, whose registry holds its players, stays first); a season or
a league whose owner no longer keeps it goes to the club's first owner.
"""

from __future__ import annotations

from typing import Any

from clubs import roles
from clubs.personal import join, personal_club

KEEPERS = (roles.OWNER, roles.ORGANIZER)


def _models(apps: Any) -> tuple[Any, Any, Any]:
    return (
        apps.get_model("clubs", "Club"),
        apps.get_model("clubs", "Membership"),
        apps.get_model("auth", "User"),
    )


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
        club = personal_club(club_model, membership_model, user_model.objects.get(pk=ids[0]))
        for other in ids[1:]:
            join(membership_model, club, user_model.objects.get(pk=other), roles.ORGANIZER)
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


def _owned_forward(apps: Any, app: str, model: str) -> None:
    club_model, membership_model, _user_model = _models(apps)
    for thing in apps.get_model(app, model).objects.filter(club=None).select_related("owner"):
        thing.club = personal_club(club_model, membership_model, thing.owner)
        thing.save(update_fields=["club"])


def _owned_backward(apps: Any, app: str, model: str) -> None:
    _club_model, membership_model, _user_model = _models(apps)
    for thing in apps.get_model(app, model).objects.exclude(club=None):
        members = membership_model.objects.filter(club_id=thing.club_id)
        if members.filter(user_id=thing.owner_id, role__in=KEEPERS).exists():
            continue
        first = members.filter(role=roles.OWNER).order_by("pk").first()
        if first is not None:
            thing.owner_id = first.user_id
            thing.save(update_fields=["owner"])


def seasons_forward(apps: Any, schema_editor: Any) -> None:
    _owned_forward(apps, "seasons", "Season")


def seasons_backward(apps: Any, schema_editor: Any) -> None:
    _owned_backward(apps, "seasons", "Season")


def leagues_forward(apps: Any, schema_editor: Any) -> None:
    _owned_forward(apps, "teams", "League")


def leagues_backward(apps: Any, schema_editor: Any) -> None:
    _owned_backward(apps, "teams", "League")
