"""Spec section 6: every test vector is its own test (ids = vector numbers)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import (
    DDV,
    EngineError,
    GameKind,
    Party,
    Rubric,
    minor_penalty,
    parse_record,
    severe_penalty,
    validate_series,
)
from rules.testing import SEATS4, SEATS5, game, parsed, row, scored

RE, KO = Party.RE, Party.KONTRA
DF = {"re": {}, "kontra": {"doppelkopf": 1}}

# (id, record, winner, net_Re, deltas [Re1, Re2, Ko1, Ko2] or [soloist, opp, opp, opp])
SCORING_VECTORS: list[tuple[str, dict[str, Any], Party | None, int, list[int]]] = [
    ("1", game(ann=(None, "ansage"), points=80, tricks=4), KO, -5, [-5, -5, 5, 5]),
    ("2", game(ann=("60", None), points=130, tricks=7), KO, -7, [-7, -7, 7, 7]),
    ("3", game(points=151, tricks=8), RE, 2, [2, 2, -2, -2]),
    ("4", game(points=89, tricks=4), KO, -3, [-3, -3, 3, 3]),
    ("5", game(points=121), RE, 1, [1, 1, -1, -1]),
    ("6", game(points=120), KO, -2, [-2, -2, 2, 2]),
    ("7", game(ann=(None, "ansage"), points=120), RE, 3, [3, 3, -3, -3]),
    ("8", game(ann=(None, "ansage"), points=119), KO, -4, [-4, -4, 4, 4]),
    ("9", game(ann=("ansage", None), points=120), KO, -4, [-4, -4, 4, 4]),
    ("10", game(ann=("ansage", "ansage"), points=121), RE, 5, [5, 5, -5, -5]),
    ("11", game(ann=("90", None), points=151, tricks=8), RE, 5, [5, 5, -5, -5]),
    ("12", game(ann=("90", None), points=150), KO, -5, [-5, -5, 5, 5]),
    ("13", game(ann=("60", None), points=179), KO, -6, [-6, -6, 6, 6]),
    ("14", game(ann=(None, "90"), points=100), RE, 4, [4, 4, -4, -4]),
    ("15", game(ann=(None, "30"), points=40, tricks=2), RE, 6, [6, 6, -6, -6]),
    ("16", game(ann=(None, "schwarz"), points=0, tricks=1), RE, 7, [7, 7, -7, -7]),
    ("17", game(ann=("90", "90"), points=130, tricks=7), None, 1, [1, 1, -1, -1]),
    (
        "18",
        game(ann=("90", "90"), points=130, tricks=7, extras={"kontra": {"fuchs": 1}}),
        None,
        0,
        [0, 0, 0, 0],
    ),
    ("19", game(ann=("30", "90"), points=200, tricks=10), None, 3, [3, 3, -3, -3]),
    (
        "20",
        game(points=125, extras={"kontra": {"doppelkopf": 2}}),
        RE,
        -1,
        [-1, -1, 1, 1],
    ),
    (
        "21",
        game(
            ann=("ansage", None),
            points=130,
            extras={"re": {"fuchs": 1, "karlchen": 1}, "kontra": {"doppelkopf": 1}},
        ),
        RE,
        4,
        [4, 4, -4, -4],
    ),
    ("22", game("solo", solo="damen", points=121), RE, 1, [3, -1, -1, -1]),
    (
        "23",
        game("solo", solo="herz", ann=("ansage", "ansage"), points=95, tricks=5),
        KO,
        -5,
        [-15, 5, 5, 5],
    ),
    (
        "24",
        game("solo", solo="buben", ann=("60", None), points=185, tricks=10),
        RE,
        7,
        [21, -7, -7, -7],
    ),
    (
        "25",
        game("solo", solo="fleischlos", ann=("schwarz", None), points=240, tricks=12),
        RE,
        11,
        [33, -11, -11, -11],
    ),
    (
        "26",
        game("hochzeit", ann=("ansage", None), points=160, tricks=9),
        RE,
        4,
        [12, -4, -4, -4],
    ),
    ("27", game("stille_hochzeit", points=130), RE, 1, [3, -1, -1, -1]),
    (
        "28",
        game("hochzeit", hochzeit_partner_trick=2, ann=("ansage", None), points=100, extras=DF),
        KO,
        -5,
        [-5, -5, 5, 5],
    ),
]


@pytest.mark.parametrize(
    ("record", "winner", "net", "deltas"),
    [pytest.param(*v[1:], id=f"vector-{v[0]}") for v in SCORING_VECTORS],
)
def test_scoring_vector(
    record: dict[str, Any], winner: Party | None, net: int, deltas: list[int]
) -> None:
    result = scored(record)
    assert result.winner is winner
    assert result.value == net
    assert row(result) == deltas
    explained = sum(p if party is RE else -p for _, party, p in result.breakdown)
    assert explained == net


def test_vector_2_items() -> None:
    """S5 example 2 item by item: no "120 vs keine 90" because Kontra has only 110."""
    items = [
        (item.value, party.value, p) for item, party, p in scored(SCORING_VECTORS[1][1]).breakdown
    ]
    assert items == [
        ("won", "kontra", 1),
        ("announced_re", "kontra", 2),
        ("absage_re_90", "kontra", 1),
        ("absage_re_60", "kontra", 1),
        ("reached_90_vs_60", "kontra", 1),
        ("gegen_die_alten", "kontra", 1),
    ]


def test_vector_26_is_normal_rubric_and_no_compulsory_solo() -> None:
    record = parsed(SCORING_VECTORS[25][1])
    assert record.kind is GameKind.HOCHZEIT_SOLO
    assert record.rubric is Rubric.NORMAL
    report = validate_series([{**SCORING_VECTORS[25][1], "dealer": 1}], 4, DDV, complete=False)
    assert report.findings == ()
    assert report.next.dealer == 2  # dealer advances
    assert 1 in report.next.compulsory_open  # the Hochzeiter's compulsory solo is still open


def test_vector_27_stille_hochzeit_has_no_sonderpunkte() -> None:
    error = parse_record(game("stille_hochzeit", points=130, extras={"re": {"fuchs": 1}}), DDV)
    assert isinstance(error, EngineError)
    assert (error.code, error.field) == ("extras_not_allowed", "extras")
    assert parsed(SCORING_VECTORS[26][1]).rubric is Rubric.NORMAL


# --- penalty and list vectors -------------------------------------------------------------


def _penalties(components: Any) -> list[dict[str, int]]:
    return [{"seat": c.seat, "points": c.points} for c in components]


def test_vector_P1_minor_violation_normal_game() -> None:
    decision = minor_penalty(3, SEATS4, DDV)
    assert not decision.not_played
    assert {c.seat: c.points for c in decision.components} == {3: -3, 1: 1, 2: 1, 4: 1}
    result = scored(game(points=121, penalties=_penalties(decision.components)))
    assert row(result) == [1 + 1, 1 + 1, -1 - 3, -1 + 1]  # game scored normally, plus penalty


def test_vector_P2_minor_violation_hurting_the_soloist() -> None:
    decision = minor_penalty(4, SEATS4, DDV, soloist=1, can_hurt_soloist=True)
    assert {c.seat: c.points for c in decision.components} == {1: 3, 4: -3}
    # a solo worth 0 (both parties missed their keine 90) shows the TSR's row +3, 0, 0, -3
    record = game(
        "solo",
        ann=("90", "90"),
        points=120,
        compulsory=True,
        dealer=1,
        penalties=_penalties(decision.components),
    )
    result = scored(record)
    assert result.value == 0
    assert row(result) == [3, 0, 0, -3]
    report = validate_series([record], 4, DDV, complete=False)
    assert [f.code for f in report.findings] == []  # the allowed parity exception


def test_vector_P2_minor_violation_not_hurting_the_soloist() -> None:
    decision = minor_penalty(4, SEATS4, DDV, soloist=1, can_hurt_soloist=False)
    assert {c.seat: c.points for c in decision.components} == {4: -3, 1: 1, 2: 1, 3: 1}


def test_vector_P3_severe_violation_normal_game() -> None:
    decision = severe_penalty(3, SEATS4, 2, DDV)
    assert decision.not_played
    record = {"not_played": True, "seats": SEATS4, "penalties": _penalties(decision.components)}
    result = scored(record)
    assert row(result) == [6, 6, -18, 6]
    assert result.winner is None and result.value == 0 and result.breakdown == ()


def test_vector_P3_severe_violation_by_the_soloist_is_not_played() -> None:
    decision = severe_penalty(1, SEATS4, 0, DDV, soloist=1)
    assert decision.not_played
    assert {c.seat: c.points for c in decision.components} == {1: -12, 2: 4, 3: 4, 4: 4}


@pytest.mark.parametrize(
    ("absagen", "points"), [pytest.param(1, 15, id="P4-k1"), pytest.param(3, 21, id="P4-k3")]
)
def test_vector_P4_severe_violation_by_an_opponent_in_a_solo(absagen: int, points: int) -> None:
    decision = severe_penalty(3, SEATS4, absagen, DDV, soloist=1)
    assert not decision.not_played  # the solo counts as played
    assert {c.seat: c.points for c in decision.components} == {1: points, 3: -points}


def test_vector_P5_combined_row_normal_game() -> None:
    penalty = minor_penalty(3, SEATS4, DDV).components
    result = scored(game(points=151, penalties=_penalties(penalty)))
    assert result.value == 2
    assert row(result) == [3, 3, -5, -1]
    assert sum(row(result)) == 0 and len({v % 2 for v in row(result)}) == 1


def test_vector_P6_combined_row_solo() -> None:
    penalty = minor_penalty(4, SEATS4, DDV, soloist=1, can_hurt_soloist=True).components
    record = game(
        "solo",
        ann=("ansage", None),
        points=121,
        compulsory=True,
        dealer=1,
        penalties=_penalties(penalty),
    )
    result = scored(record)
    assert result.value == 3
    assert row(result) == [12, -3, -3, -6]
    assert validate_series([record], 4, DDV, complete=False).findings == ()


def test_vector_F1_five_player_table() -> None:
    record = game(
        ann=("ansage", None),
        points=121,
        seats=SEATS5,
        sitting_out=1,
        dealer=1,
        re=[2, 3],
    )
    result = scored(record)
    assert result.value == 3
    assert result.scores == {1: 0, 2: 3, 3: 3, 4: -3, 5: -3}
