"""League match days (pure): the 16-team affine plane, the search for other sizes, refusals."""

from __future__ import annotations

import datetime
import itertools
import time
from collections import Counter

import pytest

from teams.schedule import (
    Method,
    Schedule,
    ScheduleError,
    dates_out_of_order,
    group_sizes,
    make_schedule,
)


def _pair_meetings(schedule: Schedule) -> Counter[tuple[int, int]]:
    """Counted here from the groups, independently of the module's own count."""
    met: Counter[tuple[int, int]] = Counter()
    for day in schedule.days:
        for group in day:
            met.update(itertools.combinations(sorted(group), 2))
    return met


def _assert_days_partition(schedule: Schedule, sizes: list[int]) -> None:
    for day in schedule.days:
        assert sorted(t for group in day for t in group) == list(range(schedule.teams))
        assert [len(group) for group in day] == sizes


def test_sixteen_teams_meet_every_other_team_exactly_once_in_five_days() -> None:
    start = time.perf_counter()
    schedule = make_schedule(16, 5)
    elapsed = time.perf_counter() - start
    assert schedule.method is Method.AFFINE_PLANE
    _assert_days_partition(schedule, [4, 4, 4, 4])
    met = _pair_meetings(schedule)
    assert len(met) == 16 * 15 // 2 == 120
    assert set(met.values()) == {1}
    assert schedule.repeats == 0
    assert schedule.unmet_pairs == 0
    assert elapsed < 1.0  # microseconds in fact; the bound is the promise


def test_sixteen_teams_first_day_is_the_lines_of_slope_zero() -> None:
    """Team 4x + y is the point (x, y); the lines y = b hold 4x + b for x = 0..3."""
    schedule = make_schedule(16, 5)
    assert schedule.days[0] == ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15))
    # The last parallel class is the lines x = const: the teams 4x .. 4x + 3.
    assert schedule.days[4] == ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15))


def test_sixteen_teams_fewer_days_have_no_repeat() -> None:
    schedule = make_schedule(16, 3)
    assert len(schedule.days) == 3
    assert schedule.repeats == 0
    assert schedule.unmet_pairs == 120 - 3 * 4 * 6


def test_sixteen_teams_six_days_search_and_say_the_repeats() -> None:
    """A sixth day repeats 24 meetings at least: 6 days * 4 groups * 6 pairs = 144 > 120."""
    schedule = make_schedule(16, 6, seed=1)
    assert schedule.method is Method.SEARCH
    _assert_days_partition(schedule, [4, 4, 4, 4])
    assert schedule.lower_bound == 24
    met = _pair_meetings(schedule)
    assert schedule.repeats == sum(n - 1 for n in met.values()) >= 24


def test_eight_teams_two_days_repeat_four_meetings_at_least_and_the_search_finds_four() -> None:
    """Day 2's groups take their four teams from day 1's two groups: at best two and two,
    which repeats two pairs per group. So 4 is the least, though counting pairs alone
    allows 0."""
    schedule = make_schedule(8, 2)
    assert schedule.lower_bound == 0
    assert schedule.repeats == 4


def test_twelve_teams_three_days_repeat_three_meetings_per_later_day() -> None:
    """Three groups of four from day 1's three groups: each takes two teams of one of them.
    Days 2 and 3 repeat at least three pairs each; the search finds those 6."""
    schedule = make_schedule(12, 3)
    _assert_days_partition(schedule, [4, 4, 4])
    assert schedule.repeats == 6


@pytest.mark.parametrize(
    ("teams", "sizes"), [(8, [4, 4]), (12, [4, 4, 4]), (13, [4, 4, 5]), (20, [4] * 5)]
)
def test_other_sizes_are_partitions_and_count_their_repeats(teams: int, sizes: list[int]) -> None:
    schedule = make_schedule(teams, 5, seed=7)
    assert group_sizes(teams) == sizes
    _assert_days_partition(schedule, sizes)
    met = _pair_meetings(schedule)
    assert schedule.repeats == sum(n - 1 for n in met.values())
    assert schedule.repeats >= schedule.lower_bound
    assert schedule.unmet_pairs == teams * (teams - 1) // 2 - len(met)
    assert schedule == make_schedule(teams, 5, seed=7)  # the seed reproduces it


def test_twenty_teams_five_days_have_no_repeat() -> None:
    assert make_schedule(20, 5).repeats == 0


@pytest.mark.parametrize(("teams", "below", "above"), [(6, 5, 8), (7, 5, 8), (11, 10, 12)])
def test_counts_without_a_split_are_refused_with_the_nearest_counts(
    teams: int, below: int, above: int
) -> None:
    with pytest.raises(ScheduleError) as info:
        make_schedule(teams, 3)
    assert info.value.code == "no_group_split"
    assert info.value.params == {"teams": teams, "below": below, "above": above}


def test_no_days_is_refused() -> None:
    with pytest.raises(ScheduleError) as info:
        make_schedule(16, 0)
    assert info.value.code == "invalid_day_count"


def test_dates_out_of_order_name_the_earlier_day_dated_later() -> None:
    d = datetime.date
    assert dates_out_of_order([(1, d(2026, 3, 1)), (2, d(2026, 4, 1)), (3, None)]) == {}
    assert dates_out_of_order(
        [(3, d(2026, 2, 1)), (1, d(2026, 3, 1)), (2, None), (4, d(2026, 5, 1))]
    ) == {3: 1}
    assert dates_out_of_order([(1, d(2026, 5, 1)), (2, d(2026, 4, 1)), (3, d(2026, 3, 1))]) == {
        2: 1,
        3: 1,
    }
