"""The form parts a season's and a league's settings share: numbers in one field and two
tie-breaks, read back from what is stored."""

from __future__ import annotations

import pytest
from django import forms

from common.forms import NO_TIEBREAK, numbers, tiebreak_fields, tiebreak_initial, tiebreak_override


@pytest.mark.parametrize(
    ("text", "digits", "expected"),
    [
        ("25, 20, 16, 13", 5, [25, 20, 16, 13]),
        ("4/3/2/1", 3, [4, 3, 2, 1]),
        ("4; 3 ;2", 3, [4, 3, 2]),
        ("", 3, None),
        (", ,", 3, None),
        ("4, -1", 3, None),
        ("1000", 3, None),
        ("²", 3, None),  # a digit to str.isdigit, but no number to int()
    ],
)
def test_numbers(text: str, digits: int, expected: list[int] | None) -> None:
    assert numbers(text, digits) == expected


@pytest.mark.parametrize(
    ("stored", "fields"),
    [
        ({}, {}),
        ({"tiebreak": []}, {"tiebreak_1": NO_TIEBREAK}),
        ({"tiebreak": ["total"]}, {"tiebreak_1": "total"}),
        ({"tiebreak": ["total", "series"]}, {"tiebreak_1": "total", "tiebreak_2": "series"}),
        ({"tiebreak": "junk"}, {}),
    ],
)
def test_tiebreaks_round_trip(stored: dict[str, object], fields: dict[str, str]) -> None:
    assert tiebreak_initial(stored) == fields
    back = tiebreak_override(fields)
    assert back == (stored.get("tiebreak") if isinstance(stored.get("tiebreak"), list) else None)


def test_the_fields_offer_keep_none_and_the_labels() -> None:
    class Form(forms.Form):
        tiebreak_1, tiebreak_2 = tiebreak_fields({"total": "more points"}, "keep")

    form = Form({"tiebreak_1": "total", "tiebreak_2": NO_TIEBREAK})
    assert form.is_valid()
    assert tiebreak_override(form.cleaned_data) == ["total"]
    assert [value for value, _label in form.fields["tiebreak_2"].choices] == ["", "-", "total"]  # type: ignore[attr-defined]
    assert not Form({"tiebreak_1": "guess"}).is_valid()
