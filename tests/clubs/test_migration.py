"""The migrations that give tournaments, seasons and leagues a club (tournaments 0009
and 0010, seasons 0004 and 0005, teams 0003 and 0004), run forwards and backwards on a
database built with the historical models, on SQLite and on PostgreSQL alike. Each of them
and the registry's (tournaments 0015) keeps a frozen copy of how a personal club is made:
today it makes the club the live code makes."""

from __future__ import annotations

import datetime
import importlib
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from hypothesis import given
from hypothesis import strategies as st

from clubs import roles
from clubs.personal import personal_club

BEFORE = [
    ("clubs", None),
    ("tournaments", "0008_registry_change"),
    ("seasons", "0003_stored_ranking_pages"),
    ("teams", "0002_team_captain_link"),
]
AFTER = [
    ("tournaments", "0010_tournaments_to_clubs"),
    ("seasons", "0005_seasons_to_clubs"),
    ("teams", "0004_leagues_to_clubs"),
]


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    known = [t for t in targets if t[1] is not None]
    return executor.loader.project_state(known).apps


def _organizers(apps: Any, slug: str) -> list[str]:
    tournament = apps.get_model("tournaments", "Tournament").objects.get(slug=slug)
    through = tournament.organizers.through.objects.filter(tournament_id=tournament.pk)
    return [row.user.username for row in through.select_related("user").order_by("pk")]


@pytest.mark.django_db(transaction=True)
def test_owned_things_move_to_personal_clubs_and_back() -> None:
    apps = _migrate(BEFORE)
    try:
        User = apps.get_model("auth", "User")
        Tournament = apps.get_model("tournaments", "Tournament")
        alice = User.objects.create(username="alice", first_name="Alice", last_name="Ass")
        bob = User.objects.create(username="bob")
        carol = User.objects.create(username="carol")
        dave = User.objects.create(username="dave")

        def tournament(slug: str, *organizers: Any) -> None:
            t = Tournament.objects.create(
                name=slug, slug=slug, starts_on=datetime.date(2026, 1, 1), registration_token=slug
            )
            for organizer in organizers:  # one at a time: the first is the first
                t.organizers.add(organizer)

        tournament("spring", alice, carol)
        tournament("autumn", bob)
        tournament("orphan")
        apps.get_model("seasons", "Season").objects.create(name="S", slug="s", owner=alice)
        apps.get_model("teams", "League").objects.create(name="L", slug="l", owner=bob)

        apps = _migrate(AFTER)
        Club = apps.get_model("clubs", "Club")
        Membership = apps.get_model("clubs", "Membership")
        Tournament = apps.get_model("tournaments", "Tournament")
        Season = apps.get_model("seasons", "Season")
        League = apps.get_model("teams", "League")
        hers = Club.objects.get(personal_of=alice.pk)
        his = Club.objects.get(personal_of=bob.pk)
        assert (hers.name, hers.slug, his.name, his.slug) == (
            "Alice Ass",
            "alice-ass",
            "bob",
            "bob",
        )
        assert Club.objects.count() == 2  # carol and dave own nothing: no club of their own
        members = {
            (m.club_id, m.user_id, m.role) for m in Membership.objects.all()
        }  # fmt: skip
        assert members == {
            (hers.pk, alice.pk, "owner"),
            (hers.pk, carol.pk, "organizer"),
            (his.pk, bob.pk, "owner"),
        }
        clubs = dict(Tournament.objects.values_list("slug", "club_id"))
        assert clubs == {"spring": hers.pk, "autumn": his.pk, "orphan": None}
        assert Season.objects.get(slug="s").club_id == hers.pk
        assert League.objects.get(slug="l").club_id == his.pk

        # In the clubs' time: Alice hands her club over to Carol and leaves; Dave joins it.
        Membership.objects.filter(club=hers, user_id=carol.pk).update(role="owner")
        Membership.objects.filter(club=hers, user_id=alice.pk).delete()
        Membership.objects.create(club=hers, user_id=dave.pk, role="organizer")
        Membership.objects.create(club=his, user_id=dave.pk, role="cashier")

        apps = _migrate(BEFORE)
        # Who kept a thing through its club keeps it again; a cashier keeps nothing.
        assert _organizers(apps, "spring") == ["alice", "carol", "dave"]
        assert _organizers(apps, "autumn") == ["bob"]
        assert _organizers(apps, "orphan") == []
        assert apps.get_model("seasons", "Season").objects.get(slug="s").owner_id == carol.pk
        assert apps.get_model("teams", "League").objects.get(slug="l").owner_id == bob.pk
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_forward_is_repeatable() -> None:
    """Applied again after a step back (the upgrade test does that), nothing is doubled."""
    apps = _migrate(BEFORE)
    try:
        User = apps.get_model("auth", "User")
        alice = User.objects.create(username="alice")
        apps.get_model("seasons", "Season").objects.create(name="S", slug="s", owner=alice)
        _migrate(AFTER)
        apps = _migrate([("seasons", "0002_season_entries")])
        apps = _migrate(AFTER)
        assert apps.get_model("clubs", "Club").objects.count() == 1
        assert apps.get_model("clubs", "Membership").objects.count() == 1
        assert apps.get_model("seasons", "Season").objects.get().club_id is not None
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


FROZEN = [
    importlib.import_module(f"{app}.migrations.{name}")
    for app, name in [*AFTER, ("tournaments", "0015_players_to_clubs")]
]


class _Rows:
    """A model's manager over a list: what ``personal_club`` asks of the club and the
    membership models, with the slugs in ``taken`` already used."""

    def __init__(self, taken: set[str]) -> None:
        self.made: list[dict[str, Any]] = []
        self.taken = taken

    def filter(self, **lookup: Any) -> Any:
        if "slug" in lookup:
            return SimpleNamespace(exists=lambda: lookup["slug"] in self.taken)
        return SimpleNamespace(first=lambda: None)  # no personal club yet

    def create(self, **fields: Any) -> dict[str, Any]:
        self.made.append(fields)
        return fields


def _made(make: Any, user: Any, taken: set[str]) -> list[list[dict[str, Any]]]:
    clubs, members = _Rows(taken), _Rows(set())
    make(SimpleNamespace(objects=clubs), SimpleNamespace(objects=members), user)
    return [clubs.made, members.made]


_names = st.text(st.sampled_from("aäöüßAÖ ÉéZz-_.'1"), max_size=70)


@given(
    first=_names,
    last=_names,
    username=st.text(st.sampled_from("abc_.-1@"), min_size=1, max_size=20),
    taken=st.sets(st.sampled_from(["club", "einladung", "anna", "anna-2", "a" * 54])),
)
def test_the_frozen_personal_club_is_the_live_one(
    first: str, last: str, username: str, taken: set[str]
) -> None:
    user = SimpleNamespace(first_name=first, last_name=last, username=username)
    live = _made(personal_club, user, taken)
    assert live[1][0]["role"] == roles.OWNER
    for migration in FROZEN:
        assert _made(migration._personal_club, user, taken) == live
        assert migration.KEEPERS == (roles.OWNER, roles.ORGANIZER)
