"""The statistics in words and numbers, as the page and the result report show them."""

from __future__ import annotations

from fractions import Fraction

from django.utils.formats import number_format

from scoring.statistics import Rate, rounded

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
