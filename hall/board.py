"""What the hall display shows, read cheaply enough to poll every few seconds (a read: it
changes nothing).

Every screen asks every few seconds whether anything changed: ``fingerprint`` answers with
three queries whatever the size of the field (the tournament, its series, one row of
aggregates). Only when the fingerprint moved does the screen fetch the board, again with a
fixed number of queries: counts come from aggregates, compulsory solos from the stored
player scores, and only the findings of a sheet need the rules engine's replay, which is
kept per sheet version in the cache (a sheet changes, its table is replayed again).

Nothing here depends on the time of day: the board carries the end times, the screens count
down themselves, so an unchanged fingerprint means an unchanged board.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from hall.models import SHOWN_ANNOUNCEMENTS, Announcement
from scoring.clock import STAGE_THRESHOLDS, HallClock, Stage, TableClock, stage_for
from scoring.models import (
    Deduction,
    Extension,
    Game,
    Pause,
    PlayerScore,
    RefereeCall,
    ScoreSheet,
)
from scoring.progress import behind_the_field
from scoring.rulesets import ruleset_for
from scoring.services.sheet import review
from scoring.standings import overall_standings, unconfirmed_registrations
from scoring.timing import series_clock
from tournaments.models import (
    NameForm,
    Registration,
    RegistryChange,
    Seat,
    Series,
    Table,
    Tournament,
)
from tournaments.names import folded
from tournaments.publication import retention_expired, shown_name

SEATING, CLOCK, TABLES, STANDINGS, WELCOME = "seating", "clock", "tables", "standings", "welcome"
#: The views a screen can be pinned to (``?view=``); anything else follows the tournament.
VIEWS = (SEATING, CLOCK, TABLES, STANDINGS)
AUTO = "auto"
#: The board's stage once the referee called time: no countdown runs any more.
CALLED = "called"

# One page of each view at 1920 x 1080, with room for three announcements: three columns of
# 16 names, two columns of 16 standings lines, tables in rows of five: four rows, or three
# below more than one announcement.
SEATING_PAGE = 48
STANDINGS_PAGE = 32
TABLES_ACROSS = 5


def table_rows(announcements: int) -> int:
    return 4 if announcements <= 1 else 3


#: Groups of tables with their own end shown under the big countdown.
SHOWN_DEVIATIONS = 6
#: Series columns the standings show; beyond, only the total.
STANDINGS_SERIES_COLUMNS = 4

# Changes with what the board looks like, so that a new release repaints every screen.
BOARD_FORMAT = 2
# The findings of a sheet version never change: kept a day, refreshed whenever it changes.
FINDINGS_SECONDS = 24 * 3600
# Sheets replayed for one board at most (about 1 ms each). With an empty cache (a restart)
# the first boards come without some tables' findings, each with a fingerprint of its own,
# so the screens ask again and get the rest: no answer waits for a hundred replays (about
# 150 ms); after seven boards (half a minute) every table's flags are there.
REPLAYS_PER_BOARD = 15

T = TypeVar("T")


def pages(items: Sequence[T], size: int) -> list[list[T]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


# -- Which view --------------------------------------------------------------------------


def series_of(tournament: Tournament) -> list[Series]:
    """The tournament's series in order (one query)."""
    series = list(
        Series.objects.filter(tournament=tournament)
        .order_by("number")
        .only("tournament_id", "number", "status", "starts_at", "time_called_at", "closed_at")
    )
    for s in series:
        s.tournament = tournament  # the rule set and the clock read it
    return series


def latest(series: Iterable[Series], *statuses: str) -> Series | None:
    found = [s for s in series if s.status in statuses]
    return found[-1] if found else None


def auto_view(series: Sequence[Series]) -> str:
    """A running series: its tables; else a drawn one: its seating; else, once a series is
    closed, the standings; before all that a welcome."""
    if latest(series, Series.Status.RUNNING):
        return TABLES
    if latest(series, Series.Status.DRAWN):
        return SEATING
    if latest(series, Series.Status.CLOSED):
        return STANDINGS
    return WELCOME


def requested_view(value: object) -> str:
    """``?view=`` as given, or ``auto`` for anything that is not a view."""
    return value if isinstance(value, str) and value in VIEWS else AUTO


def shown_view(requested: str, series: Sequence[Series]) -> str:
    return requested if requested in VIEWS else auto_view(series)


# -- The fingerprint ---------------------------------------------------------------------


# Counters that move with every change a board shows, per source: the rows of the tournament
# (``{t}``: the tournament's id) and the aggregates over them. Sheet versions move with every
# game entered, corrected or deleted, every submission, confirmation and time-out; a swap of
# two players changes the weighed sum of the seats.
_SOURCES = (
    (
        "{ScoreSheet} x JOIN {Table} t ON t.id = x.table_id JOIN {Series} s ON s.id = t.series_id"
        " WHERE s.tournament_id = {t}",
        ("COUNT(*)", "SUM(x.version)", "SUM(CASE WHEN x.timeout THEN 1 ELSE 0 END)"),
    ),
    (
        "{Pause} x JOIN {Series} s ON s.id = x.series_id WHERE s.tournament_id = {t}",
        ("COUNT(*)", "SUM(CASE WHEN x.ended_at IS NULL THEN 1 ELSE 0 END)", "MAX(x.started_at)",
         "MAX(x.ended_at)"),
    ),
    (
        "{Extension} x JOIN {Table} t ON t.id = x.table_id JOIN {Series} s ON s.id = t.series_id"
        " WHERE s.tournament_id = {t}",
        ("COUNT(*)", "SUM(x.minutes)"),
    ),
    (
        "{Deduction} x JOIN {Series} s ON s.id = x.series_id WHERE s.tournament_id = {t}",
        ("COUNT(*)", "SUM(x.points)"),
    ),
    (
        "{Registration} x WHERE x.tournament_id = {t}",
        ("COUNT(*)", "SUM(x.id)", "SUM(x.withdrawn_from_series)", "SUM(x.id * x.player_id)"),
    ),
    # The players' names and clubs: every correction and merge is logged in the registry's
    # log (tournaments.services.registry), so its newest entry for a registered player moves.
    (
        "{RegistryChange} x JOIN {Registration} r ON r.player_id = x.player_id"
        " WHERE r.tournament_id = {t}",
        ("COUNT(*)", "MAX(x.id)"),
    ),
    (
        "{Seat} x JOIN {Series} s ON s.id = x.series_id WHERE s.tournament_id = {t}",
        ("COUNT(*)", "SUM(x.registration_id * (x.table_id * 8 + x.position))"),
    ),
    # Referee calls: made, taken, ruled, withdrawn (each step moves the weighed sum).
    (
        "{RefereeCall} x JOIN {Series} s ON s.id = x.series_id WHERE s.tournament_id = {t}",
        ("COUNT(*)", "SUM(x.id * CASE x.status WHEN 'called' THEN 1 WHEN 'taken' THEN 2"
         " WHEN 'ruled' THEN 3 ELSE 4 END)"),
    ),
    (
        "{Announcement} x WHERE x.tournament_id = {t}",
        ("COUNT(*)", "MAX(x.id)", "SUM(CASE WHEN x.ended_at IS NULL THEN 1 ELSE 0 END)"),
    ),
)  # fmt: skip


@functools.cache
def _aggregates_sql() -> tuple[str, int]:
    """The one query of all counters, and how often it names the tournament. Written out:
    the ORM took ten times longer to compile it than the database to answer it. One branch
    per source scans its rows once; the counters are text, so the branches fit together."""
    models = (ScoreSheet, Table, Series, Pause, Extension, Deduction, Registration, Seat,
              RegistryChange, RefereeCall)  # fmt: skip
    names = {m.__name__: connection.ops.quote_name(m._meta.db_table) for m in models}
    names["Announcement"] = connection.ops.quote_name(Announcement._meta.db_table)
    width = max(len(aggregates) for _, aggregates in _SOURCES)
    branches = []
    for number, (source, aggregates) in enumerate(_SOURCES):
        columns = [f"CAST({aggregate} AS TEXT)" for aggregate in aggregates]
        columns += ["NULL"] * (width - len(columns))
        branches.append(
            f"SELECT {number} AS k, {', '.join(columns)} FROM {source.format(t='%s', **names)}"
        )
    return " UNION ALL ".join(branches) + " ORDER BY k", len(branches)


def _aggregates(tournament: Tournament) -> tuple[Any, ...]:
    sql, count = _aggregates_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament.pk] * count)
        return tuple(cursor.fetchall())


def fingerprint(tournament: Tournament, series: Sequence[Series], view: str, language: str) -> str:
    """A short digest of everything the board shows in ``view`` and ``language``; it
    changes whenever the board would (one query besides the series already loaded)."""
    parts = (
        BOARD_FORMAT,
        view,
        language,
        tournament.pk,
        tournament.name,
        tournament.slug,
        tournament.starts_on,
        tournament.ends_on,
        tournament.ruleset,
        sorted((tournament.rule_overrides or {}).items()),
        list(tournament.tiebreak or ()),
        [(s.pk, s.number, s.status, s.starts_at, s.time_called_at, s.closed_at) for s in series],
        _aggregates(tournament),
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()


# -- The clock ---------------------------------------------------------------------------


def number_ranges(numbers: Iterable[int]) -> str:
    """Table numbers as people write them: 3, 7 to 9, 12 (with an en dash)."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def clock_text(seconds: int) -> str:
    """What the big clock shows: ``1:39:59``, ``14:59``, ``0:00`` (display.js counts the
    same way)."""
    seconds = max(seconds, 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def epoch_ms(moment: datetime.datetime) -> int:
    return int(moment.timestamp() * 1000)


@dataclass(frozen=True)
class Countdown:
    """One countdown on the screen: until ``ends_at``; ``paused``: stands still at
    ``remaining`` seconds."""

    ends_at: datetime.datetime
    remaining: int
    paused: bool

    @property
    def ends_ms(self) -> int:
        return epoch_ms(self.ends_at)

    @property
    def stage(self) -> str:
        return stage_for(datetime.timedelta(seconds=self.remaining)).value

    @property
    def text(self) -> str:
        return clock_text(self.remaining)

    @classmethod
    def of(cls, table: TableClock) -> Countdown:
        return cls(table.ends_at, table.remaining_seconds, table.paused)


@dataclass(frozen=True)
class EndGroup:
    """Tables whose time ends together, elsewhere than the main clock's."""

    countdown: Countdown
    tables: tuple[int, ...]
    extension_minutes: int  # the Nachspielzeit they share (0: another table size)

    @property
    def numbers(self) -> str:
        return number_ranges(self.tables)


@dataclass(frozen=True)
class ClockBoard:
    series: int
    countdown: Countdown
    starts_at: datetime.datetime
    paused_since: datetime.datetime | None
    pause_reason: str  # the reason of the pause going on ("" without one)
    called_at: datetime.datetime | None  # the referee called time: no countdown runs any more
    up: int  # tables whose time is up
    tables: int
    deviations: tuple[EndGroup, ...]
    more_deviations: int  # groups not shown

    @property
    def paused(self) -> bool:
        return self.paused_since is not None and self.called_at is None

    @property
    def time_called(self) -> bool:
        return self.called_at is not None


def clock_board(series: Series, clock: HallClock) -> ClockBoard:
    groups: dict[datetime.datetime, list[TableClock]] = defaultdict(list)
    for table in clock.deviations:
        groups[table.ends_at].append(table)
    deviations = [
        EndGroup(
            Countdown.of(tables[0]),
            tuple(t.number for t in tables),
            tables[0].extension_minutes if len({t.extension_minutes for t in tables}) == 1 else 0,
        )
        for _, tables in sorted(groups.items())
    ]
    return ClockBoard(
        series=series.number,
        countdown=Countdown.of(clock.main),
        starts_at=clock.starts_at,
        paused_since=clock.paused_since,
        pause_reason=clock.pause_reason,
        called_at=series.time_called_at,
        up=len(clock.up),
        tables=len(clock.tables),
        deviations=tuple(deviations[:SHOWN_DEVIATIONS]),
        more_deviations=max(len(deviations) - SHOWN_DEVIATIONS, 0),
    )


# -- The tables of a running series ------------------------------------------------------


@dataclass(frozen=True)
class TableLine:
    number: int
    size: int
    entered: int
    expected: int
    compulsory_open: int
    behind: bool
    conflict: bool  # the sheet has errors (the rules engine's findings)
    timeout: bool  # time called at this table
    status: str  # open, submitted, confirmed
    countdown: Countdown | None  # None: no clock (the series has no start time)
    deviates: bool  # its time ends elsewhere than the main clock's

    @property
    def finished(self) -> bool:
        return self.status != ScoreSheet.Status.OPEN


@dataclass(frozen=True)
class TablePage:
    lines: list[TableLine]

    @property
    def first(self) -> int:
        return self.lines[0].number

    @property
    def last(self) -> int:
        return self.lines[-1].number


@dataclass(frozen=True)
class SheetFacts:
    """What the replay of one sheet version tells the board."""

    errors: int
    finished: bool


def _findings_key(token: str, version: int, timeout: bool, mode: str, size: int, rules: str) -> str:
    # The captain's token names the table across databases and test runs; hashed, since it
    # is a credential.
    table = hashlib.blake2b(token.encode(), digest_size=8).hexdigest()
    return f"hall:sheet:{table}:{version}:{int(timeout)}:{mode}:{size}:{rules}"


def _rules_key(tournament: Tournament) -> str:
    overrides = sorted((tournament.rule_overrides or {}).items())
    rules = repr((tournament.ruleset, overrides)).encode()
    return hashlib.blake2b(rules, digest_size=4).hexdigest()


def sheet_facts(series: Series, rows: Sequence[dict[str, Any]]) -> dict[int, SheetFacts]:
    """Errors and end of each table's sheet, from the cache or replayed: at most
    ``REPLAYS_PER_BOARD`` sheets (the others are missing from the answer, to be replayed for
    the next board); one query for the games of the sheets replayed, none when all are in
    the cache."""
    rules = _rules_key(series.tournament)
    keys = {
        r["pk"]: _findings_key(
            r["captain_token"],
            r["sheet__version"] or 0,
            bool(r["sheet__timeout"]),
            r["sheet__mode"] or series.tournament.entry_mode,
            r["size"],
            rules,
        )
        for r in rows
    }
    cached = cache.get_many(list(keys.values()))
    facts: dict[int, SheetFacts] = {}
    missing = []
    for row in rows:
        value = cached.get(keys[row["pk"]])
        if isinstance(value, tuple) and len(value) == 2:
            facts[row["pk"]] = SheetFacts(*value)
        else:
            missing.append(row)
    missing = missing[:REPLAYS_PER_BOARD]
    if not missing:
        return facts
    records: dict[int, list[dict[str, Any]]] = defaultdict(list)
    games = (
        Game.objects.filter(table_id__in=[r["pk"] for r in missing])
        .order_by("table_id", "number")
        .values_list("table_id", "record", "dealer")
    )
    for table_id, record, dealer in games:
        records[table_id].append({**(record if isinstance(record, dict) else {}), "dealer": dealer})
    fresh = {}
    for row in missing:
        table = Table(pk=row["pk"], number=row["number"], series=series)
        sheet = ScoreSheet(
            table=table,
            mode=row["sheet__mode"] or series.tournament.entry_mode,
            timeout=bool(row["sheet__timeout"]),
        )
        report = review(table, sheet, records.get(row["pk"], []), row["size"])
        found = SheetFacts(sum(1 for f in report.findings if f.is_error), report.next.finished)
        facts[row["pk"]] = found
        fresh[keys[row["pk"]]] = (found.errors, found.finished)
    cache.set_many(fresh, FINDINGS_SECONDS)
    return facts


def table_lines(series: Series, clock: HallClock | None) -> tuple[list[TableLine], bool]:
    """Every table of the series by number: games entered of all, compulsory solos still
    open, behind the field, errors on the sheet, time called, handed in."""
    ruleset = ruleset_for(series.tournament)
    sheet = ("sheet__version", "sheet__status", "sheet__timeout", "sheet__mode")
    rows = list(
        Table.objects.filter(series=series)
        .values("pk", "number", "captain_token", *sheet)
        .annotate(size=Count("seats"))
        .order_by("number")
    )
    games = {
        g["table_id"]: g["played"] - g["not_played"]
        for g in Game.objects.filter(series=series)
        .values("table_id")
        .annotate(played=Count("pk"), not_played=Count("pk", filter=Q(record__not_played=True)))
        .order_by()
    }
    # The soloist's row of a compulsory solo is marked: solos per seat, capped at the rule.
    solos: dict[int, int] = defaultdict(int)
    for s in (
        PlayerScore.objects.filter(series=series, compulsory=True, game__isnull=False)
        .values("game__table_id", "seat")
        .annotate(n=Count("pk"))
        .order_by()
    ):
        solos[s["game__table_id"]] += min(s["n"], ruleset.compulsory_solos)
    rows = [r for r in rows if r["size"]]
    facts = sheet_facts(series, rows)
    main = clock.main.ends_at if clock else None
    clocks = {t.number: t for t in clock.tables} if clock else {}
    lines = []
    for row in rows:
        pk, size = row["pk"], row["size"]
        # A table counts down while it plays: not once its sheet is handed in, all its games
        # are entered, or time was called (for it or for the hall).
        done = (
            (row["sheet__status"] or ScoreSheet.Status.OPEN) != ScoreSheet.Status.OPEN
            or (pk in facts and facts[pk].finished)
            or bool(row["sheet__timeout"])
            or series.time_called_at is not None
        )
        table_clock = None if done else clocks.get(row["number"])
        lines.append(
            TableLine(
                number=row["number"],
                size=size,
                entered=games.get(pk, 0),
                expected=ruleset.total_games(size),
                compulsory_open=max(size * ruleset.compulsory_solos - solos[pk], 0),
                behind=False,
                conflict=pk in facts and facts[pk].errors > 0,
                timeout=bool(row["sheet__timeout"]),
                status=row["sheet__status"] or ScoreSheet.Status.OPEN,
                countdown=Countdown.of(table_clock) if table_clock else None,
                deviates=table_clock is not None and table_clock.ends_at != main,
            )
        )
    if series.status == Series.Status.RUNNING:
        flags = behind_the_field(
            [
                (
                    line.entered,
                    line.expected,
                    not line.finished
                    and not (row["pk"] in facts and facts[row["pk"]].finished)
                    and not line.timeout,
                )
                for line, row in zip(lines, rows, strict=True)
            ]
        )
        lines = [
            dataclasses.replace(line, behind=flag) for line, flag in zip(lines, flags, strict=True)
        ]
    return lines, len(facts) == len(rows)


# -- Seating -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    name: str  # "Last, First"
    table: int
    seat: int


@dataclass(frozen=True)
class SeatingPage:
    lines: list[SeatLine]
    first: str  # the last names of the page's first and last line
    last: str

    @property
    def columns(self) -> list[list[SeatLine]]:
        per = -(-SEATING_PAGE // 3)
        return [self.lines[i : i + per] for i in range(0, len(self.lines), per)]


def seating_pages(series: Series) -> list[SeatingPage]:
    """The whole field alphabetically (as a German list is sorted), with table and seat."""
    seats = Seat.objects.filter(series=series).values_list(
        "table__number",
        "position",
        "registration__start_number",
        "registration__player__first_name",
        "registration__player__last_name",
        "registration__player__name_form",
    )
    expired = retention_expired(series.tournament)

    def line(first: str, last: str, form: str, number: int) -> str:
        if form == NameForm.FULL and not expired:
            return f"{last}, {first}"
        return shown_name(first, last, form, number, expired=expired)

    # Sorted by the name as shown: an anonymized player's name is not sorted in.
    ordered = sorted(
        (folded(shown), number, SeatLine(shown, table, seat))
        for table, seat, number, first, last, form in seats
        for shown in (line(first, last, form, number),)
    )
    lines = [entry[2] for entry in ordered]
    return [
        SeatingPage(page, page[0].name.split(",")[0], page[-1].name.split(",")[0])
        for page in pages(lines, SEATING_PAGE)
    ]


# -- Standings ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    place: int
    shared: bool
    name: str
    club: str
    series: tuple[int | None, ...]
    total: int
    unconfirmed: bool = False  # at a table whose sheet was closed before it was confirmed


@dataclass(frozen=True)
class Winner:
    series: int
    names: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class StandingsPage:
    lines: list[StandingLine]

    @property
    def columns(self) -> list[list[StandingLine]]:
        half = STANDINGS_PAGE // 2
        return [self.lines[i : i + half] for i in range(0, len(self.lines), half)]

    @property
    def first(self) -> int:
        return self.lines[0].place

    @property
    def last(self) -> int:
        return self.lines[-1].place


@dataclass(frozen=True)
class StandingsBoard:
    pages: list[StandingsPage]
    columns: tuple[int, ...]  # series numbers with a column
    winners: tuple[Winner, ...]
    interim: bool  # a series is still running
    players: int
    unconfirmed: int = 0  # lines marked: a sheet closed before it was confirmed


def standings_board(tournament: Tournament, series: Sequence[Series]) -> StandingsBoard:
    rows = overall_standings(tournament)
    count = len(rows[0]["series"]) if rows else 0
    # Columns of the series with results (a series only drawn has none yet).
    played = tuple(
        n for n in range(1, count + 1) if any(r["series"][n - 1] is not None for r in rows)
    )
    shown = played if len(played) <= STANDINGS_SERIES_COLUMNS else ()
    unconfirmed = unconfirmed_registrations(tournament)
    winners = []
    for s in series:
        if s.status != Series.Status.CLOSED or s.number > count:
            continue
        scores = [(r["series"][s.number - 1], r["name"]) for r in rows]
        results = [(points, name) for points, name in scores if points is not None]
        if results:
            best = max(points for points, _ in results)
            names = tuple(name for points, name in results if points == best)
            winners.append(Winner(s.number, names, best))
    lines = [
        StandingLine(
            place=r["place"],
            shared=r["shared"],
            name=r["name"],
            club=r["club"],
            series=tuple(r["series"][n - 1] for n in shown),
            total=r["total"],
            unconfirmed=r["registration"] in unconfirmed,
        )
        for r in rows
        if any(p is not None for p in r["series"])
    ]
    return StandingsBoard(
        pages=[StandingsPage(page) for page in pages(lines, STANDINGS_PAGE)],
        columns=shown,
        winners=tuple(winners),
        interim=any(s.status == Series.Status.RUNNING for s in series),
        players=len(lines),
        unconfirmed=sum(1 for line in lines if line.unconfirmed),
    )


# -- The board ---------------------------------------------------------------------------


@dataclass
class Board:
    tournament: Tournament
    requested: str  # the pinned view, or "auto"
    view: str
    fingerprint: str
    series: Series | None  # the series the view is about
    announcements: list[Announcement]
    now: datetime.datetime
    clock: ClockBoard | None = None
    tables: list[TablePage] = field(default_factory=list)
    seating: list[SeatingPage] = field(default_factory=list)
    standings: StandingsBoard | None = None
    calls: list[RefereeCall] = field(default_factory=list)  # open, oldest first
    complete: bool = True  # False: some sheets' findings are still to be replayed
    #: (minutes left at most, stage) for display.js, tightest first.
    stages: tuple[tuple[int, str], ...] = tuple((m, s.value) for m, s in STAGE_THRESHOLDS)

    @property
    def table_rows(self) -> int:
        return table_rows(len(self.announcements) + len(self.calls))

    @property
    def stage(self) -> str:
        if self.clock and self.clock.time_called:
            return CALLED
        return self.clock.countdown.stage if self.clock else Stage.RUNNING.value

    @property
    def stages_attr(self) -> str:
        return ",".join(f"{minutes}:{stage}" for minutes, stage in self.stages)

    @property
    def stage_labels(self) -> list[tuple[str, str]]:
        """What the big clock says in each stage (display.js switches by class)."""
        labels = [(Stage.RUNNING.value, _("playing time left"))]
        for minutes, stage in reversed(self.stages):
            if minutes:
                text = ngettext(
                    "at most %(n)d minute left", "at most %(n)d minutes left", minutes
                ) % {"n": minutes}
            else:
                text = _("Time is up")
            labels.append((stage, text))
        return labels

    @property
    def title(self) -> str:
        if self.view == SEATING:
            return _("Seating")
        if self.view == CLOCK:
            return _("Playing time")
        if self.view == TABLES:
            return _("Tables")
        if self.view == STANDINGS:
            interim = self.standings is not None and self.standings.interim
            return _("Interim standings") if interim else _("Standings")
        return ""

    @property
    def first_label(self) -> str:
        """The label of the page shown first (display.js shows the others')."""
        if self.view == SEATING and self.seating:
            return f"{self.seating[0].first} – {self.seating[0].last}"
        if self.view == TABLES and self.tables:
            return f"{_('Tables')} {self.tables[0].first}–{self.tables[0].last}"
        if self.view == STANDINGS and self.standings and self.standings.pages:
            page = self.standings.pages[0]
            return f"{_('Rank')} {page.first}–{page.last}"
        return ""

    @property
    def waiting(self) -> str:
        """What the screen says when its view has nothing to show yet."""
        if self.view in (CLOCK, TABLES):
            return _("No series is being played right now.")
        if self.view == STANDINGS:
            return _("No results yet.")
        return _("Waiting for the draw.")

    @property
    def utc_offset(self) -> int:
        """Minutes east of UTC in the tournament's time zone, for the screen's wall clock."""
        offset = timezone.localtime(self.now).utcoffset()
        return int(offset.total_seconds() // 60) if offset else 0


def build_board(
    tournament: Tournament,
    series: Sequence[Series],
    requested: str,
    digest: str,
    now: datetime.datetime | None = None,
) -> Board:
    """The board of ``requested`` (a view or ``auto``): a fixed number of queries for any
    size of field."""
    now = now or timezone.now()
    view = shown_view(requested, series)
    running = latest(series, Series.Status.RUNNING)
    announcements = list(
        Announcement.objects.filter(tournament=tournament, ended_at__isnull=True)
        .order_by("-created_at", "-pk")
        .only("text", "created_at")[:SHOWN_ANNOUNCEMENTS]
    )
    board = Board(tournament, requested, view, digest, None, announcements, now)
    board.calls = list(
        RefereeCall.objects.filter(series__tournament=tournament, status__in=RefereeCall.OPEN)
        .select_related("table")
        .only("table__number", "called_at", "reason", "status")
        .order_by("called_at", "pk")
    )
    if view in (TABLES, CLOCK):
        board.series = running
        if running is None:
            return board
        clock = series_clock(running, now)
        board.clock = clock_board(running, clock) if clock else None
        if view == TABLES:
            lines, board.complete = table_lines(running, clock)
            if not board.complete:  # the screen asks again and gets the rest
                board.fingerprint = f"{digest}-partial"
            per_page = TABLES_ACROSS * table_rows(len(announcements))
            board.tables = [TablePage(page) for page in pages(lines, per_page)]
    elif view == SEATING:
        board.series = latest(series, Series.Status.DRAWN) or running
        if board.series is not None:
            board.seating = seating_pages(board.series)
    elif view == STANDINGS:
        board.series = running or latest(series, Series.Status.CLOSED)
        board.standings = standings_board(tournament, series)
    return board
