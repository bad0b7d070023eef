"""Standings and games as spreadsheets (CSV and XLSX): the same lines the pages show.

The sheets are written by ``common.sheets`` (CSV and XLSX, guarded against formula
injection).
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from common.sheets import Cell, Sheet
from rules.stored import StoredGame
from scoring.labels import game_label
from scoring.models import Game
from scoring.standings import overall_standings, series_standings
from tournaments.models import Seat, Series, Tournament
from tournaments.publication import retention_expired, shown_name

# -- Standings ------------------------------------------------------------------------------


def _standings_sheet(title: str, lines: list[dict[str, Any]], columns: int) -> Sheet:
    header = (
        _("Rank"),
        _("Start number"),
        _("Player"),
        _("Club"),
        *(_("Series %(number)d") % {"number": n} for n in range(1, columns + 1)),
        _("Points"),
        _("Games"),
        _("Compulsory solos"),
        _("Voluntary solos"),
        _("Solos won"),
    )
    rows: list[tuple[Cell, ...]] = [
        (
            line["place"],
            line["start_number"],
            line["name"],
            line["club"],
            *(line["series"] if columns else ()),
            line["total"],
            line["games"],
            line["compulsory"],
            line["voluntary"],
            line["solos_won"],
        )
        for line in lines
    ]
    return Sheet(title, header, rows)


def standings_sheet(tournament: Tournament, series: Series | None = None) -> Sheet:
    """The overall standings (a column per series), or one series' standings."""
    if series is not None:
        lines = series_standings(series)
        title = _("Series %(number)d") % {"number": series.number}
        return _standings_sheet(title, lines, 0)
    lines = overall_standings(tournament)
    columns = len(lines[0]["series"]) if lines else 0
    return _standings_sheet(_("Standings"), lines, columns)


def standings_sheets(tournament: Tournament) -> list[Sheet]:
    """The overall standings, then every started series' standings (the XLSX workbook)."""
    started = tournament.series.exclude(status=Series.Status.PLANNED).order_by("number")
    return [standings_sheet(tournament)] + [standings_sheet(tournament, s) for s in started]


# -- Games ----------------------------------------------------------------------------------

#: Seats of the widest table.
SEATS = 5


def _contract(record: StoredGame) -> str:
    if record.not_played:
        return _("not played")
    if record.contract is None:  # transcribed from a paper sheet
        return _("Solo") if record.marked_soloist else _("Game from the paper sheet")
    label = game_label(record)
    if record.compulsory:
        label += " · " + _("compulsory solo")
    return label


def _winner(winner: str) -> str:
    return {"re": "Re", "kontra": "Kontra"}.get(winner, "")


def games_sheet(tournament: Tournament) -> Sheet:
    """Every game of the tournament, in series, table and game order: who sat where, the
    game's type, winner, value and each seat's points, and the record as the engine reads
    it (JSON, its ``dealer`` included) in the last column. Two queries."""
    names: dict[tuple[int, int], str] = {}
    seats = Seat.objects.filter(series__tournament=tournament).values_list(
        "table_id", "position", "registration__start_number",
        "registration__player__first_name", "registration__player__last_name",
        "registration__player__name_form",
    )  # fmt: skip
    expired = retention_expired(tournament)
    for table, position, number, first, last, form in seats:
        names[(table, position)] = (
            f"{number} {shown_name(first, last, form, number, expired=expired)}"
        )
    games = (
        Game.objects.filter(series__tournament=tournament)
        .order_by("series__number", "table__number", "number")
        .values_list(
            "series__number", "table__number", "table_id", "number", "dealer", "record",
            "winner", "value", "scores",
        )
    )  # fmt: skip
    header = (
        _("Series"),
        _("Table"),
        _("Game"),
        _("Dealer"),
        *(_("Seat %(seat)d") % {"seat": s} for s in range(1, SEATS + 1)),
        _("Game type"),
        _("Winner"),
        _("Value"),
        *(_("Points seat %(seat)d") % {"seat": s} for s in range(1, SEATS + 1)),
        _("Record (JSON)"),
    )
    rows: list[tuple[Cell, ...]] = []
    for series, table_number, table, number, dealer, record, winner, value, scores in games:
        rows.append(
            (
                series,
                table_number,
                number,
                dealer,
                *(names.get((table, s)) for s in range(1, SEATS + 1)),
                _contract(StoredGame.from_record(record)),
                _winner(winner),
                value,
                *(scores.get(str(s)) for s in range(1, SEATS + 1)),
                json.dumps({**record, "dealer": dealer}, ensure_ascii=False, sort_keys=True),
            )
        )
    return Sheet(_("Games"), header, rows)
