"""The migrations that store a line's sort key instead of its place (seasons 0008 to 0010):
backwards, the places and positions come back as the reads computed them; forwards again,
the keys are those a refresh writes. On SQLite and on PostgreSQL alike. The copy of the key
that migration 0009 keeps for itself gives the keys the live code gives, on any figures."""

from __future__ import annotations

import importlib
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from hypothesis import given
from hypothesis import strategies as st

from seasons import entries
from seasons.placed import placed_entries
from seasons.ranking import PRESETS, TIEBREAKS, Standing
from seasons.rules import ranking_rule
from seasons.sort_keys import sort_keys
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


FILLED = importlib.import_module("seasons.migrations.0009_season_entry_sort_keys_filled")
_figure = st.integers(min_value=-(2**40), max_value=2**40)
_lines = st.lists(
    st.tuples(
        st.fractions(max_denominator=50).filter(lambda v: abs(v) < 10**6),
        _figure,
        _figure,
        st.integers(min_value=0, max_value=50),
        _figure,
        st.booleans(),
    ),
    max_size=12,
)
_overrides = st.one_of(
    st.just({}),
    st.fixed_dictionaries(
        {"tiebreak": st.lists(st.sampled_from([*TIEBREAKS, "gone"]), unique=True, max_size=5)}
    ),
)


@given(
    preset=st.sampled_from([*PRESETS, "no_longer_known"]),
    overrides=_overrides,
    lines=_lines,
    shared=st.sampled_from([Fraction(1, 3), Fraction(2, 3), Fraction(-7, 9)]),
)
def test_the_frozen_keys_are_the_live_ones(
    preset: str, overrides: dict[str, Any], lines: list[Any], shared: Fraction
) -> None:
    # Some values twice, others near them on the same double: the value's order counts.
    lines = [*lines, (shared, 1, 2, 1, 3, True), (shared + Fraction(1, 10**18), 0, 0, 0, 0, False)]
    standings = [
        Standing(
            player=player, value=value, series=series, total=total, tournaments=tournaments,
            best_result=best, qualified=ranked,
        )
        for player, (value, series, total, tournaments, best, ranked) in enumerate(lines)
    ]  # fmt: skip
    season = SimpleNamespace(preset=preset, rule_overrides=overrides)
    live = sort_keys(ranking_rule(season), standings)
    frozen = FILLED._keys(
        FILLED._tiebreak(preset, overrides),
        [(player, *line) for player, line in enumerate(lines)],
    )
    assert frozen == live
