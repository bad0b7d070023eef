"""Cards, card points and rank orders of every contract (spec 1.1, 1.3).

The scorer works on entered Augen and tricks, not on cards; this module serves trick
validation (``trick_winner``) and the sanity bounds of the input (``min_augen``/``max_augen``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from rules.contracts import SoloType
from rules.ruleset import DulleRule, RuleSet


class Suit(StrEnum):
    KREUZ = "kreuz"
    PIK = "pik"
    HERZ = "herz"
    KARO = "karo"


class Rank(StrEnum):
    ASS = "A"
    ZEHN = "10"
    KOENIG = "K"
    DAME = "D"
    BUBE = "B"
    NEUN = "9"


#: Augen per rank (spec 1.1).
CARD_POINTS: dict[Rank, int] = {
    Rank.ASS: 11,
    Rank.ZEHN: 10,
    Rank.KOENIG: 4,
    Rank.DAME: 3,
    Rank.BUBE: 2,
    Rank.NEUN: 0,
}


@dataclass(frozen=True, slots=True)
class Card:
    suit: Suit
    rank: Rank

    @property
    def points(self) -> int:
        return CARD_POINTS[self.rank]

    def __str__(self) -> str:
        return f"{self.suit.value}-{self.rank.value}"


#: The 48-card deck (with nines, every card twice).
DECK: tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in Rank for _ in range(2))
TOTAL_AUGEN: int = sum(c.points for c in DECK)
CARDS_PER_TRICK: int = 4
TRICKS: int = len(DECK) // CARDS_PER_TRICK

DULLE = Card(Suit.HERZ, Rank.ZEHN)

_SORTED_POINTS = sorted(c.points for c in DECK)
_MIN_AUGEN = tuple(sum(_SORTED_POINTS[: CARDS_PER_TRICK * n]) for n in range(TRICKS + 1))


def min_augen(tricks: int) -> int:
    """Fewest Augen a party can hold with ``tricks`` tricks (its cards are the cheapest ones)."""
    return _MIN_AUGEN[tricks]


def max_augen(tricks: int) -> int:
    """Most Augen a party can hold with ``tricks`` tricks (exact; implies spec 7.5's 44/trick)."""
    return TOTAL_AUGEN - _MIN_AUGEN[TRICKS - tricks]


@dataclass(frozen=True, slots=True)
class CardOrder:
    """Rank order of one contract: ``trumps`` highest first; ``plain`` per suit, highest first."""

    trumps: tuple[Card, ...]
    plain: dict[Suit, tuple[Rank, ...]]

    def is_trump(self, card: Card) -> bool:
        return card in self.trumps


_PLAIN_RANKS = (Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.DAME, Rank.BUBE, Rank.NEUN)
_HIGH_TRUMPS = (
    (Suit.KREUZ, Rank.DAME),
    (Suit.PIK, Rank.DAME),
    (Suit.HERZ, Rank.DAME),
    (Suit.KARO, Rank.DAME),
    (Suit.KREUZ, Rank.BUBE),
    (Suit.PIK, Rank.BUBE),
    (Suit.HERZ, Rank.BUBE),
    (Suit.KARO, Rank.BUBE),
)
_SUIT_TRUMP = {
    SoloType.KARO: Suit.KARO,
    SoloType.HERZ: Suit.HERZ,
    SoloType.PIK: Suit.PIK,
    SoloType.KREUZ: Suit.KREUZ,
}


@cache
def card_order(solo: SoloType | None) -> CardOrder:
    """Rank order for a solo type; ``None`` = Normalspiel/Hochzeit (same as Karo solo)."""
    if solo is None:
        solo = SoloType.KARO
    trumps: list[Card]
    if solo in _SUIT_TRUMP:
        trump_suit = _SUIT_TRUMP[solo]
        trumps = [DULLE] + [Card(s, r) for s, r in _HIGH_TRUMPS]
        trumps += [
            Card(trump_suit, r)
            for r in (Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.NEUN)
            if Card(trump_suit, r) != DULLE
        ]
    elif solo is SoloType.DAMEN:
        trumps = [Card(s, Rank.DAME) for s in Suit]
    elif solo is SoloType.BUBEN:
        trumps = [Card(s, Rank.BUBE) for s in Suit]
    else:
        trumps = []
    plain = {suit: tuple(r for r in _PLAIN_RANKS if Card(suit, r) not in trumps) for suit in Suit}
    return CardOrder(trumps=tuple(trumps), plain={s: r for s, r in plain.items() if r})


def trick_winner(
    cards: Sequence[Card],
    solo: SoloType | None,
    ruleset: RuleSet,
    *,
    last_trick: bool = False,
) -> int:
    """Index (0-based, in playing order) of the card that wins a complete or partial trick.

    Highest trump wins, else the highest card of the suit led; of two identical cards the first
    wins (spec 1.3) unless ``ruleset.dulle`` lets the second Dulle beat the first.
    """
    if not cards:
        raise ValueError("empty trick")
    order = card_order(solo)
    second_dulle = ruleset.dulle is DulleRule.SECOND_WINS or (
        ruleset.dulle is DulleRule.SECOND_WINS_EXCEPT_LAST and not last_trick
    )
    led = cards[0]
    led_suit = None if order.is_trump(led) else led.suit
    best_index, best_key = 0, _strength(led, order, led_suit)
    for index in range(1, len(cards)):
        card = cards[index]
        key = _strength(card, order, led_suit)
        if key > best_key or (
            second_dulle and key == best_key and card == DULLE and order.is_trump(DULLE)
        ):
            best_index, best_key = index, key
    return best_index


def _strength(card: Card, order: CardOrder, led_suit: Suit | None) -> int:
    if card in order.trumps:
        return 100 + len(order.trumps) - order.trumps.index(card)
    if card.suit is led_suit:
        ranks = order.plain[card.suit]
        return 1 + len(ranks) - ranks.index(card.rank)
    return 0
