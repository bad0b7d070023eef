"""A group's club championship across its evenings, ranked by the seasons' pure core.

Each evening is a ``seasons.ranking.Result`` for every player who sat at one of its games
(his attendance): the evening's points as its one "series", the games he played (not those
he sat out as dealer, or after the dealer at six and seven: ``evenings.core.turn``) and his
tables, each with everybody's points at it. The group's rule (``Group.ranking_preset`` and
``ranking_overrides``, ``seasons.rules.evening_rule``) says what an evening is worth: its
points, its points per 24 games, or the placement points at its tables; the best N; the
evenings needed to be ranked; the tie-breaks. ``seasons.ranking.rank_season`` ranks.

Only closed evenings are final: a running one is listed as pending and counts for nothing,
as a running tournament in a season. Two statements whatever the number of evenings: the
games with their evening, then the players' names.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils import timezone

from evenings import core
from evenings.models import Evening, EveningGame, Group
from seasons.ranking import (
    GAMES_PER_UNIT,
    Basis,
    Line,
    RankingRule,
    Result,
    TableResult,
    Why,
    rank_season,
    table_share,
)
from seasons.rules import evening_rule
from tournaments.models import Player

CENT = Decimal("0.01")


def two_places(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        CENT, rounding=ROUND_HALF_UP
    )


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's evening at one table: his points and the games he played there."""

    points: int = 0
    games: int = 0


def evening_results(
    games: list[tuple[int, int, list[int], int, dict[str, int]]],
    evenings: dict[int, tuple[datetime.date, bool]],
) -> list[Result]:
    """``games``: (evening, table, seats, dealer, points by player id as text) of every
    game; ``evenings``: evening → (date, closed). One result per evening and player who
    sat at a game of it: a closed evening's points are final, a running one's open."""
    # evening -> table -> player -> (points, games played)
    sat: dict[int, dict[int, dict[int, list[int]]]] = defaultdict(lambda: defaultdict(dict))
    for evening, table, seats, dealer, points in games:
        playing = {seats[p] for p in core.turn(len(seats), dealer).playing}
        at_table = sat[evening][table]
        for player in seats:
            line = at_table.setdefault(player, [0, 0])
            line[0] += points.get(str(player), 0)
            line[1] += player in playing
    results = []
    for evening, tables in sat.items():
        held_on, closed = evenings[evening]
        mine: dict[int, list[TableResult]] = defaultdict(list)
        played: dict[int, int] = defaultdict(int)
        for table in sorted(tables):
            everyone = tuple(pts for pts, _g in tables[table].values())
            for player, (pts, count) in tables[table].items():
                mine[player].append(TableResult(pts, everyone))
                played[player] += count
        for player, at in mine.items():
            total = sum(t.points for t in at)
            results.append(
                Result(
                    player,
                    evening,
                    held_on,
                    (total,) if closed else (),
                    open_points=() if closed else (total,),
                    complete=closed,
                    games=played[player],
                    tables=tuple(at),
                )
            )
    return results


@dataclass(frozen=True)
class ChampionshipLine:
    """A player's line in the championship, with what the table shows of it."""

    player: int
    name: str
    place: int | None
    shared: bool
    value: Decimal | int  # by the rule: placement points, points, or points per 24 games
    attended: int  # closed evenings he played
    counted: int
    dropped: int  # not among his best N
    pending: int  # running evenings he plays: shown, not counted
    per_24: Decimal | None  # points per 24 games over the counted evenings (None: no game)
    placement: int  # placement points of the counted evenings
    points: int  # points of the counted evenings
    games: int  # games played in the counted evenings
    missing: int  # evenings still needed to be ranked

    @property
    def ranked(self) -> bool:
        return self.place is not None


@dataclass(frozen=True)
class Championship:
    rule: RankingRule
    reference: datetime.date
    evenings: int  # closed evenings
    running: int  # evenings still running
    ranked: tuple[ChampionshipLine, ...]
    unranked: tuple[ChampionshipLine, ...]

    @property
    def average(self) -> bool:
        return self.rule.basis is Basis.PER_24_GAMES

    @property
    def placement(self) -> bool:
        return self.rule.basis is Basis.TABLE_PLACEMENT

    @property
    def lines(self) -> tuple[ChampionshipLine, ...]:
        return (*self.ranked, *self.unranked)


def group_rule(group: Group) -> RankingRule:
    return evening_rule(group.ranking_preset, group.ranking_overrides or {})


def _line(rule: RankingRule, line: Line, name: str) -> ChampionshipLine:
    counted = [e for e in line.entries if e.counted]
    final = [e for e in line.entries if e.why is not Why.PENDING]
    placement = sum(
        (table_share(rule.table_points, t) for e in counted for t in e.result.tables),
        Fraction(0),
    )
    value: Decimal | int
    if rule.basis is Basis.PER_24_GAMES:
        value = two_places(line.value)
    else:
        value = int(line.value) if line.value.denominator == 1 else two_places(line.value)
    return ChampionshipLine(
        player=line.player,
        name=name,
        place=line.place,
        shared=line.shared,
        value=value,
        attended=len(final),
        counted=len(counted),
        dropped=sum(1 for e in line.entries if e.why is Why.DROPPED),
        pending=sum(1 for e in line.entries if e.why is Why.PENDING),
        per_24=two_places(Fraction(line.total * GAMES_PER_UNIT, line.games))
        if line.games
        else None,
        placement=int(placement) if placement.denominator == 1 else round(placement),
        points=line.total,
        games=line.games,
        missing=line.missing_series,
    )


def championship(group: Group, reference: datetime.date | None = None) -> Championship:
    """The group's championship on ``reference`` (today when not given)."""
    rule = group_rule(group)
    day = reference or timezone.localdate()
    evenings = {
        pk: (date, status == Evening.Status.CLOSED)
        for pk, date, status in group.evenings.values_list("pk", "date", "status")
    }
    games = list(
        EveningGame.objects.filter(table__evening__group=group)
        .order_by()
        .values_list("table__evening_id", "table_id", "seats", "dealer", "points")
    )
    results = evening_results(games, evenings)
    lines = rank_season(rule, results, day)
    names = {
        p.pk: f"{p.first_name} {p.last_name}".strip()
        for p in Player.objects.filter(pk__in=[ln.player for ln in lines]).only(
            "first_name", "last_name"
        )
    }
    shown = [_line(rule, ln, names.get(ln.player, "?")) for ln in lines]
    return Championship(
        rule=rule,
        reference=day,
        evenings=sum(1 for _d, closed in evenings.values() if closed),
        running=sum(1 for _d, closed in evenings.values() if not closed),
        ranked=tuple(ln for ln in shown if ln.ranked),
        unranked=tuple(ln for ln in shown if not ln.ranked),
    )
