"""Plain data shown on the printed documents: built from the ORM once, then rendered.

Nothing here imports Django; the layout and the fingerprint work on these objects only.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from tournaments.names import folded

#: Metadata of a field added after documents were stored: left out of the fingerprint while
#: it is empty, so the documents of a tournament it does not concern stay current.
OMITTED_WHEN_EMPTY = {"fingerprint": "omit_empty"}


@dataclass(frozen=True, slots=True)
class SeatInfo:
    position: int
    first_name: str
    last_name: str
    start_number: int
    club: str = ""
    team: str = field(default="", metadata=OMITTED_WHEN_EMPTY)  # a team group's: the team

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def label(self) -> str:
        """The name as the lists print it: with the team in a team group's series."""
        return f"{self.name} ({self.team})" if self.team else self.name

    @property
    def sort_key(self) -> tuple[str, str, int]:
        return (folded(self.last_name), folded(self.first_name), self.start_number)


@dataclass(frozen=True, slots=True)
class TableInfo:
    number: int
    entry_url: str
    seats: tuple[SeatInfo, ...]
    normal_games: int
    compulsory_solos: int = 1  # per player

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def dealer(self) -> SeatInfo | None:
        """Seat 1 deals first."""
        return next((s for s in self.seats if s.position == 1), None)

    @property
    def keeper(self) -> SeatInfo | None:
        """Seat 4 keeps the list, seat 5 at a five-player table (TSR 3.1.1, 10.1.4)."""
        wanted = 5 if self.size >= 5 else 4
        return next((s for s in self.seats if s.position == wanted), None)


@dataclass(frozen=True, slots=True)
class SeriesInfo:
    tournament_name: str
    tournament_slug: str
    venue: str
    series_number: int
    date: dt.date
    starts_at: dt.datetime | None
    playing_minutes_4: int  # the rule set's playing time at four (TSR 8.5.1: 100 minutes)
    playing_minutes_5: int  # ... and at five (125 minutes)
    tables: tuple[TableInfo, ...]
    # A team group's series: "league, match day 2, group 3", printed as the title.
    competition: str = field(default="", metadata=OMITTED_WHEN_EMPTY)

    @property
    def title(self) -> str:
        """The heading of every page: the team competition's group, else the tournament."""
        return self.competition or self.tournament_name

    @property
    def teams(self) -> bool:
        """Whether any seat names a team (a team group's series)."""
        return any(seat.team for table in self.tables for seat in table.seats)

    def minutes_for(self, size: int) -> int:
        """The playing time printed on a table's sheet, by its size."""
        return self.playing_minutes_5 if size >= 5 else self.playing_minutes_4


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a standings table (series or final)."""

    place: int
    name: str
    start_number: int
    club: str
    total: int
    series_points: tuple[int | None, ...] = ()  # final standings: points per series


@dataclass(frozen=True, slots=True)
class GameRow:
    """One entered game of the digital Spielliste, or (``number`` None) penalty points given
    outside the games (TSR 9.7)."""

    number: int | None
    compulsory: bool
    value: int | None  # the game value; None for a row with penalty points only
    points: tuple[int, ...]  # per seat, in seat order
    totals: tuple[int, ...]  # running totals per seat after this row
    note: str = ""


@dataclass(frozen=True, slots=True)
class TableGames:
    series_number: int
    table_number: int
    names: tuple[str, ...]  # in seat order
    games: tuple[GameRow, ...]
    unconfirmed: bool = False  # closed by the organizers before the sheet was confirmed


@dataclass(frozen=True, slots=True)
class SeriesStandings:
    number: int
    rows: tuple[StandingRow, ...]


@dataclass(frozen=True, slots=True)
class StatisticsInfo:
    """The statistics page of the result report: figures as (label, value) and charts as
    (title, SVG text)."""

    figures: tuple[tuple[str, str], ...]
    charts: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class RulingRow:
    """A referee's ruling (``scoring.RefereeCall``) for the result report's list."""

    series_number: int
    table_number: int
    called_at: str  # "14:05", the tournament's time
    reason: str
    ruling: str
    extension_minutes: int = 0
    note: str = ""  # the game confirmed or corrected, the deduction


@dataclass(frozen=True, slots=True)
class ResultsInfo:
    tournament_name: str
    tournament_slug: str
    venue: str
    date: dt.date
    series_numbers: tuple[int, ...]
    series: tuple[SeriesStandings, ...]
    final: tuple[StandingRow, ...]
    tables: tuple[TableGames, ...]
    statistics: StatisticsInfo | None = None  # None: no game played yet
    rulings: tuple[RulingRow, ...] = field(default=(), metadata=OMITTED_WHEN_EMPTY)

    @property
    def unconfirmed(self) -> tuple[TableGames, ...]:
        """Tables closed by the organizers before their sheets were confirmed."""
        return tuple(t for t in self.tables if t.unconfirmed)


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not (f.metadata.get("fingerprint") == "omit_empty" and not getattr(value, f.name))
        }
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    return value


def fingerprint(*parts: Any) -> str:
    """A stable SHA-256 over plain data (dataclasses, tuples, dates, str, int, None)."""
    text = json.dumps([_plain(p) for p in parts], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
