"""What the 48-card deck lets a party hold: exact Augen totals and Doppelköpfe (spec 1.1, 7.5).

A game record carries totals only (Re's Augen, perhaps Re's tricks, Doppelköpfe per party).
n tricks are 4n cards, so the facts are possible only if some 4n cards of the deck hold them
and the other 48 - 4n cards hold the rest. Which totals a number of cards can hold is computed
once from ``DECK`` by a small dynamic program over the ranks (six ranks, 0..8 copies each):
not every total between ``min_augen`` and ``max_augen`` occurs. No card is worth 1 Auge, so no
party ever holds 1 or 239; one trick holds 37 or 40 Augen, never 38 or 39.

A Doppelkopf is a trick of at least ``RuleSet.doppelkopf_augen`` Augen. With the DDV's 40 only
four aces and tens reach it (three aces and a king are 37), so each Doppelkopf takes four of
the 16 aces and tens: at most four per game, counting both parties, and a party's k
Doppelköpfe need 4k of the aces and tens among its cards. The shape of a Doppelkopf trick is
derived from the threshold; for a threshold that lower cards can reach (below 38) the deck
model does not apply and ``doppelkopf_shape`` returns ``None``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from rules.cards import CARD_POINTS, CARDS_PER_TRICK, DECK, TRICKS, Rank

_COPIES: Counter[Rank] = Counter(card.rank for card in DECK)
_HIGH = (Rank.ASS, Rank.ZEHN)  # the ranks a Doppelkopf trick is made of (see doppelkopf_shape)


@cache
def _holdings() -> dict[tuple[int, int], frozenset[tuple[int, int]]]:
    """(cards, Augen) -> every (aces, tens) a party holding that many cards with exactly those
    Augen can have. Keys cover every (cards, Augen) some cards of the deck reach."""
    low = {(0, 0)}  # (cards, Augen) reachable with the ranks below ten
    for rank in Rank:
        if rank not in _HIGH:
            low = {
                (cards + n, augen + n * CARD_POINTS[rank])
                for cards, augen in low
                for n in range(_COPIES[rank] + 1)
            }
    table: defaultdict[tuple[int, int], set[tuple[int, int]]] = defaultdict(set)
    for aces in range(_COPIES[Rank.ASS] + 1):
        for tens in range(_COPIES[Rank.ZEHN] + 1):
            high = aces * CARD_POINTS[Rank.ASS] + tens * CARD_POINTS[Rank.ZEHN]
            for cards, augen in low:
                table[cards + aces + tens, augen + high].add((aces, tens))
    return {key: frozenset(value) for key, value in table.items()}


@cache
def _any_count() -> frozenset[int]:
    return frozenset(augen for _, augen in _holdings())


def augen_possible(augen: int, tricks: int | None = None) -> bool:
    """Whether the cards of ``tricks`` tricks (of any number of cards if ``None``) can hold
    exactly ``augen`` Augen."""
    if tricks is None:
        return augen in _any_count()
    return (CARDS_PER_TRICK * tricks, augen) in _holdings()


def augen_totals(tricks: int) -> tuple[int, ...]:
    """Every Augen total the cards of ``tricks`` tricks can hold, ascending."""
    cards = CARDS_PER_TRICK * tricks
    return tuple(sorted(augen for n, augen in _holdings() if n == cards))


@dataclass(frozen=True, slots=True)
class DoppelkopfShape:
    """A Doppelkopf trick is four aces and tens with at least ``min_aces`` aces."""

    min_aces: int
    per_game: int  # most Doppelköpfe in one game, both parties together


@cache
def doppelkopf_shape(threshold: int) -> DoppelkopfShape | None:
    """The shape of a trick of at least ``threshold`` Augen, or ``None`` when such a trick can
    hold cards other than aces and tens (the deck model does not apply)."""
    qualifying = [
        combo
        for combo in combinations_with_replacement(Rank, CARDS_PER_TRICK)
        if sum(CARD_POINTS[r] for r in combo) >= threshold
        and all(combo.count(r) <= _COPIES[r] for r in combo)
    ]
    if not qualifying:
        return DoppelkopfShape(min_aces=CARDS_PER_TRICK + 1, per_game=0)
    if any(r not in _HIGH for combo in qualifying for r in combo):
        return None
    min_aces = min(combo.count(Rank.ASS) for combo in qualifying)
    per_game = (_COPIES[Rank.ASS] + _COPIES[Rank.ZEHN]) // CARDS_PER_TRICK
    if min_aces:
        per_game = min(per_game, _COPIES[Rank.ASS] // min_aces)
    return DoppelkopfShape(min_aces, per_game)


def doppelkoepfe_possible(
    shape: DoppelkopfShape, re_tricks: int, re_augen: int, re_count: int, kontra_count: int
) -> bool:
    """Whether Re can win ``re_tricks`` tricks holding exactly ``re_augen`` Augen with at least
    ``re_count`` Doppelköpfe among them while Kontra's tricks (the rest of the deck) hold at
    least ``kontra_count``. Exact for the deck: such cards can always be grouped into tricks
    (the Doppelköpfe from the aces and tens, the rest in any fours)."""
    if re_count + kontra_count > shape.per_game:
        return False
    if re_count > re_tricks or kontra_count > TRICKS - re_tricks:
        return False
    holdings = _holdings().get((CARDS_PER_TRICK * re_tricks, re_augen), frozenset())
    total_aces, total_tens = _COPIES[Rank.ASS], _COPIES[Rank.ZEHN]
    for aces, tens in holdings:
        other_aces, other_tens = total_aces - aces, total_tens - tens
        if (
            aces + tens >= CARDS_PER_TRICK * re_count
            and aces >= shape.min_aces * re_count
            and other_aces + other_tens >= CARDS_PER_TRICK * kontra_count
            and other_aces >= shape.min_aces * kontra_count
        ):
            return True
    return False
