"""The statistics read: plain rows from the score rows and the kept totals, in a fixed number
of queries, handed to the pure core (``scoring.statistics``).

``tournament_statistics`` reads one tournament (its games and every player's figures, in
standings order); ``player_statistics`` reads one player over the tournaments of the
registrations given (a player page across tournaments calls it with his registrations).
Like the standings, they change nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from functools import reduce
from typing import Any

from django.db.models import Q

from scoring.models import PlayerScore, SeriesTotal
from scoring.standings import overall_standings
from scoring.statistics import (
    KONTRA,
    RE,
    GameShare,
    PlayerFigures,
    SeriesResult,
    TournamentFigures,
    figures_by_player,
    player_figures,
    tournament_figures,
)
from tournaments.models import Registration, Tournament

SHARE_FIELDS = (
    "registration_id",
    "game_id",
    "series_number",
    "seat",
    "points",
    "played",
    "solo",
    "compulsory",
    "won",
    "game__record__re",  # the seats of Re (a game entered in full)
    "game__record__soloist",  # the soloist (a transcribed paper sheet names no parties)
)


def party_of(seat: int | None, played: bool, re: Any, soloist: Any) -> str | None:
    """The seat's party as its game's record tells it; None if it did not play or the
    record names no parties (a transcribed normal game)."""
    if not played or seat is None:
        return None
    if isinstance(re, list):
        return RE if seat in re else KONTRA
    if isinstance(soloist, int):
        return RE if seat == soloist else KONTRA
    return None


def read_shares(condition: Q) -> list[tuple[int, GameShare]]:
    """(registration id, share) of every score row of a game that matches ``condition``:
    one query."""
    rows = PlayerScore.objects.filter(condition, game__isnull=False).values_list(*SHARE_FIELDS)
    return [
        (
            registration,
            GameShare(
                game=game,
                series=series,
                points=points,
                played=played,
                party=party_of(seat, played, re, soloist),
                solo=solo,
                compulsory=compulsory,
                won=won,
            ),
        )
        for registration, game, series, seat, points, played, solo, compulsory, won, re, soloist
        in rows.order_by()
    ]  # fmt: skip


@dataclass(frozen=True)
class PlayerLine:
    """A player's figures in a tournament, with his place in its standings."""

    place: int
    shared: bool
    start_number: int
    name: str
    club: str
    figures: PlayerFigures


@dataclass(frozen=True)
class TournamentStatistics:
    series_numbers: tuple[int, ...]  # the series with results so far
    figures: TournamentFigures
    players: tuple[PlayerLine, ...]  # in the order of the overall standings


def tournament_statistics(tournament: Tournament) -> TournamentStatistics:
    """The tournament's figures and every player's: the overall standings (one query, as
    that page) and the score rows of its games (one query)."""
    standings = overall_standings(tournament)
    shares = read_shares(Q(tournament=tournament))
    results = [
        (row["registration"], SeriesResult(number, points))
        for row in standings
        for number, points in enumerate(row["series"], start=1)
        if points is not None
    ]
    figures = figures_by_player(shares, results)
    empty = player_figures(())
    columns = len(standings[0]["series"]) if standings else 0
    return TournamentStatistics(
        series_numbers=tuple(range(1, columns + 1)),
        figures=tournament_figures(s for _, s in shares),
        players=tuple(
            PlayerLine(
                place=row["place"],
                shared=row["shared"],
                start_number=row["start_number"],
                name=row["name"],
                club=row["club"],
                figures=figures.get(row["registration"], empty),
            )
            for row in standings
        ),
    )


@dataclass(frozen=True)
class TournamentPart:
    """A player's figures in one tournament."""

    registration: int
    start_number: int
    tournament_name: str
    tournament_slug: str
    starts_on: dt.date
    figures: PlayerFigures


@dataclass(frozen=True)
class PlayerStatistics:
    """One player over several tournaments, the oldest first."""

    tournaments: tuple[TournamentPart, ...]

    @property
    def overall(self) -> PlayerFigures:
        return reduce(lambda a, b: a + b, (p.figures for p in self.tournaments), player_figures(()))


def player_statistics(registrations: Iterable[Registration | int]) -> PlayerStatistics:
    """One player's figures per tournament of ``registrations`` (his, in his registry;
    ids or rows) and over all of them: three queries however many tournaments."""
    ids = [r if isinstance(r, int) else r.pk for r in registrations]
    if not ids:
        return PlayerStatistics(())
    shares = read_shares(Q(registration_id__in=ids))
    totals = SeriesTotal.objects.filter(registration_id__in=ids, entries__gt=0).values_list(
        "registration_id", "series_number", "points"
    )
    results = [(r, SeriesResult(n, p)) for r, n, p in totals.order_by()]
    figures = figures_by_player(shares, results)
    empty = player_figures(())
    parts = (
        Registration.objects.filter(pk__in=ids)
        .order_by("tournament__starts_on", "tournament_id")
        .values_list(
            "pk", "start_number", "tournament__name", "tournament__slug", "tournament__starts_on"
        )
    )
    return PlayerStatistics(
        tuple(
            TournamentPart(pk, number, name, slug, starts_on, figures.get(pk, empty))
            for pk, number, name, slug, starts_on in parts
        )
    )
