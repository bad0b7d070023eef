"""The alphabetical seating list files names as a German reader looks for them."""

from __future__ import annotations

from documents.data import SeatInfo
from tournaments.names import folded

NAMES = ["Schulz", "Schäfer", "Schmid", "Scholz", "Weiß", "Weise", "Öztürk", "Otto", "von Au"]


def test_umlauts_file_under_their_vowel_and_case_does_not_count() -> None:
    seats = [
        SeatInfo(position=1, first_name="A", last_name=n, start_number=i)
        for i, n in enumerate(NAMES)
    ]
    ordered = [s.last_name for s in sorted(seats, key=lambda s: s.sort_key)]
    assert ordered == [
        "Otto", "Öztürk", "Schäfer", "Schmid", "Scholz", "Schulz", "von Au", "Weise", "Weiß",
    ]  # fmt: skip


def test_folded_names_compare_as_typed() -> None:
    assert folded("Müller-Lüdenscheidt") == "muller-ludenscheidt"
    assert folded("WEIß") == folded("weiss")
