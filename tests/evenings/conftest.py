"""The evening's personas: club "a" (Olga owner, Otto organizer, Cora cashier, Rudi
referee) and club "b" (Bert owner); helpers for a group with players and an evening."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, Membership
from common.actors import ORGANIZER, Actor
from evenings import services
from evenings.models import Evening, EveningTable, Group
from tests.factories import make_user


def make_club(slug: str, **members: str) -> Club:
    club = Club.objects.create(name=slug.title(), slug=slug)
    for username, role in members.items():
        user = User.objects.filter(username=username).first() or make_user(username)
        Membership.objects.create(club=club, user=user, role=role)
    return club


def user(name: str) -> User:
    return User.objects.get(username=name)


def actor(name: str) -> Actor:
    return Actor(ORGANIZER, user=user(name))


NAMES = ("Anna A", "Bert B", "Carl C", "Dora D", "Emil E", "Fritz F", "Gina G")


@pytest.fixture
def club_a(db: None) -> Club:
    return make_club("a", olga="owner", otto="organizer", cora="cashier", rudi="referee")


@pytest.fixture
def club_b(db: None) -> Club:
    return make_club("b", bert="owner")


def make_group(
    club: Club, players: int = 6, profile: str = "haus_mit_bock", **data: object
) -> Group:
    group = services.create_group(
        club,
        services.GroupData(name="Donnerstag", profile=profile, **data),  # type: ignore[arg-type]
        actor=actor("olga"),
    )
    services.add_members(group, new_names=NAMES[:players], actor=actor("olga"))
    return group


def make_evening(
    group: Group, sizes: Sequence[int] | None = None
) -> tuple[Evening, list[EveningTable]]:
    evening = services.open_evening(
        group, services.EveningData(date=datetime.date(2026, 11, 26)), actor=actor("olga")
    )
    players = list(group.memberships.order_by("pk").values_list("player_id", flat=True))
    sizes = sizes or [len(players)]
    seats, start = [], 0
    for size in sizes:
        seats.append(players[start : start + size])
        start += size
    tables = services.set_tables(evening, seats, actor=actor("olga"))
    return evening, tables


def playing(table: EveningTable) -> list[int]:
    table.refresh_from_db()
    state = services.table_state(table)
    return [table.seats[p] for p in state.turn.playing]
