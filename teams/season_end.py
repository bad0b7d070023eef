"""The season's end of a league: who goes up (Aufstieg), who goes down (Abstieg) and who
plays the relegation play-off (Relegation), from the final table. Pure, no Django.

How many places each zone has is a league setting (the DDV varies it with the entries of
the qualification): the first ``up`` places go up, the last ``down`` places go down, the
``playoff`` places just above them play the relegation play-off.

Ties at a cut: the table's own tie-breaks (``teams.scoring.rank_season``) decide first;
teams still equal share their place. When teams sharing a place straddle a cut (two teams
sharing place 2 with two places going up), the marks are not guessed: each of them is
``undecided`` with the zones it lies between, and the edge says "decision needed".

The marks are ``final`` only when every match day is final; before that they are computed
from the current table and shown as provisional.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum


class Zone(StrEnum):
    """Where a place of the final table leads."""

    UP = "up"  # Aufstieg
    PLAYOFF = "playoff"  # Relegation: a play-off against a team of the other league
    DOWN = "down"  # Abstieg
    STAY = "stay"  # no mark


@dataclass(frozen=True)
class Places:
    """A league's setting: how many places go up, play the play-off, go down."""

    up: int = 0
    down: int = 0
    playoff: int = 0

    @property
    def marked(self) -> int:
        return self.up + self.down + self.playoff


@dataclass(frozen=True)
class TableEntry:
    """A team's line of the table as the marks need it: who, its place (the best place of
    a tie; equal places share it)."""

    team: Hashable
    place: int


@dataclass(frozen=True)
class Mark:
    """A team's mark. ``zone`` is its zone when decided; an undecided team (a shared place
    across a cut) has ``zone`` None and ``between`` the zones its shared place spans, best
    first."""

    team: Hashable
    zone: Zone | None
    between: tuple[Zone, ...] = ()

    @property
    def undecided(self) -> bool:
        return self.zone is None


@dataclass(frozen=True)
class SeasonEnd:
    """The marks of every team in table order. ``final``: every match day is final (else
    the marks are provisional). ``problem``: a code when no mark can be given
    (``too_few_teams``: the zones need more teams than the table holds)."""

    marks: tuple[Mark, ...]
    final: bool
    problem: str = ""

    @property
    def provisional(self) -> bool:
        return not self.final

    @property
    def undecided(self) -> bool:
        return any(mark.undecided for mark in self.marks)


def zone_of(index: int, teams: int, places: Places) -> Zone:
    """The zone of the table's line ``index`` (0-based) in a table of ``teams`` lines."""
    if index < places.up:
        return Zone.UP
    if index >= teams - places.down:
        return Zone.DOWN
    if index >= teams - places.down - places.playoff:
        return Zone.PLAYOFF
    return Zone.STAY


def check_places(places: Places, teams: int | None) -> str:
    """The problem code of a setting, or "": no negative count; with the number of teams
    known, the zones must fit into the table (up + play-off + down ≤ teams)."""
    if min(places.up, places.down, places.playoff) < 0:
        return "negative_places"
    if teams is not None and places.marked > teams:
        return "too_few_teams"
    return ""


def season_end(table: Sequence[TableEntry], places: Places, *, final: bool) -> SeasonEnd:
    """The marks of ``table`` (in table order, places from the table's tie-breaks)."""
    problem = check_places(places, len(table))
    if problem:
        return SeasonEnd(
            marks=tuple(Mark(entry.team, Zone.STAY) for entry in table),
            final=final,
            problem=problem,
        )
    size = len(table)
    # The lines sharing each place: a place is decided when they all lie in one zone.
    lines_of: dict[int, list[int]] = {}
    for index, entry in enumerate(table):
        lines_of.setdefault(entry.place, []).append(index)
    marks = []
    for entry in table:
        zones = tuple(dict.fromkeys(zone_of(i, size, places) for i in lines_of[entry.place]))
        if len(zones) == 1:
            marks.append(Mark(entry.team, zones[0]))
        else:
            marks.append(Mark(entry.team, None, zones))
    return SeasonEnd(marks=tuple(marks), final=final)
