"""A player across tournaments and seasons: the read behind his page.

One player is one identity of a registry (``tournaments.models.Player``); every tournament
he played hangs on it. What a visitor sees of him is what the public pages show anyway: his
results in public tournaments and his lines in public seasons. The keepers of his registry (and the
organizers of a tournament, for that tournament) see his private tournaments too.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Max, Q

from common.charts import Chart
from scoring.charts import player_charts
from scoring.stats_read import PlayerStatistics, player_statistics
from seasons.models import Season
from seasons.standings import (
    StoredLine,
    _places,
    player_seasons,
)
from tournaments.finality import closed_series_mask, open_series_count
from tournaments.models import DEFAULT_TIEBREAK, Player, Registration, Series, Tournament
from tournaments.permissions import TOURNAMENTS, may_merge


@dataclass(frozen=True)
class TournamentResult:
    """The player's result in one tournament: his points in each series he played and his
    place in the overall standings (shared places count as in the standings)."""

    registration: int
    name: str
    slug: str
    starts_on: datetime.date
    start_number: int
    series_points: tuple[int | None, ...]
    points: int
    place: int | None
    players: int
    # Per series: closed (final). A running series' points and a running tournament's
    # place are provisional: shown, not counted in his series and average.
    series_final: tuple[bool, ...] = ()
    complete: bool = True

    @property
    def series_cells(self) -> tuple[tuple[int | None, bool], ...]:
        return tuple(
            (p, i < len(self.series_final) and self.series_final[i])
            for i, p in enumerate(self.series_points)
        )

    @property
    def open_series(self) -> int:
        return sum(1 for p, final in self.series_cells if p is not None and not final)


@dataclass(frozen=True)
class PlayerHistory:
    player: Player
    results: tuple[TournamentResult, ...]  # newest first
    seasons: tuple[tuple[Season, StoredLine], ...]  # his stored lines
    statistics: PlayerStatistics
    charts: tuple[Chart, ...]

    @property
    def series(self) -> int:
        """Series he played that are closed (final)."""
        return self.statistics.overall.series_played

    @property
    def open_series(self) -> int:
        """Series he plays that are still running: provisional, not counted."""
        return sum(r.open_series for r in self.results)

    @property
    def points(self) -> int:
        return sum(r.points for r in self.results)


def visible_registrations(player: Player, viewer: AbstractBaseUser | AnonymousUser) -> Q:
    """The player's registrations ``viewer`` may see: all for the keepers of his registry,
    else those of public tournaments and of the tournaments he organizes."""
    mine = Q(player=player)
    if may_merge(viewer, player):
        return mine
    visible = TOURNAMENTS.related_public_q("tournament")
    if viewer.is_authenticated:
        kept = Tournament.objects.filter(TOURNAMENTS.kept_by(viewer)).values("pk")
        visible |= Q(tournament__in=kept)
    return mine & visible


def _series_points(text: Any) -> tuple[int | None, ...]:
    values = json.loads(text) if isinstance(text, str) else text or []
    return tuple(values)


def _final_only(statistics: PlayerStatistics, closed: dict[int, int]) -> PlayerStatistics:
    """His figures with the series results of closed series only (registration → bit n
    for closed series n): a running series is not a series of his average yet."""
    return PlayerStatistics(
        tuple(
            dataclasses.replace(
                part,
                figures=dataclasses.replace(
                    part.figures,
                    series=tuple(
                        r
                        for r in part.figures.series
                        if closed.get(part.registration, 0) >> r.series & 1
                    ),
                ),
            )
            for part in statistics.tournaments
        )
    )


def player_history(
    player: Player, viewer: AbstractBaseUser | AnonymousUser
) -> PlayerHistory | None:
    """Everything the player's page shows, or None when ``viewer`` may see none of his
    tournaments (the page is then not found: it would tell that he exists). Two statements
    for the tournaments and places, three for the statistics, one for his seasons."""
    started = Max("series__number", filter=~Q(series__status=Series.Status.PLANNED))
    still_open = open_series_count()
    mine = list(
        Registration.objects.filter(visible_registrations(player, viewer))
        .distinct()
        .values_list("pk", "tournament_id", "start_number")
    )
    if not mine:
        return None
    found = list(
        Tournament.objects.filter(pk__in=[t for _, t, _ in mine])
        .annotate(columns=started, closed=closed_series_mask(), still_open=still_open)
        .values_list(
            "pk", "name", "slug", "starts_on", "tiebreak", "columns", "closed", "still_open"
        )
        .order_by()
    )
    tournaments = {
        pk: (name, slug, starts_on, tuple(tiebreak or DEFAULT_TIEBREAK), columns or 0)
        for pk, name, slug, starts_on, tiebreak, columns, _c, _o in found
    }
    closed = {pk: (mask or 0, not still) for pk, *_rest, mask, still in found}
    # Every player's totals of those tournaments: his place needs the whole standings.
    rows: dict[int, list[tuple[int, tuple[int | None, ...]]]] = defaultdict(list)
    for registration, tournament, series_points in (
        Registration.objects.filter(tournament_id__in=list(tournaments))
        .values_list("pk", "tournament_id", "total__series_points")
        .order_by()
    ):
        rows[tournament].append((registration, _series_points(series_points)))
    results = []
    for registration, tournament, start_number in mine:
        name, slug, starts_on, tiebreak, columns = tournaments[tournament]
        places = _places(rows[tournament], tiebreak, columns)
        played = dict(rows[tournament])[registration]
        mask, complete = closed[tournament]
        results.append(
            TournamentResult(
                registration=registration,
                name=name,
                slug=slug,
                starts_on=starts_on,
                start_number=start_number,
                series_points=played,
                points=sum(p for p in played if p is not None),
                place=places.get(registration),
                players=len(rows[tournament]),
                series_final=tuple(bool(mask >> n & 1) for n in range(1, len(played) + 1)),
                complete=complete,
            )
        )
    results.sort(key=lambda r: (r.starts_on, r.registration), reverse=True)
    statistics = _final_only(
        player_statistics([r.registration for r in results]),
        {registration: closed[tournament][0] for registration, tournament, _n in mine},
    )
    return PlayerHistory(
        player=player,
        results=tuple(results),
        seasons=tuple(player_seasons(player)),
        statistics=statistics,
        charts=tuple(player_charts(statistics)) if statistics.overall.games else (),
    )


__all__ = ["PlayerHistory", "TournamentResult", "player_history", "visible_registrations"]
