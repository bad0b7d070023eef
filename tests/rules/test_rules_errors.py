"""Input validation: one test per error code, wrong types, and "never raises" fuzzing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules.answers
from rules import DDV, ERROR_CODES, FINDING_CODES, EngineError, GameRecord, parse_record, score
from rules.answers import check_series, score_line
from rules.testing import SEATS4, SEATS5, game

NP = {"not_played": True, "seats": SEATS4}


def _without(key: str) -> dict[str, Any]:
    data = game()
    del data[key]
    return data


# code -> (record, expected field)
RECORD_CASES: dict[str, tuple[object, str]] = {
    "not_an_object": ([], ""),
    "unknown_field": (game(gegen_die_alten=1), "gegen_die_alten"),
    "missing_field": (_without("re_points"), "re_points"),
    "wrong_type": (game(re_points=True), "re_points"),
    "unknown_contract": (game("armut"), "contract"),
    "unknown_solo_type": (game("solo", solo="koehler"), "solo"),
    "solo_type_not_allowed": (game(solo="karo"), "solo"),
    "solo_flag_not_allowed": (game(compulsory=True), "compulsory"),
    "forced_not_compulsory": (game("solo", forced=True), "forced"),
    "hochzeit_partner_trick_out_of_range": (
        game("hochzeit", hochzeit_partner_trick=4),
        "hochzeit_partner_trick",
    ),
    "hochzeit_partner_trick_not_allowed": (
        game(hochzeit_partner_trick=1),
        "hochzeit_partner_trick",
    ),
    "not_played_game_fields": ({**NP, "re_points": 0}, "re_points"),
    "invalid_seats": (game(seats=[1, 2, 3]), "seats"),
    "sitting_out_required": (game(seats=SEATS5), "sitting_out"),
    "sitting_out_not_allowed": (game(sitting_out=4), "sitting_out"),
    "sitting_out_not_dealer": (
        game(seats=SEATS5, sitting_out=5, dealer=1, re=[1, 2]),
        "sitting_out",
    ),
    "seat_not_at_table": (game(re=[1, 5]), "re.1"),
    "seat_sitting_out": (game(seats=SEATS5, sitting_out=1, re=[1, 2]), "re.0"),
    "re_party_size": (game(re=[1]), "re"),
    "re_duplicate_seat": (game(re=[1, 1]), "re.1"),
    "unknown_announcement": (
        game(announcements={"re": "120", "kontra": None}),
        "announcements.re",
    ),
    "re_points_out_of_range": (game(points=241), "re_points"),
    "re_points_impossible": (game(points=239), "re_points"),
    "re_tricks_out_of_range": (game(tricks=13), "re_tricks"),
    "points_tricks_inconsistent": (game(points=130, tricks=3), "re_tricks"),
    "hochzeit_tricks_inconsistent": (game("hochzeit", points=60, tricks=2), "re_tricks"),
    "extras_not_allowed": (game("solo", extras={"re": {"doppelkopf": 1}}), "extras"),
    "extra_count_negative": (game(extras={"kontra": {"fuchs": -1}}), "extras.kontra.fuchs"),
    "fuchs_total_exceeded": (
        game(extras={"re": {"fuchs": 2}, "kontra": {"fuchs": 1}}),
        "extras.kontra.fuchs",
    ),
    "karlchen_total_exceeded": (
        game(extras={"re": {"karlchen": 1}, "kontra": {"karlchen": 1}}),
        "extras.kontra.karlchen",
    ),
    "fuchs_without_trick": (
        game(points=240, extras={"kontra": {"fuchs": 1}}),
        "extras.kontra.fuchs",
    ),
    "karlchen_without_trick": (
        game(points=0, extras={"re": {"karlchen": 1}}),
        "extras.re.karlchen",
    ),
    "doppelkopf_exceeds_tricks": (
        game(points=44, tricks=1, extras={"re": {"doppelkopf": 2}}),
        "extras.re.doppelkopf",
    ),
    "doppelkopf_exceeds_points": (
        game(points=121, extras={"re": {"doppelkopf": 4}}),
        "extras.re.doppelkopf",
    ),
    "doppelkopf_total_exceeded": (
        game(points=200, tricks=6, extras={"re": {"doppelkopf": 5}}),
        "extras",
    ),
    "doppelkopf_inconsistent": (
        game(points=167, extras={"re": {"doppelkopf": 4}}),
        "extras.re.doppelkopf",
    ),
    "extras_inconsistent": (  # Kontra's one trick holds 0 Augen: no Karo-Ass in it
        game(points=240, tricks=11, extras={"kontra": {"fuchs": 1}}),
        "extras.kontra.fuchs",
    ),
    "penalties_not_zero_sum": (game(penalties=[{"seat": 1, "points": -3}]), "penalties"),
    "penalty_out_of_range": (
        game(penalties=[{"seat": 1, "points": -(2**31)}, {"seat": 2, "points": 2**31}]),
        "penalties.0.points",
    ),
    "deduction_out_of_range": (
        game(deductions=[{"seat": 1, "points": -13}]),
        "deductions.0.points",
    ),
    "bock_out_of_range": (game(bock=1), "bock"),
    "house_rule_off": (game(armut={"poor": 1, "taker": 2}), "armut"),
    "scores_seats_mismatch": (game(scores={"1": 0}), "scores"),
}
CLI_CODES = {"invalid_json", "invalid_table_size", "internal_error"}
COMPLETION_CODES = {"derived_mismatch"}  # tests/rules/test_rules_completion.py
HOUSE_CODES = {  # need a house profile: tests/rules/test_rules_house.py
    "schweinchen_total_exceeded",
    "superschweinchen_without_schweinchen",
    "schweinchen_fuchs_conflict",
    "armut_not_normal",
    "armut_parties",
    "armut_trumps",
    "unknown_thrown_in",
    "thrown_in_game_fields",
}


def test_every_error_code_has_a_test() -> None:
    assert set(RECORD_CASES) | CLI_CODES | COMPLETION_CODES | HOUSE_CODES == set(ERROR_CODES)
    assert all(isinstance(m, str) and m for m in ERROR_CODES.values())


@pytest.mark.parametrize("code", sorted(RECORD_CASES))
def test_error_code(code: str) -> None:
    data, field = RECORD_CASES[code]
    error = parse_record(data, DDV)
    assert isinstance(error, EngineError)
    assert (error.code, error.field) == (code, field), error.message
    assert error.message


def test_error_code_invalid_json() -> None:
    assert score_line(b'{"contract": ', DDV)["error"] == {
        "code": "invalid_json",
        "field": "",
        "message": "Not valid JSON: Expecting value: line 1 column 14 (char 13)",
    }


def test_error_code_invalid_table_size() -> None:
    out = check_series('{"table_size": 6, "games": []}', DDV)
    assert out["error"]["code"] == "invalid_table_size"  # type: ignore[index]
    assert out["error"]["field"] == "table_size"  # type: ignore[index]


def test_error_code_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(rules.answers, "score", broken)
    out = score_line(json.dumps(game()), DDV)
    assert out["error"]["code"] == "internal_error"  # type: ignore[index]


def test_deductions_must_not_be_credits() -> None:
    error = parse_record(game(deductions=[{"seat": 1, "points": 2}]), DDV)
    assert isinstance(error, EngineError) and error.code == "deduction_out_of_range"


# field -> bad value; every one must give wrong_type for that (nested) field
WRONG_TYPES: list[tuple[dict[str, Any], str]] = [
    (game(re_points=121.0), "re_points"),
    (game(re_points="121"), "re_points"),
    (game(re_points=None), "re_points"),
    (game(re_tricks="7"), "re_tricks"),
    (game(re_tricks=False), "re_tricks"),
    (game(contract=1), "contract"),
    (game("solo", solo=["karo"]), "solo"),
    (game("solo", compulsory=1), "compulsory"),
    (game(not_played="yes"), "not_played"),
    (game("hochzeit", hochzeit_partner_trick=1.0), "hochzeit_partner_trick"),
    (game(seats="1234"), "seats"),
    (game(seats=[1, 2, 3, "4"]), "seats.3"),
    (game(sitting_out=1.5), "sitting_out"),
    (game(dealer="1"), "dealer"),
    (game(dealer=True), "dealer"),
    (game(re=[1.0, 2]), "re.0"),
    (game(re={"1": 1}), "re"),
    (game(announcements="re"), "announcements"),
    (game(announcements={"re": 90}), "announcements.re"),
    (game(announcements={"re": True}), "announcements.re"),
    (game(extras=[]), "extras"),
    (game(extras={"re": []}), "extras.re"),
    (game(extras={"re": {"fuchs": 1.5}}), "extras.re.fuchs"),
    (game(extras={"kontra": {"karlchen": True}}), "extras.kontra.karlchen"),
    (game(penalties={"seat": 1}), "penalties"),
    (game(penalties=[3]), "penalties.0"),
    (game(penalties=[{"seat": True, "points": 0}]), "penalties.0.seat"),
    (game(penalties=[{"seat": 1, "points": "0"}]), "penalties.0.points"),
    (game(deductions=[{"seat": 1, "points": -1.0}]), "deductions.0.points"),
    (game(bock=1.0), "bock"),
    (game(scores=[1, 2, 3, 4]), "scores"),
    (game(scores={"1": 1.0, "2": 1, "3": -1, "4": -1}), "scores.1"),
]


@pytest.mark.parametrize(("data", "field"), WRONG_TYPES, ids=[f for _, f in WRONG_TYPES])
def test_wrong_type(data: dict[str, Any], field: str) -> None:
    error = parse_record(data, DDV)
    assert isinstance(error, EngineError)
    assert (error.code, error.field) == ("wrong_type", field)


def test_nested_unknown_and_missing_fields() -> None:
    cases = [
        (game(announcements={"re": None, "contra": None}), "unknown_field", "announcements.contra"),
        (game(extras={"re": {"fuchs_gefangen": 1}}), "unknown_field", "extras.re.fuchs_gefangen"),
        (game(extras={"alle": {}}), "unknown_field", "extras.alle"),
        (game(penalties=[{"seat": 1}]), "missing_field", "penalties.0.points"),
        (game(penalties=[{"seat": 1, "points": 0, "x": 1}]), "unknown_field", "penalties.0.x"),
        (game("solo", solo=None), "missing_field", "solo"),
        (_without("seats"), "missing_field", "seats"),
        (_without("re"), "missing_field", "re"),
        (_without("contract"), "missing_field", "contract"),
        (
            {k: v for k, v in game("hochzeit").items() if k != "hochzeit_partner_trick"},
            "missing_field",
            "hochzeit_partner_trick",
        ),
        (
            {**NP, "seats": SEATS5, "sitting_out": 2, "penalties": [{"seat": 2, "points": 0}]},
            "seat_sitting_out",
            "penalties.0.seat",
        ),
    ]
    for data, code, field in cases:
        error = parse_record(data, DDV)
        assert isinstance(error, EngineError), data
        assert (error.code, error.field) == (code, field)


def test_limits_are_inclusive() -> None:
    ok = [
        game(points=0),
        game(points=240),
        game(points=2),
        game(points=238),
        game(points=128, tricks=3),
        game(points=40, tricks=1),
        game(points=168, extras={"re": {"doppelkopf": 4}}),
        game(points=0, tricks=2),
        game(points=44, tricks=1, extras={"re": {"doppelkopf": 1}}),
        game(points=120, extras={"re": {"fuchs": 1}, "kontra": {"fuchs": 1}}),
        game(deductions=[{"seat": 1, "points": -12}]),
        game("hochzeit", hochzeit_partner_trick=3, points=8, tricks=3),
        game("hochzeit", points=8, tricks=3),
        {**NP, "seats": SEATS5, "sitting_out": 3, "dealer": 3},
    ]
    for data in ok:
        assert isinstance(parse_record(data, DDV), GameRecord), data
    too_far = [
        game(points=129, tricks=3),
        game(points=1),
        game(points=239),
        game(points=39, tricks=1),  # one trick holds 37 or 40, nothing between
        game(points=167, extras={"re": {"doppelkopf": 4}}),  # four take all aces and tens
        game(points=0, tricks=3),  # 12 cards hold at least 8 Augen
        game("hochzeit", points=0),  # 0 Augen means no trick, but Re won the Klärungsstich
        game("hochzeit", points=7, tricks=3),
    ]
    for data in too_far:
        assert isinstance(parse_record(data, DDV), EngineError), data


# --- never raises ----------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-300, 300)
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.sampled_from(["normal", "solo", "hochzeit", "karo", "90", "schwarz", "ansage", "re"]),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(["re", "kontra", "seat", "points", "fuchs", "x"]) | st.text(max_size=5),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)
KEYS = sorted(
    set(game("solo"))
    | set(game("hochzeit"))
    | {"extras", "penalties", "deductions", "bock", "not_played", "dealer", "scores", "re_tricks"}
)
FUZZ = settings(max_examples=400, derandomize=True, database=None, deadline=None)


def _check_total(data: object) -> None:
    result = parse_record(data, DDV)
    if isinstance(result, EngineError):
        assert result.code in ERROR_CODES
        assert isinstance(result.field, str) and isinstance(result.message, str)
    else:
        scored = score(result, DDV)
        assert sum(scored.scores.values()) == sum(d.points for d in result.deductions)
        json.dumps(scored.to_json())


@FUZZ
@given(JSON)
def test_arbitrary_json_never_raises(data: object) -> None:
    _check_total(data)


@FUZZ
@given(
    st.sampled_from(["normal", "solo", "hochzeit", "stille_hochzeit"]),
    st.dictionaries(st.sampled_from(KEYS), JSON, max_size=3),
)
def test_mutated_records_never_raise(contract: str, changes: dict[str, Any]) -> None:
    _check_total({**game(contract), **changes})


def test_docs_list_every_code() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "rules-engine.md").read_text()
    missing = [code for code in (*ERROR_CODES, *FINDING_CODES) if f"`{code}`" not in docs]
    assert missing == []
