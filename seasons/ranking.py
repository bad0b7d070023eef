"""Season rankings across tournaments, pure: no Django.

A season ranks players by a ``RankingRule``, a frozen definition like the rules engine's
``RuleSet``: what a tournament result is worth (series average, tournament total, or points
for the place), which results count (a rolling window, the best N), how many series a player
needs to be ranked, and the tie-breaks. ``rank_season`` returns one ``Line`` per player that
explains itself: every result with whether it counts and why not.

Only what is final counts: a series once it is closed, a tournament's total and place once
every series of it is closed. A result that is not final yet by the rule (a running
tournament under a rule of totals or places, a tournament without a closed series under the
series average) is listed as ``Why.PENDING`` and counts for nothing, not even as one of the
best N; under the series average the closed series of a running tournament count and its
open ones (``Result.open_points``) are shown only.

A club's evenings are ranked by the same core (``evenings.championship``): each evening is a
``Result`` with one "series" (the evening's points), the games the player played and his
tables; the rule scores it by the evening's points (``TOURNAMENT_TOTAL``), the points per 24
games (``PER_24_GAMES``) or the placement points at his tables (``TABLE_PLACEMENT``, from
the rule's ``table_points``). An evening still running is pending like a running tournament.
"""

from __future__ import annotations

import calendar
import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction


class Basis(StrEnum):
    """What the ranking adds up."""

    SERIES_AVERAGE = "series_average"  # points per series over every counted series
    TOURNAMENT_TOTAL = "tournament_total"  # the sum of counted tournament totals
    PLACEMENT_POINTS = "placement_points"  # points for the place in each tournament
    PER_24_GAMES = "per_24_games"  # points x 24 / games played over every counted evening
    TABLE_PLACEMENT = "table_placement"  # placement points for the place at each table


class Why(StrEnum):
    """Whether a result counts, and if not, why."""

    COUNTED = "counted"
    DROPPED = "dropped"  # not among the player's best N
    OUTSIDE_WINDOW = "outside_window"  # older than the window (or after the reference date)
    PENDING = "pending"  # not final yet: its tournament (or every series of it) still runs


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
    # Placement points at a table, one tuple per table size (its length): place 1, 2, ...
    table_points: tuple[tuple[int, ...], ...] = ()


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

#: Placement points at a table of 4, 5, 6 and 7 players: place ``i`` of ``n`` gets
#: ``n + 1 - 2i``. Evenly spaced by 2 and symmetric: a table's points sum to 0, and tied
#: players, who share the mean of the places they cover, always get a whole number.
TABLE_POINTS: tuple[tuple[int, ...], ...] = (
    (3, 1, -1, -3),
    (4, 2, 0, -2, -4),
    (5, 3, 1, -1, -3, -5),
    (6, 4, 2, 0, -2, -4, -6),
)
CLUB_CHAMPIONSHIP = RankingRule(
    name="club_championship",
    label="Club championship: placement points at the table of each evening",
    basis=Basis.TABLE_PLACEMENT,
    table_points=TABLE_POINTS,
    tiebreak=("total", "best_result"),
)
EVENING_AVERAGE = RankingRule(
    name="evening_average",
    label="Club evenings: points per 24 games",
    basis=Basis.PER_24_GAMES,
    table_points=TABLE_POINTS,
    tiebreak=("total",),
)
EVENING_POINTS = RankingRule(
    name="evening_points",
    label="Club evenings: the sum of the evenings' points",
    basis=Basis.TOURNAMENT_TOTAL,
    table_points=TABLE_POINTS,
    tiebreak=("best_result",),
)
#: A club's evenings (``evenings.championship``), apart from the tournament seasons' presets.
EVENING_PRESETS: dict[str, RankingRule] = {
    r.name: r for r in (CLUB_CHAMPIONSHIP, EVENING_AVERAGE, EVENING_POINTS)
}
#: Games that make one unit of the average (a series of four players).
GAMES_PER_UNIT = 24


@dataclass(frozen=True, slots=True)
class TableResult:
    """A player's points at one table of an evening and the points of everyone who sat at
    it (his own included): what his place at the table follows from."""

    points: int
    everyone: tuple[int, ...]


def table_share(table_points: Sequence[Sequence[int]], table: TableResult) -> Fraction:
    """The placement points of a player at ``table``: the points of his place in the
    rule's row for the table's size (none for a size the rule has no row for, 0 for places
    past the row). Players tied on points share the places they cover: each gets the mean
    of their points (two tied for places 1 and 2 at a table of four: (3 + 1) / 2 = 2)."""
    row = next((r for r in table_points if len(r) == len(table.everyone)), None)
    if row is None:
        return Fraction(0)
    above = sum(1 for p in table.everyone if p > table.points)
    tied = sum(1 for p in table.everyone if p == table.points)
    covered = [row[i] if i < len(row) else 0 for i in range(above, above + tied)]
    return Fraction(sum(covered), tied)


def half_away(value: Fraction) -> int:
    """The nearest whole number, a half away from zero."""
    whole = (abs(value.numerator) * 2 + value.denominator) // (2 * value.denominator)
    return whole if value >= 0 else -whole


# Not frozen: a DDV season loads 80,000 results, and a frozen dataclass's __init__ (a call
# of object.__setattr__ per field) took three times as long, a tenth of the ranking's CPU.
# Nothing changes a result once it is made.
@dataclass(slots=True)
class Result:
    """A player's result in one tournament: his points in every closed series he played,
    and his place in its standings (None when it has none, e.g. withdrawn). ``open_points``
    are his points in series not closed yet, ``complete`` says that every series of the
    tournament is closed (its total and place are final)."""

    player: int
    tournament: int
    held_on: datetime.date
    series_points: tuple[int, ...]
    place: int | None = None
    open_points: tuple[int, ...] = ()
    complete: bool = True
    games: int = 0  # an evening's games the player played (not those he sat out)
    tables: tuple[TableResult, ...] = ()  # an evening's tables he sat at
    # The sum of the series, read several times a result while ranking: computed once.
    total: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.total = sum(self.series_points)


@dataclass(slots=True)  # not frozen, as ``Result``: one per result of a season
class Entry:
    """One result in a player's line: what it is worth under the rule and whether it counts."""

    result: Result
    score: int
    why: Why

    @property
    def counted(self) -> bool:
        return self.why is Why.COUNTED


@dataclass(slots=True)  # not frozen, as ``Result``: one per player of a season
class Line:
    player: int
    place: int | None  # None: not ranked (too few series)
    shared: bool  # the place is shared with another player
    value: Fraction  # the average per series, or the sum of counted scores
    series: int  # series counted
    total: int  # points of the counted results
    entries: tuple[Entry, ...]  # newest first
    missing_series: int  # series still needed to be ranked
    games: int = 0  # games played in the counted results (evenings)
    # A result not final yet: shown ("vorläufig"), not counted. Follows from the entries.
    provisional: bool = field(default=False, compare=False)
    counted: tuple[Entry, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.counted = tuple(e for e in self.entries if e.counted)

    @property
    def ranked(self) -> bool:
        return self.place is not None


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


def final(rule: RankingRule, result: Result) -> bool:
    """Whether the result counts yet: under the series average once a series of it is
    closed (its closed series count), under totals and places once its tournament is."""
    if rule.basis is Basis.SERIES_AVERAGE:
        return bool(result.series_points)
    return result.complete and not result.open_points


def worth(rule: RankingRule, result: Result) -> Fraction:
    """What the result is worth exactly: the best N are chosen by it."""
    if rule.basis is Basis.PER_24_GAMES:
        return (
            Fraction(result.total * GAMES_PER_UNIT, result.games) if result.games else Fraction(0)
        )
    if rule.basis is Basis.TABLE_PLACEMENT:
        return sum((table_share(rule.table_points, t) for t in result.tables), Fraction(0))
    return Fraction(score(rule, result))


def score(rule: RankingRule, result: Result) -> int:
    """What the result is worth as a whole number (``worth`` rounded, a half away from 0)."""
    if rule.basis is Basis.PLACEMENT_POINTS:
        table = rule.placement_points
        place = result.place
        return table[place - 1] if place is not None and 1 <= place <= len(table) else 0
    if rule.basis in (Basis.PER_24_GAMES, Basis.TABLE_PLACEMENT):
        return half_away(worth(rule, result))
    return result.total


#: Tie-breaks after the main value, each larger is better; ``Standing`` has a field of each
#: name (what the ranking orders by).
TIEBREAKS: dict[str, Callable[[Line], int]] = {
    "series": lambda line: line.series,
    "total": lambda line: line.total,
    "tournaments": lambda line: len(line.counted),
    "best_result": lambda line: max((e.score for e in line.counted), default=0),
}


def _newest_first(result: Result) -> tuple[datetime.date, int]:
    return result.held_on, result.tournament


def _line(
    rule: RankingRule,
    player: int,
    results: Sequence[Result],
    reference: datetime.date,
    opens: datetime.date | None,
) -> Line:
    newest_first = sorted(results, key=_newest_first, reverse=True)
    if rule.basis is Basis.PLACEMENT_POINTS:
        scores = [score(rule, r) for r in newest_first]
        ranks: Sequence[Fraction | int] = scores
    elif rule.basis in (Basis.PER_24_GAMES, Basis.TABLE_PLACEMENT):
        worths = [worth(rule, r) for r in newest_first]
        scores = [half_away(w) for w in worths]
        ranks = worths
    else:
        scores = [r.total for r in newest_first]
        ranks = scores
    # Outside the window, not final yet, or a candidate to count.
    state = [
        Why.OUTSIDE_WINDOW
        if not _inside(r.held_on, reference, opens)
        else Why.COUNTED
        if final(rule, r)
        else Why.PENDING
        for r in newest_first
    ]
    if rule.best_n is None:
        why = state
    else:
        # The best N by score; among equal scores the newer result counts (sorted is stable).
        candidates = [i for i, w in enumerate(state) if w is Why.COUNTED]
        best = set(sorted(candidates, key=lambda i: -ranks[i])[: rule.best_n])
        why = [
            Why.DROPPED if w is Why.COUNTED and i not in best else w for i, w in enumerate(state)
        ]
    entries = tuple(map(Entry, newest_first, scores, why))
    series = total = counted_scores = games = 0
    provisional = False
    for entry in entries:
        if entry.why is Why.COUNTED:
            series += len(entry.result.series_points)
            total += entry.result.total
            counted_scores += entry.score
            games += entry.result.games
        if entry.why is Why.PENDING or entry.result.open_points:
            provisional = True
    if rule.basis is Basis.SERIES_AVERAGE:
        value = Fraction(total, series) if series else Fraction(0)
    elif rule.basis is Basis.PER_24_GAMES:
        value = Fraction(total * GAMES_PER_UNIT, games) if games else Fraction(0)
    elif rule.basis is Basis.TABLE_PLACEMENT:
        # Exact: a tie's share is whole under the presets' tables, maybe not under another.
        counted = (w for w, e in zip(ranks, entries, strict=True) if e.why is Why.COUNTED)
        value = Fraction(sum(counted, Fraction(0)))
    else:
        value = Fraction(counted_scores)
    return Line(
        player=player,
        place=None,
        shared=False,
        value=value,
        series=series,
        total=total,
        entries=entries,
        missing_series=max(rule.min_series - series, 0),
        games=games,
        provisional=provisional,
    )


def explain(
    rule: RankingRule, player: int, results: Sequence[Result], reference: datetime.date
) -> Line:
    """One player's line from his results alone, without a place: which of them count and
    why not (what ``rank_season`` finds for him; his place needs everybody's lines)."""
    return _line(rule, player, results, reference, window_opens(rule, reference))


@dataclass(frozen=True, slots=True)
class Standing:
    """What a line is ordered by: its value and the figures its tie-breaks read (the keys
    of ``TIEBREAKS``, by the same names). A stored line gives it as well as a computed one,
    so a refresh that computes only some players' lines orders them among the others'."""

    player: int
    value: Fraction
    series: int
    total: int
    tournaments: int  # results counted
    best_result: int  # the best counted score (0: none)
    qualified: bool  # counts something and is not short of the minimum: gets a place


def standing(line: Line) -> Standing:
    return Standing(
        player=line.player,
        value=line.value,
        series=line.series,
        total=line.total,
        tournaments=len(line.counted),
        best_result=max((e.score for e in line.counted), default=0),
        qualified=bool(line.counted) and not line.missing_series,
    )


def _key(rule: RankingRule, line: Standing) -> tuple[float | Fraction | int, ...]:
    """Larger is better. The value's float comes first: it is rounded correctly, so never in
    the wrong order, and compares much faster than the exact value, which only decides
    between equal floats. The tie-breaks are those of ``TIEBREAKS``, read by name."""
    return (
        float(line.value),
        line.value,
        *(getattr(line, k) for k in rule.tiebreak if k in TIEBREAKS),
    )


def order(
    rule: RankingRule, standings: Iterable[Standing]
) -> list[tuple[Standing, int | None, bool]]:
    """The standings in the ranking's order, each with its place (None: not placed) and
    whether the place is shared: the qualified ones best first (equal on the value and
    every tie-break: the same place, the next one skipped), then the others (best first,
    those with nothing counted last). Among equals, the smaller player key first."""
    ranked: list[tuple[tuple[float | Fraction | int, ...], int, Standing]] = []
    rest: list[tuple[bool, tuple[float | Fraction | int, ...], int, Standing]] = []
    for one in standings:
        if one.qualified:
            ranked.append((_key(rule, one), -one.player, one))
        else:
            rest.append((one.tournaments > 0, _key(rule, one), -one.player, one))
    # Sorted by the key tuples alone (the player is unique): no comparison reaches the line.
    ranked.sort(key=lambda t: t[:2], reverse=True)
    rest.sort(key=lambda t: t[:3], reverse=True)
    placed: list[tuple[Standing, int | None, bool]] = []
    place = 0
    for index, (key, _p, one) in enumerate(ranked):
        if not index or ranked[index - 1][0] != key:
            place = index + 1
        shared = (index > 0 and ranked[index - 1][0] == key) or (
            index + 1 < len(ranked) and ranked[index + 1][0] == key
        )
        placed.append((one, place, shared))
    placed.extend((one, None, False) for *_k, one in rest)
    return placed


def _placed(line: Line, place: int, shared: bool) -> Line:
    return Line(
        player=line.player,
        place=place,
        shared=shared,
        value=line.value,
        series=line.series,
        total=line.total,
        entries=line.entries,
        missing_series=line.missing_series,
        games=line.games,
        provisional=line.provisional,
    )


def unplaced_lines(
    rule: RankingRule, results: Iterable[Result], reference: datetime.date
) -> dict[int, Line]:
    """Every player's line from his results (one result per player and tournament),
    without a place: player -> line."""
    by_player: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_player[result.player].append(result)
    opens = window_opens(rule, reference)
    return {
        player: _line(rule, player, found, reference, opens) for player, found in by_player.items()
    }


def rank_season(
    rule: RankingRule, results: Iterable[Result], reference: datetime.date
) -> tuple[Line, ...]:
    """Every player with a result (one result per player and tournament), in the order of
    ``order``: the ranked ones best first with their places (equal on the value and every
    tie-break: the same place, the next one skipped), then the players still short of
    ``min_series`` (best first, no place), then those with nothing counted. Among equals,
    the smaller player key first (an order independent of the input's)."""
    lines = unplaced_lines(rule, results, reference)
    return tuple(
        lines[one.player] if place is None else _placed(lines[one.player], place, shared)
        for one, place, shared in order(rule, map(standing, lines.values()))
    )
