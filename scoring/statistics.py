"""Statistics of players and tournaments: pure functions over plain rows, no Django.

A player's figures come from his shares of the games (one ``GameShare`` per score row of a
game: his party, solo, won) and his points per series (``SeriesResult``: what his series
totals say, deductions included, as the standings count them). A tournament's figures count
games, not players: a normal game has two Re players but is one game Re won.

Rates keep their counts (``Rate``: 3 of 8) and compute exactly (``Fraction``); a rate over
nothing has no value, and the pages show a dash for it. Definitions:

* solo rate: solos played / games played; solo success: solos won / solos;
* Re win rate: games won as Re / games played as Re (a game without a winner counts as not
  won), the same for Kontra. A transcribed paper sheet names only the soloist: in its normal
  games the parties are unknown, and they count for neither rate;
* average per series (Rundenschnitt): points / series played;
* compulsory solos: won, lost (points below zero) and the rest (no winner), with the
  soloist's average points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

RE, KONTRA = "re", "kontra"


@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` of ``of``: 3 of 8 games."""

    count: int
    of: int

    @property
    def value(self) -> Fraction | None:
        """The exact rate, None over nothing."""
        return Fraction(self.count, self.of) if self.of else None

    def percent(self) -> int | None:
        """The rate in whole percent, halves rounded up; None over nothing."""
        return int(rounded(Fraction(100 * self.count, self.of), 0)) if self.of else None

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.count + other.count, self.of + other.of)


def rounded(value: Fraction, places: int) -> int | Decimal:
    """``value`` rounded half up (away from zero) to ``places`` decimals; an int for 0."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    result = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return int(result) if places == 0 else result


def average(total: int, count: int) -> Fraction | None:
    return Fraction(total, count) if count else None


@dataclass(frozen=True, slots=True)
class GameShare:
    """One player's part in one game (a score row of a game, not of a deduction)."""

    game: int  # the game's id: the shares of one game have the same
    series: int  # the number of its series
    points: int
    played: bool  # took part: not sitting out, the row not "not played"
    party: str | None  # RE or KONTRA; None: not played, or unknown (transcribed)
    solo: bool  # the soloist of a solo
    compulsory: bool  # the soloist of a compulsory solo
    won: bool


@dataclass(frozen=True, slots=True)
class SeriesResult:
    """A player's points in one series (his series total, deductions included)."""

    series: int
    points: int


@dataclass(frozen=True, slots=True)
class SoloOutcomes:
    """Solos of one kind: won, lost and the rest (no winner); the soloist's points."""

    won: int = 0
    lost: int = 0
    count: int = 0
    points: int = 0

    @property
    def undecided(self) -> int:
        return self.count - self.won - self.lost

    @property
    def average_points(self) -> Fraction | None:
        return average(self.points, self.count)

    def __add__(self, other: SoloOutcomes) -> SoloOutcomes:
        return SoloOutcomes(
            self.won + other.won,
            self.lost + other.lost,
            self.count + other.count,
            self.points + other.points,
        )


def _outcomes(shares: Iterable[GameShare]) -> SoloOutcomes:
    won = lost = count = points = 0
    for s in shares:
        count += 1
        points += s.points
        if s.won:
            won += 1
        elif s.points < 0:
            lost += 1
    return SoloOutcomes(won, lost, count, points)


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's figures over the shares and series results given."""

    games: int
    solos: Rate  # solos of games
    solos_won: Rate  # won of solos
    re: Rate  # won as Re of games as Re
    kontra: Rate  # won as Kontra of games as Kontra
    compulsory: SoloOutcomes
    voluntary: SoloOutcomes
    series: tuple[SeriesResult, ...]  # in series order

    @property
    def points(self) -> int:
        return sum(r.points for r in self.series)

    @property
    def series_played(self) -> int:
        return len(self.series)

    @property
    def per_series(self) -> Fraction | None:
        """Rundenschnitt: points per series played."""
        return average(self.points, self.series_played)

    def __add__(self, other: PlayerFigures) -> PlayerFigures:
        """Figures over both (a player's tournaments together)."""
        return PlayerFigures(
            games=self.games + other.games,
            solos=self.solos + other.solos,
            solos_won=self.solos_won + other.solos_won,
            re=self.re + other.re,
            kontra=self.kontra + other.kontra,
            compulsory=self.compulsory + other.compulsory,
            voluntary=self.voluntary + other.voluntary,
            series=self.series + other.series,
        )


def player_figures(
    shares: Iterable[GameShare], results: Iterable[SeriesResult] = ()
) -> PlayerFigures:
    """One player's figures from his shares of the games and his series results."""
    played = [s for s in shares if s.played]
    solos = [s for s in played if s.solo]
    as_re = [s for s in played if s.party == RE]
    as_kontra = [s for s in played if s.party == KONTRA]
    won_solos = sum(s.won for s in solos)
    return PlayerFigures(
        games=len(played),
        solos=Rate(len(solos), len(played)),
        solos_won=Rate(won_solos, len(solos)),
        re=Rate(sum(s.won for s in as_re), len(as_re)),
        kontra=Rate(sum(s.won for s in as_kontra), len(as_kontra)),
        compulsory=_outcomes(s for s in solos if s.compulsory),
        voluntary=_outcomes(s for s in solos if not s.compulsory),
        series=tuple(sorted(results, key=lambda r: r.series)),
    )


def figures_by_player(
    shares: Iterable[tuple[int, GameShare]], results: Iterable[tuple[int, SeriesResult]]
) -> dict[int, PlayerFigures]:
    """Every player's figures: ``shares`` and ``results`` carry the player's key."""
    own_shares: dict[int, list[GameShare]] = defaultdict(list)
    own_results: dict[int, list[SeriesResult]] = defaultdict(list)
    for key, share in shares:
        own_shares[key].append(share)
    for key, result in results:
        own_results[key].append(result)
    keys = own_shares.keys() | own_results.keys()
    return {key: player_figures(own_shares[key], own_results[key]) for key in keys}


@dataclass(frozen=True, slots=True)
class PartyWins:
    """Games of one kind: how many Re won, Kontra won, and how many had known parties."""

    re: int = 0
    kontra: int = 0
    known: int = 0  # games whose parties are known (the denominators)

    @property
    def re_rate(self) -> Rate:
        return Rate(self.re, self.known)

    @property
    def kontra_rate(self) -> Rate:
        return Rate(self.kontra, self.known)

    @property
    def undecided(self) -> int:
        return self.known - self.re - self.kontra


@dataclass(frozen=True, slots=True)
class TournamentFigures:
    """A tournament's games (or one series'): each game counted once."""

    games: int
    solos: Rate  # solo games of games
    solos_won: Rate  # won by the soloist of solos
    normal: PartyWins  # games that were no solo
    solo_games: PartyWins  # the soloist is Re
    compulsory: SoloOutcomes
    voluntary: SoloOutcomes

    @property
    def all_games(self) -> PartyWins:
        n, s = self.normal, self.solo_games
        return PartyWins(n.re + s.re, n.kontra + s.kontra, n.known + s.known)


def tournament_figures(shares: Iterable[GameShare]) -> TournamentFigures:
    """The figures of the games that ``shares`` (of every player) belong to."""
    games: dict[int, list[GameShare]] = defaultdict(list)
    for share in shares:
        if share.played:
            games[share.game].append(share)
    normal = {RE: 0, KONTRA: 0, "known": 0}
    solo = {RE: 0, KONTRA: 0, "known": 0}
    soloists = []
    for rows in games.values():
        soloist = next((s for s in rows if s.solo), None)
        if soloist is not None:
            soloists.append(soloist)
        if any(s.party is None for s in rows):
            continue
        counts = solo if soloist is not None else normal
        counts["known"] += 1
        winner = next((s.party for s in rows if s.won), None)
        if winner is not None:
            counts[winner] += 1
    won = sum(s.won for s in soloists)
    return TournamentFigures(
        games=len(games),
        solos=Rate(len(soloists), len(games)),
        solos_won=Rate(won, len(soloists)),
        normal=PartyWins(normal[RE], normal[KONTRA], normal["known"]),
        solo_games=PartyWins(solo[RE], solo[KONTRA], solo["known"]),
        compulsory=_outcomes(s for s in soloists if s.compulsory),
        voluntary=_outcomes(s for s in soloists if not s.compulsory),
    )


def running_totals(
    results: Iterable[SeriesResult], numbers: Sequence[int]
) -> tuple[int | None, ...]:
    """A player's total after each series of ``numbers`` (a series he missed adds nothing);
    None before his first result."""
    points: Mapping[int, int] = {r.series: r.points for r in results}
    totals: list[int | None] = []
    total: int | None = None
    for number in numbers:
        if number in points:
            total = (total or 0) + points[number]
        totals.append(total)
    return tuple(totals)
