"""Cards and rank orders (spec 1.3), trick winner, and the rule-set presets."""

from __future__ import annotations

import dataclasses

import pytest

from rules import (
    DDV,
    PRESETS,
    Card,
    EngineError,
    Item,
    Party,
    Rank,
    SoloType,
    Suit,
    card_order,
    get_ruleset,
    parse_record,
)
from rules import trick_winner as winner_of
from rules.cards import DECK, TOTAL_AUGEN, max_augen, min_augen
from rules.testing import game, scored

S, R = Suit, Rank
HAUS_BOCK = PRESETS["haus_bock"]


def c(suit: Suit, rank: Rank) -> Card:
    return Card(suit, rank)


def test_deck() -> None:
    assert len(DECK) == 48 and TOTAL_AUGEN == 240


@pytest.mark.parametrize(
    ("solo", "kinds", "top", "plain_hearts"),
    [
        (None, 13, c(S.HERZ, R.ZEHN), (R.ASS, R.KOENIG, R.NEUN)),
        (SoloType.KARO, 13, c(S.HERZ, R.ZEHN), (R.ASS, R.KOENIG, R.NEUN)),
        (SoloType.KREUZ, 13, c(S.HERZ, R.ZEHN), (R.ASS, R.KOENIG, R.NEUN)),
        (SoloType.PIK, 13, c(S.HERZ, R.ZEHN), (R.ASS, R.KOENIG, R.NEUN)),
        (SoloType.HERZ, 12, c(S.HERZ, R.ZEHN), None),
        (SoloType.DAMEN, 4, c(S.KREUZ, R.DAME), (R.ASS, R.ZEHN, R.KOENIG, R.BUBE, R.NEUN)),
        (SoloType.BUBEN, 4, c(S.KREUZ, R.BUBE), (R.ASS, R.ZEHN, R.KOENIG, R.DAME, R.NEUN)),
        (SoloType.FLEISCHLOS, 0, None, (R.ASS, R.ZEHN, R.KOENIG, R.DAME, R.BUBE, R.NEUN)),
    ],
)
def test_rank_orders(
    solo: SoloType | None, kinds: int, top: Card | None, plain_hearts: tuple[Rank, ...] | None
) -> None:
    order = card_order(solo)
    assert len(order.trumps) == kinds == len(set(order.trumps))
    assert sum(order.is_trump(card) for card in DECK) == 2 * kinds
    assert (order.trumps[0] if order.trumps else None) == top
    assert order.plain.get(S.HERZ) == plain_hearts
    non_trumps = sum(len(ranks) for ranks in order.plain.values())
    assert 2 * non_trumps == 48 - 2 * kinds


def test_normal_trump_order_exactly() -> None:
    expected = [
        (S.HERZ, R.ZEHN),
        (S.KREUZ, R.DAME),
        (S.PIK, R.DAME),
        (S.HERZ, R.DAME),
        (S.KARO, R.DAME),
        (S.KREUZ, R.BUBE),
        (S.PIK, R.BUBE),
        (S.HERZ, R.BUBE),
        (S.KARO, R.BUBE),
        (S.KARO, R.ASS),
        (S.KARO, R.ZEHN),
        (S.KARO, R.KOENIG),
        (S.KARO, R.NEUN),
    ]
    assert [(t.suit, t.rank) for t in card_order(None).trumps] == expected
    herz = card_order(SoloType.HERZ).trumps
    assert [(t.suit, t.rank) for t in herz[-3:]] == [
        (S.HERZ, R.ASS),
        (S.HERZ, R.KOENIG),
        (S.HERZ, R.NEUN),
    ]


DULLE = c(S.HERZ, R.ZEHN)


def test_trick_winner_basics() -> None:
    trick = [c(S.PIK, R.ASS), c(S.PIK, R.ZEHN), c(S.KARO, R.NEUN), c(S.PIK, R.ASS)]
    assert winner_of(trick, None, DDV) == 2  # any trump beats plain cards
    assert winner_of(trick, SoloType.FLEISCHLOS, DDV) == 0  # identical: the first wins
    trick = [c(S.KREUZ, R.KOENIG), c(S.PIK, R.ASS), c(S.KREUZ, R.ZEHN), c(S.KREUZ, R.NEUN)]
    assert winner_of(trick, None, DDV) == 2  # off-suit discard cannot win
    trick = [c(S.HERZ, R.ASS), DULLE, c(S.HERZ, R.KOENIG)]
    assert winner_of(trick, SoloType.DAMEN, DDV) == 0  # ♥10 is an ordinary heart here
    assert winner_of(trick, None, DDV) == 1
    with pytest.raises(ValueError):
        winner_of([], None, DDV)


def test_second_dulle_is_a_house_rule() -> None:
    trick = [DULLE, c(S.KREUZ, R.DAME), DULLE, c(S.KARO, R.NEUN)]
    assert winner_of(trick, None, DDV) == 0
    assert winner_of(trick, None, HAUS_BOCK) == 2
    assert winner_of(trick, None, HAUS_BOCK, last_trick=True) == 0
    assert winner_of(trick, SoloType.BUBEN, HAUS_BOCK) == 0  # no trump: plain hearts


def test_augen_bounds() -> None:
    assert [min_augen(n) for n in (0, 1, 2, 3)] == [0, 0, 0, 8]
    assert [max_augen(n) for n in (0, 1, 2, 3, 12)] == [0, 44, 88, 128, 240]
    assert all(max_augen(n) <= 44 * n for n in range(13))  # implies spec 7.5 item 7


def test_presets() -> None:
    assert set(PRESETS) >= {"ddv", "haus_25", "haus_bock"}
    assert get_ruleset("ddv") is DDV
    assert (DDV.total_games(4), DDV.total_games(5)) == (24, 30)
    assert PRESETS["haus_25"].total_games(5) == 25
    with pytest.raises(KeyError):
        get_ruleset("armut")
    with pytest.raises(dataclasses.FrozenInstanceError):
        DDV.solo_factor = 2  # type: ignore[misc]
    for rs in PRESETS.values():
        assert rs.name and rs.label


def test_no_back_door_clamps_the_net() -> None:
    record = game(points=125, extras={"kontra": {"doppelkopf": 2}})  # vector 20
    assert scored(record).value == -1
    result = scored(record, HAUS_BOCK)
    assert result.value == 0 and result.winner is Party.RE
    assert result.breakdown[-1] == (Item.NO_BACK_DOOR, Party.RE, 1)


def test_bock_multiplies_the_value() -> None:
    result = scored(game("solo", ann=("ansage", None), points=121, bock=2), HAUS_BOCK)
    assert result.value == 12  # 3 x 2 x 2
    assert result.scores == {1: 36, 2: -12, 3: -12, 4: -12}
    lost = scored(game(points=100, bock=1), HAUS_BOCK)
    assert lost.value == -4 and lost.breakdown[-1] == (Item.BOCK, Party.KONTRA, 2)


def test_rule_set_without_sonderpunkte() -> None:
    plain = dataclasses.replace(DDV, name="ohne_sp", sonderpunkte=False)
    assert scored(game(points=100), plain).value == -1  # no gegen die Alten
    error = parse_record(game(extras={"re": {"fuchs": 1}}), plain)
    assert isinstance(error, EngineError) and error.code == "extras_not_allowed"
