"""Hypothesis properties of game scoring.

Each property is a predicate over (scorer, record); the real test asserts it for the engine's
``score``, and a "mutant" test shows with ``hypothesis.find`` that the same predicate rejects a
subtly wrong scorer, so no property passes vacuously.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis import assume, find, given, settings
from hypothesis import strategies as st

from rules import DDV, AnnouncementLevel, GameRecord, GameResult, Item, Party, score
from rules.deck import augen_totals, doppelkoepfe_possible, doppelkopf_shape, extras_possible
from rules.testing import parsed

Scorer = Callable[[GameRecord], GameResult]
LEVELS = [None, "ansage", "90", "60", "30", "schwarz"]
PROPS = settings(max_examples=300, derandomize=True, database=None, deadline=None)
FIND = settings(max_examples=3000, derandomize=True, database=None, deadline=None)


def engine(record: GameRecord) -> GameResult:
    return score(record, DDV)


@st.composite
def records(
    draw: st.DrawFn,
    contracts: tuple[str, ...] = ("normal", "hochzeit", "stille_hochzeit", "solo"),
    sizes: tuple[int, ...] = (4, 5),
    penalties: tuple[str, ...] = ("none", "minor", "severe", "solo_credit", "transfer"),
    deductions: bool = False,
    extras: bool = True,
) -> dict[str, Any]:
    """A valid game record dict (asserted by ``record``)."""
    contract = draw(st.sampled_from(contracts))
    size = draw(st.sampled_from(sizes))
    seats = list(range(1, size + 1))
    sitting_out = draw(st.sampled_from(seats)) if size == 5 else None
    active = [s for s in seats if s != sitting_out]
    partner_trick = draw(st.sampled_from([None, 1, 2, 3])) if contract == "hochzeit" else None
    solo_like = contract in ("solo", "stille_hochzeit") or (
        contract == "hochzeit" and partner_trick is None
    )
    order = draw(st.permutations(active))
    re = sorted(order[: 1 if solo_like else 2])
    kontra = [s for s in active if s not in re]
    tricks = draw(st.integers(0, 12))
    if contract == "hochzeit":
        tricks = max(tricks, partner_trick or 3)
    points = draw(st.sampled_from(augen_totals(tricks)))  # totals the deck allows
    data: dict[str, Any] = {
        "contract": contract,
        "seats": seats,
        "sitting_out": sitting_out,
        "dealer": sitting_out,
        "re": re,
        "announcements": {
            "re": draw(st.sampled_from(LEVELS)),
            "kontra": draw(st.sampled_from(LEVELS)),
        },
        "re_points": points,
    }
    if contract == "solo":
        data["solo"] = draw(
            st.sampled_from(["karo", "herz", "pik", "kreuz", "damen", "buben", "fleischlos"])
        )
        data["compulsory"] = draw(st.booleans())
        data["forced"] = data["compulsory"] and draw(st.booleans())
    if contract == "hochzeit":
        data["hochzeit_partner_trick"] = partner_trick
    ambiguous = (points == 0 and tricks > 0) or (points == 240 and tricks < 12)
    if ambiguous or draw(st.booleans()):
        data["re_tricks"] = tricks
    if extras and not solo_like and draw(st.booleans()):
        data["extras"] = _extras(draw, points, tricks)
    kind = draw(st.sampled_from(penalties))
    comps: list[tuple[int, int]] = []
    if kind == "minor":
        violator = draw(st.sampled_from(active))
        comps = [(violator, -3)] + [(s, 1) for s in active if s != violator]
    elif kind == "severe":
        violator, k = draw(st.sampled_from(active)), draw(st.integers(0, 4))
        comps = [(violator, -12 - 3 * k)] + [(s, 4 + k) for s in active if s != violator]
    elif kind == "solo_credit" and solo_like:
        violator, k = draw(st.sampled_from(kontra)), draw(st.sampled_from([3, 12, 15, 18, 21]))
        comps = [(violator, -k), (re[0], k)]
    elif kind == "transfer":
        a, b = draw(st.permutations(active))[:2]
        n = draw(st.integers(1, 20))
        comps = [(a, -n), (b, n)]
    if comps:
        data["penalties"] = [{"seat": s, "points": p} for s, p in comps]
    if deductions and draw(st.booleans()):
        data["deductions"] = [
            {"seat": draw(st.sampled_from(seats)), "points": -draw(st.integers(1, 12))}
        ]
    return data


def most_doppelkoepfe(re_tricks: int, re_augen: int, re_count: int | None = None) -> int:
    """Most Doppelköpfe the deck allows Re (``re_count`` None) or Kontra next to Re's."""
    shape = doppelkopf_shape(DDV.doppelkopf_augen)
    assert shape is not None
    counts = range(shape.per_game, 0, -1)
    if re_count is None:
        ok = (k for k in counts if doppelkoepfe_possible(shape, re_tricks, re_augen, k, 0))
    else:
        ok = (k for k in counts if doppelkoepfe_possible(shape, re_tricks, re_augen, re_count, k))
    return next(ok, 0)


def _extras(draw: st.DrawFn, points: int, re_tricks: int) -> dict[str, Any]:
    fuchs_left, karlchen_left = 2, 1
    out: dict[str, Any] = {}
    re_doppelkopf: int | None = None
    for party, tricks in (("re", re_tricks), ("kontra", 12 - re_tricks)):
        fuchs = draw(st.integers(0, fuchs_left)) if tricks else 0
        karlchen = draw(st.integers(0, karlchen_left)) if tricks else 0
        doppelkopf = draw(st.integers(0, most_doppelkoepfe(re_tricks, points, re_doppelkopf)))
        re_doppelkopf = doppelkopf
        fuchs_left -= fuchs
        karlchen_left -= karlchen
        out[party] = {"fuchs": fuchs, "doppelkopf": doppelkopf, "karlchen": karlchen}
    # only what the cards can hold: drop a Karlchen, then Füchse, until they fit
    while not extras_possible(0, re_tricks, points, *(_claims(out[p]) for p in ("re", "kontra"))):
        party, key = next(
            (p, k) for k in ("karlchen", "fuchs") for p in ("re", "kontra") if out[p][k]
        )
        out[party][key] -= 1
    return out


def _claims(extras: dict[str, int]) -> tuple[int, int, int]:
    return extras["fuchs"], extras["doppelkopf"], extras["karlchen"]


def record(data: dict[str, Any]) -> GameRecord:
    return parsed(data)  # asserts that every generated record is accepted


# --- the properties ------------------------------------------------------------------------


def zero_sum(scorer: Scorer, rec: GameRecord) -> bool:
    """Every row sums to zero, except for unsportsmanlike deductions (no counter-credit)."""
    return sum(scorer(rec).scores.values()) == sum(d.points for d in rec.deductions)


def same_parity(scorer: Scorer, rec: GameRecord) -> bool:
    """At a four-player table the row is all even or all odd (TSR 7.5 even/odd rule)."""
    active = [s for s in rec.seats if s != rec.sitting_out]
    return len({scorer(rec).scores[s] % 2 for s in active}) == 1


def monotonic(scorer: Scorer, rec: GameRecord, more: int) -> bool:
    """More Re Augen under the same announcements never turn a Re win into a loss."""
    richer = replace(rec, re_augen=min(rec.re_augen + more, 240))
    low, high = scorer(rec).winner, scorer(richer).winner
    re_kept = low is not Party.RE or high is Party.RE
    kontra_kept = high is not Party.KONTRA or low is Party.KONTRA
    return re_kept and kontra_kept


def within_maximum(scorer: Scorer, rec: GameRecord) -> bool:
    """Spec 5.1: at most 21 from the 7.2.2 items; a normal game adds at most the Sonderpunkte
    of one party: gegen die Alten 1 + 2 Füchse + 4 Doppelköpfe (the deck's limit) + 1
    Karlchen = 8."""
    limit = 21 if rec.solo_scoring else 29
    result = scorer(rec)
    factor = 3 if rec.solo_scoring else 1
    penalties = {s: 0 for s in rec.seats}
    for p in rec.penalties + rec.deductions:
        penalties[p.seat] += p.points
    game_scores = [result.scores[s] - penalties[s] for s in rec.seats]
    return abs(result.value) <= limit and max(map(abs, game_scores)) <= factor * limit


_SWAP = {
    "announced_re": "announced_kontra",
    **{f"absage_re_{x}": f"absage_kontra_{x}" for x in ("90", "60", "30", "schwarz")},
}
_SWAP.update({v: k for k, v in _SWAP.items()})


def mirror(rec: GameRecord) -> GameRecord:
    """The same game with the roles of the parties exchanged."""
    return replace(
        rec,
        re=rec.kontra,
        kontra=rec.re,
        re_augen=240 - rec.re_augen,
        re_tricks=None if rec.re_tricks is None else 12 - rec.re_tricks,
        re_level=rec.kontra_level,
        kontra_level=rec.re_level,
        extras_re=rec.extras_kontra,
        extras_kontra=rec.extras_re,
    )


def _without_gda(result: GameResult) -> tuple[int, list[tuple[str, Party, int]]]:
    items = [(i.value, p, n) for i, p, n in result.breakdown if i is not Item.GEGEN_DIE_ALTEN]
    value = sum(n if p is Party.RE else -n for _, p, n in items)
    return value, items


def mirrored(scorer: Scorer, rec: GameRecord) -> bool:
    """Exchanging the parties mirrors winner, items and value; the only asymmetries of the
    TSR are excluded: "gegen die Alten" (Kontra only) and the 120:120 tie (spec 4)."""
    a, b = scorer(rec), scorer(mirror(rec))
    other = {Party.RE: Party.KONTRA, Party.KONTRA: Party.RE, None: None}
    value_a, items_a = _without_gda(a)
    value_b, items_b = _without_gda(b)
    swapped = sorted((_SWAP.get(i, i), other[p], n) for i, p, n in items_a)
    return b.winner is other[a.winner] and value_b == -value_a and sorted(items_b) == swapped


def tie_free(rec: GameRecord) -> bool:
    no_absagen = rec.re_level <= AnnouncementLevel.ANSAGE >= rec.kontra_level
    symmetric_ann = bool(rec.re_level) == bool(rec.kontra_level)
    return not (rec.re_augen == 120 and no_absagen and symmetric_ann)


# --- real tests ------------------------------------------------------------------------


@PROPS
@given(records(deductions=True))
def test_rows_sum_to_zero_without_deductions(data: dict[str, Any]) -> None:
    assert zero_sum(engine, record(data))


@PROPS
@given(records(sizes=(4,), penalties=("none", "minor", "severe")))
def test_rows_are_all_even_or_all_odd(data: dict[str, Any]) -> None:
    assert same_parity(engine, record(data))


@PROPS
@given(records(extras=False, penalties=("none",)), st.integers(1, 240))
def test_more_re_augen_never_turn_a_win_into_a_loss(data: dict[str, Any], more: int) -> None:
    data.pop("re_tricks", None)  # tricks follow the Augen (only 0 / 240 fix them)
    assume(data["contract"] != "hochzeit")
    assert monotonic(engine, record(data), more)


@PROPS
@given(records())
def test_value_within_the_spec_maximum(data: dict[str, Any]) -> None:
    assert within_maximum(engine, record(data))


@PROPS
@given(records(contracts=("normal",), sizes=(4,), penalties=("none",)))
def test_exchanging_the_parties_mirrors_the_result(data: dict[str, Any]) -> None:
    rec = record(data)
    assume(tie_free(rec))
    assert mirrored(engine, rec)


def test_mirror_of_a_valid_record_is_valid() -> None:
    rec = record(
        {
            "contract": "normal",
            "seats": [1, 2, 3, 4],
            "re": [1, 3],
            "announcements": {"re": "90", "kontra": None},
            "re_points": 200,
            "re_tricks": 10,
            "extras": {"re": {"doppelkopf": 3}},
        }
    )
    m = mirror(rec)
    assert (m.re, m.kontra, m.re_augen, m.kontra_level) == ((2, 4), (1, 3), 40, rec.re_level)


# --- each property can fail --------------------------------------------------------------


def _fails(prop: Callable[..., bool], scorer: Scorer, strategy: st.SearchStrategy[Any]) -> None:
    example = find(strategy, lambda args: not prop(scorer, *args), settings=FIND)
    assert example is not None


def _solo_factor_2(rec: GameRecord) -> GameResult:
    return score(rec, replace(DDV, solo_factor=2))


def _as_records(strategy: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[Any]:
    return strategy.map(lambda d: (record(d),))


def test_zero_sum_catches_a_wrong_solo_factor() -> None:
    _fails(zero_sum, _solo_factor_2, _as_records(records()))


def test_parity_catches_a_wrong_solo_factor() -> None:
    _fails(same_parity, _solo_factor_2, _as_records(records(sizes=(4,), penalties=("none",))))


def test_monotonic_catches_points_read_from_the_wrong_side() -> None:
    def inverted(rec: GameRecord) -> GameResult:
        return engine(replace(rec, re_augen=240 - rec.re_augen))

    strategy = st.tuples(
        records(contracts=("normal",), extras=False, penalties=("none",)).map(
            lambda d: record({k: v for k, v in d.items() if k != "re_tricks"})
        ),
        st.integers(1, 240),
    )
    _fails(monotonic, inverted, strategy)


def test_maximum_catches_an_inflated_item() -> None:
    def inflated(rec: GameRecord) -> GameResult:
        return score(rec, replace(DDV, absage_points=2))

    _fails(within_maximum, inflated, _as_records(records()))


def test_mirror_catches_a_scorer_blind_to_kontra_absagen() -> None:
    def blind(rec: GameRecord) -> GameResult:
        level = min(rec.kontra_level, AnnouncementLevel.ANSAGE)
        return engine(replace(rec, kontra_level=AnnouncementLevel(level)))

    strategy = _as_records(records(contracts=("normal",), sizes=(4,), penalties=("none",)))
    _fails(mirrored, blind, strategy.filter(lambda r: tie_free(r[0])))
