"""Team scoring (pure): day results with deductions, victory points with ties and groups of
five, the season table and its tie-breaks. Every expectation is worked out by hand."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from teams.scoring import (
    BUNDESLIGA,
    PRESETS,
    GroupLine,
    SeasonLine,
    TeamResult,
    TeamScoring,
    TeamScoringError,
    TieBreak,
    TieRule,
    rank_group,
    rank_season,
)

BEST_PLACE = PRESETS["best_place"]


def _group(*points: int) -> list[TeamResult]:
    """Teams 1, 2, ... with one score each."""
    return [TeamResult(team=i, player_points=(p,)) for i, p in enumerate(points, start=1)]


def _vp(lines: tuple[GroupLine, ...]) -> dict[int, Fraction]:
    return {line.team: line.victory_points for line in lines}


def test_a_team_scores_the_sum_of_its_players_deductions_included() -> None:
    # Four players: 62, -18, 35 and 7 points, the last after a deduction of 20 (27 - 20).
    assert TeamResult(team=1, player_points=(62, -18, 35, 7)).points == 86


def test_clear_placing_gives_four_three_two_one() -> None:
    lines = rank_group(_group(40, 120, -30, 75), BUNDESLIGA)
    assert [(line.team, line.place, line.shared) for line in lines] == [
        (2, 1, False),
        (4, 2, False),
        (1, 3, False),
        (3, 4, False),
    ]
    assert _vp(lines) == {2: 4, 4: 3, 1: 2, 3: 1}


def test_two_teams_tied_first_share_three_and_a_half() -> None:
    lines = rank_group(_group(90, 90, 10, -100), BUNDESLIGA)
    assert _vp(lines) == {1: Fraction(7, 2), 2: Fraction(7, 2), 3: 2, 4: 1}
    assert [(line.place, line.shared) for line in lines] == [
        (1, True),
        (1, True),
        (3, False),
        (4, False),
    ]


def test_the_other_tie_rule_gives_both_the_better_place() -> None:
    lines = rank_group(_group(90, 90, 10, -100), BEST_PLACE)
    assert _vp(lines) == {1: 4, 2: 4, 3: 2, 4: 1}


def test_three_teams_tied_second_share_three_two_and_one() -> None:
    lines = rank_group(_group(50, 0, 0, 0), BUNDESLIGA)
    assert _vp(lines) == {1: 4, 2: 2, 3: 2, 4: 2}  # (3 + 2 + 1) / 3
    assert _vp(rank_group(_group(50, 0, 0, 0), BEST_PLACE)) == {1: 4, 2: 3, 3: 3, 4: 3}


def test_four_teams_all_tied_get_two_and_a_half() -> None:
    assert set(_vp(rank_group(_group(7, 7, 7, 7), BUNDESLIGA)).values()) == {Fraction(5, 2)}


def test_a_group_of_five_uses_its_own_table() -> None:
    """Five teams with four players each; team 5's last player had a deduction of 30."""
    results = [
        TeamResult(team=1, player_points=(30, 20, -10, 0)),  # 40
        TeamResult(team=2, player_points=(100, -40, 15, 5)),  # 80
        TeamResult(team=3, player_points=(10, 10, 10, 10)),  # 40
        TeamResult(team=4, player_points=(-50, 20, 20, 20)),  # 10
        TeamResult(team=5, player_points=(60, 30, 25, -5 - 30)),  # 80
    ]
    lines = rank_group(results, BUNDESLIGA)
    # 2 and 5 share places 1 and 2: (5 + 4) / 2; 1 and 3 share 3 and 4: (3 + 2) / 2.
    assert _vp(lines) == {
        2: Fraction(9, 2),
        5: Fraction(9, 2),
        1: Fraction(5, 2),
        3: Fraction(5, 2),
        4: 1,
    }
    assert [line.place for line in lines] == [1, 1, 3, 3, 5]
    assert sum(_vp(lines).values()) == 15


def test_a_group_size_without_a_table_is_refused() -> None:
    with pytest.raises(TeamScoringError) as info:
        rank_group(_group(1, 2, 3), BUNDESLIGA)
    assert info.value.code == "no_victory_points_for_group_size"
    assert info.value.params == {"size": 3}
    three = TeamScoring(name="with_three", victory_points=((3, 2, 1), (4, 3, 2, 1)))
    assert _vp(rank_group(_group(1, 2, 3), three)) == {3: 3, 2: 2, 1: 1}


def test_a_team_twice_in_a_group_is_refused() -> None:
    with pytest.raises(TeamScoringError) as info:
        rank_group([*_group(1, 2, 3), TeamResult(team=1, player_points=(5,))], BUNDESLIGA)
    assert info.value.code == "duplicate_team"


@pytest.mark.parametrize(
    ("tables", "code"),
    [
        (((4, 3, 2, 1), (1, 2, 3, 4)), "duplicate_group_size"),
        (((4, 3, 2, 5),), "victory_points_not_descending"),
        (((),), "victory_points_not_descending"),
    ],
)
def test_nonsense_tables_are_refused(tables: tuple[tuple[int, ...], ...], code: str) -> None:
    with pytest.raises(TeamScoringError) as info:
        TeamScoring(name="x", victory_points=tables)
    assert info.value.code == code


day_points = st.integers(min_value=-300, max_value=300)


@given(st.lists(day_points, min_size=4, max_size=5))
def test_shared_victory_points_always_add_up_to_the_table(points: list[int]) -> None:
    lines = rank_group(_group(*points), BUNDESLIGA)
    assert sum(line.victory_points for line in lines) == sum(BUNDESLIGA.table_for(len(points)))


@given(st.lists(st.integers(min_value=-3, max_value=3), min_size=4, max_size=5))
def test_the_better_place_rule_hands_out_the_table_or_more_with_ties(points: list[int]) -> None:
    lines = rank_group(_group(*points), BEST_PLACE)
    total = sum(line.victory_points for line in lines)
    table_total = sum(BEST_PLACE.table_for(len(points)))
    assert total >= table_total
    assert (total == table_total) == (len(set(points)) == len(points))


@given(st.lists(day_points, min_size=4, max_size=5))
def test_more_game_points_never_give_fewer_victory_points(points: list[int]) -> None:
    lines = rank_group(_group(*points), BUNDESLIGA)
    for a, b in itertools.combinations(lines, 2):
        if a.points > b.points:
            assert a.victory_points > b.victory_points
        elif a.points == b.points:
            assert a.victory_points == b.victory_points


# A season of eight teams on two match days (groups as drawn), worked out by hand:
#
# day 1, group A: 1: 100, 2: 80, 3: 80, 4: 20      → 4, 2.5, 2.5, 1
#        group B: 5: 90, 6: 60, 7: 40, 8: -10      → 4, 3, 2, 1
# day 2, group C: 1: 50, 5: 70, 3: 40, 7: 60       → 2, 4, 1, 3
#        group D: 2: 60, 6: 40, 4: 60, 8: 0        → 3.5, 2, 3.5, 1
#
# team  VP   points  day wins  best day
#   5   8    160     2         90
#   1   6    150     1         100
#   2   6    140     1 (shared) 80
#   6   5    100     0         60
#   7   5    100     0         60   6 placed above 7 in group B: head-to-head
#   4   4.5   80     1 (shared) 60
#   3   3.5  120     0         80
#   8   2    -10     0         0
SEASON = [
    [
        _group(100, 80, 80, 20),
        [TeamResult(t, (p,)) for t, p in ((5, 90), (6, 60), (7, 40), (8, -10))],
    ],
    [
        [TeamResult(t, (p,)) for t, p in ((1, 50), (5, 70), (3, 40), (7, 60))],
        [TeamResult(t, (p,)) for t, p in ((2, 60), (6, 40), (4, 60), (8, 0))],
    ],
]


def _table(lines: tuple[SeasonLine, ...]) -> list[tuple[int, int, Fraction, int]]:
    return [(line.place, line.team, line.victory_points, line.points) for line in lines]


def test_the_season_table_by_hand() -> None:
    lines = rank_season(SEASON, BUNDESLIGA)
    assert _table(lines) == [
        (1, 5, 8, 160),
        (2, 1, 6, 150),
        (3, 2, 6, 140),
        (4, 6, 5, 100),
        (5, 7, 5, 100),
        (6, 4, Fraction(9, 2), 80),
        (7, 3, Fraction(7, 2), 120),
        (8, 8, 2, -10),
    ]
    assert sum(line.victory_points for line in lines) == 2 * 2 * 10
    by_team = {line.team: line for line in lines}
    assert (by_team[2].day_wins, by_team[4].day_wins, by_team[7].best_day) == (1, 1, 60)
    assert [day.place for day in by_team[3].days] == [2, 4]
    assert not any(line.shared for line in lines)


def test_without_head_to_head_teams_equal_on_everything_share_the_place() -> None:
    """6 and 7: no day won, best day 60 each."""
    for tiebreak in [(TieBreak.DAY_WINS, TieBreak.BEST_DAY), ()]:
        scoring = TeamScoring(name="x", tiebreak=tiebreak)
        lines = rank_season(SEASON, scoring)
        assert [(line.place, line.team, line.shared) for line in lines[3:6]] == [
            (4, 6, True),
            (4, 7, True),
            (6, 4, False),
        ]


def _day(*groups: tuple[tuple[int, int], ...]) -> list[list[TeamResult]]:
    """A match day from (team, points) pairs per group."""
    return [[TeamResult(team, (points,)) for team, points in group] for group in groups]


def test_teams_who_never_met_fall_through_to_the_next_tie_break() -> None:
    """Teams 1 and 2 are never in one group and end equal on VP, points and days won.

    day 1: {1: 40, 3: 30, 4: 20, 5: 10} → 1 first (4); {6: 30, 2: 20, 7: 0, 8: -10} → 2 second (3)
    day 2: {6: 40, 1: 10, 7: 0, 8: -10} → 1 second (3); {2: 30, 3: 20, 4: 10, 5: 0} → 2 first (4)
    Both: 7 VP, 50 points, one day won; best day 40 (team 1) against 30 (team 2).
    """
    days = [
        _day(((1, 40), (3, 30), (4, 20), (5, 10)), ((6, 30), (2, 20), (7, 0), (8, -10))),
        _day(((6, 40), (1, 10), (7, 0), (8, -10)), ((2, 30), (3, 20), (4, 10), (5, 0))),
    ]
    lines = {line.team: line for line in rank_season(days, BUNDESLIGA)}
    assert (lines[1].victory_points, lines[1].points, lines[1].day_wins) == (7, 50, 1)
    assert (lines[2].victory_points, lines[2].points, lines[2].day_wins) == (7, 50, 1)
    assert (lines[6].place, lines[1].place, lines[2].place) == (1, 2, 2)
    assert lines[1].shared and lines[2].shared
    scoring = TeamScoring(name="x", tiebreak=(TieBreak.HEAD_TO_HEAD, TieBreak.BEST_DAY))
    lines = {line.team: line for line in rank_season(days, scoring)}
    assert (lines[1].place, lines[2].place) == (2, 3)
    assert not lines[1].shared


def test_a_tie_break_that_splits_some_starts_again_among_the_rest() -> None:
    """Teams 1, 2 and 3 end on 8 VP and 170 points each.

    day 1: {4: 100, 1: 50, 2: 40, 5: 0}   {6: 100, 7: 80, 3: 30, 8: 0}
    day 2: {4: 100, 2: 50, 3: 40, 5: 0}   {6: 100, 7: 80, 1: 70, 8: 0}
    day 3: {3: 100, 1: 50, 4: 40, 5: 0}   {6: 100, 2: 80, 7: 60, 8: 0}
    1 placed above 2, 2 above 3, 3 above 1: head-to-head among the three is level (2 each).
    Day wins put 3 (day 3) above 1 and 2 (none); among those two alone head-to-head counts
    again, and 1 placed above 2. 5 and 8 (3 VP, 0 points) never met and share 7th place.
    Above them: 6 (12 VP), 4 (10), 7 (8 VP, 220 points).
    """
    days = [
        _day(((4, 100), (1, 50), (2, 40), (5, 0)), ((6, 100), (7, 80), (3, 30), (8, 0))),
        _day(((4, 100), (2, 50), (3, 40), (5, 0)), ((6, 100), (7, 80), (1, 70), (8, 0))),
        _day(((3, 100), (1, 50), (4, 40), (5, 0)), ((6, 100), (2, 80), (7, 60), (8, 0))),
    ]
    lines = rank_season(days, BUNDESLIGA)
    assert [(line.place, line.team, line.shared) for line in lines] == [
        (1, 6, False),
        (2, 4, False),
        (3, 7, False),
        (4, 3, False),
        (5, 1, False),
        (6, 2, False),
        (7, 5, True),
        (7, 8, True),
    ]
    assert {(line.victory_points, line.points) for line in lines[3:6]} == {(8, 170)}
    # Day wins alone: 3 first of the three, 1 and 2 share the next place.
    only_wins = rank_season(days, TeamScoring(name="x", tiebreak=(TieBreak.DAY_WINS,)))
    assert [(line.place, line.team) for line in only_wins[3:6]] == [(4, 3), (5, 1), (5, 2)]


def test_a_team_twice_on_one_day_is_refused() -> None:
    with pytest.raises(TeamScoringError) as info:
        rank_season([[_group(1, 2, 3, 4), _group(5, 6, 7, 8)]], BUNDESLIGA)
    assert info.value.code == "team_twice_on_a_day"


def _h2h(days: list[list[list[TeamResult]]], block: list[int]) -> dict[int, int]:
    """Head-to-head inside a block, counted here from the group placings."""
    score = dict.fromkeys(block, 0)
    for day in days:
        for group in day:
            places = {line.team: line.place for line in rank_group(group, BUNDESLIGA)}
            for a, b in itertools.permutations([t for t in block if t in places], 2):
                score[a] += 2 if places[a] < places[b] else 1 if places[a] == places[b] else 0
    return score


@given(
    seed=st.integers(min_value=0, max_value=10_000),
    points=st.lists(st.integers(min_value=0, max_value=2), min_size=24, max_size=24),
    tiebreak=st.permutations(list(TieBreak)).flatmap(
        lambda order: st.integers(min_value=0, max_value=3).map(lambda k: tuple(order[:k]))
    ),
)
def test_the_season_order_is_total_and_consistent(
    seed: int, points: list[int], tiebreak: tuple[TieBreak, ...]
) -> None:
    """Eight teams, three days in random groups, scores 0..2 so that ties are common.

    Every two teams are either ordered or share a place; a shared place means equal on every
    criterion (head-to-head counted among the teams sharing it); the order of the input does
    not matter."""
    rng = random.Random(seed)
    scores = iter(points)
    days = []
    for _ in range(3):
        teams = list(range(1, 9))
        rng.shuffle(teams)
        days.append(
            [
                [TeamResult(t, (next(scores),)) for t in teams[:4]],
                [TeamResult(t, (next(scores),)) for t in teams[4:]],
            ]
        )
    scoring = TeamScoring(name="x", tiebreak=tiebreak)
    lines = rank_season(days, scoring)
    assert sorted(line.team for line in lines) == list(range(1, 9))
    assert [line.place for line in lines] == sorted(line.place for line in lines)
    for index, line in enumerate(lines):
        assert line.place == 1 + next(
            i for i, other in enumerate(lines) if other.place == line.place
        )
        assert line.shared == (sum(1 for other in lines if other.place == line.place) > 1)
        if index:
            before = lines[index - 1]
            assert (before.victory_points, before.points) >= (line.victory_points, line.points)
    for place in {line.place for line in lines}:
        block = [line for line in lines if line.place == place]
        assert len({(b.victory_points, b.points) for b in block}) == 1
        if TieBreak.DAY_WINS in tiebreak:
            assert len({b.day_wins for b in block}) == 1
        if TieBreak.BEST_DAY in tiebreak:
            assert len({b.best_day for b in block}) == 1
        if TieBreak.HEAD_TO_HEAD in tiebreak:
            assert len(set(_h2h(days, [b.team for b in block]).values())) == 1
    shuffled = [[list(reversed(group)) for group in reversed(day)] for day in days]
    assert _table(rank_season(shuffled, scoring)) == _table(lines)


def test_settings_stored_as_strings_become_the_enums() -> None:
    scoring = TeamScoring(
        name="stored",
        tie_rule="best_place",  # as a database column gives them
        tiebreak=("day_wins", "head_to_head"),
    )
    assert scoring.tie_rule is TieRule.BEST_PLACE
    assert scoring.tiebreak == (TieBreak.DAY_WINS, TieBreak.HEAD_TO_HEAD)
    assert _vp(rank_group(_group(9, 9, 1, 0), scoring)) == {1: 4, 2: 4, 3: 2, 4: 1}


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"tie_rule": "coin_toss"}, "unknown_tie_rule"),
        ({"tiebreak": ("day_wins", "age")}, "unknown_tiebreak"),
        ({"tiebreak": (TieBreak.DAY_WINS, TieBreak.DAY_WINS)}, "duplicate_tiebreak"),
    ],
)
def test_unknown_settings_are_refused(overrides: dict[str, Any], code: str) -> None:
    with pytest.raises(TeamScoringError) as info:
        TeamScoring(name="x", **overrides)
    assert info.value.code == code


def test_the_presets_differ_only_in_the_tie_rule() -> None:
    assert BUNDESLIGA.tie_rule is TieRule.SHARE
    assert BUNDESLIGA.table_for(4) == (4, 3, 2, 1)
    assert BUNDESLIGA.table_for(5) == (5, 4, 3, 2, 1)
    assert BEST_PLACE.tie_rule is TieRule.BEST_PLACE
    assert BEST_PLACE.victory_points == BUNDESLIGA.victory_points
