"""Amounts as people type them, in integer cents; refused with a code that says why."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cashbox.money import MAX_CENTS, AmountError, format_cents, format_plain, parse_cents


@pytest.mark.parametrize(
    ("text", "language", "cents"),
    [
        ("12,50", "de", 1250),
        ("12,5", "de", 1250),
        ("12", "de", 1200),
        (",5", "de", 50),
        ("1.234,50 €", "de", 123450),
        ("-3,20", "de", -320),
        ("−3,20", "de", -320),
        ("12.500", "de", 1250000),
        ("12.50", "en", 1250),
        ("€1,234.50", "en", 123450),
        ("-0.99", "en", -99),
    ],
)
def test_amounts_in_both_languages(text: str, language: str, cents: int) -> None:
    assert parse_cents(text, language) == cents


@pytest.mark.parametrize(
    ("text", "language", "code"),
    [
        ("", "de", "empty"),
        ("  € ", "de", "empty"),
        ("zwölf", "de", "unreadable"),
        ("12.50", "de", "decimal_mark"),
        ("12,50", "en", "decimal_mark"),
        ("12,505", "de", "too_many_decimals"),
        ("1,2,3", "de", "unreadable"),
        ("12,5x", "de", "unreadable"),
        ("1e5", "en", "unreadable"),
        ("²", "de", "unreadable"),
        ("10000000,01", "de", "too_large"),
        ("9" * 400, "de", "too_large"),
        ("-", "de", "unreadable"),
    ],
)
def test_nonsense_is_refused_with_its_reason(text: str, language: str, code: str) -> None:
    with pytest.raises(AmountError) as refused:
        parse_cents(text, language)
    assert refused.value.code == code


def test_money_as_people_read_it() -> None:
    assert format_cents(123450) == "1.234,50\u00a0€"
    assert format_cents(-5, "en") == "−€0.05"
    assert format_cents(100, sign=True) == "+1,00\u00a0€"
    assert format_plain(-1250, "de") == "-12,50"


@given(st.integers(-MAX_CENTS, MAX_CENTS), st.sampled_from(["de", "en"]))
def test_what_is_shown_is_read_back(cents: int, language: str) -> None:
    assert parse_cents(format_plain(cents, language), language) == cents
    assert parse_cents(format_cents(cents, language), language) == cents
