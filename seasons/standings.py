"""A season's ranking: the attached tournaments' kept totals, ranked by the pure core.

``season_ranking`` reads two statements whatever the number of tournaments and players: the
tournaments (with the number of their last started series), then every registration with
its player's name and club and his ``TournamentTotal`` (points per series). A player's
place in each tournament is that tournament's overall standings order, ranked again here by
``scoring.ranking.rank`` from the same rows and tie-breaks the standings page uses (no
stored place to go stale, no query per tournament). ``seasons.ranking.rank_season`` then
ranks the season.

A player's page reads his stored lines instead (``player_seasons``: ``SeasonEntry`` rows,
kept by ``seasons.entries.refresh_season_entries``), one statement for all his seasons.

Withdrawn players keep what they played, as in the standings.
"""

from __future__ import annotations

import dataclasses
import datetime
import gc
import json
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import Case, Max, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import TournamentTotal
from scoring.ranking import StandingRow, rank
from seasons.models import Season, SeasonEntry, SeasonTournament
from seasons.placed import counted_place, with_place
from seasons.ranking import (
    Basis,
    Line,
    RankingRule,
    Result,
    Why,
    explain,
    rank_season,
    unplaced_lines,
    window_opens,
)
from seasons.rules import ranking_rule, uses_places
from tournaments.finality import closed_series_mask, open_series_count
from tournaments.models import DEFAULT_TIEBREAK, Player, Registration, Series, Tournament
from tournaments.permissions import TOURNAMENTS, visible_tournaments
from tournaments.publication import shown_name

if TYPE_CHECKING:
    from seasons.placed import WithPlace

CENT = Decimal("0.01")
FIELDS = ("pk", "name", "slug", "starts_on", "status", "seen_public", "tiebreak")


@dataclass(frozen=True)
class TournamentInfo:
    pk: int
    name: str
    slug: str
    starts_on: datetime.date
    status: str
    is_public: bool
    players: int = 0
    complete: bool = True  # every series closed: totals and places are final


@dataclass(slots=True)  # not frozen, as ``seasons.ranking.Result``: one per result
class ResultLine:
    """One tournament of a player's line: its series points, place, worth and whether it
    counts (``why``: counted, dropped, outside_window)."""

    tournament: TournamentInfo
    series_points: tuple[int, ...]
    points: int
    place: int | None
    score: int
    why: str
    open_points: tuple[int, ...] = ()  # series not closed yet: shown, never counted

    @property
    def series(self) -> int:
        return len(self.series_points)

    @property
    def pending(self) -> bool:
        return self.why == Why.PENDING

    @property
    def open_total(self) -> int:
        return sum(self.open_points)

    @property
    def provisional_place(self) -> bool:
        """The place is not final: the tournament still runs."""
        return not self.tournament.complete


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

    @property
    def has_page(self) -> bool:
        """His page shows something to anyone: a result in a public tournament."""
        return any(r.tournament.is_public for r in self.results)

    @property
    def provisional(self) -> bool:
        """Some result of the line is not final yet (shown, not counted)."""
        return any(r.pending or r.open_points for r in self.results)


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


@dataclass(frozen=True, slots=True)
class _Tournament:
    info: TournamentInfo
    tiebreak: tuple[str, ...]
    columns: int  # the number of its last started series
    closed: int  # bit n: series n is closed
    complete: bool  # every series closed: its totals and places are final


def _tournaments(
    season: Season, player: int | None = None, changed: Sequence[int] = ()
) -> dict[int, _Tournament]:
    """Tournament id → its description, tie-breaks, started and closed series (with
    ``player``: of his tournaments only; with ``changed``: of the tournaments of their
    players)."""
    attached = SeasonTournament.objects.filter(season=season).values("tournament_id")
    if player is not None:
        attached = attached.filter(
            tournament__in=Registration.objects.filter(player_id=player).values("tournament_id")
        )
    if changed:
        theirs = Registration.objects.filter(tournament_id__in=changed).values("player_id")
        attached = attached.filter(
            tournament__in=Registration.objects.filter(player_id__in=theirs).values("tournament_id")
        )
    started = Max("series__number", filter=~Q(series__status=Series.Status.PLANNED))
    still_open = open_series_count()
    found = (
        Tournament.objects.filter(pk__in=attached)
        .annotate(
            columns=started,
            closed=closed_series_mask(),
            still_open=still_open,
            # public by the one rule (a league's group follows its league)
            seen_public=Case(When(TOURNAMENTS.public_q(), then=Value(True)), default=Value(False)),
        )
        .values_list(*FIELDS, "columns", "closed", "still_open")
        .order_by()
    )
    return {
        pk: _Tournament(
            TournamentInfo(pk, name, slug, starts_on, status, is_public, complete=not still_open),
            tuple(tiebreak or DEFAULT_TIEBREAK),
            columns or 0,
            closed or 0,
            not still_open,
        )
        for pk, name, slug, starts_on, status, is_public, tiebreak, columns, closed, still_open in (
            found
        )
    }


def split_final(
    played: tuple[int | None, ...], closed: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A player's points per series (None: not played) split into those of closed series
    and those of series still open (``closed``: bit n for closed series n)."""
    final: list[int] = []
    pending: list[int] = []
    for number, points in enumerate(played, start=1):
        if points is not None:
            (final if closed >> number & 1 else pending).append(points)
    return tuple(final), tuple(pending)


def _rows_sql(
    *, of_player: bool = False, names: bool = True, changed: int = 0, places: bool = True
) -> str:
    """The statement of ``_load``; ``changed``: the number of changed tournaments whose
    players' rows it reads (every row of their tournaments when ``places`` are ranked)."""
    registrations, players, totals, attached = (
        m._meta.db_table for m in (Registration, Player, TournamentTotal, SeasonTournament)
    )
    only = (
        f"AND r.tournament_id IN (SELECT o.tournament_id FROM {registrations} o "
        "WHERE o.player_id = %s)"
        if of_player
        else ""
    )
    if changed:
        theirs = (
            f"SELECT d.player_id FROM {registrations} d "
            f"WHERE d.tournament_id IN ({', '.join(['%s'] * changed)})"
        )
        only = (
            f"AND r.tournament_id IN (SELECT o.tournament_id FROM {registrations} o "
            f"WHERE o.player_id IN ({theirs}))"
            if places
            else f"AND r.player_id IN ({theirs})"
        )
    if not names:  # what the stored ranking needs: no names
        return f"""
        SELECT r.id, r.tournament_id, r.player_id, t.series_points
          FROM {registrations} r
          LEFT JOIN {totals} t ON t.registration_id = r.id
         WHERE r.tournament_id IN (SELECT a.tournament_id FROM {attached} a
                                    WHERE a.season_id = %s)
               {only}
    """  # table names come from the models; the value is a parameter
    return f"""
        SELECT r.id, r.tournament_id, r.player_id, t.series_points,
               p.first_name, p.last_name, p.club, p.name_form
          FROM {registrations} r
          JOIN {players} p ON p.id = r.player_id
          LEFT JOIN {totals} t ON t.registration_id = r.id
         WHERE r.tournament_id IN (SELECT a.tournament_id FROM {attached} a
                                    WHERE a.season_id = %s)
               {only}
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


def exact_value(rule: RankingRule, numerator: int, denominator: int) -> Decimal | int:
    """A stored value (``SeasonEntry.value_numerator / value_denominator``) as it is shown."""
    if rule.basis is Basis.SERIES_AVERAGE:
        return (Decimal(numerator) / Decimal(denominator)).quantize(CENT, rounding=ROUND_HALF_UP)
    return numerator // denominator


def _value(rule: RankingRule, exact: Fraction) -> Decimal | int:
    if rule.basis is Basis.SERIES_AVERAGE:
        return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
            CENT, rounding=ROUND_HALF_UP
        )
    return int(exact)


@contextmanager
def collector_paused() -> Iterator[None]:
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
    with collector_paused():
        return _season_ranking(season, club=club, places=places)


def season_lines(season: Season) -> list[Line]:
    """Every line of the season as the pure core computes it, without names and places:
    what its stored ranking keeps (``seasons.entries.refresh_season_entries``; the places
    follow from the lines' keys when the pages read them: ordering the lines here was some
    15 % of the refresh spent for nothing)."""
    with collector_paused():
        loaded = _load(season, uses_places(ranking_rule(season)), names=False)
        return list(unplaced_lines(loaded.rule, loaded.results, loaded.reference).values())


def changed_lines(season: Season, tournaments: Sequence[int]) -> tuple[set[int], list[Line]]:
    """The players registered in ``tournaments`` (of the season), and the lines of those
    with a result, without places: from every result of theirs in the season, read in two
    statements (with the places of their tournaments when the rule scores places)."""
    with collector_paused():
        places = uses_places(ranking_rule(season))
        loaded = _load(season, places, names=False, changed=tournaments)
        theirs = loaded.changed_players
        results = [r for r in loaded.results if r.player in theirs] if places else loaded.results
        return theirs, list(unplaced_lines(loaded.rule, results, loaded.reference).values())


@dataclass(frozen=True)
class _Loaded:
    rule: RankingRule
    reference: datetime.date
    info: dict[int, TournamentInfo]
    names: dict[int, tuple[str, str]]  # player -> name, club
    results: list[Result]
    changed_players: set[int] = dataclasses.field(default_factory=set)  # of ``changed``


def _load(
    season: Season,
    with_places: bool,
    player: int | None = None,
    *,
    names: bool = True,
    changed: Sequence[int] = (),
) -> _Loaded:
    """The season's results read in two statements (see the module's description); with
    ``player`` only those of his tournaments (every player's, for the places); with
    ``changed`` (tournaments) those of their players (with places: of every player of their
    tournaments); without ``names`` no names (``_Loaded.names`` stays empty)."""
    rule = ranking_rule(season)
    reference = reference_date(season)
    tournaments = _tournaments(season, player, changed)
    with connection.cursor() as cursor:
        sql = _rows_sql(
            of_player=player is not None, names=names, changed=len(changed), places=with_places
        )
        asked = [player] if player is not None else list(changed)
        cursor.execute(sql, [season.pk, *asked])
        found = cursor.fetchall()
    among = set(changed)
    changed_players = {row[2] for row in found if row[1] in among}
    every = json.loads("[" + ",".join(row[3] or "[]" for row in found) + "]")

    named: dict[int, tuple[str, str]] = {}
    if names:
        # A player has a row in each of his tournaments (8 in a DDV season): named once.
        for row in found:
            if row[2] not in named:
                named[row[2]] = (shown_name(row[4], row[5], row[7]), row[6])
    # tournament -> [(registration, player, series points padded with None)]
    by_tournament: dict[int, list[tuple[int, int, tuple[int | None, ...]]]] = defaultdict(list)
    for row, played in zip(found, every, strict=True):
        by_tournament[row[1]].append((row[0], row[2], tuple(played)))

    info = {
        pk: dataclasses.replace(t.info, players=len(by_tournament.get(pk, ())))
        for pk, t in tournaments.items()
    }
    results: list[Result] = []
    for tournament, rows in by_tournament.items():
        held_on = info[tournament].starts_on
        about = tournaments[tournament]
        place_of = (
            _places([(r, p) for r, _pl, p in rows], about.tiebreak, about.columns)
            if with_places
            else {}
        )
        # Every started series closed (the usual case): no split needed.
        all_closed = about.closed == sum(1 << n for n in range(1, about.columns + 1))
        for registration, someone, played in rows:
            if all_closed:
                # A withdrawn player's series after he left are None; most players have none.
                points = tuple(p for p in played if p is not None) if None in played else played
                pending: tuple[int, ...] = ()
            else:
                points, pending = split_final(played, about.closed)
            if points or pending:
                results.append(
                    Result(
                        someone,
                        tournament,
                        held_on,
                        cast("tuple[int, ...]", points),
                        place_of.get(registration),
                        open_points=pending,
                        complete=about.complete,
                    )
                )
    return _Loaded(rule, reference, info, named, results, changed_players)


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
        lines.append(_season_line(rule, line, name, player_club, info))
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


def _season_line(
    rule: RankingRule, line: Line, name: str, club: str, info: dict[int, TournamentInfo]
) -> SeasonLine:
    return SeasonLine(
        player=line.player,
        name=name,
        club=club,
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
                e.result.open_points,
            )
            for e in line.entries
        ),
    )


def player_explanation(season: Season, player: int) -> SeasonLine | None:
    """One player's line in the season with every result explained (which count, and why
    not), read from his tournaments only: two statements, whatever the season's size. Its
    place is the stored one's (``SeasonEntry``, ``seasons.placed``); None when he has no
    result in the season."""
    with collector_paused():
        loaded = _load(season, True, player)
    mine = [r for r in loaded.results if r.player == player]
    if not mine:
        return None
    line = explain(loaded.rule, player, mine, loaded.reference)
    stored = (
        with_place(SeasonEntry.objects.filter(season=season, player_id=player))
        .values_list("ranked", "lines_before", "tied")
        .first()
    )
    place, shared = counted_place(*stored) if stored else (None, False)
    name, club = loaded.names[player]
    return dataclasses.replace(
        _season_line(loaded.rule, line, name, club, loaded.info), place=place, shared=shared
    )


def line_as_seen_by(line: SeasonLine, viewer: AbstractBaseUser | AnonymousUser) -> SeasonLine:
    """One line as ``viewer`` may see it (``as_seen_by``)."""
    infos = {r.tournament.pk: r.tournament for r in line.results}
    private = {pk for pk, t in infos.items() if not t.is_public}
    if private and viewer.is_authenticated:
        private -= set(
            visible_tournaments(viewer).filter(pk__in=private).values_list("pk", flat=True)
        )
    if not private:
        return line
    label = str(_("Private tournament"))
    return dataclasses.replace(
        line,
        results=tuple(
            dataclasses.replace(
                r, tournament=dataclasses.replace(r.tournament, name=label, slug="")
            )
            if r.tournament.pk in private
            else r
            for r in line.results
        ),
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


def stored_line(entry: WithPlace) -> StoredLine:
    """The line of an entry read through ``seasons.placed.with_place``."""
    exact = Fraction(entry.value_numerator, entry.value_denominator)
    rule = ranking_rule(entry.season)
    place, shared = counted_place(entry.ranked, entry.lines_before, entry.tied)
    return StoredLine(
        player=entry.player_id,
        place=place,
        shared=shared,
        value=_value(rule, exact),
        exact=exact,
        series=entry.series,
        total=entry.total,
        tournaments=entry.tournaments,
        missing_series=entry.missing_series,
        # The refresh writes only the lines that changed: the season says when it ran.
        computed_at=entry.season.entries_at or entry.computed_at,
    )


def player_seasons(player: Player) -> list[tuple[Season, StoredLine]]:
    """The player's stored line in every public season that has a result of his, by season
    name: one statement, whatever the number of seasons."""
    entries = (
        with_place(SeasonEntry.objects.filter(player=player, season__is_public=True))
        .select_related("season")
        .order_by("season__name", "season__pk")
    )
    return [(entry.season, stored_line(entry)) for entry in entries]


def as_seen_by(ranking: SeasonRanking, viewer: AbstractBaseUser | AnonymousUser) -> SeasonRanking:
    """The ranking as ``viewer`` may see it. A public season refuses to attach a private
    tournament (``seasons.services``); one made private afterwards (or the group of a league
    made private) still counts, but to whoever may not see it, it is "a private tournament":
    no name, no short name, no link."""
    private = {t.pk for t in ranking.tournaments if not t.is_public}
    if private and viewer.is_authenticated:
        private -= set(
            visible_tournaments(viewer).filter(pk__in=private).values_list("pk", flat=True)
        )
    if not private:
        return ranking
    hidden = {
        t.pk: dataclasses.replace(t, name=str(_("Private tournament")), slug="")
        for t in ranking.tournaments
        if t.pk in private
    }

    def line(ln: SeasonLine) -> SeasonLine:
        results = tuple(
            dataclasses.replace(r, tournament=hidden[r.tournament.pk])
            if r.tournament.pk in hidden
            else r
            for r in ln.results
        )
        return dataclasses.replace(ln, results=results)

    return dataclasses.replace(
        ranking,
        tournaments=tuple(hidden.get(t.pk, t) for t in ranking.tournaments),
        ranked=tuple(map(line, ranking.ranked)),
        unranked=tuple(map(line, ranking.unranked)),
    )


__all__ = [
    "ResultLine",
    "SeasonLine",
    "SeasonRanking",
    "StoredLine",
    "TournamentInfo",
    "Why",
    "as_seen_by",
    "changed_lines",
    "collector_paused",
    "exact_value",
    "line_as_seen_by",
    "player_explanation",
    "player_line",
    "player_seasons",
    "season_lines",
    "season_ranking",
]
