"""The printed score sheet and the engine read one rule set: whatever the tournament's
overrides, the rows printed per table are the games the engine expects there."""

from __future__ import annotations

import pytest

from documents.builders import load_series
from scoring.rulesets import ruleset_for
from tests.factories import add_players, make_tournament
from tournaments.services.draw import seat_series

OVERRIDES = (
    {},
    {"normal_games_4": 16, "normal_games_5": 20},
    # Refused by the engine, so ignored by the printout too (they once disagreed here).
    {"compulsory_solos": 2, "normal_games_4": 0, "normal_games_5": -3, "unknown": 7},
)


@pytest.mark.parametrize("overrides", OVERRIDES)
def test_printed_game_counts_are_the_engines(db: None, overrides: dict[str, int]) -> None:
    tournament = make_tournament(rule_overrides=overrides)
    add_players(tournament, 9)  # a table of five and a table of four
    series = tournament.series.get(number=1)
    seat_series(series, seed=1)
    ruleset = ruleset_for(tournament)
    printed = load_series(series).tables
    assert sorted(len(t.seats) for t in printed) == [4, 5]
    for table in printed:
        size = len(table.seats)
        assert table.normal_games + table.compulsory_solos * size == ruleset.total_games(size)
