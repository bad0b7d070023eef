"""Match days of a team league: which teams meet in a group on which day. Pure, no Django.

A league of N teams plays ``days`` match days; on each day the teams are split into groups
of four (and of five where N = 4k + r needs r of them, as tables at a tournament). The
schedule is good when few pairs of teams meet more than once.

This is the seating problem with teams for players and groups for tables, so the seating
core does the work and nothing is forked:

* 16 teams, up to five days: the affine plane of order 4 (``tournaments.seating.construct.
  affine_plane_16``, built on GF(4)). Team (x, y) is index 4x + y; the lines of one slope
  are one day's groups, the five parallel classes the five days; two points lie on exactly
  one line, so every pair of teams meets exactly once in five days (the DDV Bundesliga's
  16 teams, groups of four, five match days).
* any other case: the seating draw's seeded search (``tournaments.seating.draw_plan``),
  which minimizes repeated meetings; ``Schedule.repeats`` says how many remain and
  ``Schedule.lower_bound`` how many are forced by counting alone.
"""

from __future__ import annotations

import datetime
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tournaments.seating import (
    ALGORITHM_VERSION,
    SeatingError,
    SeatingOptions,
    SeatingPlayer,
    draw_plan,
    pair_counts,
    plan_repeats,
    repeat_lower_bound,
    table_sizes,
)
from tournaments.seating.construct import affine_plane_16

#: Group = team indices (0-based, ascending); Day = its groups.
Group = tuple[int, ...]
Day = tuple[Group, ...]


class Method(StrEnum):
    AFFINE_PLANE = "affine_plane"  # the exact construction: no pair twice
    SEARCH = "search"  # the seating core's seeded search


class ScheduleError(ValueError):
    """A schedule that cannot be made. ``code`` is stable, ``params`` say why; the words for
    people belong to the edge that shows them."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Schedule:
    """``days[d][g]`` are the team indices (0..teams-1) of group g on match day d + 1.

    Groups of four come before groups of five. ``repeats`` counts, over the whole schedule,
    every meeting of a pair after its first (a pair meeting three times counts twice).
    ``seed`` and ``version`` reproduce a searched schedule.
    """

    teams: int
    days: tuple[Day, ...]
    repeats: int
    lower_bound: int
    method: Method
    seed: int
    version: str = ALGORITHM_VERSION

    def meetings(self) -> Counter[tuple[int, int]]:
        """How often each pair (smaller index first) is in one group; pairs who never meet
        are absent."""
        return pair_counts(self.days)

    @property
    def unmet_pairs(self) -> int:
        """Pairs of teams who never meet in a group."""
        return self.teams * (self.teams - 1) // 2 - len(self.meetings())


def group_sizes(teams: int) -> list[int]:
    """Group sizes of one match day: fours, and r fives when ``teams`` = 4k + r.

    Raises ``ScheduleError("no_group_split", teams=, below=, above=)`` for 1, 2, 3, 6, 7
    and 11 teams, with the nearest counts that can be split.
    """
    try:
        return table_sizes(teams)
    except SeatingError as error:
        raise ScheduleError(
            "no_group_split",
            teams=teams,
            below=error.params.get("below"),
            above=error.params.get("above"),
        ) from error


def make_schedule(teams: int, days: int, seed: int = 0) -> Schedule:
    """The match days of a league of ``teams`` teams, as few repeated meetings as found.

    The same arguments always give the same schedule. Who is team 0, 1, ... is the caller's
    choice (by lot, by last season's table, ...); the seed only steers the search, so 16
    teams over up to five days get the same affine plane whatever the seed.
    """
    if days < 1:
        raise ScheduleError("invalid_day_count", days=days)
    sizes = group_sizes(teams)
    lower_bound = repeat_lower_bound(teams, [sizes] * days)
    if teams == 16 and days <= 5:
        plan = affine_plane_16()[:days]
        method = Method.AFFINE_PLANE
    else:
        players = [SeatingPlayer(id=i) for i in range(teams)]
        drawn = draw_plan(players, days, SeatingOptions(seed=seed))
        plan = [series.tables for series in drawn.series]
        method = Method.SEARCH
    schedule_days = tuple(_canonical(day) for day in plan)
    return Schedule(
        teams=teams,
        days=schedule_days,
        repeats=plan_repeats(schedule_days),
        lower_bound=lower_bound,
        method=method,
        seed=seed,
    )


def _canonical(groups: list[list[int]]) -> Day:
    """Members ascending; groups of four first, then by their smallest member."""
    return tuple(sorted((tuple(sorted(group)) for group in groups), key=lambda g: (len(g), g)))


def dates_out_of_order(dates: Sequence[tuple[int, datetime.date | None]]) -> dict[int, int]:
    """Match day number → the number of an earlier match day dated after it (the first
    such), for every dated day that comes before an earlier day in time. Days without a
    date are left out."""
    found: dict[int, int] = {}
    dated = sorted((number, day) for number, day in dates if day is not None)
    for index, (number, day) in enumerate(dated):
        later = next((n for n, d in dated[:index] if d > day), None)
        if later is not None:
            found[number] = later
    return found


def meetings(groups: Sequence[Sequence[int]], teams: int) -> tuple[int, int]:
    """(repeated meetings, pairs that never meet) of the groups made so far (each a list of
    team ids, every day's groups together) in a league of ``teams`` teams: every meeting of
    a pair after its first, and the pairs of no group."""
    met: Counter[tuple[int, int]] = Counter()
    for group in groups:
        met.update(itertools.combinations(sorted(group), 2))
    return sum(n - 1 for n in met.values()), teams * (teams - 1) // 2 - len(met)
