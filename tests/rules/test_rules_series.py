"""Series validation (spec 7, 7.5), vector L1, and the "what comes next?" helper."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules import DDV, FINDING_CODES, PRESETS, Severity, next_game, validate_series
from rules.testing import game, l1_series, series_game

Games = list[dict[str, Any]]


def test_vector_L1_forced_solo_sequence() -> None:
    games = l1_series()
    assert len(games) == 24
    report = validate_series(games, 4, DDV)
    assert report.findings == ()
    assert report.ok
    before_23 = next_game(games[:22], 4, DDV)
    assert (before_23.game, before_23.dealer, before_23.forced) == (23, 1, 3)
    assert before_23.compulsory_allowed == ()  # nobody may announce: the game is forced
    before_24 = next_game(games[:23], 4, DDV)
    assert (before_24.game, before_24.dealer, before_24.forced) == (24, 2, 1)
    assert report.next.finished and report.next.games_left == 0


def test_next_game_at_the_start() -> None:
    nxt = next_game([], 4, DDV)
    assert (nxt.game, nxt.dealer, nxt.forced, nxt.games_left) == (1, 1, None, 24)
    assert nxt.compulsory_allowed == (1, 2, 3, 4)
    assert nxt.to_json()["compulsory_solo_allowed"] is True


def test_compulsory_solo_repeats_the_dealer_and_lustsolo_advances() -> None:
    games = [
        series_game(1, soloist=3, compulsory=True),
        series_game(1, soloist=3),  # Lustsolo after the compulsory solo: normal rubric
    ]
    report = validate_series(games, 4, DDV, complete=False)
    assert report.findings == ()
    assert report.next.dealer == 2
    assert report.next.compulsory_open == (1, 2, 4)
    assert report.next.games_left == 22


def test_hochzeit_alone_and_stille_hochzeit_advance_and_leave_the_solo_open() -> None:
    games = [
        {**game("hochzeit", points=160, tricks=9), "dealer": 1},
        {**game("stille_hochzeit", re=[2]), "dealer": 2},
    ]
    report = validate_series(games, 4, DDV, complete=False)
    assert report.findings == ()
    assert report.next.dealer == 3 and report.next.compulsory_open == (1, 2, 3, 4)


def five_table_series(normal: int = 25, solos_at: tuple[int, ...] = (2, 8, 14, 20)) -> Games:
    """``normal`` games dealt 1..5 in turn; seats 2..5 announce their compulsory solos before
    the normal games ``solos_at``; seat 1 is forced last, while he is the due dealer, so seat
    2 deals (design decision 5)."""
    games: Games = []
    for n in range(normal):
        dealer = n % 5 + 1
        if n in solos_at:
            soloist = solos_at.index(n) + 2
            assert soloist != dealer
            games.append(series_game(dealer, 5, soloist=soloist, compulsory=True))
        games.append(series_game(dealer, 5))
    games.append(series_game(2, 5, soloist=1, compulsory=True, forced=True))
    return games


def test_five_player_table_forced_due_dealer_passes_the_deal() -> None:
    games = five_table_series()
    assert len(games) == 30
    assert sorted(g["re"][0] for g in games if g["contract"] == "solo") == [1, 2, 3, 4, 5]
    nxt = next_game(games[:29], 5, DDV)
    assert (nxt.dealer, nxt.sitting_out, nxt.forced) == (2, 2, 1)
    report = validate_series(games, 5, DDV)
    assert report.findings == ()
    assert report.next.finished


def test_five_player_table_sitting_dealer_cannot_announce() -> None:
    nxt = next_game([], 5, DDV)
    assert (nxt.dealer, nxt.sitting_out, nxt.games_left) == (1, 1, 30)
    assert nxt.compulsory_allowed == (2, 3, 4, 5)


def test_house_preset_25_games_at_five_player_tables() -> None:
    rs = PRESETS["haus_25"]
    assert rs.total_games(5) == 25 and rs.total_games(4) == 24
    # after 20 normal games (dealers 1..5 x4) seat 1 is forced: due dealer 1 -> seat 2 deals
    shortened = five_table_series(20, (2, 8, 14, 17))
    assert len(shortened) == 25
    assert validate_series(shortened, 5, rs).findings == ()
    assert [f.code for f in validate_series(shortened, 5, DDV).findings] == [
        "dealer_wrong",  # without the forced-dealer rule seat 1 would deal
        "forced_solo_unexpected",
        "too_few_games",
    ]


def test_not_played_game_repeats_dealer_and_does_not_count() -> None:
    games = l1_series()
    not_played = {
        "not_played": True,
        "seats": [1, 2, 3, 4],
        "dealer": 3,
        "penalties": [{"seat": 2, "points": -12}] + [{"seat": s, "points": 4} for s in (1, 3, 4)],
    }
    games.insert(2, not_played)  # third row, dealt by seat 3, who deals again
    report = validate_series(games, 4, DDV)
    assert report.findings == ()
    assert report.next.finished and report.next.games_played == 24 and report.next.game == 26
    after = next_game(games[:3], 4, DDV)
    assert (after.dealer, after.games_played, after.game) == (3, 2, 4)


def test_not_played_compulsory_solo_stays_open() -> None:
    games = [
        {"not_played": True, "seats": [1, 2, 3, 4], "dealer": 1},  # a compulsory solo, aborted
        series_game(1, soloist=2, compulsory=True),  # announced again, same dealer
    ]
    report = validate_series(games, 4, DDV, complete=False)
    assert report.findings == ()


def timeout_series() -> Games:
    games: Games = []
    for n in range(10):
        dealer = n % 4 + 1
        if n == 4:
            games.append(series_game(dealer, soloist=1, compulsory=True))
        if n == 6:
            games.append(series_game(dealer, soloist=2, compulsory=True))
        games.append(series_game(dealer))
    return games


def test_timeout_forces_the_open_solos() -> None:
    games = timeout_series()
    nxt = next_game(games, 4, DDV, timeout=True)
    assert (nxt.dealer, nxt.forced, nxt.games_left) == (3, 4, 2)
    games.append(series_game(3, soloist=4, compulsory=True, forced=True))
    nxt = next_game(games, 4, DDV, timeout=True)
    assert (nxt.dealer, nxt.forced, nxt.games_left) == (4, 3, 1)
    games.append(series_game(4, soloist=3, compulsory=True, forced=True))
    report = validate_series(games, 4, DDV, timeout=True)
    assert report.findings == ()
    assert report.next.finished
    codes = [f.code for f in validate_series(games, 4, DDV).findings]
    assert codes == ["forced_solo_unexpected", "forced_solo_unexpected", "too_few_games"]


def test_without_timeout_next_game_is_not_forced_early() -> None:
    nxt = next_game(timeout_series(), 4, DDV)
    assert nxt.forced is None and nxt.games_left == 12 and nxt.compulsory_allowed == (3, 4)


# --- one test per finding code -----------------------------------------------------------


def _with_extra_normal() -> Games:
    return [*l1_series(), series_game(3)]


def _twenty_normal(then: dict[str, Any]) -> Games:
    return [series_game(n % 4 + 1) for n in range(20)] + [then]


FINDING_CASES: dict[str, Callable[[], tuple[int, Games]]] = {
    "invalid_game": lambda: (4, [series_game(1, re_points=300)]),
    "table_size_mismatch": lambda: (4, [series_game(1, 5)]),
    "game_after_series_end": lambda: (4, _with_extra_normal()),
    "dealer_wrong": lambda: (4, [series_game(2)]),
    "forced_solo_expected": lambda: (4, _twenty_normal(series_game(1))),
    "forced_solo_unexpected": lambda: (
        4,
        [series_game(1, soloist=2, compulsory=True, forced=True)],
    ),
    "forced_wrong_player": lambda: (
        4,
        _twenty_normal(series_game(1, soloist=3, compulsory=True, forced=True)),
    ),
    "compulsory_solo_twice": lambda: (
        4,
        [series_game(1, soloist=2, compulsory=True), series_game(1, soloist=2, compulsory=True)],
    ),
    "voluntary_solo_before_compulsory": lambda: (4, [series_game(1, soloist=2)]),
    "compulsory_solo_missing": lambda: (4, l1_series()[:-1]),
    "too_few_games": lambda: (4, l1_series()[:-1]),
    "scores_mismatch": lambda: (4, [series_game(1, scores={"1": 2, "2": 2, "3": -2, "4": -2})]),
    "row_sum_not_zero": lambda: (4, [series_game(1, scores={"1": 1, "2": 1, "3": -1, "4": 0})]),
    "sitting_out_scored": lambda: (
        5,
        [series_game(1, 5, scores={"1": 1, "2": 1, "3": 0, "4": -1, "5": -1})],
    ),
    "row_parity": lambda: (
        4,
        [series_game(1, penalties=[{"seat": 3, "points": 1}, {"seat": 4, "points": -1}])],
    ),
}


def test_every_finding_code_has_a_case() -> None:
    # row_shape is transcription-only; its cases are in test_rules_transcription.py
    assert set(FINDING_CASES) == set(FINDING_CODES) - {"row_shape"}


@pytest.mark.parametrize("code", sorted(FINDING_CASES))
def test_finding_code(code: str) -> None:
    table_size, games = FINDING_CASES[code]()
    complete = code in ("compulsory_solo_missing", "too_few_games", "game_after_series_end")
    report = validate_series(games, table_size, DDV, complete=complete)
    found = [f for f in report.findings if f.code == code]
    assert found, report.findings
    finding = found[0]
    expected = Severity.WARNING if code == "row_parity" else Severity.ERROR
    assert finding.severity is expected
    assert set(finding.to_json()) == {"severity", "code", "game", "data"}


def test_finding_details() -> None:
    report = validate_series(
        _twenty_normal(series_game(1, soloist=3, compulsory=True, forced=True)),
        4,
        DDV,
        complete=False,
    )
    [finding] = report.findings
    assert (finding.code, finding.game, dict(finding.data)) == (
        "forced_wrong_player",
        21,
        {"expected": 2, "actual": 3},
    )
    report = validate_series([series_game(2)], 4, DDV, complete=False)
    assert [(f.code, f.game, dict(f.data)) for f in report.findings] == [
        ("dealer_wrong", 1, {"expected": 1, "actual": 2})
    ]
    assert report.next.dealer == 3  # re-synchronised on the recorded dealer
    report = validate_series([series_game(1, re_points=300)], 4, DDV, complete=False)
    assert report.findings[0].data == {
        "error": {
            "code": "re_points_out_of_range",
            "field": "re_points",
            "message": "re_points must be 0..240.",
        }
    }


def test_invalid_games_still_drive_the_sequence() -> None:
    games = l1_series()
    games[0] = {**games[0], "re_points": "x"}  # invalid, but dealer 1 is still readable
    games[4] = {**games[4], "extras": 5}  # invalid compulsory solo of seat 2
    report = validate_series(games, 4, DDV)
    assert [(f.code, f.game) for f in report.findings] == [("invalid_game", 1), ("invalid_game", 5)]
    garbage = validate_series(["x", 3, None], 4, DDV, complete=False)
    assert [f.code for f in garbage.findings] == ["invalid_game"] * 3


def test_missing_dealer_is_an_invalid_game() -> None:
    [finding] = validate_series([game()], 4, DDV, complete=False).findings
    assert finding.code == "invalid_game"
    assert finding.data["error"] == {
        "code": "missing_field",
        "field": "dealer",
        "message": "dealer is required.",
    }


def test_unknown_table_size_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        validate_series([], 6, DDV)
    with pytest.raises(ValueError):
        next_game([], 3, DDV)
