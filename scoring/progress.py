"""The organizer's progress board: per table games entered, open findings, sheet state;
the time left in the series and which tables are behind the field."""

from __future__ import annotations

import datetime
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from scoring.clock import HallClock
from scoring.messages import ToldFinding, tell
from scoring.models import Game, ScoreSheet
from scoring.rulesets import ruleset_for
from scoring.services.sheet import review
from scoring.timing import series_clock
from tournaments.models import Player, Series, Table

# A table is "behind the field" when it is more than this many games short of where the
# median table stands (the median share of games entered, applied to the table's own
# number of games, so tables of four and five compare fairly).
BEHIND_GAMES = 4

ORDER_ATTENTION = "attention"  # most games still to play first
ORDER_TABLE = "table"  # by table number
ORDERS = (ORDER_ATTENTION, ORDER_TABLE)


@dataclass
class TableProgress:
    table: Table
    players: list[Player]
    entered: int
    expected: int
    finished: bool
    errors: list[ToldFinding]
    warnings: list[ToldFinding]
    status: str | Promise  # the sheet status's (lazily translated) label
    open: bool
    confirmed: bool
    closed_unconfirmed: bool
    timeout: bool
    last_activity: datetime.datetime | None
    behind: bool = False

    @property
    def to_play(self) -> int:
        return max(self.expected - self.entered, 0)

    @property
    def in_play(self) -> bool:
        """Still playing: open, not finished, time not called."""
        return self.open and not self.finished and not self.timeout


@dataclass(frozen=True)
class SeriesProgress:
    rows: list[TableProgress]
    entered: int
    expected: int
    confirmed: int
    clock: HallClock | None
    order: str
    running: bool
    behind_games: int = BEHIND_GAMES

    @property
    def behind(self) -> int:
        return sum(1 for r in self.rows if r.behind)

    @property
    def timeouts(self) -> int:
        return sum(1 for r in self.rows if r.timeout)


def behind_the_field(rows: list[tuple[int, int, bool]], margin: int = BEHIND_GAMES) -> list[bool]:
    """For (entered, expected, in play) per table: is it more than ``margin`` games short of
    the median share of games entered? Tables no longer in play are never behind."""
    shares = [entered / expected for entered, expected, _ in rows if expected]
    if not shares:
        return [False] * len(rows)
    median = statistics.median(shares)
    return [
        in_play and expected > 0 and median * expected - entered > margin
        for entered, expected, in_play in rows
    ]


def order_rows(rows: list[TableProgress], order: str) -> list[TableProgress]:
    if order == ORDER_TABLE:
        return sorted(rows, key=lambda r: r.table.number)
    # Tables that need attention first: still playing, most games to play.
    return sorted(rows, key=lambda r: (not r.in_play, -r.to_play, r.table.number))


def series_progress(series: Series, order: str = ORDER_ATTENTION) -> SeriesProgress:
    """Three queries whatever the number of tables: tables with seats, sheets, games."""
    ruleset = ruleset_for(series.tournament)
    tables = list(series.tables.prefetch_related("seats__registration__player"))
    sheets = {s.table_id: s for s in ScoreSheet.objects.filter(table__series=series)}
    records: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game in (
        Game.objects.filter(series=series)
        .order_by("table_id", "number")
        .only("table_id", "record", "dealer")
    ):
        records[game.table_id].append({**game.record, "dealer": game.dealer})
    rows = []
    for table in tables:
        seats = list(table.seats.all())
        size = len(seats)
        # Tables without an entry yet have no sheet row: an unsaved one stands in.
        sheet = sheets.get(table.pk) or ScoreSheet(table=table, mode=series.tournament.entry_mode)
        report = review(table, sheet, records.get(table.pk, []), size)
        nxt, told = report.next, tell(report.findings)
        rows.append(
            TableProgress(
                table=table,
                players=[s.registration.player for s in seats],
                entered=nxt.games_played,
                expected=ruleset.total_games(size),
                finished=nxt.finished,
                errors=[f for f in told if f.error],
                warnings=[f for f in told if not f.error],
                status=ScoreSheet.Status(sheet.status).label,
                open=sheet.status == ScoreSheet.Status.OPEN,
                confirmed=sheet.status == ScoreSheet.Status.CONFIRMED,
                closed_unconfirmed=sheet.closed_unconfirmed,
                timeout=sheet.timeout,
                last_activity=sheet.last_activity,
            )
        )
    running = series.status == Series.Status.RUNNING
    if running:
        flags = behind_the_field([(r.entered, r.expected, r.in_play) for r in rows])
        for row, flag in zip(rows, flags, strict=True):
            row.behind = flag
    clock = series_clock(series) if running else None
    return SeriesProgress(
        rows=order_rows(rows, order if order in ORDERS else ORDER_ATTENTION),
        entered=sum(r.entered for r in rows),
        expected=sum(r.expected for r in rows),
        confirmed=sum(1 for r in rows if r.confirmed),
        clock=clock,
        order=order if order in ORDERS else ORDER_ATTENTION,
        running=running,
    )
