"""Players belong to a registry (design decision 7).

Every existing player goes to the registry of the first organizer of the tournament of his
earliest registration. A player who also played in tournaments of other organizers is
copied once per further owner and those tournaments' registrations point to the copy, so
every organizer keeps what he had and nobody sees another's data. Players never registered,
or only in tournaments without organizers, stay without owner (superusers only).

The DDV number becomes unique per registry (the copies share it). Backwards, copies that
share a DDV number are merged into the oldest row again; copies without a DDV number stay.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Q

# (player id, registration id, registry owner of the registration's tournament or None)
Row = tuple[int, int, "int | None"]


Copies = list[tuple[int, int, list[int]]]


def plan_split(rows: Iterable[Row]) -> tuple[dict[int, int | None], Copies]:
    """Pure: who owns each registered player, and which copies to make.

    Returns ``owners`` {player id: owner id or None} and ``copies`` as
    (player id, owner id, registration ids that move to the copy), in a stable order.
    The owner of the earliest registration (lowest id) keeps the original row;
    registrations of tournaments without owner stay with the original.
    """
    by_player: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    for player, registration, owner in rows:
        by_player[player].append((registration, owner))
    owners: dict[int, int | None] = {}
    copies: Copies = []
    for player in sorted(by_player):
        registrations = sorted(by_player[player])
        order: list[int] = []
        moved: dict[int, list[int]] = defaultdict(list)
        for registration, owner in registrations:
            if owner is None:
                continue
            if owner not in order:
                order.append(owner)
            if owner != order[0]:
                moved[owner].append(registration)
        owners[player] = order[0] if order else None
        copies.extend((player, owner, moved[owner]) for owner in order[1:])
    return owners, copies


def _registry_owners(apps) -> dict[int, int]:
    """{tournament id: id of its first organizer}."""
    Tournament = apps.get_model("tournaments", "Tournament")
    through = Tournament._meta.get_field("organizers").remote_field.through
    first: dict[int, int] = {}
    for tournament, user in through.objects.order_by("pk").values_list("tournament_id", "user_id"):
        first.setdefault(tournament, user)
    return first


def _checks_now(schema_editor) -> None:
    # PostgreSQL: foreign keys checked at once, so no trigger events are pending when the
    # constraint's index is built in the same transaction.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def assign_owners(apps, schema_editor) -> None:
    _checks_now(schema_editor)
    Player = apps.get_model("tournaments", "Player")
    Registration = apps.get_model("tournaments", "Registration")
    owner_of_tournament = _registry_owners(apps)
    rows = [
        (player, registration, owner_of_tournament.get(tournament))
        for registration, player, tournament in Registration.objects.values_list(
            "pk", "player_id", "tournament_id"
        )
    ]
    owners, copies = plan_split(rows)
    by_owner: dict[int | None, list[int]] = defaultdict(list)
    for player, owner in owners.items():
        by_owner[owner].append(player)
    for owner, players in by_owner.items():
        if owner is not None:
            Player.objects.filter(pk__in=players).update(owner_id=owner)
    for player_id, owner, registrations in copies:
        original = Player.objects.get(pk=player_id)
        copy = Player.objects.create(
            owner_id=owner,
            first_name=original.first_name,
            last_name=original.last_name,
            club=original.club,
            ddv_number=original.ddv_number,
            email=original.email,
        )
        Player.objects.filter(pk=copy.pk).update(created_at=original.created_at)
        Registration.objects.filter(pk__in=registrations).update(player_id=copy.pk)


def merge_copies(apps, schema_editor) -> None:
    _checks_now(schema_editor)
    Player = apps.get_model("tournaments", "Player")
    Registration = apps.get_model("tournaments", "Registration")
    keep: dict[str, int] = {}
    for pk, number in (
        Player.objects.exclude(ddv_number="").order_by("pk").values_list("pk", "ddv_number")
    ):
        if number in keep:
            Registration.objects.filter(player_id=pk).update(player_id=keep[number])
            Player.objects.filter(pk=pk).delete()
        else:
            keep[number] = pk


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0005_tournament_confirmation"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="owner",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="players",
                to=settings.AUTH_USER_MODEL,
                verbose_name="registry owner",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_ddv_number_unique",
        ),
        migrations.RunPython(assign_owners, merge_copies),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=Q(("ddv_number", ""), _negated=True),
                fields=("owner", "ddv_number"),
                name="player_ddv_number_unique_per_owner",
            ),
        ),
    ]
