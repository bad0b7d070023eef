"""A season's ranking: the attached tournaments' kept totals, ranked by the pure core.

``season_ranking`` reads two statements whatever the number of tournaments and players: the
tournaments (with the number of their last started series), then every registration with
its player's name and club and his ``TournamentTotal`` (points per series). A player's
place in each tournament is that tournament's overall standings order, ranked again here by
``scoring.ranking.rank`` from the same rows and tie-breaks the standings page uses (no
stored place to go stale, no query per tournament). ``seasons.ranking.rank_season`` then
ranks the season.

A player's page reads his stored lines instead (``player_seasons``: ``SeasonEntry`` rows,
kept by ``seasons.services.refresh_season_entries``), one statement for all his seasons.

Withdrawn players keep what they played, as in the standings.
"""

from __future__ import annotations

import dataclasses
import datetime
import gc
import json
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import cast

from django.db import connection
from django.db.models import Max, Q
from django.utils import timezone

from scoring.models import TournamentTotal
from scoring.ranking import StandingRow, rank
from seasons.models import Season, SeasonEntry, SeasonTournament
from seasons.ranking import Basis, Line, RankingRule, Result, Why, rank_season, window_opens
from seasons.rules import ranking_rule, uses_places
from tournaments.models import DEFAULT_TIEBREAK, Player, Registration, Series, Tournament

CENT = Decimal("0.01")
FIELDS = ("pk", "name", "slug", "starts_on", "status", "is_public", "tiebreak")


@dataclass(frozen=True)
class TournamentInfo:
    pk: int
    name: str
    slug: str
    starts_on: datetime.date
    status: str
    is_public: bool
    players: int = 0


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One tournament of a player's line: its series points, place, worth and whether it
    counts (``why``: counted, dropped, outside_window)."""

    tournament: TournamentInfo
    series_points: tuple[int, ...]
    points: int
    place: int | None
    score: int
    why: str

    @property
    def series(self) -> int:
        return len(self.series_points)


@dataclass(frozen=True)
class SeasonLine:
    player: int
    name: str
    club: str
    place: int | None
    shared: bool
    value: Decimal | int  # the average per series (2 places) or the counted sum
    exact: Fraction
    series: int  # series counted
    total: int  # points of the counted results
    tournaments: int  # tournaments counted
    missing_series: int
    results: tuple[ResultLine, ...]  # newest first

    @property
    def ranked(self) -> bool:
        return self.place is not None

    @property
    def counted_any(self) -> bool:
        return self.tournaments > 0


@dataclass(frozen=True)
class SeasonRanking:
    season: Season
    rule: RankingRule
    reference: datetime.date
    window_opens: datetime.date | None  # results after this day count (None: no window)
    tournaments: tuple[TournamentInfo, ...]  # newest first
    ranked: tuple[SeasonLine, ...]
    unranked: tuple[SeasonLine, ...]  # short of the minimum, or nothing in the window
    clubs: tuple[str, ...]  # every club of the season's players, for the filter
    club: str | None  # the filter applied

    @property
    def average(self) -> bool:
        return self.rule.basis is Basis.SERIES_AVERAGE

    @property
    def lines(self) -> tuple[SeasonLine, ...]:
        return (*self.ranked, *self.unranked)


def reference_date(season: Season) -> datetime.date:
    return season.reference_date or timezone.localdate()


def _tournaments(season: Season) -> dict[int, tuple[TournamentInfo, tuple[str, ...], int]]:
    """Tournament id → its description, tie-breaks and the number of its last started series."""
    attached = SeasonTournament.objects.filter(season=season).values("tournament_id")
    started = Max("series__number", filter=~Q(series__status=Series.Status.PLANNED))
    found = (
        Tournament.objects.filter(pk__in=attached)
        .annotate(columns=started)
        .values_list(*FIELDS, "columns")
        .order_by()
    )
    return {
        pk: (
            TournamentInfo(pk, name, slug, starts_on, status, is_public),
            tuple(tiebreak or DEFAULT_TIEBREAK),
            columns or 0,
        )
        for pk, name, slug, starts_on, status, is_public, tiebreak, columns in found
    }


def _rows_sql() -> str:
    registrations, players, totals, attached = (
        m._meta.db_table for m in (Registration, Player, TournamentTotal, SeasonTournament)
    )
    return f"""
        SELECT r.id, r.tournament_id, r.player_id, p.first_name, p.last_name, p.club,
               CAST(t.series_points AS text)
          FROM {registrations} r
          JOIN {players} p ON p.id = r.player_id
          LEFT JOIN {totals} t ON t.registration_id = r.id
         WHERE r.tournament_id IN (SELECT a.tournament_id FROM {attached} a
                                    WHERE a.season_id = %s)
    """  # table names come from the models; the value is a parameter


def _places(
    rows: list[tuple[int, tuple[int | None, ...]]], tiebreak: tuple[str, ...], columns: int
) -> dict[int, int]:
    """Registration → place in the tournament's overall standings (as ``overall_standings``
    ranks them: every registration, the series padded to the started ones)."""
    standing = []
    for registration, played in rows:
        padded = played + (None,) * (columns - len(played))
        standing.append(StandingRow(registration, padded, sum(filter(None, padded))))
    return {r.row.key: r.place for r in rank(standing, tiebreak)}


def _value(rule: RankingRule, exact: Fraction) -> Decimal | int:
    if rule.basis is Basis.SERIES_AVERAGE:
        return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
            CENT, rounding=ROUND_HALF_UP
        )
    return int(exact)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector waits while a ranking is built. A season of 80,000
    results makes some 400,000 objects, none in a cycle (reference counting frees them); the
    collector's full passes over a web process's heap took 0.6 s of a 1.4 s ranking."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def season_ranking(
    season: Season, *, club: str | None = None, places: bool | None = None
) -> SeasonRanking:
    """The season's ranking on its reference date (today when it has none); with ``club``
    only the lines of that club's players, with their places in the whole season.

    Each result carries the player's place in its tournament when the rule scores places,
    or when ``places`` asks for it (the pages do: it explains a line). Ranking every
    tournament's standings again costs a third of a 500-tournament season's time."""
    with _collector_paused():
        return _season_ranking(season, club=club, places=places)


def season_lines(season: Season) -> tuple[Line, ...]:
    """The season's ranking as the pure core returns it, without names and explanations:
    what its stored ranking keeps (``seasons.services.refresh_season_entries``)."""
    with _collector_paused():
        loaded = _load(season, uses_places(ranking_rule(season)))
        return rank_season(loaded.rule, loaded.results, loaded.reference)


@dataclass(frozen=True)
class _Loaded:
    rule: RankingRule
    reference: datetime.date
    info: dict[int, TournamentInfo]
    names: dict[int, tuple[str, str]]  # player -> name, club
    results: list[Result]


def _load(season: Season, with_places: bool) -> _Loaded:
    """The season's results read in two statements (see the module's description)."""
    rule = ranking_rule(season)
    reference = reference_date(season)
    tournaments = _tournaments(season)
    with connection.cursor() as cursor:
        cursor.execute(_rows_sql(), [season.pk])
        found = cursor.fetchall()
    every = json.loads("[" + ",".join(row[6] or "[]" for row in found) + "]")

    names: dict[int, tuple[str, str]] = {}
    # tournament -> [(registration, player, series points padded with None)]
    by_tournament: dict[int, list[tuple[int, int, tuple[int | None, ...]]]] = defaultdict(list)
    for (registration, tournament, player, first, last, player_club, _t), played in zip(
        found, every, strict=True
    ):
        names[player] = (f"{first} {last}", player_club)
        by_tournament[tournament].append((registration, player, tuple(played)))

    info = {
        pk: dataclasses.replace(t, players=len(by_tournament.get(pk, ())))
        for pk, (t, _tb, _c) in tournaments.items()
    }
    results: list[Result] = []
    for tournament, rows in by_tournament.items():
        held_on = info[tournament].starts_on
        _t, tiebreak, columns = tournaments[tournament]
        place_of = _places([(r, p) for r, _pl, p in rows], tiebreak, columns) if with_places else {}
        for registration, player, played in rows:
            # A withdrawn player's series after he left are None; most players have none.
            points = tuple(p for p in played if p is not None) if None in played else played
            if points:
                results.append(
                    Result(
                        player,
                        tournament,
                        held_on,
                        cast("tuple[int, ...]", points),
                        place_of.get(registration),
                    )
                )
    return _Loaded(rule, reference, info, names, results)


def _season_ranking(
    season: Season, *, club: str | None = None, places: bool | None = None
) -> SeasonRanking:
    rule = ranking_rule(season)
    loaded = _load(season, places if places is not None else uses_places(rule))
    reference, info, names = loaded.reference, loaded.info, loaded.names
    lines = []
    for line in rank_season(rule, loaded.results, reference):
        name, player_club = names[line.player]
        if club is not None and player_club != club:
            continue
        lines.append(
            SeasonLine(
                player=line.player,
                name=name,
                club=player_club,
                place=line.place,
                shared=line.shared,
                value=_value(rule, line.value),
                exact=line.value,
                series=line.series,
                total=line.total,
                tournaments=len(line.counted),
                missing_series=line.missing_series,
                results=tuple(
                    ResultLine(
                        info[e.result.tournament],
                        e.result.series_points,
                        e.result.total,
                        e.result.place,
                        e.score,
                        e.why,  # a str
                    )
                    for e in line.entries
                ),
            )
        )
    window = window_opens(rule, reference)
    return SeasonRanking(
        season=season,
        rule=rule,
        reference=reference,
        window_opens=window,
        tournaments=tuple(sorted(info.values(), key=lambda t: (t.starts_on, t.pk), reverse=True)),
        ranked=tuple(ln for ln in lines if ln.ranked),
        unranked=tuple(ln for ln in lines if not ln.ranked),
        clubs=tuple(sorted({c for _n, c in names.values() if c})),
        club=club,
    )


def player_line(ranking: SeasonRanking, player: int) -> SeasonLine | None:
    return next((ln for ln in ranking.lines if ln.player == player), None)


@dataclass(frozen=True)
class StoredLine:
    """A player's line in a season as stored (``SeasonEntry``) when it was last computed:
    what his page and the API show, without the results behind it."""

    player: int
    place: int | None
    shared: bool
    value: Decimal | int  # as ``SeasonLine.value``
    exact: Fraction
    series: int
    total: int
    tournaments: int
    missing_series: int
    computed_at: datetime.datetime

    @property
    def ranked(self) -> bool:
        return self.place is not None


def stored_line(entry: SeasonEntry) -> StoredLine:
    exact = Fraction(entry.value_numerator, entry.value_denominator)
    rule = ranking_rule(entry.season)
    return StoredLine(
        player=entry.player_id,
        place=entry.place,
        shared=entry.shared,
        value=_value(rule, exact),
        exact=exact,
        series=entry.series,
        total=entry.total,
        tournaments=entry.tournaments,
        missing_series=entry.missing_series,
        computed_at=entry.computed_at,
    )


def player_seasons(player: Player) -> list[tuple[Season, StoredLine]]:
    """The player's stored line in every public season that has a result of his, by season
    name: one statement, whatever the number of seasons."""
    entries = (
        SeasonEntry.objects.filter(player=player, season__is_public=True)
        .select_related("season")
        .order_by("season__name", "season__pk")
    )
    return [(entry.season, stored_line(entry)) for entry in entries]


__all__ = [
    "ResultLine",
    "SeasonLine",
    "SeasonRanking",
    "StoredLine",
    "TournamentInfo",
    "Why",
    "player_line",
    "player_seasons",
    "season_lines",
    "season_ranking",
]
