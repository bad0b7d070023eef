"""Announcement timing (spec 3.2, TSR 6.4): vectors T1, T2 and the deadline table."""

from __future__ import annotations

import pytest

from rules import DDV, AnnouncementLevel, announcement_deadline, may_announce, reply_deadline

L = AnnouncementLevel
LEVELS = [L.ANSAGE, L.KEINE_90, L.KEINE_60, L.KEINE_30, L.SCHWARZ]


@pytest.mark.parametrize(
    ("klaerungsstich", "expected"),
    [
        pytest.param(None, [11, 10, 9, 8, 7], id="normal"),
        pytest.param(1, [11, 10, 9, 8, 7], id="hochzeit-trick1"),
        pytest.param(2, [10, 9, 8, 7, 6], id="hochzeit-trick2"),
        pytest.param(3, [9, 8, 7, 6, 5], id="hochzeit-trick3"),
    ],
)
def test_deadline_table(klaerungsstich: int | None, expected: list[int]) -> None:
    got = [announcement_deadline(lv, DDV, klaerungsstich=klaerungsstich) for lv in LEVELS]
    assert got == expected


def test_vector_T1_reply_to_keine_30() -> None:
    # Re said "keine 30" (needs 8 cards): Kontra may still reply "Kontra" down to 7 cards.
    assert reply_deadline(L.KEINE_30, DDV) == 7
    assert may_announce(L.ANSAGE, 7, DDV, opponent=L.KEINE_30)
    assert not may_announce(L.ANSAGE, 6, DDV, opponent=L.KEINE_30)
    # nothing but the Ansage as a late reply
    assert not may_announce(L.KEINE_90, 7, DDV, opponent=L.KEINE_30)
    # after a late reply no Absage, however many cards; after a timely one (>= 11) yes
    assert not may_announce(L.KEINE_90, 7, DDV, own=L.ANSAGE, opponent=L.KEINE_30, ansage_cards=7)
    assert not may_announce(L.KEINE_90, 10, DDV, own=L.ANSAGE, opponent=L.KEINE_30, ansage_cards=10)
    assert may_announce(L.KEINE_90, 10, DDV, own=L.ANSAGE, opponent=L.KEINE_30, ansage_cards=11)


def test_vector_T2_hochzeit_partner_in_trick_2() -> None:
    kw = {"klaerungsstich": 2}
    # not before trick 2 is complete (10 cards left)
    assert not may_announce(L.ANSAGE, 11, DDV, **kw)
    assert may_announce(L.ANSAGE, 10, DDV, **kw)
    assert not may_announce(L.ANSAGE, 9, DDV, **kw)
    for level, cards in zip(LEVELS, [10, 9, 8, 7, 6], strict=True):
        own = L(level - 1)
        assert may_announce(level, cards, DDV, own=own, **kw)
        assert not may_announce(level, cards - 1, DDV, own=own, **kw)


def test_skipping_levels_needs_every_skipped_level_in_time() -> None:
    # "keine 60" directly at 9 cards: the skipped Ansage (11) and keine 90 (10) are too late
    assert not may_announce(L.KEINE_60, 9, DDV)
    assert may_announce(L.KEINE_60, 11, DDV)
    assert may_announce(L.KEINE_60, 9, DDV, own=L.KEINE_90)


def test_no_repeat_and_no_announcement_before_the_game_is_settled() -> None:
    assert not may_announce(L.ANSAGE, 11, DDV, own=L.ANSAGE)
    assert not may_announce(L.KEINE_90, 11, DDV, own=L.KEINE_60)
    assert not may_announce(L.NONE, 11, DDV)
    assert may_announce(L.ANSAGE, 12, DDV)  # normal game: from the deal on
    assert not may_announce(L.ANSAGE, 12, DDV, klaerungsstich=1)


def test_none_has_no_deadline() -> None:
    with pytest.raises(ValueError):
        announcement_deadline(L.NONE, DDV)
