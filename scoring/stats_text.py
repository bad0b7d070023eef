"""The statistics in words and numbers, as the page and the result report show them."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import number_format

from scoring.statistics import PlayerFigures, Rate, SoloOutcomes, rounded

DASH = "–"  # a rate or an average over nothing


def percent_text(rate: Rate) -> str:
    """ "38 %", or a dash over nothing."""
    percent = rate.percent()
    return DASH if percent is None else f"{percent} %"


def count_text(rate: Rate) -> str:
    """ "3/8": the counts behind a rate."""
    return f"{rate.count}/{rate.of}"


def rate_text(rate: Rate) -> str:
    """ "38 % (3/8)", or a dash over nothing."""
    return DASH if rate.of == 0 else f"{percent_text(rate)} ({count_text(rate)})"


def average_text(value: Fraction | None, places: int = 1) -> str:
    """An average with ``places`` decimals in the reader's number format, or a dash."""
    if value is None:
        return DASH
    return str(number_format(rounded(value, places), places, force_grouping=False))


@dataclass(frozen=True)
class RateCell:
    percent: str
    counts: str

    @classmethod
    def of(cls, rate: Rate) -> RateCell:
        return cls(percent_text(rate), count_text(rate))


@dataclass(frozen=True)
class SoloCell:
    """Solos of one kind: how many, won, lost, without a winner, the soloist's average."""

    count: int
    won: int
    lost: int
    undecided: int
    average: str

    @classmethod
    def of(cls, solos: SoloOutcomes) -> SoloCell:
        return cls(
            solos.count, solos.won, solos.lost, solos.undecided, average_text(solos.average_points)
        )


@dataclass(frozen=True)
class FigureCells:
    """A player's figures as the pages show them."""

    games: int
    per_series: str
    solos: RateCell
    solos_won: RateCell
    re: RateCell
    kontra: RateCell
    compulsory: SoloCell

    @classmethod
    def of(cls, figures: PlayerFigures) -> FigureCells:
        return cls(
            games=figures.games,
            per_series=average_text(figures.per_series),
            solos=RateCell.of(figures.solos),
            solos_won=RateCell.of(figures.solos_won),
            re=RateCell.of(figures.re),
            kontra=RateCell.of(figures.kontra),
            compulsory=SoloCell.of(figures.compulsory),
        )
