"""The migration that gives every existing player an owner (0006): the pure plan, and the
migration run forwards and backwards on a database built with the historical models."""

from __future__ import annotations

import datetime
import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

migration = importlib.import_module("tournaments.migrations.0006_player_registry_owner")
plan_split = migration.plan_split

BEFORE = [("tournaments", "0005_tournament_confirmation")]
AFTER = [("tournaments", "0006_player_registry_owner")]


def test_one_owner_keeps_the_row() -> None:
    owners, copies = plan_split([(1, 10, 7), (1, 11, 7), (2, 12, 7)])
    assert owners == {1: 7, 2: 7}
    assert copies == []


def test_first_registration_decides_who_keeps_the_row() -> None:
    # Player 1 played for owner 8 first (registration 5), then for 7 twice and 9 once.
    owners, copies = plan_split([(1, 20, 7), (1, 5, 8), (1, 21, 7), (1, 30, 9)])
    assert owners == {1: 8}
    assert copies == [(1, 7, [20, 21]), (1, 9, [30])]


def test_tournaments_without_organizer_leave_the_registration_alone() -> None:
    owners, copies = plan_split([(1, 1, None), (1, 2, 7), (2, 3, None)])
    assert owners == {1: 7, 2: None}
    assert copies == []


def test_every_registration_ends_with_its_tournament_owner() -> None:
    rows = [(p, 100 * p + r, [None, 1, 2, 3][(p * r) % 4]) for p in range(1, 9) for r in range(9)]
    owners, copies = plan_split(rows)
    moved = {r: owner for _, owner, regs in copies for r in regs}
    for player, registration, owner in rows:
        final = moved.get(registration, owners[player])
        assert owner is None or final == owner
    assert len({(p, o) for p, o, _ in copies}) == len(copies)


def _migrate(targets: list[tuple[str, str]]) -> object:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_migration_splits_shared_players_and_merges_them_back() -> None:
    apps = _migrate(BEFORE)
    try:
        User = apps.get_model("auth", "User")
        Tournament = apps.get_model("tournaments", "Tournament")
        Player = apps.get_model("tournaments", "Player")
        Registration = apps.get_model("tournaments", "Registration")
        alice = User.objects.create(username="alice")
        bob = User.objects.create(username="bob")
        carol = User.objects.create(username="carol")

        def tournament(slug: str, *organizers: object) -> object:
            t = Tournament.objects.create(
                name=slug, slug=slug, starts_on=datetime.date(2026, 1, 1), registration_token=slug
            )
            # One at a time: add(a, b) inserts in the order of a set of ids, so which one
            # came first (whose registry it is) would depend on the ids the run hands out.
            for organizer in organizers:
                t.organizers.add(organizer)
            return t

        spring = tournament("spring", alice, carol)  # alice first: her registry
        autumn = tournament("autumn", bob)
        orphan = tournament("orphan")
        shared = Player.objects.create(
            first_name="Sara", last_name="Solo", ddv_number="77", email="sara@example.org"
        )
        only_bob = Player.objects.create(first_name="Bo", last_name="Bube")
        never = Player.objects.create(first_name="Nie", last_name="Gemeldet")
        Registration.objects.create(tournament=spring, player=shared, start_number=1)
        Registration.objects.create(tournament=autumn, player=shared, start_number=1)
        Registration.objects.create(tournament=orphan, player=shared, start_number=1)
        Registration.objects.create(tournament=autumn, player=only_bob, start_number=2)

        apps = _migrate(AFTER)
        Player = apps.get_model("tournaments", "Player")
        Registration = apps.get_model("tournaments", "Registration")
        sara = Player.objects.filter(ddv_number="77").order_by("pk")
        assert [(p.owner_id, p.email) for p in sara] == [
            (alice.pk, "sara@example.org"),
            (bob.pk, "sara@example.org"),
        ]
        original, copy = sara
        assert original.pk == shared.pk
        registered = {
            (r.tournament.slug, r.start_number): r.player_id
            for r in Registration.objects.select_related("tournament")
        }
        assert registered == {
            ("spring", 1): shared.pk,
            ("autumn", 1): copy.pk,
            ("autumn", 2): only_bob.pk,
            ("orphan", 1): shared.pk,
        }
        assert Player.objects.get(pk=only_bob.pk).owner_id == bob.pk
        assert Player.objects.get(pk=never.pk).owner_id is None
        assert Player.objects.count() == 4

        apps = _migrate(BEFORE)
        Player = apps.get_model("tournaments", "Player")
        Registration = apps.get_model("tournaments", "Registration")
        assert list(Player.objects.filter(ddv_number="77").values_list("pk", flat=True)) == [
            shared.pk
        ]
        assert set(Registration.objects.values_list("player_id", flat=True)) == {
            shared.pk,
            only_bob.pk,
        }
    finally:
        _migrate(AFTER)
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
