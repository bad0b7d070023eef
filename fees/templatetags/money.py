"""``{{ cents|money }}``: whole cents as the user's language writes euros (10,00 € /
€10.00)."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format
from django.utils.translation import get_language

register = template.Library()


@register.filter
def money(cents: int | None) -> str:
    if cents is None:
        return ""
    amount = number_format(Decimal(cents) / 100, 2, use_l10n=True, force_grouping=True)
    if (get_language() or "de").startswith("en"):
        return f"−€{amount.lstrip('-')}" if cents < 0 else f"€{amount}"
    return f"−{amount.lstrip('-')} €" if cents < 0 else f"{amount} €"


@register.filter
def percent(share: int | None) -> str:
    """Basis points as a percentage (2500 → 25 %, 1250 → 12,5 %)."""
    if share is None:
        return ""
    return f"{number_format(Decimal(share) / 100, use_l10n=True)} %"
