"""The migrations that store a line's sort key instead of its place (seasons 0008 to 0010):
backwards, the places and positions come back as the reads computed them; forwards again,
the keys are those a refresh writes. On SQLite and on PostgreSQL alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from seasons import entries
from seasons.placed import placed_entries
from tests.seasons.helpers import played, season_of

BEFORE = [("seasons", "0007_season_entries_in_part")]


def _migrate(targets: list[tuple[str, str]] | None) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps if targets else None


@pytest.mark.django_db(transaction=True)
def test_places_come_back_and_keys_are_filled_again() -> None:
    alice = User.objects.create(username="alice")
    t1 = played(
        alice,
        "t1",
        "2026-03-01",
        {"Anna A": [10, 5], "Bernd B": [20, -5], "Carl C": [15], "Dora D": [-3], "Emil E": [None]},
    )
    t2 = played(alice, "t2", "2026-04-01", {"Anna A": [1], "Fritz F": [15], "Gerd G": [8, 7]})
    season = season_of(alice, [t1, t2], preset="best_n")
    placed = [(e.player_id, place, shared) for e, place, shared in placed_entries(season)]
    assert [shared for _p, _place, shared in placed].count(True) >= 2  # a shared place
    keys = {player: row[entries._SORT_KEY] for player, row in entries._stored(season).items()}
    try:
        apps = _migrate(BEFORE)
        SeasonEntry = apps.get_model("seasons", "SeasonEntry")
        back = SeasonEntry.objects.filter(season_id=season.pk).order_by("position")
        assert [(e.player_id, e.place, e.shared) for e in back] == placed
        assert [e.position for e in back] == list(range(1, len(placed) + 1))
        # Forwards the keys come from the figures, not from the places.
        SeasonEntry.objects.filter(season_id=season.pk, ranked=True).update(place=1)
    finally:
        _migrate(None)
    stored = entries._stored(season)
    assert {player: row[entries._SORT_KEY] for player, row in stored.items()} == keys
