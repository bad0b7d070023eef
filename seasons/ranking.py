"""Season rankings across tournaments, pure: no Django.

A season ranks players by a ``RankingRule``, a frozen definition like the rules engine's
``RuleSet``: what a tournament result is worth (series average, tournament total, or points
for the place), which results count (a rolling window, the best N), how many series a player
needs to be ranked, and the tie-breaks. ``rank_season`` returns one ``Line`` per player that
explains itself: every result with whether it counts and why not.
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cached_property


class Basis(StrEnum):
    """What the ranking adds up."""

    SERIES_AVERAGE = "series_average"  # points per series over every counted series
    TOURNAMENT_TOTAL = "tournament_total"  # the sum of counted tournament totals
    PLACEMENT_POINTS = "placement_points"  # points for the place in each tournament


class Why(StrEnum):
    """Whether a result counts, and if not, why."""

    COUNTED = "counted"
    DROPPED = "dropped"  # not among the player's best N
    OUTSIDE_WINDOW = "outside_window"  # older than the window (or after the reference date)


@dataclass(frozen=True)
class RankingRule:
    name: str
    label: str
    basis: Basis
    window_months: int | None = None  # results of the last N months up to the reference date
    min_series: int = 0  # series a player must have played (in the window) to be ranked
    best_n: int | None = None  # only the best N tournament results count
    placement_points: tuple[int, ...] = ()  # points for place 1, 2, ...; later places get 0
    tiebreak: tuple[str, ...] = ()  # keys of TIEBREAKS after the main value


DDV_RANGLISTE = RankingRule(
    name="ddv_rangliste",
    label="DDV-Rangliste: average per series, 24 months, at least 36 series",
    basis=Basis.SERIES_AVERAGE,
    window_months=24,
    min_series=36,
    tiebreak=("series", "total"),
)
BEST_N = RankingRule(
    name="best_n",
    label="Cup: the best 3 tournament totals",
    basis=Basis.TOURNAMENT_TOTAL,
    best_n=3,
    tiebreak=("best_result", "tournaments"),
)
PLACEMENT_POINTS = RankingRule(
    name="placement_points",
    label="Turnierserie: points for the place in each tournament",
    basis=Basis.PLACEMENT_POINTS,
    placement_points=(25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1),
    tiebreak=("best_result", "tournaments"),
)
PRESETS: dict[str, RankingRule] = {r.name: r for r in (DDV_RANGLISTE, BEST_N, PLACEMENT_POINTS)}


@dataclass(frozen=True)
class Result:
    """A player's result in one tournament: his points in every series he played, and his
    place in its final standings (None when it has none, e.g. withdrawn)."""

    player: int
    tournament: int
    held_on: datetime.date
    series_points: tuple[int, ...]
    place: int | None = None

    @cached_property  # read several times a result while ranking; computed once
    def total(self) -> int:
        return sum(self.series_points)


@dataclass(frozen=True)
class Entry:
    """One result in a player's line: what it is worth under the rule and whether it counts."""

    result: Result
    score: int
    why: Why

    @property
    def counted(self) -> bool:
        return self.why is Why.COUNTED


@dataclass(frozen=True)
class Line:
    player: int
    place: int | None  # None: not ranked (too few series)
    shared: bool  # the place is shared with another player
    value: Fraction  # the average per series, or the sum of counted scores
    series: int  # series counted
    total: int  # points of the counted results
    entries: tuple[Entry, ...]  # newest first
    missing_series: int  # series still needed to be ranked

    @property
    def ranked(self) -> bool:
        return self.place is not None

    @cached_property
    def counted(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.counted)


def months_before(day: datetime.date, months: int) -> datetime.date:
    """The same day ``months`` earlier (the month's last day where it is shorter)."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    return datetime.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def window_opens(rule: RankingRule, reference: datetime.date) -> datetime.date | None:
    """The last day before the window (None: no window)."""
    return None if rule.window_months is None else months_before(reference, rule.window_months)


def in_window(rule: RankingRule, held_on: datetime.date, reference: datetime.date) -> bool:
    """Results up to the reference date; with a window, only those after the day the window
    opens (24 months back from 2026-11-28 keeps 2024-11-29 and drops 2024-11-28)."""
    return _inside(held_on, reference, window_opens(rule, reference))


def _inside(held_on: datetime.date, reference: datetime.date, opens: datetime.date | None) -> bool:
    return held_on <= reference and (opens is None or held_on > opens)


def score(rule: RankingRule, result: Result) -> int:
    if rule.basis is Basis.PLACEMENT_POINTS:
        table = rule.placement_points
        place = result.place
        return table[place - 1] if place is not None and 1 <= place <= len(table) else 0
    return result.total


#: Tie-breaks after the main value, each larger is better.
TIEBREAKS: dict[str, Callable[[Line], object]] = {
    "series": lambda line: line.series,
    "total": lambda line: line.total,
    "tournaments": lambda line: len(line.counted),
    "best_result": lambda line: max((e.score for e in line.counted), default=0),
}


def _line(
    rule: RankingRule,
    player: int,
    results: Sequence[Result],
    reference: datetime.date,
    opens: datetime.date | None,
) -> Line:
    newest_first = sorted(results, key=lambda r: (r.held_on, r.tournament), reverse=True)
    inside = [i for i, r in enumerate(newest_first) if _inside(r.held_on, reference, opens)]
    counted = set(inside)
    if rule.best_n is not None:
        # The best N by score; among equal scores the newer result counts (sorted is stable).
        best = sorted(inside, key=lambda i: -score(rule, newest_first[i]))[: rule.best_n]
        counted = set(best)
    entries = tuple(
        Entry(
            r,
            score(rule, r),
            Why.COUNTED if i in counted else Why.DROPPED if i in inside else Why.OUTSIDE_WINDOW,
        )
        for i, r in enumerate(newest_first)
    )
    chosen = [e.result for e in entries if e.counted]
    series = sum(len(r.series_points) for r in chosen)
    total = sum(r.total for r in chosen)
    if rule.basis is Basis.SERIES_AVERAGE:
        value = Fraction(total, series) if series else Fraction(0)
    else:
        value = Fraction(sum(e.score for e in entries if e.counted))
    return Line(
        player=player,
        place=None,
        shared=False,
        value=value,
        series=series,
        total=total,
        entries=entries,
        missing_series=max(rule.min_series - series, 0),
    )


def _key(rule: RankingRule, line: Line) -> tuple[object, ...]:
    return (line.value, *(TIEBREAKS[k](line) for k in rule.tiebreak if k in TIEBREAKS))


def _best_first(rule: RankingRule, line: Line) -> tuple[object, ...]:
    """Sort key: larger values first, then the player's key (an order independent of input)."""
    return (*(_negated(v) for v in _key(rule, line)), line.player)


def _negated(value: object) -> int | Fraction:
    if isinstance(value, (int, Fraction)):
        return -value
    raise TypeError(value)


def rank_season(
    rule: RankingRule, results: Iterable[Result], reference: datetime.date
) -> tuple[Line, ...]:
    """Every player with a result (one result per player and tournament): the ranked ones
    best first with their places (equal on the value and every tie-break: the same place,
    the next one skipped), then the players still short of ``min_series`` (best first, no
    place), then those with nothing counted."""
    by_player: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_player[result.player].append(result)
    opens = window_opens(rule, reference)
    lines = [_line(rule, p, rs, reference, opens) for p, rs in by_player.items()]
    ranked = sorted(
        (ln for ln in lines if ln.counted and not ln.missing_series),
        key=lambda ln: _best_first(rule, ln),
    )
    line_keys = [_key(rule, ln) for ln in ranked]
    keys = Counter(line_keys)
    placed: list[Line] = []
    for index, line in enumerate(ranked):
        key = line_keys[index]
        tied = bool(placed) and line_keys[index - 1] == key
        place = placed[-1].place if tied else index + 1
        placed.append(dataclasses.replace(line, place=place, shared=keys[key] > 1))
    rest = sorted(
        (ln for ln in lines if not (ln.counted and not ln.missing_series)),
        key=lambda ln: (not ln.counted, *_best_first(rule, ln)),
    )
    return (*placed, *rest)
