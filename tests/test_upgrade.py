"""Upgrades keep data: a database of the previous release's schema, with a played
tournament in it, migrated forward to this code's head keeps every row.

``PREVIOUS_RELEASE`` is the state of the migrations when the hall kit was written (the leaf
migration of each app then). Each release moves it to the leaves it shipped with; until then
the test goes further back by itself: every app's newest migration is unapplied with the
data in place and applied again (the operations of the newest migrations run on real rows,
both ways), and every table that exists on both sides keeps its rows.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from common.actors import ORGANIZER, Actor
from scoring.services.closing import close_series
from scoring.services.deductions import add_deduction
from tests.factories import RE_WINS as NORMAL
from tests.factories import build_world, make_tournament, play

PREVIOUS_RELEASE = {
    "tournaments": "0008_registry_change",
    "scoring": "0006_deduction",
    "archive": "0001_imported_tournament",
    "seasons": "0002_season_entries",
    "teams": "0002_team_captain_link",
    "documents": "0002_generateddocument_progress_and_failure",
    "hall": "0001_initial",
}


def executor() -> MigrationExecutor:
    found = MigrationExecutor(connection)
    found.loader.build_graph()
    return found


def head() -> list[tuple[str, str]]:
    return executor().loader.graph.leaf_nodes()


def one_step_back() -> list[tuple[str, str]]:
    """Every project app's migration before its newest (apps with one migration stay)."""
    graph = executor().loader.graph
    targets = []
    for app, name in graph.leaf_nodes():
        if app not in PREVIOUS_RELEASE:
            continue
        parents = sorted(p for p in graph.node_map[(app, name)].parents if p[0] == app)
        targets.append(parents[-1] if parents else (app, name))
    return targets


#: What ``migrate`` writes about itself: these change with the migrations applied.
BOOKKEEPING = {"django_migrations", "django_content_type", "auth_permission"}


def row_counts() -> dict[str, int]:
    """Rows per table, the migrations' own bookkeeping left out."""
    counts = {}
    with connection.cursor() as cursor:
        for table in set(connection.introspection.table_names()) - BOOKKEEPING:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def test_the_previous_release_is_an_ancestor_of_head() -> None:
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    for app, name in PREVIOUS_RELEASE.items():
        assert (app, name) in graph.nodes, f"{app}.{name} was removed or renamed"
        leaf = next(node for node in graph.leaf_nodes() if node[0] == app)
        assert (app, name) in graph.forwards_plan(leaf), f"{app}: {leaf} does not follow {name}"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_migrating_forward_keeps_every_row(alice: User) -> None:
    world = build_world(make_tournament(slug="upgrade", organizers=[alice]), (4, 4))
    for table in world.tables:
        play(table, [NORMAL] * 5)
    organizer = Actor(ORGANIZER, user=alice)
    add_deduction(world.series, world.registrations[0], -5, "late", organizer)
    close_series(world.series, actor=organizer, past_unfinished=True)
    at_head = row_counts()
    assert at_head["scoring_game"] == 10 and at_head["scoring_auditentry"] > 0

    try:
        executor().migrate(list(PREVIOUS_RELEASE.items()))
        released = row_counts()
        executor().migrate(head())
        assert row_counts() == {**released, **{t: at_head[t] for t in at_head if t not in released}}

        executor().migrate(one_step_back())
        back = row_counts()
        assert back["scoring_game"] == 10 and back["tournaments_registration"] == 8
        executor().migrate(head())
        forward = row_counts()
        for name, rows in back.items():
            if name in forward:
                assert forward[name] == rows, name
    finally:
        executor().migrate(head())
