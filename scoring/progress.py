"""The organizer's progress board: per table games entered, open findings, sheet state;
the time left in the series and at each table, which tables are behind the field and where
time is up but not yet called."""

from __future__ import annotations

import datetime
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from scoring.clock import HallClock, TableClock
from scoring.messages import ToldFinding, tell
from scoring.models import Game, Pause, RefereeCall, ScoreSheet, TableContact
from scoring.rulesets import ruleset_for
from scoring.services.contact import open_conflicts
from scoring.services.referee import concerned_game
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
    clock: TableClock | None = None  # the table's own clock while the series runs
    last_contact: datetime.datetime | None = None  # the captain link last heard from
    pending: int = 0  # games the phone last said it has not sent yet
    conflicts: int = 0  # outbox games the organizers have yet to deal with
    call: RefereeCall | None = None  # the table's open referee call
    provisional: int | None = None  # the game entered that the open call concerns

    @property
    def time_up(self) -> bool:
        """The table's time has run out and it still plays normal games: time-out is due."""
        return self.clock is not None and self.clock.is_up and self.in_play

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
    time_called_at: datetime.datetime | None = None
    pause_reason: str = ""  # of the pause that is still open
    calls: tuple[RefereeCall, ...] = ()  # the open referee calls, oldest first

    @property
    def behind(self) -> int:
        return sum(1 for r in self.rows if r.behind)

    @property
    def timeouts(self) -> int:
        return sum(1 for r in self.rows if r.timeout)

    @property
    def time_up_rows(self) -> list[TableProgress]:
        """Tables whose time is up and that still play normal games, by number."""
        return sorted((r for r in self.rows if r.time_up), key=lambda r: r.table.number)

    @property
    def call_time_due(self) -> bool:
        """Every table's time is up, time has not been called and some table still plays:
        the organizers are prompted (not forced) to call time for the series."""
        return (
            self.clock is not None
            and self.clock.all_up
            and self.time_called_at is None
            and bool(self.time_up_rows)
        )


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
    """Six queries whatever the number of tables: tables with seats, sheets, games, the
    captain links' contacts, open outbox conflicts, open referee calls; two more for the
    clock of a running series and one for the reason of an open pause."""
    ruleset = ruleset_for(series.tournament)
    tables = list(series.tables.prefetch_related("seats__registration__player"))
    sheets = {s.table_id: s for s in ScoreSheet.objects.filter(table__series=series)}
    records: dict[int, list[dict[str, Any]]] = defaultdict(list)
    games: dict[int, list[Game]] = defaultdict(list)
    for game in (
        Game.objects.filter(series=series)
        .order_by("table_id", "number")
        .only("table_id", "record", "dealer", "number", "created_at")
    ):
        records[game.table_id].append({**game.record, "dealer": game.dealer})
        games[game.table_id].append(game)
    calls = {
        c.table_id: c
        for c in RefereeCall.objects.filter(series=series, status__in=RefereeCall.OPEN)
        .select_related("taken_by")
        .order_by("called_at")
    }
    contacts = {c.table_id: c for c in TableContact.objects.filter(table__series=series)}
    conflicts = open_conflicts(series)
    rows = []
    for table in tables:
        seats = list(table.seats.all())
        contact = contacts.get(table.pk)
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
                last_contact=contact.last_contact if contact else None,
                pending=contact.pending if contact else 0,
                conflicts=conflicts.get(table.pk, 0),
                call=calls.get(table.pk),
            )
        )
        call = calls.get(table.pk)
        if call is not None:
            number = concerned_game(call, games[table.pk])
            entered = {g.number for g in games[table.pk]}
            rows[-1].provisional = number if number in entered else None
            call.table = table
    running = series.status == Series.Status.RUNNING
    if running:
        flags = behind_the_field([(r.entered, r.expected, r.in_play) for r in rows])
        for row, flag in zip(rows, flags, strict=True):
            row.behind = flag
    clock = series_clock(series) if running else None
    pause_reason = ""
    if clock is not None:
        for row in rows:
            row.clock = clock.for_table(row.table.number)
        if clock.paused:
            pause = Pause.objects.filter(series=series, ended_at__isnull=True).first()
            pause_reason = pause.reason if pause else ""
    return SeriesProgress(
        rows=order_rows(rows, order if order in ORDERS else ORDER_ATTENTION),
        entered=sum(r.entered for r in rows),
        expected=sum(r.expected for r in rows),
        confirmed=sum(1 for r in rows if r.confirmed),
        clock=clock,
        order=order if order in ORDERS else ORDER_ATTENTION,
        running=running,
        time_called_at=series.time_called_at,
        pause_reason=pause_reason,
        calls=tuple(calls.values()),
    )
