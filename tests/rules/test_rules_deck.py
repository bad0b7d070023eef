"""Records must be possible with the 48-card deck: Augen totals, tricks and Doppelköpfe.

The unit tests pin the new error codes at their boundaries. The properties compare the engine
with real cards: facts read off random trick sets are always accepted, and every record the
engine accepts has a witness, a trick set built from an exhaustive search over the rank counts
of Re's cards (independent of the engine's dynamic program) whose tricks, summed card by card,
give the record's Augen and tricks and at least its Doppelköpfe.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from dataclasses import replace
from functools import cache
from itertools import combinations, combinations_with_replacement, permutations, product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import DDV, PRESETS, EngineError, GameRecord, RuleSet, parse_record
from rules.cards import DECK, Card, Rank, Suit, max_augen, min_augen, trick_winner
from rules.deck import augen_possible, augen_totals, doppelkopf_shape
from rules.testing import game

PROPS = settings(max_examples=400, derandomize=True, database=None, deadline=None)
NO_SONDERPUNKTE = replace(DDV, name="no_sp", sonderpunkte=False)


def error(data: dict[str, Any], ruleset: RuleSet = DDV) -> tuple[str, str] | None:
    result = parse_record(data, ruleset)
    return (result.code, result.field) if isinstance(result, EngineError) else None


def dk(re: int, kontra: int) -> dict[str, dict[str, int]]:
    return {"re": {"doppelkopf": re}, "kontra": {"doppelkopf": kontra}}


# --- re_points_impossible ------------------------------------------------------------------

AUGEN_BOUNDARIES = [
    (0, None),
    (1, ("re_points_impossible", "re_points")),
    (2, None),
    (238, None),
    (239, ("re_points_impossible", "re_points")),
    (240, None),
]


@pytest.mark.parametrize(("points", "expected"), AUGEN_BOUNDARIES)
@pytest.mark.parametrize("contract", ["normal", "solo", "stille_hochzeit"])
def test_re_points_boundaries(points: int, contract: str, expected: object) -> None:
    for ruleset in PRESETS.values():
        assert error(game(contract, points=points), ruleset) == expected


@pytest.mark.parametrize(("points", "tricks"), [(1, 1), (1, 2), (239, 10), (239, 11)])
def test_re_points_impossible_before_the_tricks(points: int, tricks: int) -> None:
    """1 and 239 are impossible with any number of cards, so the Augen are named, not the
    tricks (which lie within the min..max bounds)."""
    assert min_augen(tricks) <= points <= max_augen(tricks)
    assert error(game(points=points, tricks=tricks)) == ("re_points_impossible", "re_points")


def test_hochzeit_with_impossible_augen() -> None:
    assert error(game("hochzeit", points=239)) == ("re_points_impossible", "re_points")
    data = game("hochzeit", hochzeit_partner_trick=1, points=1, tricks=1)
    assert error(data) == ("re_points_impossible", "re_points")


def test_every_other_total_fits_some_trick_count() -> None:
    """Without re_tricks Re has 1..11 tricks (interpretation 5): every total but 1 and 239
    fits one of them, and 0 / 240 fit 0 / 12 tricks."""
    assert [a for a in range(241) if not augen_possible(a)] == [1, 239]
    assert all(any(augen_possible(a, n) for n in range(1, 12)) for a in range(2, 239))
    assert augen_possible(0, 0) and augen_possible(240, 12)


# --- points_tricks_inconsistent: exact totals, not only the bounds ----------------------------

GAPS = [(1, 38), (1, 39), (3, 123), (4, 163), (4, 167), (8, 73), (8, 77), (9, 117), (11, 201)]


@pytest.mark.parametrize(("tricks", "points"), GAPS)
def test_totals_inside_the_bounds_that_no_cards_hold(tricks: int, points: int) -> None:
    """One trick holds 37 (A A A K) or 40 (four tens) but never 38 or 39; the gaps of n tricks
    mirror those of 12 - n."""
    assert min_augen(tricks) <= points <= max_augen(tricks)
    assert error(game(points=points, tricks=tricks)) == ("points_tricks_inconsistent", "re_tricks")
    mirrored = game(points=240 - points, tricks=12 - tricks)
    assert error(mirrored) == ("points_tricks_inconsistent", "re_tricks")
    for neighbour in (points - 1, points + 1):
        if neighbour in augen_totals(tricks):
            assert error(game(points=neighbour, tricks=tricks)) is None


def test_gaps_of_the_deck() -> None:
    gaps = {
        n: [a for a in range(min_augen(n), max_augen(n) + 1) if a not in augen_totals(n)]
        for n in range(13)
    }
    assert gaps == {
        0: [],
        1: [1, 38, 39],
        2: [1],
        3: [123],
        4: [163, 164, 165, 166, 167],
        5: [],
        6: [],
        7: [],
        8: [73, 74, 75, 76, 77],
        9: [117],
        10: [239],
        11: [201, 202, 239],
        12: [],
    }


def test_hochzeit_uses_the_exact_totals() -> None:
    """Re won the first three tricks of a Hochzeit played alone: 4 tricks would hold 163 only
    as a gap, but 5 tricks hold it, so without re_tricks the record stands."""
    assert error(game("hochzeit", points=163)) is None
    assert error(game("hochzeit", points=163, tricks=4)) == (
        "points_tricks_inconsistent",
        "re_tricks",
    )


# --- doppelkopf_total_exceeded ---------------------------------------------------------------

TOTALS = [  # (Re, Kontra), Re's Augen with 6 tricks each, expected error
    ((4, 0), 168, None),
    ((0, 4), 72, None),
    ((2, 2), 120, None),
    ((3, 1), 150, None),
    ((1, 3), 90, None),
    ((5, 0), 200, ("doppelkopf_total_exceeded", "extras")),
    ((0, 5), 40, ("doppelkopf_total_exceeded", "extras")),
    ((3, 2), 140, ("doppelkopf_total_exceeded", "extras")),
    ((2, 3), 100, ("doppelkopf_total_exceeded", "extras")),
    ((4, 1), 180, ("doppelkopf_total_exceeded", "extras")),
    ((1, 4), 60, ("doppelkopf_total_exceeded", "extras")),
]


@pytest.mark.parametrize(
    ("counts", "points", "expected"), TOTALS, ids=[f"{r}+{k}" for (r, k), _, _ in TOTALS]
)
def test_four_doppelkoepfe_per_game(counts: tuple[int, int], points: int, expected: object) -> None:
    """Each record has enough tricks and Augen per party for its Doppelköpfe (the old checks:
    <= tricks, <= Augen // 40), so five are refused only by the total."""
    re_dk, kontra_dk = counts
    assert re_dk <= min(6, points // 40) and kontra_dk <= min(6, (240 - points) // 40)
    for ruleset in (DDV, PRESETS["haus_25"], PRESETS["haus_bock"]):
        assert error(game(points=points, tricks=6, extras=dk(*counts)), ruleset) == expected
    assert error(game(points=points, extras=dk(*counts))) == expected  # tricks not entered


@pytest.mark.parametrize("re_dk", range(6))
def test_five_doppelkoepfe_are_never_accepted(re_dk: int) -> None:
    for points in range(241):
        for tricks in (None, 6, 11):
            data = game(points=points, tricks=tricks, extras=dk(re_dk, 5 - re_dk))
            assert error(data) is not None


# --- doppelkopf_inconsistent -----------------------------------------------------------------


def test_re_doppelkoepfe_need_the_aces_and_tens() -> None:
    """Four Doppelköpfe take all 16 aces and tens (at least 160 Augen): with 10 tricks the 24
    other cards hold at least 40 more, so Re needs at least 208 Augen (the old bound: 160)."""
    assert error(game(points=208, tricks=10, extras=dk(4, 0))) is None
    assert error(game(points=207, tricks=10, extras=dk(4, 0))) == (
        "doppelkopf_inconsistent",
        "extras.re.doppelkopf",
    )
    assert error(game(points=200, tricks=10, extras=dk(3, 0))) is None


def test_one_doppelkopf_trick() -> None:
    """Re's single trick is a Doppelkopf only with 40..44 Augen."""
    for points in (40, 41, 42, 43, 44):
        assert error(game(points=points, tricks=1, extras=dk(1, 0))) is None
    assert error(game(points=37, tricks=1, extras=dk(1, 0))) == (
        "doppelkopf_exceeds_points",
        "extras.re.doppelkopf",
    )


def test_kontra_doppelkoepfe_need_the_aces_and_tens_re_does_not_hold() -> None:
    """Re's two tricks hold 40 Augen: eight cards without aces and tens hold at most 32, so
    Kontra cannot have all 16 of them although it has 200 Augen and 10 tricks."""
    assert error(game(points=32, tricks=2, extras=dk(0, 4))) is None
    assert error(game(points=40, tricks=2, extras=dk(0, 4))) == (
        "doppelkopf_inconsistent",
        "extras.kontra.doppelkopf",
    )
    assert error(game(points=40, tricks=2, extras=dk(0, 3))) is None


def test_doppelkoepfe_with_tricks_not_entered() -> None:
    """Four Doppelköpfe are all 16 aces and tens, 168 Augen: the party holding them has at
    least 168, the other at most 72, whatever the tricks (Augen // 40 allowed 160 / 80)."""
    assert error(game(points=168, extras=dk(4, 0))) is None
    assert error(game(points=167, extras=dk(4, 0))) == (
        "doppelkopf_inconsistent",
        "extras.re.doppelkopf",
    )
    assert error(game(points=72, extras=dk(0, 4))) is None
    assert error(game(points=73, extras=dk(0, 4))) == (
        "doppelkopf_inconsistent",
        "extras.kontra.doppelkopf",
    )


def test_hochzeit_with_partner_and_doppelkoepfe() -> None:
    data = game("hochzeit", hochzeit_partner_trick=2, points=40, tricks=2, extras=dk(1, 3))
    assert error(data) is None
    data["extras"] = dk(1, 4)
    assert error(data) == ("doppelkopf_total_exceeded", "extras")


def test_together_impossible_under_a_higher_threshold() -> None:
    """With a house threshold of 44 a Doppelkopf is four aces (two per game). Re's 80 Augen in
    two tricks with one Doppelkopf need five aces, which leaves Kontra only three."""
    four_aces = replace(DDV, name="dk44", doppelkopf_augen=44)
    assert error(game(points=80, tricks=2, extras=dk(1, 0)), four_aces) is None
    assert error(game(points=80, tricks=2, extras=dk(0, 1)), four_aces) is None
    assert error(game(points=80, tricks=2, extras=dk(1, 1)), four_aces) == (
        "doppelkopf_inconsistent",
        "extras",
    )
    assert error(game(points=120, tricks=6, extras=dk(2, 1)), four_aces) == (
        "doppelkopf_total_exceeded",
        "extras",
    )


def test_low_house_threshold_keeps_only_the_old_checks() -> None:
    """At 30 Augen kings and queens make Doppelköpfe too (A A K D = 29 is none, A A 10 D = 35
    is one): the deck model does not apply, only the per-party checks do."""
    low = replace(DDV, name="dk30", doppelkopf_augen=30)
    assert doppelkopf_shape(30) is None
    assert error(game(points=160, tricks=6, extras=dk(5, 2)), low) is None
    assert error(game(points=180, tricks=6, extras=dk(6, 0)), low) is None


def test_games_without_sonderpunkte_are_unaffected() -> None:
    """Solos and rule sets without Sonderpunkte refuse extras before any deck check, and a
    record without extras is never asked for Doppelköpfe its cards would force."""
    assert error(game("solo", points=120, extras=dk(5, 0))) == ("extras_not_allowed", "extras")
    assert error(game(points=120, extras=dk(5, 0)), NO_SONDERPUNKTE) == (
        "extras_not_allowed",
        "extras",
    )
    assert error(game(points=128, tricks=3)) is None  # 3 tricks of aces and tens, unclaimed
    assert error(game("solo", points=44, tricks=1)) is None
    assert error({"not_played": True, "seats": [1, 2, 3, 4]}) is None


def test_deck_shape_follows_the_threshold() -> None:
    shapes = {t: doppelkopf_shape(t) for t in (37, 38, 40, 41, 42, 43, 44, 45)}
    assert shapes[37] is None
    got = {t: (s.min_aces, s.per_game) for t, s in shapes.items() if s is not None}
    assert got == {
        38: (0, 4),
        40: (0, 4),
        41: (1, 4),
        42: (2, 4),
        43: (3, 2),
        44: (4, 2),
        45: (5, 0),  # no trick reaches 45: no Doppelkopf at all
    }


# --- the oracle: real cards ------------------------------------------------------------------

RANKS = tuple(Rank)
POINTS = {rank: Card(DECK[0].suit, rank).points for rank in RANKS}
COPIES = Counter(card.rank for card in DECK)


@cache
def _all_rank_counts() -> dict[tuple[int, int], list[tuple[int, ...]]]:
    """(cards, Augen) -> every count vector of the ranks (in ``RANKS`` order) holding them: an
    exhaustive enumeration of all 9**6 vectors."""
    out: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for counts in product(*(range(COPIES[r] + 1) for r in RANKS)):
        augen = sum(n * POINTS[r] for n, r in zip(counts, RANKS, strict=True))
        out.setdefault((sum(counts), augen), []).append(counts)
    return out


@cache
def _rank_counts() -> dict[tuple[int, int], list[tuple[int, ...]]]:
    """(cards, Augen) -> Re's rank counts, one per (aces, tens)."""
    out: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for key, vectors in _all_rank_counts().items():
        by_high: dict[tuple[int, int], tuple[int, ...]] = {}
        for counts in vectors:
            by_high.setdefault((counts[0], counts[1]), counts)
        out[key] = list(by_high.values())
    return out


def _tricks_of(cards: list[Card]) -> list[list[Card]]:
    """Group a party's cards into tricks, aces and tens first (as many Doppelköpfe as can be)."""
    ordered = sorted(cards, key=lambda c: -c.points)
    return [ordered[i : i + 4] for i in range(0, len(ordered), 4)]


def witness(
    points: int, trick_counts: range, re_dk: int, kontra_dk: int
) -> list[list[Card]] | None:
    """Re's tricks followed by Kontra's (split at 4 * Re's tricks), or None if no cards fit."""
    for n in trick_counts:
        for counts in _rank_counts().get((4 * n, points), []):
            pool = list(DECK)
            re_cards: list[Card] = []
            for rank, k in zip(RANKS, counts, strict=True):
                for _ in range(k):
                    card = next(c for c in pool if c.rank is rank)
                    pool.remove(card)
                    re_cards.append(card)
            re_tricks, kontra_tricks = _tricks_of(re_cards), _tricks_of(pool)
            assert sum(c.points for t in re_tricks for c in t) == points
            assert len(re_tricks) == n and len(kontra_tricks) == 12 - n
            dk_re = sum(sum(c.points for c in t) >= 40 for t in re_tricks)
            dk_kontra = sum(sum(c.points for c in t) >= 40 for t in kontra_tricks)
            if dk_re >= re_dk and dk_kontra >= kontra_dk:
                return re_tricks + kontra_tricks
    return None


def trick_counts(points: int, tricks: int | None) -> range:
    """Re's possible trick counts: as entered, else interpretation 5."""
    if tricks is not None:
        return range(tricks, tricks + 1) if 0 <= tricks <= 12 else range(0)
    if points == 0:
        return range(0, 1)
    if points == 240:
        return range(12, 13)
    return range(1, 12)


def test_the_oracle_refuses_what_the_old_bounds_let_through() -> None:
    """The oracle is not vacuous: records within the old min/max and Augen // 40 bounds."""
    assert witness(39, range(1, 2), 0, 0) is None
    assert witness(1, range(1, 12), 0, 0) is None
    assert witness(207, range(10, 11), 4, 0) is None
    assert witness(200, range(6, 7), 5, 0) is None
    assert witness(120, range(6, 7), 2, 2) is not None
    assert witness(40, range(1, 2), 1, 0) is not None


FACT_CODES = {
    "re_points_impossible",
    "points_tricks_inconsistent",
    "doppelkopf_exceeds_tricks",
    "doppelkopf_exceeds_points",
    "doppelkopf_total_exceeded",
    "doppelkopf_inconsistent",
}


@PROPS
@given(
    st.one_of(
        st.integers(0, 240),
        st.sampled_from([0, 1, 2, 37, 38, 39, 40, 44, 123, 163, 207, 208, 238, 239, 240]),
    ),
    st.one_of(st.none(), st.integers(0, 12)),
    st.integers(0, 5),
    st.integers(0, 5),
)
def test_accepted_records_are_physically_possible(
    points: int, tricks: int | None, re_dk: int, kontra_dk: int
) -> None:
    """The engine accepts the facts exactly when real cards hold them."""
    result = parse_record(game(points=points, tricks=tricks, extras=dk(re_dk, kontra_dk)), DDV)
    found = witness(points, trick_counts(points, tricks), re_dk, kontra_dk)
    if isinstance(result, GameRecord):
        assert found is not None, "accepted, but no cards hold these facts"
    else:
        assert result.code in FACT_CODES, result
        assert found is None, f"refused ({result.code}), but real cards hold these facts"


@st.composite
def trick_sets(draw: st.DrawFn) -> tuple[list[list[Card]], list[bool]]:
    """Twelve tricks of real cards (some built from aces and tens only) and who won each."""
    high = [c for c in DECK if c.rank in (Rank.ASS, Rank.ZEHN)]
    built = draw(st.integers(0, 4))
    high = draw(st.permutations(high))
    rest = draw(st.permutations([c for c in DECK if c.rank not in (Rank.ASS, Rank.ZEHN)]))
    cards = [*high[: 4 * built], *draw(st.permutations([*high[4 * built :], *rest]))]
    tricks = draw(st.permutations([cards[i : i + 4] for i in range(0, 48, 4)]))
    re_won = draw(st.lists(st.booleans(), min_size=12, max_size=12))
    return tricks, re_won


@PROPS
@given(trick_sets(), st.sampled_from(["normal", "hochzeit", "solo"]), st.booleans())
def test_facts_of_real_tricks_are_accepted(
    case: tuple[list[list[Card]], list[bool]], contract: str, enter_tricks: bool
) -> None:
    tricks, re_won = case
    if contract == "hochzeit":  # Re won the tricks up to the Klärungsstich
        re_won[0] = True
    points = sum(c.points for t, won in zip(tricks, re_won, strict=True) if won for c in t)
    n = sum(re_won)
    doppelkoepfe = Counter(
        won for t, won in zip(tricks, re_won, strict=True) if sum(c.points for c in t) >= 40
    )
    data = game(contract, points=points)
    if contract == "hochzeit":
        data.update(re=[1, 2], hochzeit_partner_trick=1)
    if enter_tricks or (points == 0 and n > 0) or (points == 240 and n < 12):
        data["re_tricks"] = n
    if contract != "solo":
        data["extras"] = dk(doppelkoepfe[True], doppelkoepfe[False])
    result = parse_record(data, DDV)
    assert isinstance(result, GameRecord), result
    assert (result.re_augen, result.re_has_trick) == (points, n > 0)
    if contract != "solo":
        assert result.extras_re.doppelkopf == doppelkoepfe[True]
        assert result.extras_kontra.doppelkopf == doppelkoepfe[False]
        # claiming fewer is never refused by the deck
        fewer = {**data, "extras": dk(doppelkoepfe[True] // 2, doppelkoepfe[False] // 2)}
        assert isinstance(parse_record(fewer, DDV), GameRecord)


def _vectors() -> list[tuple[str, dict[str, Any]]]:
    path = Path(__file__).with_name("test_rules_vectors.py")
    spec = importlib.util.spec_from_file_location("_deck_vectors", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [(v[0], v[1]) for v in module.SCORING_VECTORS]


@pytest.mark.parametrize(("vector", "data"), _vectors(), ids=[v for v, _ in _vectors()])
def test_every_vector_is_accepted_and_has_real_cards(vector: str, data: dict[str, Any]) -> None:
    assert isinstance(parse_record(data, DDV), GameRecord)
    extras = data.get("extras") or {}
    re_dk = extras.get("re", {}).get("doppelkopf", 0)
    kontra_dk = extras.get("kontra", {}).get("doppelkopf", 0)
    counts = trick_counts(data["re_points"], data.get("re_tricks"))
    assert witness(data["re_points"], counts, re_dk, kontra_dk) is not None


# --- Füchse and the Karlchen against the cards (extras_inconsistent) -------------------------

FUCHS = Card(Suit.KARO, Rank.ASS)
KARLCHEN = Card(Suit.KREUZ, Rank.BUBE)


def ex(
    re: tuple[int, int, int] = (0, 0, 0), kontra: tuple[int, int, int] = (0, 0, 0)
) -> dict[str, dict[str, int]]:
    """Extras of both parties as (Füchse, Doppelköpfe, Karlchen)."""
    keys = ("fuchs", "doppelkopf", "karlchen")
    return {
        party: dict(zip(keys, counts, strict=True))
        for party, counts in (("re", re), ("kontra", kontra))
    }


EXTRAS_REFUSED = [
    # Kontra's only trick holds 0 Augen (four nines): no Karo-Ass in it
    (240, 11, ex(kontra=(1, 0, 0)), "extras.kontra.fuchs"),
    # Kontra's 168 Augen in 6 tricks are the 16 aces and tens and 8 nines: no Kreuz-Bube
    (72, 6, ex(kontra=(0, 4, 1)), "extras.kontra"),
    # Re's one trick of 11 Augen with a Kreuz-Bube needs 9 more from three cards: a Dame
    # always (K D B or D D D), and a Dame beats the Kreuz-Bube
    (11, 1, ex(re=(0, 0, 1)), "extras.re.karlchen"),
    # Re's one trick of 44 is four aces with one Karo-Ass if Kontra has the other: it is the
    # only trump, so it wins and is nobody's Fuchs
    (44, 1, ex(re=(1, 0, 0), kontra=(1, 0, 0)), "extras"),
    # the Karlchen trick is never a Doppelkopf: one trick cannot be both
    (40, 1, ex(re=(0, 1, 1)), "extras.re.karlchen"),
    # each alone fits Re's 2 tricks of 40 Augen, but the Doppelkopf holds all 40 and the
    # Karlchen trick at least the Kreuz-Bube's 2
    (40, 2, ex(re=(0, 1, 1)), "extras.re"),
    # Kontra's 2 tricks hold 0 Augen: eight nines, no Kreuz-Bube
    (240, 10, ex(kontra=(0, 0, 1)), "extras.kontra.karlchen"),
    # two Füchse in Re's one trick of 22 Augen: two Karo-Asse are 22, nothing beats them
    (22, 1, ex(re=(2, 0, 0)), "extras.re.fuchs"),
]


@pytest.mark.parametrize(("points", "tricks", "extras", "field"), EXTRAS_REFUSED)
def test_extras_the_cards_cannot_hold(
    points: int, tricks: int, extras: dict[str, dict[str, int]], field: str
) -> None:
    assert error(game(points=points, tricks=tricks, extras=extras)) == (
        "extras_inconsistent",
        field,
    )
    assert witness_extras(points, range(tricks, tricks + 1), extras) is None


EXTRAS_ACCEPTED = [
    (227, 11, ex(kontra=(1, 0, 0))),  # Kontra's trick: Karo-Ass under a Bube, two nines
    (72, 6, ex(kontra=(0, 4, 0))),
    (72, 6, ex(kontra=(2, 4, 0))),  # both Karo-Asse beaten by a Dulle in one Doppelkopf
    (74, 6, ex(kontra=(0, 3, 1))),
    (10, 1, ex(re=(0, 0, 1))),  # Kreuz-Bube, two kings, a nine
    (13, 1, ex(re=(1, 0, 1))),  # Kreuz-Bube catching the Karo-Ass, two nines
    (44, 1, ex(re=(1, 0, 0))),  # both Karo-Asse: the first wins, the second is caught
    (42, 1, ex(re=(2, 1, 0))),  # Karo-Ass, Karo-Ass, Dulle, ten
    (121, None, ex(re=(1, 1, 1), kontra=(1, 1, 0))),
]


@pytest.mark.parametrize(("points", "tricks", "extras"), EXTRAS_ACCEPTED)
def test_extras_the_cards_can_hold(
    points: int, tricks: int | None, extras: dict[str, dict[str, int]]
) -> None:
    assert error(game(points=points, tricks=tricks, extras=extras)) is None
    assert witness_extras(points, trick_counts(points, tricks), extras) is not None


def test_extras_under_other_rule_sets() -> None:
    """Every preset with Sonderpunkte applies the check; solo-type games and rule sets without
    Sonderpunkte refuse the extras before it."""
    impossible = game(points=240, tricks=11, extras=ex(kontra=(1, 0, 0)))
    for ruleset in PRESETS.values():
        assert error(impossible, ruleset) == ("extras_inconsistent", "extras.kontra.fuchs")
    assert error(impossible, NO_SONDERPUNKTE) == ("extras_not_allowed", "extras")
    low = replace(DDV, name="dk30", doppelkopf_augen=30)  # Doppelköpfe stay out of the check
    karlchen_of_aces = game(points=35, tricks=1, extras=ex(re=(0, 1, 1)))  # Kreuz-Bube, 3 aces
    assert error(karlchen_of_aces) == ("doppelkopf_exceeds_points", "extras.re.doppelkopf")
    assert error(karlchen_of_aces, low) is None
    assert error(game(points=11, tricks=1, extras=ex(re=(0, 0, 1))), low) == (
        "extras_inconsistent",
        "extras.re.karlchen",
    )


# The oracle for Füchse and the Karlchen: a party's cards as counts of nine classes, each
# with a real card standing for it; the tricks a claim needs are searched exhaustively and
# each is judged by ``trick_winner`` over every playing order and every pair of seats of the
# winning party (two cards of each party per trick).
CLASSES = (
    FUCHS,
    Card(Suit.PIK, Rank.ASS),
    Card(Suit.HERZ, Rank.ZEHN),
    Card(Suit.PIK, Rank.ZEHN),
    Card(Suit.PIK, Rank.DAME),
    KARLCHEN,
    Card(Suit.PIK, Rank.BUBE),
    Card(Suit.PIK, Rank.KOENIG),
    Card(Suit.PIK, Rank.NEUN),
)
CLASS_COPIES = tuple(
    sum(
        (c == rep)
        if rep in (FUCHS, KARLCHEN, CLASSES[2])
        else (c.rank is rep.rank and c not in (FUCHS, KARLCHEN, CLASSES[2]))
        for c in DECK
    )
    for rep in CLASSES
)


def _trick_outcomes(cards: tuple[Card, ...]) -> set[tuple[int, int, int]]:
    """What the winning party can claim for this trick: (Füchse, Doppelkopf, Karlchen)."""
    doppelkopf = int(sum(c.points for c in cards) >= 40)
    out = set()
    for order in set(permutations(cards)):
        for own in combinations(range(4), 2):
            won = trick_winner(order, None, DDV, last_trick=True)
            if won not in own:
                continue
            foxes = sum(order[i] == FUCHS for i in range(4) if i not in own)
            out.add((foxes, doppelkopf, int(order[won] == KARLCHEN)))
    return out


@cache
def _special_tricks() -> list[tuple[tuple[int, ...], set[tuple[int, int, int]]]]:
    """Every trick as class counts with its outcomes (only tricks that can claim something)."""
    out = []
    for combo in combinations_with_replacement(range(len(CLASSES)), 4):
        counts = tuple(combo.count(k) for k in range(len(CLASSES)))
        if any(n > CLASS_COPIES[k] for k, n in enumerate(counts)):
            continue
        outcomes = {o for o in _trick_outcomes(tuple(CLASSES[k] for k in combo)) if any(o)}
        if outcomes:
            out.append((counts, outcomes))
    return out


def _party_witness(counts: tuple[int, ...], claims: tuple[int, int, int]) -> bool:
    """Whether tricks made of these cards give at least ``claims``."""
    return _search(counts, claims, 0)


@cache
def _search(counts: tuple[int, ...], claims: tuple[int, int, int], start: int) -> bool:
    """Depth-first over the tricks that claim something, in the order of ``_special_tricks``
    (from ``start``: a set of tricks is tried once). Cut early only by what any witness needs:
    a Karo-Ass per Fuchs, four aces or tens per Doppelkopf, a Kreuz-Bube, a trick per claim."""
    fuchs, doppelkopf, karlchen = claims
    if not any(claims):
        return True
    if (
        counts[0] < fuchs
        or sum(counts[:4]) < 4 * doppelkopf
        or counts[5] < karlchen
        or sum(counts) < 4 * (doppelkopf + karlchen)
    ):
        return False
    tricks = _special_tricks()
    for index in range(start, len(tricks)):
        trick, outcomes = tricks[index]
        if any(t > c for t, c in zip(trick, counts, strict=True)):
            continue
        rest = tuple(c - t for c, t in zip(counts, trick, strict=True))
        for outcome in outcomes:
            f, d, k = (max(0, c - o) for c, o in zip(claims, outcome, strict=True))
            if (f, d, k) != claims and _search(rest, (f, d, k), index):
                return True
    return False


def _claims(extras: dict[str, dict[str, int]], party: str) -> tuple[int, int, int]:
    e = extras.get(party, {})
    return e.get("fuchs", 0), e.get("doppelkopf", 0), e.get("karlchen", 0)


def witness_extras(
    points: int, counts_of_tricks: range, extras: dict[str, dict[str, int]]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Re's and Kontra's cards (class counts) whose tricks give the record's facts, or None."""
    re_claims, kontra_claims = _claims(extras, "re"), _claims(extras, "kontra")
    if re_claims[2] and kontra_claims[2]:
        return None  # one last trick
    index = {rank: RANKS.index(rank) for rank in RANKS}
    for n in counts_of_tricks:
        for ranks in _all_rank_counts().get((4 * n, points), []):
            aces, tens, buben = (ranks[index[r]] for r in (Rank.ASS, Rank.ZEHN, Rank.BUBE))
            for foxes, dullen, karls in product(range(3), repeat=3):
                re_counts = (
                    foxes,
                    aces - foxes,
                    dullen,
                    tens - dullen,
                    ranks[index[Rank.DAME]],
                    karls,
                    buben - karls,
                    ranks[index[Rank.KOENIG]],
                    ranks[index[Rank.NEUN]],
                )
                if any(not 0 <= c <= m for c, m in zip(re_counts, CLASS_COPIES, strict=True)):
                    continue
                kontra_counts = tuple(m - c for c, m in zip(re_counts, CLASS_COPIES, strict=True))
                if _party_witness(re_counts, re_claims) and _party_witness(
                    kontra_counts, kontra_claims
                ):
                    return re_counts, kontra_counts
    return None


def test_the_extras_oracle_is_not_vacuous() -> None:
    assert CLASS_COPIES == (2, 6, 2, 6, 8, 2, 6, 8, 8)
    assert witness_extras(44, range(1, 2), ex(re=(1, 0, 0), kontra=(1, 0, 0))) is None
    assert witness_extras(44, range(1, 2), ex(re=(1, 0, 0))) is not None
    assert witness_extras(120, range(6, 7), ex(re=(0, 0, 1), kontra=(0, 0, 1))) is None


EXTRA_CODES = FACT_CODES | {"extras_inconsistent", "fuchs_without_trick", "karlchen_without_trick"}


@st.composite
def facts(draw: st.DrawFn) -> tuple[int, int | None]:
    """Re's Augen and tricks (or None), mostly a total the tricks can hold, often at the
    extremes where the cards are scarce (one or two tricks on either side)."""
    tricks = draw(st.one_of(st.sampled_from([1, 2, 3, 9, 10, 11]), st.integers(0, 12)))
    points = draw(st.one_of(st.sampled_from(augen_totals(tricks)), st.integers(0, 240)))
    return points, None if draw(st.integers(0, 3)) == 0 else tricks


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(
    facts(),
    st.tuples(st.integers(0, 2), st.integers(0, 4), st.integers(0, 1)),
    st.tuples(st.integers(0, 2), st.integers(0, 4)),
)
def test_accepted_extras_are_physically_possible(
    record: tuple[int, int | None],
    re: tuple[int, int, int],
    kontra: tuple[int, int],
) -> None:
    """Füchse, Doppelköpfe and the Karlchen of both parties: the engine accepts them exactly
    when real tricks hold them (at most one Karlchen, two Füchse: generated so)."""
    points, tricks = record
    kontra_claims = (min(kontra[0], 2 - re[0]), kontra[1], 1 - re[2])
    extras = ex(re, kontra_claims)
    result = parse_record(game(points=points, tricks=tricks, extras=extras), DDV)
    found = witness_extras(points, trick_counts(points, tricks), extras)
    if isinstance(result, GameRecord):
        assert found is not None, "accepted, but no tricks hold these facts"
    else:
        assert result.code in EXTRA_CODES, result
        assert found is None, f"refused ({result.code}), but real tricks hold these facts"


@st.composite
def played_tricks(draw: st.DrawFn) -> tuple[list[tuple[Card, ...]], list[bool]]:
    """Twelve tricks of real cards in playing order and, per card, whether Re played it (two
    cards of each party per trick). Some tricks are built of aces and tens (Doppelköpfe), and
    the last trick sometimes holds a Kreuz-Bube among low cards (a Karlchen chance)."""
    high = draw(st.permutations([c for c in DECK if c.rank in (Rank.ASS, Rank.ZEHN)]))
    built = draw(st.integers(0, 4))
    rest = [*high[4 * built :], *(c for c in DECK if c.rank not in (Rank.ASS, Rank.ZEHN))]
    last: list[Card] = []
    if draw(st.booleans()):
        low = [c for c in rest if c.rank in (Rank.KOENIG, Rank.NEUN, Rank.BUBE) or c == FUCHS]
        low.remove(KARLCHEN)
        last = [KARLCHEN, *draw(st.permutations(low))[:3]]
        for card in last:
            rest.remove(card)
    cards = [*high[: 4 * built], *draw(st.permutations(rest))]
    tricks = draw(st.permutations([cards[i : i + 4] for i in range(0, len(cards), 4)]))
    if last:
        tricks = [*tricks, last]
    played = [tuple(draw(st.permutations(trick))) for trick in tricks]
    by_re = [draw(st.permutations([True, True, False, False])) for _ in played]
    return played, [flag for flags in by_re for flag in flags]


@settings(max_examples=250, derandomize=True, database=None, deadline=None)
@given(played_tricks(), st.booleans())
def test_extras_of_played_tricks_are_accepted(
    case: tuple[list[tuple[Card, ...]], list[bool]], enter_tricks: bool
) -> None:
    """Play twelve tricks (``trick_winner`` decides each), read off every fact of the record
    the way a table would, and the engine accepts it."""
    tricks, by_re = case
    facts = {"re": [0, 0, 0], "kontra": [0, 0, 0]}
    points = won = 0
    for number, trick in enumerate(tricks):
        seats = by_re[4 * number : 4 * number + 4]
        winner = trick_winner(trick, None, DDV, last_trick=number == 11)
        party, re_won = ("re", True) if seats[winner] else ("kontra", False)
        if re_won:
            points += sum(c.points for c in trick)
            won += 1
        facts[party][0] += sum(c == FUCHS and seats[i] != re_won for i, c in enumerate(trick))
        facts[party][1] += sum(c.points for c in trick) >= 40
        facts[party][2] += number == 11 and trick[winner] == KARLCHEN
    data = game(points=points, extras=ex(tuple(facts["re"]), tuple(facts["kontra"])))  # type: ignore[arg-type]
    if enter_tricks or (points == 0 and won > 0) or (points == 240 and won < 12):
        data["re_tricks"] = won
    result = parse_record(data, DDV)
    assert isinstance(result, GameRecord), (result, facts, points, won)
    # a table may also leave Sonderpunkte out: fewer are never refused
    fewer = ex(tuple(n // 2 for n in facts["re"]), tuple(n // 2 for n in facts["kontra"]))  # type: ignore[arg-type]
    assert isinstance(parse_record({**data, "extras": fewer}, DDV), GameRecord)


@pytest.mark.parametrize("tricks", [1, 2, 10, 11])
def test_extras_where_the_cards_are_scarce(tricks: int) -> None:
    """Exhaustive where one party has one or two tricks: every Augen total, every claim of
    Füchse and the Karlchen with up to one Doppelkopf per party; engine and oracle agree."""
    grid = [
        (re, kontra)
        for re in product(range(3), range(2), range(2))
        for kontra in product(range(3 - re[0]), range(2), range(2 - re[2]))
        if re[0] or re[2] or kontra[0] or kontra[2]
    ]
    disagreements = []
    for points in augen_totals(tricks):
        for re, kontra in grid:
            extras = ex(re, kontra)
            accepted = error(game(points=points, tricks=tricks, extras=extras)) is None
            possible = witness_extras(points, range(tricks, tricks + 1), extras) is not None
            if accepted != possible:
                disagreements.append((points, re, kontra, accepted))
    assert disagreements == []
