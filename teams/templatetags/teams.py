"""Team pages' filters: victory points as people write them (4, or 3.5, in German 3,5, when
a tie shares them), a series' value, a knockout match's form."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

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


@register.filter
def form_for(forms: Mapping[int, Any], group: Any) -> Any:
    """The form of ``forms`` (group id → form) for ``group``, or None."""
    return forms.get(group.pk) if group is not None else None
