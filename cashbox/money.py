"""Amounts of money as people type and read them, and as the cash box keeps them: integer
cents (design decision 11). Pure Python, standard library only.

German: "12,50", "1.234,50", "12"; English: "12.50", "1,234.50", "12". A leading minus and
a euro sign are allowed. Whatever else is refused with a code that says what is wrong; the
edge puts it in words. In particular the other language's decimal mark ("12.50" on a German
page) is refused rather than guessed: "12.500" means twelve thousand five hundred to one
reader and twelve and a half to the other.
"""

from __future__ import annotations

#: The largest amount a booking takes: one million euros.
MAX_CENTS = 100_000_000

_MINUS = "-−–"


class AmountError(ValueError):
    """``code``: ``empty``, ``unreadable``, ``decimal_mark`` (the other language's mark),
    ``too_many_decimals``, ``too_large``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _marks(language: str) -> tuple[str, str]:
    """(decimal mark, thousands separator) of ``language`` ("de" unless it is English)."""
    return (".", ",") if language.startswith("en") else (",", ".")


def parse_cents(text: str, language: str = "de") -> int:
    """The amount ``text`` typed in ``language`` as integer cents."""
    decimal, thousands = _marks(language)
    raw = text.strip().replace("€", "").replace("EUR", "").replace("\u00a0", "").strip()
    raw = raw.replace(" ", "")
    if not raw:
        raise AmountError("empty")
    negative = raw[0] in _MINUS
    if negative or raw[0] == "+":
        raw = raw[1:]
    whole, mark, fraction = raw.partition(decimal)
    if thousands in fraction or decimal in fraction:
        raise AmountError("unreadable")
    if thousands in whole:
        groups = whole.split(thousands)
        grouped = (
            1 <= len(groups[0]) <= 3
            and all(len(g) == 3 for g in groups[1:])
            and all(g.isascii() and g.isdigit() for g in groups)
        )
        if not grouped:
            # "12.50" on a German page: the other language's decimal mark.
            last = groups[-1]
            if len(groups) == 2 and not mark and last.isascii() and last.isdigit():
                raise AmountError("decimal_mark")
            raise AmountError("unreadable")
        whole = "".join(groups)
    if not whole and not fraction:
        raise AmountError("unreadable")
    whole = whole or "0"
    if not (whole.isascii() and whole.isdigit()):
        raise AmountError("unreadable")
    if mark and not (fraction.isascii() and fraction.isdigit()):
        raise AmountError("unreadable")
    if len(fraction) > 2:
        raise AmountError("too_many_decimals")
    if len(whole) > 9:
        raise AmountError("too_large")
    cents = int(whole) * 100 + int((fraction or "0").ljust(2, "0"))
    if cents > MAX_CENTS:
        raise AmountError("too_large")
    return -cents if negative else cents


def format_cents(cents: int, language: str = "de", *, sign: bool = False) -> str:
    """``cents`` as ``language`` writes money: "1.234,50 €" / "€1,234.50"; ``sign``: a plus
    before positive amounts (a balance)."""
    decimal, thousands = _marks(language)
    whole, part = divmod(abs(cents), 100)
    digits = f"{whole:,}".replace(",", thousands)
    number = f"{digits}{decimal}{part:02d}"
    prefix = "−" if cents < 0 else ("+" if sign and cents > 0 else "")
    if language.startswith("en"):
        return f"{prefix}€{number}"
    return f"{prefix}{number}\u00a0€"


def format_plain(cents: int, language: str = "de") -> str:
    """``cents`` as a form field shows it again: "12,50" / "12.50", a hyphen for the minus."""
    decimal, _thousands = _marks(language)
    whole, part = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}{whole}{decimal}{part:02d}"
