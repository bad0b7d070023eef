"""The individual ranking of a team competition (the DMM's Einzelwertung), pure: no Django.

Every player is ranked over every series he played in any of the competition's groups
(group stage and knockout alike), by the points of those series, deductions included.

- **By total points, not by the average** (our rule): no DDV text on the DMM's individual
  ranking was found (docs/rules/ddv-tsr.md, section 8). The DDV's individual championship
  ranks by the sum of the series points (S10, S11), and so do our tournaments' standings
  (design decision 2); the average per series is the DDV-Rangliste's measure across
  tournaments (``seasons.ranking``), not a team competition's. A player with fewer series
  is ranked by his total like everybody else; his average is shown beside it.
- **Ties:** the tournaments' standings core (``scoring.ranking``) with its tie-breaks,
  by default the better best single-series score, then the better last-series score
  (design decision 2). Both are taken over the series the player played himself: a
  substitute's "last series" is his own last one, not the competition's. Players equal on
  every metric share the place (1, 2, 2, 4).
- **Only closed series count:** a series still running is counted apart
  (``open_series``, ``open_points``) and shown, not ranked. A player without a closed
  series gets no place and is listed after the ranked ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.ranking import StandingRow, rank

#: Tie-breaks after the total, as keys of ``scoring.ranking.METRICS`` (design decision 2).
TIEBREAK = ("best_series", "last_series")


@dataclass(frozen=True, slots=True)
class SeriesResult:
    """A player's figures of one series, as the tournament's standings know them."""

    points: int  # deductions included
    games: int = 0  # played, not sitting out
    solos: int = 0
    solos_won: int = 0
    closed: bool = True  # the series is closed: it counts


@dataclass(frozen=True, slots=True)
class PlayerResults:
    """A player (any key) and his series in the order he played them."""

    player: int
    series: tuple[SeriesResult, ...]


@dataclass(frozen=True, slots=True)
class Line:
    player: int
    place: int | None  # None: no closed series yet
    shared: bool  # another player is equal on the total and every tie-break
    series: int  # closed series played
    total: int
    average: Fraction  # total per closed series (0 without one)
    best_series: int | None
    last_series: int | None
    games: int
    solos: int
    solos_won: int
    open_series: int = 0  # series still running: shown, not counted
    open_points: int = 0

    @property
    def provisional(self) -> bool:
        return self.open_series > 0


def _line(entry: PlayerResults, place: int | None = None, shared: bool = False) -> Line:
    closed = [s for s in entry.series if s.closed]
    running = [s for s in entry.series if not s.closed]
    total = sum(s.points for s in closed)
    return Line(
        player=entry.player,
        place=place,
        shared=shared,
        series=len(closed),
        total=total,
        average=Fraction(total, len(closed)) if closed else Fraction(0),
        best_series=max((s.points for s in closed), default=None),
        last_series=closed[-1].points if closed else None,
        games=sum(s.games for s in closed),
        solos=sum(s.solos for s in closed),
        solos_won=sum(s.solos_won for s in closed),
        open_series=len(running),
        open_points=sum(s.points for s in running),
    )


def rank_players(
    players: Sequence[PlayerResults], tiebreak: Sequence[str] = TIEBREAK
) -> tuple[Line, ...]:
    """One line per player: the ranked ones best first with their places, then those
    without a closed series (no place). Among equals the input order stays (the caller
    gives the players sorted by name)."""
    rows = []
    unranked = []
    for index, entry in enumerate(players):
        points = tuple(s.points for s in entry.series if s.closed)
        if points:
            rows.append(StandingRow(index, points, sum(points)))
        else:
            unranked.append(entry)
    ranked = rank(rows, tiebreak)
    return (
        *(_line(players[r.row.key], r.place, r.shared) for r in ranked),
        *(_line(entry) for entry in unranked),
    )
