"""Numbers from what a request carries (a query string, a hidden field, a search word)."""

from __future__ import annotations


def whole_number(raw: str | None, digits: int = 9) -> int | None:
    """A whole number of at most ``digits`` ASCII digits, else None. ``str.isdigit`` alone is
    not enough: "²" and "١٢" are digits to it but no number to ``int()``, and a number of
    thousands of digits is refused by ``int()`` too; both would be a 500."""
    if raw and len(raw) <= digits and raw.isascii() and raw.isdigit():
        return int(raw)
    return None
