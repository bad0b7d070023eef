"""Transcription mode: paper score sheets checked row by row (spec 7.5, rules.transcription)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    DDV,
    FINDING_CODES,
    Contract,
    Severity,
    TranscribedRow,
    check_transcribed_row,
    get_ruleset,
    next_transcribed,
    parse_transcribed,
    score,
    validate_transcription,
)
from rules.deck import augen_totals, doppelkoepfe_possible, doppelkopf_shape, extras_possible
from rules.testing import l1_series, parsed, series_game

Rows = list[dict[str, Any]]
PROPS = settings(max_examples=400, derandomize=True, database=None, deadline=None)

NONE = (0, 0, 0)  # no Sonderpunkte claimed


def transcribe(data: dict[str, Any]) -> dict[str, Any]:
    """The sheet row of a game record: its computed scores and its solo marks."""
    record = parsed(data)
    result = score(record, DDV)
    row: dict[str, Any] = {
        "dealer": record.dealer,
        "scores": {str(seat): points for seat, points in result.scores.items()},
        "soloist": record.re[0] if record.contract is Contract.SOLO else None,
        "compulsory": record.compulsory,
        "forced": record.forced,
    }
    if record.not_played:
        row["not_played"] = True
    if record.deductions:
        row["deductions"] = [{"seat": d.seat, "points": d.points} for d in record.deductions]
    return row


def sheet(games: Rows) -> Rows:
    return [transcribe(g) for g in games]


def trow(dealer: object, *scores: object, **marks: Any) -> dict[str, Any]:
    """A transcribed row; ``scores`` for seats 1..n in order."""
    return {
        "dealer": dealer,
        "scores": {str(seat): points for seat, points in enumerate(scores, 1)},
        **marks,
    }


def codes(report_findings: tuple[Any, ...]) -> list[str]:
    return [f.code for f in report_findings]


# --- complete sheets -----------------------------------------------------------------------


def varied_l1_series() -> Rows:
    """Vector L1 with different values, parties and a stille Hochzeit on the way."""
    games = l1_series()
    variants: list[dict[str, Any]] = [
        {"re": [3, 4], "re_points": 80},
        {"re": [1, 3], "re_points": 200, "announcements": {"re": "ansage", "kontra": None}},
        {"re": [2, 4], "re_points": 119, "announcements": {"re": None, "kontra": "ansage"}},
        {"contract": "stille_hochzeit", "re": [2], "re_points": 150},
    ]
    for i, g in enumerate(games):
        if g["contract"] == "normal":
            games[i] = {**g, **variants[i % len(variants)]}
    assert games[3]["re"] == [2] and games[3]["compulsory"]
    games[3] = {**games[3], "re_points": 60, "re_tricks": 3}  # seat 2's compulsory solo lost
    return games


def test_complete_four_player_sheet() -> None:
    rows = sheet(varied_l1_series())
    assert len(rows) == 24
    assert {r["scores"]["1"] for r in rows} != {1, -1}  # the values really vary
    report = validate_transcription(rows, 4, DDV)
    assert report.findings == ()
    assert report.ok
    assert report.next.finished and report.next.games_played == 24 and report.next.games_left == 0


def test_vector_L1_forced_solo_sequence() -> None:
    rows = sheet(l1_series())
    assert validate_transcription(rows, 4, DDV).findings == ()
    before_23 = next_transcribed(rows[:22], 4, DDV)
    assert (before_23.game, before_23.dealer, before_23.forced) == (23, 1, 3)
    assert before_23.compulsory_allowed == ()
    assert before_23.compulsory_open == (1, 3)
    before_24 = next_transcribed(rows[:23], 4, DDV)
    assert (before_24.game, before_24.dealer, before_24.forced) == (24, 2, 1)
    assert next_transcribed(rows, 4, DDV).finished
    # the forced rows themselves: soloist 3 then 1, dealers 1 then 2
    assert [(r["dealer"], r["soloist"], r["forced"]) for r in rows[22:]] == [
        (1, 3, True),
        (2, 1, True),
    ]
    swapped = [*rows[:22], rows[23], rows[22]]
    assert "dealer_wrong" in codes(validate_transcription(swapped, 4, DDV).findings)


def five_player_games(normal: int = 25, solos_at: tuple[int, ...] = (2, 8, 14, 20)) -> Rows:
    """``normal`` games dealt 1..5 in turn; seats 2..5 announce their compulsory solos before
    the normal games ``solos_at``; seat 1 is forced last while he is the due dealer, so seat 2
    deals and sits out (design decision 5)."""
    games: Rows = []
    for n in range(normal):
        dealer = n % 5 + 1
        if n in solos_at:
            soloist = solos_at.index(n) + 2
            games.append(series_game(dealer, 5, soloist=soloist, compulsory=True))
        games.append(series_game(dealer, 5, re_points=90 + n * 5))
    games.append(series_game(2, 5, soloist=1, compulsory=True, forced=True))
    return games


def test_complete_five_player_sheet() -> None:
    rows = sheet(five_player_games())
    assert len(rows) == 30
    assert all(r["scores"][str(r["dealer"])] == 0 for r in rows)
    report = validate_transcription(rows, 5, DDV)
    assert report.findings == ()
    assert report.next.finished
    before_30 = next_transcribed(rows[:29], 5, DDV)
    assert (before_30.dealer, before_30.sitting_out, before_30.forced) == (2, 2, 1)
    short = validate_transcription(rows[:29], 5, DDV)
    assert codes(short.findings) == ["too_few_games", "compulsory_solo_missing"]


def test_five_player_sheet_under_haus_25() -> None:
    rs = get_ruleset("haus_25")
    rows = sheet(five_player_games(normal=20, solos_at=(2, 8, 14, 17)))
    assert len(rows) == 25
    assert validate_transcription(rows, 5, rs).findings == ()


def test_not_played_row_same_dealer_and_solo_stays_open() -> None:
    rows = [
        trow(1, -18, 6, 6, 6, not_played=True),  # severe violation, k = 2
        trow(1, -1, 3, -1, -1, soloist=2, compulsory=True),  # announced again, same dealer
        trow(1, 1, 1, -1, -1),
    ]
    report = validate_transcription(rows, 4, DDV, complete=False)
    assert report.findings == ()
    assert (report.next.game, report.next.games_played, report.next.dealer) == (4, 2, 2)
    assert report.next.compulsory_open == (1, 3, 4)


def test_timeout_only_forced_solos_remain() -> None:
    rows = [trow(n % 4 + 1, 1, 1, -1, -1) for n in range(10)]
    nxt = next_transcribed(rows, 4, DDV, timeout=True)
    assert (nxt.dealer, nxt.forced, nxt.games_left) == (3, 4, 4)
    forced = [
        trow(3, -1, -1, -1, 3, soloist=4, compulsory=True, forced=True),
        trow(4, 3, -1, -1, -1, soloist=1, compulsory=True, forced=True),
        trow(1, -1, 3, -1, -1, soloist=2, compulsory=True, forced=True),
        trow(2, -1, -1, 3, -1, soloist=3, compulsory=True, forced=True),
    ]
    assert validate_transcription(rows + forced, 4, DDV, timeout=True).findings == ()
    assert codes(validate_transcription(rows + forced, 4, DDV).findings) == [
        "forced_solo_unexpected",
        "forced_solo_unexpected",
        "forced_solo_unexpected",
        "forced_solo_unexpected",
        "too_few_games",
    ]


def test_invalid_rows_still_drive_the_sequence() -> None:
    rows = sheet(l1_series())
    rows[0] = {**rows[0], "scores": {"1": 1}}  # invalid, dealer 1 still readable
    rows[3] = {**rows[3], "note": "x"}  # invalid compulsory solo of seat 2, marks readable
    report = validate_transcription(rows, 4, DDV)
    assert [(f.code, f.game) for f in report.findings] == [("invalid_game", 1), ("invalid_game", 4)]
    assert report.findings[0].data == {
        "error": {
            "code": "scores_seats_mismatch",
            "field": "scores",
            "message": "Entered scores must name every seat of the table once.",
        }
    }
    garbage = validate_transcription(["x", 3, None], 4, DDV, complete=False)
    assert codes(garbage.findings) == ["invalid_game"] * 3
    assert next_transcribed(rows, 4, DDV).finished


def test_rows_may_be_parsed_rows_and_round_trip() -> None:
    data = trow(
        5,
        3,
        -1,
        -1,
        -6,
        0,
        soloist=1,
        compulsory=True,
        forced=False,
        deductions=[{"seat": 4, "points": -5}],
    )
    row = parse_transcribed(data, 5, DDV)
    assert isinstance(row, TranscribedRow)
    assert row.sitting_out == 5 and row.row == {1: 3, 2: -1, 3: -1, 4: -6, 5: 0}
    assert check_transcribed_row(row, DDV) == ()
    assert parse_transcribed(row.to_json(), 5, DDV) == row
    not_played = parse_transcribed(trow(2, 0, 0, 0, 0, not_played=True), 4, DDV)
    assert isinstance(not_played, TranscribedRow)
    assert parse_transcribed(not_played.to_json(), 4, DDV) == not_played
    report = validate_transcription([row], 4, DDV, complete=False)
    assert codes(report.findings)[0] == "table_size_mismatch"


def test_bad_table_size_raises_like_validate_series() -> None:
    with pytest.raises(ValueError):
        validate_transcription([], 6, DDV)
    with pytest.raises(ValueError):
        next_transcribed([], 3, DDV)


# --- one test per finding code -------------------------------------------------------------


def _twenty_normal(then: dict[str, Any]) -> Rows:
    return [trow(n % 4 + 1, 1, 1, -1, -1) for n in range(20)] + [then]


def _solo(dealer: int, soloist: int, **marks: Any) -> dict[str, Any]:
    scores = [-1] * 4
    scores[soloist - 1] = 3
    return trow(dealer, *scores, soloist=soloist, **marks)


FINDING_CASES: dict[str, Callable[[], tuple[int, list[Any]]]] = {
    "invalid_game": lambda: (4, [trow(1, 1, 1, -1, -1, forced=True)]),
    "table_size_mismatch": lambda: (
        4,
        [parse_transcribed(trow(1, 0, 1, 1, -1, -1), 5, DDV)],
    ),
    "game_after_series_end": lambda: (4, [*sheet(l1_series()), trow(3, 1, 1, -1, -1)]),
    "dealer_wrong": lambda: (4, [trow(2, 1, 1, -1, -1)]),
    "forced_solo_expected": lambda: (4, _twenty_normal(trow(1, 1, 1, -1, -1))),
    "forced_solo_unexpected": lambda: (4, [_solo(1, 2, compulsory=True, forced=True)]),
    "forced_wrong_player": lambda: (
        4,
        _twenty_normal(_solo(1, 3, compulsory=True, forced=True)),
    ),
    "compulsory_solo_twice": lambda: (
        4,
        [_solo(1, 2, compulsory=True), _solo(1, 2, compulsory=True)],
    ),
    "voluntary_solo_before_compulsory": lambda: (4, [_solo(1, 2)]),
    "compulsory_solo_missing": lambda: (4, sheet(l1_series())[:-1]),
    "too_few_games": lambda: (4, sheet(l1_series())[:-1]),
    "row_sum_not_zero": lambda: (4, [trow(1, 1, 1, -1, 0)]),
    "sitting_out_scored": lambda: (5, [trow(1, 1, 1, 0, -1, -1)]),
    "row_parity": lambda: (4, [trow(1, 2, 1, -2, -1)]),
    "row_shape": lambda: (4, [trow(1, 3, 1, -1, -3)]),
}
NOT_APPLICABLE = {"scores_mismatch"}  # nothing to compute from a transcribed row


def test_every_applicable_finding_code_has_a_case() -> None:
    assert set(FINDING_CASES) == set(FINDING_CODES) - NOT_APPLICABLE


@pytest.mark.parametrize("code", sorted(FINDING_CASES))
def test_finding_code(code: str) -> None:
    table_size, rows = FINDING_CASES[code]()
    complete = code in ("compulsory_solo_missing", "too_few_games", "game_after_series_end")
    report = validate_transcription(rows, table_size, DDV, complete=complete)
    found = [f for f in report.findings if f.code == code]
    assert found, report.findings
    expected = Severity.WARNING if code in ("row_parity", "row_shape") else Severity.ERROR
    assert found[0].severity is expected
    assert report.ok is (expected is Severity.WARNING)


def test_row_finding_details() -> None:
    report = validate_transcription([trow(1, 2, 1, -1, -1)], 4, DDV, complete=False)
    assert [(f.code, f.game, dict(f.data)) for f in report.findings] == [
        ("row_sum_not_zero", 1, {"sum": 1}),
        ("row_parity", 1, {"row": {"1": 2, "2": 1, "3": -1, "4": -1}}),
        ("row_shape", 1, {"row": {"1": 2, "2": 1, "3": -1, "4": -1}}),
    ]
    sitter = validate_transcription([trow(1, 2, 1, 1, -1, -1)], 5, DDV, complete=False)
    assert [(f.code, dict(f.data)) for f in sitter.findings] == [
        ("row_sum_not_zero", {"sum": 2}),
        ("sitting_out_scored", {"seat": 1}),
    ]
    assert sitter.findings[0].to_json()["severity"] == "error"


# --- shapes --------------------------------------------------------------------------------

SHAPES: list[tuple[str, dict[str, Any], int, list[str]]] = [
    # (id, row, table size, expected row findings)
    ("normal", trow(1, 2, 2, -2, -2), 4, []),
    ("normal-mixed-seats", trow(1, -3, 3, 3, -3), 4, []),
    ("normal-negative-net", trow(1, -1, -1, 1, 1), 4, []),
    ("zero", trow(1, 0, 0, 0, 0), 4, []),
    ("zero-solo", trow(1, 0, 0, 0, 0, soloist=3, compulsory=True), 4, []),
    ("solo-won", trow(1, 9, -3, -3, -3, soloist=1, compulsory=True), 4, []),
    ("solo-lost", trow(1, 5, -15, 5, 5, soloist=2), 4, []),
    ("stille-hochzeit-unmarked", trow(1, -1, -1, 3, -1), 4, []),
    ("solo-wrong-soloist", trow(1, 9, -3, -3, -3, soloist=2), 4, ["row_shape"]),
    ("normal-shape-marked-solo", trow(1, 2, 2, -2, -2, soloist=1), 4, ["row_shape"]),
    ("vector-P1-minor-normal", trow(1, -3, 1, 1, 1), 4, []),  # same shape as a lost solo
    ("vector-P5-minor-combined", trow(1, 3, 3, -5, -1), 4, ["row_shape"]),
    ("vector-P2", trow(1, 3, 0, 0, -3, soloist=1), 4, ["row_shape"]),
    ("vector-P2-violator-first", trow(1, -3, 0, 3, 0, soloist=3), 4, ["row_shape"]),
    ("vector-P4-k1", trow(1, 15, 0, 0, -15, soloist=1), 4, ["row_shape"]),
    ("vector-P4-k3", trow(1, 0, 21, -21, 0, soloist=2), 4, ["row_shape"]),
    ("vector-P6", trow(1, 12, -6, -3, -3, soloist=1), 4, ["row_shape"]),
    ("P2-credit-to-an-opponent", trow(1, 3, 0, 0, -3, soloist=4), 4, ["row_parity", "row_shape"]),
    ("P2-unmarked-stille-hochzeit", trow(1, 3, 0, 0, -3), 4, ["row_shape"]),
    ("odd-credit-no-penalty-size", trow(1, 5, 0, 0, -5, soloist=1), 4, ["row_parity", "row_shape"]),
    ("parity-broken", trow(1, 1, -1, 0, 0), 4, ["row_parity", "row_shape"]),
    ("not-played-zero", trow(1, 0, 0, 0, 0, not_played=True), 4, []),
    ("vector-P3-not-played", trow(1, 6, -18, 6, 6, not_played=True), 4, []),
    ("not-played-normal-shape", trow(1, 2, 2, -2, -2, not_played=True), 4, ["row_shape"]),
    ("five-normal", trow(3, 3, 3, 0, -3, -3), 5, []),
    ("vector-F1", trow(5, 3, 3, -3, -3, 0), 5, []),
    ("five-solo", trow(3, -21, 7, 0, 7, 7, soloist=1, compulsory=True), 5, []),
    ("five-odd-even-ok", trow(3, 3, 0, 0, 0, -3, soloist=1), 5, ["row_shape"]),  # no parity
    (
        "deduction-left-out",
        trow(1, 2, 2, -2, -7, deductions=[{"seat": 4, "points": -5}]),
        4,
        [],
    ),
    (
        "deduction-of-the-sitter",
        trow(5, 1, 1, -1, -1, -4, deductions=[{"seat": 5, "points": -4}]),
        5,
        [],
    ),
]


@pytest.mark.parametrize(
    ("data", "size", "expected"), [s[1:] for s in SHAPES], ids=[s[0] for s in SHAPES]
)
def test_row_shapes(data: dict[str, Any], size: int, expected: list[str]) -> None:
    row = parse_transcribed(data, size, DDV)
    assert isinstance(row, TranscribedRow), row
    findings = check_transcribed_row(row, DDV, 7)
    assert codes(findings) == expected
    assert all(f.severity is Severity.WARNING and f.game == 7 for f in findings)


# --- parse errors --------------------------------------------------------------------------

PARSE_ERRORS: list[tuple[object, int, str, str]] = [
    ("x", 4, "not_an_object", ""),
    (trow(1, 0, 0, 0, 0, seats=[1, 2, 3, 4]), 4, "unknown_field", "seats"),
    ({"scores": {"1": 0, "2": 0, "3": 0, "4": 0}}, 4, "missing_field", "dealer"),
    ({"dealer": 1}, 4, "missing_field", "scores"),
    (trow(True, 0, 0, 0, 0), 4, "wrong_type", "dealer"),
    (trow(5, 0, 0, 0, 0), 4, "seat_not_at_table", "dealer"),
    ({"dealer": 1, "scores": [0, 0, 0, 0]}, 4, "wrong_type", "scores"),
    (trow(1, 0, 0, 0), 4, "scores_seats_mismatch", "scores"),
    (trow(1, 0, 0, 0, 0, 0), 4, "scores_seats_mismatch", "scores"),
    (trow(1, 0, 0, 0, 0.5), 4, "wrong_type", "scores.4"),
    (trow(1, 0, 0, 0, "0"), 4, "wrong_type", "scores.4"),
    (trow(1, 0, 0, 0, 0, soloist="1"), 4, "wrong_type", "soloist"),
    (trow(1, 0, 0, 0, 0, soloist=0), 4, "seat_not_at_table", "soloist"),
    (trow(1, 0, 0, 0, 0, 0, soloist=1), 5, "seat_sitting_out", "soloist"),
    (trow(1, 0, 0, 0, 0, compulsory=1), 4, "wrong_type", "compulsory"),
    (trow(1, 0, 0, 0, 0, compulsory=True), 4, "solo_flag_not_allowed", "compulsory"),
    (trow(1, 0, 0, 0, 0, soloist=1, forced=True), 4, "forced_not_compulsory", "forced"),
    (trow(1, 0, 0, 0, 0, not_played="yes"), 4, "wrong_type", "not_played"),
    (trow(1, 0, 0, 0, 0, soloist=1, not_played=True), 4, "not_played_game_fields", "soloist"),
    (
        trow(1, 0, 0, 0, 0, compulsory=True, not_played=True),
        4,
        "not_played_game_fields",
        "compulsory",
    ),
    (trow(1, 0, 0, 0, 0, forced=True, not_played=True), 4, "not_played_game_fields", "forced"),
    (trow(1, 0, 0, 0, 0, deductions={"seat": 1}), 4, "wrong_type", "deductions"),
    (trow(1, 0, 0, 0, 0, deductions=[3]), 4, "wrong_type", "deductions.0"),
    (trow(1, 0, 0, 0, 0, deductions=[{"seat": 1}]), 4, "missing_field", "deductions.0.points"),
    (
        trow(1, 0, 0, 0, 0, deductions=[{"seat": 1, "points": -1, "why": "x"}]),
        4,
        "unknown_field",
        "deductions.0.why",
    ),
    (
        trow(1, 0, 0, 0, 0, deductions=[{"seat": 9, "points": -1}]),
        4,
        "seat_not_at_table",
        "deductions.0.seat",
    ),
    (
        trow(1, 0, 0, 0, 0, deductions=[{"seat": 1, "points": -13}]),
        4,
        "deduction_out_of_range",
        "deductions.0.points",
    ),
    (trow(1, 0, 0, 0, 0), 6, "invalid_table_size", ""),
]


@pytest.mark.parametrize(("data", "size", "code", "field"), PARSE_ERRORS)
def test_parse_errors(data: object, size: int, code: str, field: str) -> None:
    error = parse_transcribed(data, size, DDV)
    assert not isinstance(error, TranscribedRow)
    assert (error.code, error.field) == (code, field)


def test_marks_are_optional() -> None:
    row = parse_transcribed(trow(2, 1, 1, -1, -1), 4, DDV)
    assert row == TranscribedRow((1, 2, 3, 4), 2, (1, 1, -1, -1))
    explicit = trow(2, 1, 1, -1, -1, soloist=None, compulsory=False, forced=False)
    assert parse_transcribed(explicit, 4, DDV) == row


# --- property: every scored game is an acceptable sheet row --------------------------------

LEVELS = [None, "ansage", "90", "60", "30", "schwarz"]
PENALTY_KINDS = ("none", "minor", "severe", "solo_credit", "transfer")


@st.composite
def scored_games(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A valid game record with its dealer and the kind of its penalty components."""
    contract = draw(st.sampled_from(["normal", "hochzeit", "stille_hochzeit", "solo", "none"]))
    size = draw(st.sampled_from([4, 5]))
    seats = list(range(1, size + 1))
    dealer = draw(st.sampled_from(seats))
    sitting_out = dealer if size == 5 else None
    active = [s for s in seats if s != sitting_out]
    base: dict[str, Any] = {"seats": seats, "sitting_out": sitting_out, "dealer": dealer}
    order = draw(st.permutations(active))
    kind = draw(st.sampled_from(PENALTY_KINDS))
    if contract == "none":  # not played: penalty points only
        data: dict[str, Any] = {**base, "not_played": True}
        re: list[int] = []
        kind = draw(st.sampled_from(["none", "severe"]))
    else:
        partner = draw(st.sampled_from([None, 1, 2, 3])) if contract == "hochzeit" else None
        solo_like = contract in ("solo", "stille_hochzeit") or (
            contract == "hochzeit" and partner is None
        )
        re = sorted(order[: 1 if solo_like else 2])
        tricks = draw(st.integers(0, 12))
        if contract == "hochzeit":
            tricks = max(tricks, partner or 3)
        points = draw(st.sampled_from(augen_totals(tricks)))  # totals the deck allows
        data = {
            **base,
            "contract": contract,
            "re": re,
            "announcements": {
                "re": draw(st.sampled_from(LEVELS)),
                "kontra": draw(st.sampled_from(LEVELS)),
            },
            "re_points": points,
            "re_tricks": tricks,
        }
        if contract == "solo":
            compulsory = draw(st.booleans())
            data.update(
                solo=draw(st.sampled_from(["karo", "damen", "buben", "fleischlos"])),
                compulsory=compulsory,
                forced=compulsory and draw(st.booleans()),
            )
        if contract == "hochzeit":
            data["hochzeit_partner_trick"] = partner
        kontra_tricks = 12 - tricks
        if not solo_like and kontra_tricks and draw(st.booleans()):
            shape = doppelkopf_shape(DDV.doppelkopf_augen)
            assert shape is not None
            most = max(
                k
                for k in range(shape.per_game + 1)
                if doppelkoepfe_possible(shape, tricks, points, 0, k)
            )
            doppelkopf = draw(st.integers(0, most))
            fuchs = draw(st.integers(0, 2))
            while not extras_possible(shape.min_aces, tricks, points, NONE, (fuchs, doppelkopf, 0)):
                fuchs -= 1  # only Füchse the cards can hold (a Karo-Ass beaten in the trick)
            data["extras"] = {"kontra": {"fuchs": fuchs, "doppelkopf": doppelkopf}}
        if kind == "solo_credit" and not solo_like:
            kind = "none"
    components: list[tuple[int, int]] = []
    if kind == "minor":
        violator = draw(st.sampled_from(active))
        components = [(violator, -3)] + [(s, 1) for s in active if s != violator]
    elif kind == "severe":
        violator, k = draw(st.sampled_from(active)), draw(st.integers(0, 4))
        components = [(violator, -12 - 3 * k)] + [(s, 4 + k) for s in active if s != violator]
    elif kind == "solo_credit":
        violator = draw(st.sampled_from([s for s in active if s not in re]))
        p = draw(st.sampled_from([3, 12, 15, 18, 21, 24]))
        components = [(violator, -p), (re[0], p)]
    elif kind == "transfer":
        a, b = order[:2]
        n = draw(st.integers(1, 20))
        components = [(a, -n), (b, n)]
    if components:
        data["penalties"] = [{"seat": s, "points": p} for s, p in components]
    if draw(st.booleans()):
        data["deductions"] = [
            {"seat": draw(st.sampled_from(seats)), "points": -draw(st.integers(1, 12))}
        ]
    return data, kind


@PROPS
@given(scored_games())
def test_scored_games_are_accepted_rows(case: tuple[dict[str, Any], str]) -> None:
    data, kind = case
    size = len(data["seats"])
    row = parse_transcribed(transcribe(data), size, DDV)
    assert isinstance(row, TranscribedRow), row
    findings = check_transcribed_row(row, DDV)
    assert not [f for f in findings if f.severity is Severity.ERROR]
    if kind == "none":  # without penalty points the row has the exact shape
        assert findings == ()
    if kind != "transfer":  # every TSR penalty keeps the even/odd rule or is excused
        assert "row_parity" not in codes(findings)


def test_the_property_rejects_a_broken_row() -> None:
    """The property's check is not vacuous: a mis-copied scored row is caught."""
    data = transcribe(series_game(1, re_points=200))
    data["scores"]["2"] += 1
    row = parse_transcribed(data, 4, DDV)
    assert isinstance(row, TranscribedRow)
    assert "row_sum_not_zero" in codes(check_transcribed_row(row, DDV))
