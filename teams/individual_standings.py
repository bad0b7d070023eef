"""The individual ranking of a team competition, read: every series a player was lined up
for in any group of the league (every match day, whatever its stage), ranked by the pure
``teams.individual``. Two queries, whatever the number of days, groups and players.

A player's series result is his ``scoring.SeriesTotal`` of that series in the group's
tournament (deductions included), as the tournament's standings show it; a series counts
once it is closed (``Series.Status.CLOSED``), until then it is shown as running.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from scoring.models import SeriesTotal
from scoring.statistics import rounded
from teams import individual
from teams.models import League, LineUp, Team
from tournaments.models import Player, Series
from tournaments.names import name_key

#: Decimals of the average per series on pages, files and the API.
AVERAGE_PLACES = 2


@dataclass(frozen=True)
class RankingLine:
    """A player's line: the core's figures with the player, his team (of his latest
    series) and the average rounded for showing."""

    player: Player
    team: Team
    figures: individual.Line
    average: Decimal


@dataclass(frozen=True)
class IndividualRanking:
    league: League
    lines: tuple[RankingLine, ...]
    series_counted: int  # series results counted, over all players

    @property
    def provisional(self) -> bool:
        """A series somebody played is still running: not counted yet."""
        return any(line.figures.open_series for line in self.lines)


def individual_ranking(league: League) -> IndividualRanking:
    """Every player lined up for a series with a result in any group of ``league``, ranked
    over all the series he played (``teams.individual``). Two queries."""
    line_ups = list(
        LineUp.objects.filter(group__match_day__league=league)
        .select_related("player", "team")
        .order_by("group__match_day__number", "series_number", "group__number", "pk")
    )
    totals = {
        (registration, number): (points, games, solos, solos_won, status)
        for registration, number, entries, points, games, solos, solos_won, status in (
            SeriesTotal.objects.filter(
                tournament__team_group__match_day__league=league
            ).values_list(
                "registration_id",
                "series_number",
                "entries",
                "points",
                "games",
                "solos",
                "solos_won",
                "series__status",
            )
        )
        if entries  # a total without any game row stands for no result
    }
    series: dict[int, list[individual.SeriesResult]] = defaultdict(list)
    players: dict[int, Player] = {}
    team_of: dict[int, Team] = {}
    for line_up in line_ups:
        found = totals.get((line_up.registration_id, line_up.series_number))
        if found is None:
            continue
        points, games, solos, solos_won, status = found
        players[line_up.player_id] = line_up.player
        team_of[line_up.player_id] = line_up.team  # the latest series' team
        series[line_up.player_id].append(
            individual.SeriesResult(
                points=points,
                games=games,
                solos=solos,
                solos_won=solos_won,
                closed=status == Series.Status.CLOSED,
            )
        )
    ordered = sorted(players, key=lambda pk: (name_key(players[pk]), pk))
    ranked = individual.rank_players(
        [individual.PlayerResults(pk, tuple(series[pk])) for pk in ordered]
    )
    lines = tuple(
        RankingLine(
            player=players[line.player],
            team=team_of[line.player],
            figures=line,
            average=Decimal(rounded(line.average, AVERAGE_PLACES)),
        )
        for line in ranked
    )
    return IndividualRanking(
        league=league,
        lines=lines,
        series_counted=sum(line.figures.series for line in lines),
    )
