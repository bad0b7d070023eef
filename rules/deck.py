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

``extras_possible`` checks every Sonderpunkt a record claims (Füchse, Doppelköpfe, Karlchen,
both parties) against one split of the deck between the parties; see the comment above it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement

from rules.cards import CARD_POINTS, CARDS_PER_TRICK, DECK, DULLE, TRICKS, Card, Rank, Suit

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


def prepare() -> None:
    """Computes the deck's tables now rather than in the first game checked (some 50 ms): a
    web worker does so before its first request (``config/wsgi.py``)."""
    _any_count()
    _low_ranks()


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


# --- every Sonderpunkt against the cards (Fuchs, Doppelkopf, Karlchen) ----------------------
#
# The cards a claim needs, per party, in the tricks that party won (normal-game rank order,
# the only one with Sonderpunkte): a caught Fuchs is a Karo-Ass its opponents played into a
# trick the party won, so the trick also holds a card that beats it (the Dulle, a Dame, a Bube,
# or the other Karo-Ass played first); the Karlchen is the last trick won by a Kreuz-Bube, so
# that trick holds a Kreuz-Bube and no Dame or Dulle (they beat it), and with 2 + 3 x 11 = 35
# Augen at most it is never a Doppelkopf; a Doppelkopf is four aces or tens
# (``DoppelkopfShape``). One trick may serve several claims: a Doppelkopf with the Dulle or
# both Karo-Asse can catch Füchse, and so can the Karlchen trick. Each trick has two cards of
# each party (two players each), which always lets the winning card be the party's own and the
# caught Karo-Asse the opponents'. Nothing else constrains the cards of a trick (the model does
# not replay the hands), as for the Augen above.

FUCHS_CARD = Card(Suit.KARO, Rank.ASS)
KARLCHEN_CARD = Card(Suit.KREUZ, Rank.BUBE)
#: rank -> the one card of it a claim names (the Karo-Ass, the Dulle, the Kreuz-Bube)
_NAMED = {Rank.ASS: FUCHS_CARD, Rank.ZEHN: DULLE, Rank.BUBE: KARLCHEN_CARD}
_NAMED_COPIES = {rank: sum(card == named for card in DECK) for rank, named in _NAMED.items()}


#: A party's cards as the claims see them: (Karo-Asse, Dullen, Kreuz-Buben, other aces, other
#: tens, Damen, other Buben, kings and nines, tricks). Counts that matter only up to a point are
#: capped (a Dame only beats a Karo-Ass; the Karlchen trick takes at most three other cards;
#: the claims of a party fill at most six tricks), so that many splits share one entry.
Holding = tuple[int, int, int, int, int, int, int, int, int]


def _cap(count: int, total: int, cap: int) -> tuple[int, int]:
    """A count of Re's and the rest of its ``total`` copies (Kontra's), each capped."""
    return min(count, cap), min(total - count, cap)


@cache
def _low_ranks() -> dict[tuple[int, int], frozenset[tuple[int, int, int]]]:
    """(cards, Augen) -> (Damen, Buben, kings + nines) of cards below the ten holding them."""
    table: defaultdict[tuple[int, int], set[tuple[int, int, int]]] = defaultdict(set)
    for kings in range(_COPIES[Rank.KOENIG] + 1):
        for damen in range(_COPIES[Rank.DAME] + 1):
            for buben in range(_COPIES[Rank.BUBE] + 1):
                for nines in range(_COPIES[Rank.NEUN] + 1):
                    augen = (
                        kings * CARD_POINTS[Rank.KOENIG]
                        + damen * CARD_POINTS[Rank.DAME]
                        + buben * CARD_POINTS[Rank.BUBE]
                    )
                    table[kings + damen + buben + nines, augen].add((damen, buben, kings + nines))
    return {key: frozenset(value) for key, value in table.items()}


_FILL = _COPIES[Rank.KOENIG] + _COPIES[Rank.NEUN]


@cache
def _named_splits(
    re_tricks: int, aces: int, tens: int, damen: tuple[int, int], buben: int, fill: tuple[int, int]
) -> frozenset[tuple[Holding, Holding]]:
    """The (Re, Kontra) holdings for Re's ranks: how many Karo-Asse, Dullen and Kreuz-Buben
    are among Re's aces, tens and Buben (``damen`` and ``fill`` already capped per party)."""
    foxes_all, dullen_all, karls_all = (_NAMED_COPIES[r] for r in (Rank.ASS, Rank.ZEHN, Rank.BUBE))
    aces_all, tens_all, buben_all = (_COPIES[r] for r in (Rank.ASS, Rank.ZEHN, Rank.BUBE))
    re_tricks_capped, kontra_tricks_capped = min(re_tricks, 6), min(TRICKS - re_tricks, 6)
    out = set()
    for foxes in range(max(0, aces - aces_all + foxes_all), min(aces, foxes_all) + 1):
        for dullen in range(max(0, tens - tens_all + dullen_all), min(tens, dullen_all) + 1):
            for karls in range(max(0, buben - buben_all + karls_all), min(buben, karls_all) + 1):
                re = (
                    foxes,
                    dullen,
                    karls,
                    aces - foxes,
                    tens - dullen,
                    damen[0],
                    min(buben - karls, 4),
                    fill[0],
                    re_tricks_capped,
                )
                k_foxes, k_dullen, k_karls = (
                    foxes_all - foxes,
                    dullen_all - dullen,
                    karls_all - karls,
                )
                kontra = (
                    k_foxes,
                    k_dullen,
                    k_karls,
                    aces_all - aces - k_foxes,
                    tens_all - tens - k_dullen,
                    damen[1],
                    min(buben_all - buben - k_karls, 4),
                    fill[1],
                    kontra_tricks_capped,
                )
                out.add((re, kontra))
    return frozenset(out)


def _splits(re_tricks: int, re_augen: int) -> Iterator[tuple[Holding, Holding]]:
    """Every (Re, Kontra) pair of holdings of a split of the deck in which Re's ``re_tricks``
    tricks hold exactly ``re_augen`` Augen (some more than once)."""
    cards = CARDS_PER_TRICK * re_tricks
    low = _low_ranks()
    for aces in range(_COPIES[Rank.ASS] + 1):
        for tens in range(_COPIES[Rank.ZEHN] + 1):
            key = (
                cards - aces - tens,
                re_augen - aces * CARD_POINTS[Rank.ASS] - tens * CARD_POINTS[Rank.ZEHN],
            )
            for damen, buben, fill in low.get(key, ()):
                yield from _named_splits(
                    re_tricks,
                    aces,
                    tens,
                    _cap(damen, _COPIES[Rank.DAME], 1),
                    buben,
                    _cap(fill, _FILL, 3),
                )


@cache
def _party_holds(holding: Holding, claims: tuple[int, int, int], min_aces: int) -> bool:
    """Whether a party's cards (``Holding``) can be laid out as its tricks with at least the
    claimed (Füchse, Doppelköpfe, Karlchen).

    The Doppelköpfe take 4k aces and tens; only which of them are Karo-Asse and Dullen matters
    for the rest (the other aces and tens are alike), so those two numbers are tried. The
    Karlchen trick takes the Kreuz-Bube and three cards that are neither Damen nor Dullen:
    Karo-Asse (caught there), else kings, nines and aces or tens, Buben last (they beat a
    Karo-Ass elsewhere). The remaining Füchse need one more trick: a free Karo-Ass with a
    beater (Dulle, Dame, Bube), or one Fuchs with the other Karo-Ass played first."""
    foxes, dullen, kreuz_buben, aces, tens, damen, buben, fillers, tricks = holding
    fuchs, k, karl = claims
    if karl and not kreuz_buben:
        return False
    for dk_foxes in range(min(foxes, 2) + 1) if k else (0,):
        for dk_dullen in range(min(dullen, 2) + 1) if k else (0,):
            other_high = CARDS_PER_TRICK * k - dk_foxes - dk_dullen
            if not 0 <= other_high <= aces + tens:
                continue
            # the other aces must bring the Doppelköpfe up to min_aces aces each
            if dk_foxes + min(aces, other_high) < min_aces * k:
                continue
            caught = dk_foxes if dk_dullen else max(dk_foxes - 1, 0)
            plain = fillers + aces + tens - other_high  # neither beaters nor Karo-Asse
            for karl_foxes in range(min(foxes - dk_foxes, 2) + 1) if karl else (0,):
                beaters = dullen - dk_dullen + damen + kreuz_buben + buben
                if karl:  # the Kreuz-Bube and its companions, Buben only when short
                    bube_companions = max(0, 3 - karl_foxes - plain)
                    if bube_companions > kreuz_buben - 1 + buben:
                        continue
                    beaters -= 1 + bube_companions
                free_foxes = foxes - dk_foxes - karl_foxes
                missing = fuchs - caught - karl_foxes
                # the Füchse still missing need one more trick with a beater or both Karo-Asse
                fuchs_tricks = int(missing > 0)
                if missing > 0 and not (
                    free_foxes >= missing and (beaters or (missing == 1 and free_foxes == 2))
                ):
                    continue
                if k + karl + fuchs_tricks <= tricks:
                    return True
    return False


@lru_cache(maxsize=1 << 16)  # per (tricks, Augen, claims): bounded for a long-lived server
def extras_possible(
    min_aces: int,
    re_tricks: int,
    re_augen: int,
    re_claims: tuple[int, int, int],
    kontra_claims: tuple[int, int, int],
) -> bool:
    """Whether Re can win ``re_tricks`` tricks holding exactly ``re_augen`` Augen with at least
    ``re_claims`` = (Füchse caught, Doppelköpfe, Karlchen) while Kontra's tricks (the rest of
    the deck) hold at least ``kontra_claims``. ``min_aces``: aces per Doppelkopf
    (``DoppelkopfShape.min_aces``); every split of the deck that holds the Augen is tried."""
    return any(
        _party_holds(re, re_claims, min_aces) and _party_holds(kontra, kontra_claims, min_aces)
        for re, kontra in _splits(re_tricks, re_augen)
    )
