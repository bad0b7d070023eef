"""Completing a game from one replay of its sheet (design decision 8)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import DDV, Completion, EngineError, complete_game, next_game, validate_series

NORMAL = {"contract": "normal", "re": [1, 3], "re_points": 130}


def solo(seat: int, points: int = 150) -> dict[str, Any]:
    return {"contract": "solo", "solo": "damen", "re": [seat], "re_points": points}


def accepted(stored: list[dict[str, Any]], facts: Any, size: int = 4, **kw: Any) -> Completion:
    done = complete_game(stored, facts, size, DDV, **kw)
    assert isinstance(done, Completion) and done.ok, done
    return done


def test_the_first_game_gets_seats_and_dealer() -> None:
    done = accepted([], NORMAL)
    assert done.data == {**NORMAL, "seats": [1, 2, 3, 4], "dealer": 1}
    assert done.before.game == 1 and done.after.dealer == 2
    assert done.result is not None and done.result.value == 1


def test_five_player_table_sets_the_sitting_dealer() -> None:
    done = accepted([], {**NORMAL, "re": [2, 3]}, size=5)
    assert done.data is not None and done.data["sitting_out"] == 1
    refused = complete_game([], {**NORMAL, "re": [1, 3]}, 5, DDV)
    assert isinstance(refused, EngineError) and refused.code == "seat_sitting_out"


def test_first_solo_is_compulsory_the_second_voluntary() -> None:
    first = accepted([], solo(2))
    assert first.data is not None and first.data["compulsory"] is True
    assert first.data["forced"] is False and first.after.dealer == 1  # same dealer again
    second = accepted([dict(first.data)], solo(2))
    assert second.data is not None and second.data["compulsory"] is False
    assert second.after.dealer == 2


def test_forced_solo_is_derived_from_the_count_rule() -> None:
    stored: list[dict[str, Any]] = []
    for _ in range(20):
        stored.append(dict(accepted(stored, NORMAL).data or {}))
    before = next_game(stored, 4, DDV)
    assert before.forced == 2
    refused = accepted_or_error(stored, NORMAL)
    assert refused == "forced_solo_expected"
    done = accepted(stored, solo(2))
    assert done.data is not None and done.data["forced"] is True and done.data["compulsory"]


def accepted_or_error(stored: list[dict[str, Any]], facts: Any) -> str:
    done = complete_game(stored, facts, 4, DDV)
    if isinstance(done, EngineError):
        return done.code
    return next((f.code for f in done.findings), "ok")


def test_derived_fields_sent_are_checked() -> None:
    for key, value in (("dealer", 2), ("seats", [1, 2, 3]), ("compulsory", False)):
        facts = {**solo(3), key: value}
        refused = complete_game([], facts, 4, DDV)
        assert isinstance(refused, EngineError), key
        assert (refused.code, refused.field) == ("derived_mismatch", key)
    assert accepted([], {**solo(3), "dealer": 1, "compulsory": True, "forced": False})


def test_not_an_object_and_complete_sheet() -> None:
    refused = complete_game([], [1], 4, DDV)
    assert isinstance(refused, EngineError) and refused.code == "not_an_object"
    stored: list[dict[str, Any]] = []
    for facts in [NORMAL] * 20 + [solo(2), solo(3), solo(4), solo(1)]:
        stored.append(dict(accepted(stored, facts).data or {}))
    end = complete_game(stored, NORMAL, 4, DDV)
    assert isinstance(end, Completion) and not end.ok
    assert [f.code for f in end.findings] == ["game_after_series_end"]


def test_a_correction_reports_what_it_moves_in_later_rows() -> None:
    stored: list[dict[str, Any]] = []
    for _ in range(3):
        stored.append(dict(accepted(stored, NORMAL).data or {}))
    # Game 1 becomes seat 2's compulsory solo: the same dealer deals game 2 again, so the
    # stored dealers of games 2 and 3 are now wrong.
    done = accepted(stored, solo(2), number=1)
    assert [(f.code, f.game) for f in done.later] == [("dealer_wrong", 2)]


FACTS = st.one_of(
    st.builds(
        lambda pair, points: {"contract": "normal", "re": sorted(pair), "re_points": points},
        st.lists(st.integers(1, 5), min_size=2, max_size=2, unique=True),
        st.integers(2, 238),
    ),
    st.builds(lambda seat, points: solo(seat, points), st.integers(1, 5), st.integers(2, 238)),
)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(size=st.sampled_from([4, 5]), entries=st.lists(FACTS, max_size=40))
def test_completed_sheets_pass_the_series_check(size: int, entries: list[dict]) -> None:
    """Whatever the table reports, what complete_game accepts is a sheet that validate_series
    finds no error in, and its ``after`` is what next_game says."""
    stored: list[dict[str, Any]] = []
    for facts in entries:
        if any(seat > size for seat in facts["re"]):
            continue
        done = complete_game(stored, facts, size, DDV)
        if isinstance(done, EngineError) or not done.ok:
            continue
        stored.append(dict(done.data or {}))
        assert done.after == next_game(stored, size, DDV)
    report = validate_series(stored, size, DDV, complete=False)
    assert report.ok, report.findings


def test_complete_none_adds_the_end_findings_only_once_finished() -> None:
    stored: list[dict[str, Any]] = []
    for _ in range(3):
        stored.append(dict(accepted(stored, NORMAL).data or {}))
    running = validate_series(stored, 4, DDV, complete=None)
    assert not running.next.finished
    assert running == validate_series(stored, 4, DDV, complete=False)
    assert running != validate_series(stored, 4, DDV, complete=True)  # too few games
    for facts in [NORMAL] * 17 + [solo(2), solo(3), solo(4), solo(1)]:
        stored.append(dict(accepted(stored, facts).data or {}))
    finished = validate_series(stored, 4, DDV, complete=None)
    assert finished.next.finished
    assert finished == validate_series(stored, 4, DDV, complete=True)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    size=st.sampled_from([4, 5]),
    entries=st.lists(FACTS, max_size=30),
    corrections=st.lists(st.tuples(st.integers(1, 30), FACTS), max_size=4),
)
def test_a_reviewed_completion_reports_what_the_series_check_says(
    size: int, entries: list[dict], corrections: list[tuple[int, dict]]
) -> None:
    """``review=True``: the completion's report of the sheet with the new (or corrected)
    row is the series check of that sheet, from the one replay of the completion."""
    stored: list[dict[str, Any]] = []
    steps = [(None, facts) for facts in entries] + list(corrections)
    for number, facts in steps:
        if any(seat > size for seat in facts["re"]) or (number or 0) > len(stored):
            continue
        done = complete_game(stored, facts, size, DDV, number=number, review=True)
        if isinstance(done, EngineError) or not done.ok:
            continue
        row = dict(done.data or {})
        if number is None:
            stored.append(row)
        else:
            stored[number - 1] = row
        assert done.report == validate_series(stored, size, DDV, complete=None)
        assert done.after == done.report.next
