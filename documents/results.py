"""The interface between the result report and the scoring app.

The report needs plain rows only: standings per series, final standings with points per
series, and the entered games of every table. ``ResultsProvider`` is that interface;
``load_results`` asks the provider in ``PROVIDER`` (the scoring app's standings and games)
and fills in the tournament header. Tests swap in their own provider.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.utils.translation import gettext as _

from documents.data import GameRow, ResultsInfo, SeriesStandings, StandingRow, TableGames
from scoring.labels import CONTRACT_LABELS, SOLO_LABELS
from tournaments.models import Seat, Series, Tournament


@dataclass(frozen=True, slots=True)
class ResultsRows:
    """What a provider returns: plain rows, ranked and numbered by the provider."""

    series: tuple[SeriesStandings, ...]
    final: tuple[StandingRow, ...]
    tables: tuple[TableGames, ...]


ResultsProvider = Callable[[Tournament], ResultsRows]


def _standing(row: dict[str, Any], with_series: bool) -> StandingRow:
    return StandingRow(
        place=row["place"],
        name=row["name"],
        start_number=row["start_number"],
        club=row.get("club") or "",
        total=row["total"],
        series_points=tuple(row.get("series") or ()) if with_series else (),
    )


def _note(record: Any) -> str:
    """What the Bemerkung column says about a game, in the reader's language."""
    if not isinstance(record, dict):
        return ""
    if record.get("not_played"):
        return str(_("not played"))
    contract = str(record.get("contract") or "")
    if contract == "solo":  # compulsory solos are the P rows already; the type is enough
        return str(SOLO_LABELS.get(record.get("solo"), _("Solo")))
    if record.get("soloist"):  # a transcribed row marks only the soloist
        return str(_("Solo"))
    return "" if contract in ("", "normal") else str(CONTRACT_LABELS.get(contract, contract))


def _table_games(tournament: Tournament) -> tuple[TableGames, ...]:
    """Every table's games with running totals: three queries."""
    from scoring.models import Game, ScoreSheet

    unconfirmed = set(
        ScoreSheet.objects.filter(
            table__series__tournament=tournament, closed_unconfirmed=True
        ).values_list("table_id", flat=True)
    )

    names: dict[int, dict[int, str]] = defaultdict(dict)
    seats = Seat.objects.filter(series__tournament=tournament).select_related(
        "registration__player"
    )
    for seat in seats:
        names[seat.table_id][seat.position] = str(seat.registration.player)
    games = (
        Game.objects.filter(series__tournament=tournament)
        .select_related("table", "series")
        .order_by("series__number", "table__number", "number")
    )
    result: list[TableGames] = []
    for (series_number, table_number, table_id), rows in groupby(
        games, key=lambda g: (g.series.number, g.table.number, g.table_id)
    ):
        positions = sorted(names[table_id])
        totals = dict.fromkeys(positions, 0)
        game_rows = []
        for game in rows:
            scores = {int(k): int(v) for k, v in (game.scores or {}).items()}
            for position, points in scores.items():
                totals[position] = totals.get(position, 0) + points
            record = game.record if isinstance(game.record, dict) else {}
            game_rows.append(
                GameRow(
                    number=game.number,
                    compulsory=bool(record.get("compulsory")),
                    value=game.value,
                    points=tuple(scores.get(p, 0) for p in positions),
                    totals=tuple(totals[p] for p in positions),
                    note=_note(record),
                )
            )
        result.append(
            TableGames(
                series_number=series_number,
                table_number=table_number,
                names=tuple(names[table_id][p] for p in positions),
                games=tuple(game_rows),
                unconfirmed=table_id in unconfirmed,
            )
        )
    return tuple(result)


def from_scoring(tournament: Tournament) -> ResultsRows:
    """Standings and games as the scoring app computes them (also used on screen)."""
    from scoring.standings import overall_standings, series_standings

    started = Series.objects.filter(tournament=tournament).exclude(status=Series.Status.PLANNED)
    return ResultsRows(
        series=tuple(
            SeriesStandings(s.number, tuple(_standing(r, False) for r in series_standings(s)))
            for s in started.select_related("tournament").order_by("number")
        ),
        final=tuple(_standing(r, True) for r in overall_standings(tournament)),
        tables=_table_games(tournament),
    )


def registrations_only(tournament: Tournament) -> ResultsRows:
    """Every registered player with zero points and no games (a report before play)."""
    numbers = tuple(
        Series.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", flat=True)
    )
    registrations = tournament.registrations.select_related("player").order_by(
        "player__last_name", "player__first_name", "start_number"
    )
    rows = tuple(
        StandingRow(
            place=1,
            name=str(r.player),
            start_number=r.start_number,
            club=r.player.club,
            total=0,
            series_points=tuple(0 for _ in numbers),
        )
        for r in registrations
    )
    return ResultsRows(
        series=tuple(
            SeriesStandings(
                number=n,
                rows=tuple(
                    StandingRow(row.place, row.name, row.start_number, row.club, 0) for row in rows
                ),
            )
            for n in numbers
        ),
        final=rows,
        tables=(),
    )


PROVIDER: ResultsProvider = from_scoring


def load_results(tournament: Tournament, provider: ResultsProvider | None = None) -> ResultsInfo:
    rows = (provider or PROVIDER)(tournament)
    numbers = tuple(
        Series.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", flat=True)
    )
    return ResultsInfo(
        tournament_name=tournament.name,
        tournament_slug=tournament.slug,
        venue=tournament.venue,
        date=tournament.starts_on,
        series_numbers=numbers,
        series=rows.series,
        final=rows.final,
        tables=rows.tables,
    )
