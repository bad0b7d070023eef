"""Victory points as people write them: 4, or 3.5 (3,5 in German) when a tie shares them."""

from __future__ import annotations

from fractions import Fraction

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def victory_points(value: Fraction | int | None) -> str:
    if value is None:
        return ""
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return str(fraction.numerator)
    return number_format(float(fraction), decimal_pos=2).rstrip("0")


@register.filter
def slice_at(values: tuple[int, ...], number: int) -> int | str:
    """The value of series ``number`` (1, 2, …) of a tuple of per-series values."""
    try:
        return values[int(number) - 1]
    except (IndexError, TypeError, ValueError):
        return ""
