"""What the migrations that give tournaments, seasons and leagues a club do, forward and
back, with the historical models they are given.

Forward: a season or a league goes to its owner's personal club; a tournament to its first
organizer's, the other organizers becoming organizers of that club. Back: whoever keeps a
thing through its club keeps it again as a user: a tournament gets the club's keepers as
organizers (the first organizer, whose registry holds its players, stays first); a season or
a league whose owner no longer keeps it goes to the club's first owner.

A registry's player goes to the personal club of the user whose registry held him (his
``owner``); back, he is in the registry of his creator again if that user still keeps the
club's registry, else of the club's first owner. Going back is refused, with the players
named, when it would put two players with one DDV number into one user's registry (merge
them first): the users' registries allowed a number once.
"""

from __future__ import annotations

from collections import Counter
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


def players_forward(apps: Any, schema_editor: Any) -> None:
    club_model, membership_model, user_model = _models(apps)
    player_model = apps.get_model("tournaments", "Player")
    clubs: dict[int, Any] = {}
    waiting = player_model.objects.filter(registry_club=None).exclude(owner=None)
    for owner in waiting.values_list("owner", flat=True).distinct().order_by("owner"):
        user = user_model.objects.get(pk=owner)
        clubs[owner] = personal_club(club_model, membership_model, user)
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
            first = members.filter(role=roles.OWNER).order_by("pk").first()
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
