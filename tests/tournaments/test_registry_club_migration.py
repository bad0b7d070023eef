"""The migrations that give the registry's players a club (tournaments 0013 and 0014), run
forwards and backwards on a database built with the historical models, on SQLite and on
PostgreSQL alike (no raw SQL, ids never assumed)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

CLUBS = ("clubs", "0003_club_publication_and_privacy_notice")
BEFORE = [CLUBS, ("tournaments", "0013_tournament_ddv_ranking")]
AFTER = [CLUBS, ("tournaments", "0015_players_to_clubs")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _back_to_the_leaves() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_players_move_to_their_owners_personal_clubs_and_back() -> None:
    apps = _migrate(BEFORE)
    try:
        User = apps.get_model("auth", "User")
        Club = apps.get_model("clubs", "Club")
        Membership = apps.get_model("clubs", "Membership")
        Player = apps.get_model("tournaments", "Player")
        alice = User.objects.create(username="alice", first_name="Alice", last_name="Ass")
        bob = User.objects.create(username="bob")
        carol = User.objects.create(username="carol")
        # Alice has a personal club already (her tournaments moved before); Bob has none.
        hers = Club.objects.create(name="Alice Ass", slug="alice-ass", personal_of=alice)
        Membership.objects.create(club=hers, user=alice, role="owner")
        Player.objects.create(owner=alice, first_name="Hans", last_name="Huber", ddv_number="1")
        Player.objects.create(owner=alice, first_name="Olga", last_name="Ott")
        Player.objects.create(owner=bob, first_name="Hans", last_name="Bauer", ddv_number="1")
        Player.objects.create(first_name="Niemand", last_name="Nobody")  # of no registry

        apps = _migrate(AFTER)
        Club = apps.get_model("clubs", "Club")
        Membership = apps.get_model("clubs", "Membership")
        Player = apps.get_model("tournaments", "Player")
        his = Club.objects.get(personal_of=bob.pk)
        assert (his.name, his.slug) == ("bob", "bob")
        assert Club.objects.count() == 2  # Alice's club is reused, not doubled
        assert Membership.objects.filter(club=his, user_id=bob.pk, role="owner").exists()
        clubs = {p.last_name: (p.owner_id, p.registry_club_id) for p in Player.objects.all()}
        assert clubs == {
            "Huber": (alice.pk, hers.pk),
            "Ott": (alice.pk, hers.pk),
            "Bauer": (bob.pk, his.pk),
            "Nobody": (None, None),
        }

        # In the clubs' time: Carol, an organizer of Alice's club, creates a player there and
        # leaves the club; Bob's club gets a player created by nobody (a tournament of no
        # organizer); Alice's players keep their creator.
        Membership.objects.create(club_id=hers.pk, user_id=carol.pk, role="organizer")
        Player.objects.create(
            owner_id=carol.pk, registry_club_id=hers.pk, first_name="Carla", last_name="Kreuz"
        )
        Membership.objects.filter(club_id=hers.pk, user_id=carol.pk).delete()
        Player.objects.create(registry_club_id=his.pk, first_name="Emil", last_name="Eck")

        apps = _migrate(BEFORE)
        Player = apps.get_model("tournaments", "Player")
        owners = dict(Player.objects.values_list("last_name", "owner_id"))
        # Whose registry it was is whose it is again; a player whose creator no longer keeps
        # the club's registry goes to the club's first owner.
        assert owners == {
            "Huber": alice.pk,
            "Ott": alice.pk,
            "Bauer": bob.pk,
            "Nobody": None,
            "Kreuz": alice.pk,
            "Eck": bob.pk,
        }

        # And forward again: nothing doubled, every player in his registry's club.
        apps = _migrate(AFTER)
        Club = apps.get_model("clubs", "Club")
        Player = apps.get_model("tournaments", "Player")
        assert Club.objects.count() == 2
        assert set(Player.objects.exclude(owner=None).values_list("registry_club", flat=True)) == {
            hers.pk,
            his.pk,
        }
    finally:
        _back_to_the_leaves()


@pytest.mark.django_db(transaction=True)
def test_going_back_refuses_two_players_with_one_number_in_one_users_registry() -> None:
    """Two clubs may each have a player with DDV number 7 created by the same user; the
    users' registries allowed a number once, so going back names them instead of failing
    on the database's constraint halfway."""
    apps = _migrate(AFTER)
    try:
        User = apps.get_model("auth", "User")
        Club = apps.get_model("clubs", "Club")
        Membership = apps.get_model("clubs", "Membership")
        Player = apps.get_model("tournaments", "Player")
        alice = User.objects.create(username="alice")
        for slug in ("a", "b"):
            club = Club.objects.create(name=slug, slug=slug)
            Membership.objects.create(club=club, user=alice, role="owner")
            Player.objects.create(
                owner=alice, registry_club=club, first_name="Sieben", last_name=slug,
                ddv_number="7",
            )  # fmt: skip
        with pytest.raises(RuntimeError, match="would share the DDV number 7"):
            _migrate(BEFORE)
    finally:
        _back_to_the_leaves()
