"""Reading a stored game back (``rules.stored.StoredGame``): what the engine produced reads
as the engine understood it, whichever optional fields the record leaves out."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    DDV,
    AnnouncementLevel,
    Completion,
    Contract,
    Extras,
    GameRecord,
    SeatPoints,
    SoloType,
    StoredGame,
    TranscribedRow,
    complete_game,
    parse_record,
    parse_transcribed,
    record_to_json,
    score,
)
from tests.rules.test_rules_completion import FACTS
from tests.rules.test_rules_properties import records
from tests.rules.test_rules_transcription import scored_games, transcribe

PROPS = settings(max_examples=300, derandomize=True, database=None, deadline=None)
read = StoredGame.from_record


def stored(data: dict[str, Any]) -> dict[str, Any]:
    """The record as a sheet keeps it: the dealer stands beside it (``Game.dealer``)."""
    return {k: v for k, v in data.items() if k != "dealer"}


def expected(record: GameRecord) -> StoredGame:
    """What the reader must say about a record the engine parsed."""
    played = not record.not_played
    scores = record.entered_scores
    return StoredGame(
        contract=record.contract if played else None,
        solo=record.solo,
        compulsory=record.compulsory,
        forced=record.forced,
        not_played=record.not_played,
        hochzeit_partner_trick=record.hochzeit_partner_trick,
        sitting_out=record.sitting_out,
        re=record.re,
        re_level=record.re_level,
        kontra_level=record.kontra_level,
        re_augen=record.re_augen if played else None,
        re_tricks=record.re_tricks,
        extras_re=record.extras_re,
        extras_kontra=record.extras_kontra,
        penalties=record.penalties,
        deductions=record.deductions,
        bock=record.bock,
        entered_scores=tuple(map(SeatPoints, record.seats, scores)) if scores else (),
    )


def parsed(data: dict[str, Any]) -> GameRecord:
    record = parse_record(data, DDV)
    assert isinstance(record, GameRecord), record
    return record


def assert_reads_as_parsed(data: dict[str, Any]) -> None:
    record = parsed(data)
    game = read(stored(data))
    assert game == expected(record)
    assert game.played_alone == (record.solo_scoring and not record.not_played)
    assert game.is_solo == (record.contract is Contract.SOLO and not record.not_played)
    assert not game.transcribed
    # the engine's own form of the record reads the same: the round trip
    assert read(stored(record_to_json(record))) == game


@PROPS
@given(records(deductions=True))
def test_every_valid_record_reads_as_the_engine_parses_it(data: dict[str, Any]) -> None:
    assert_reads_as_parsed(data)


@PROPS
@given(scored_games())
def test_games_not_played_and_entered_scores_read_as_parsed(
    case: tuple[dict[str, Any], str],
) -> None:
    data, _kind = case
    assert_reads_as_parsed(data)
    computed = score(parsed(data), DDV).scores  # the row as a paper sheet would show it
    assert_reads_as_parsed({**data, "scores": {str(s): p for s, p in computed.items()}})


@PROPS
@given(scored_games())
def test_every_paper_row_reads_as_transcription_parses_it(
    case: tuple[dict[str, Any], str],
) -> None:
    data, _kind = case
    paper = transcribe(data)
    row = parse_transcribed(paper, len(data["seats"]), DDV)
    assert isinstance(row, TranscribedRow), row
    game = read(stored(paper))
    assert game == StoredGame(
        compulsory=row.compulsory,
        forced=row.forced,
        not_played=row.not_played,
        deductions=row.deductions,
        marked_soloist=row.soloist,
        entered_scores=tuple(map(SeatPoints, row.seats, row.scores)),
    )
    assert game.transcribed == (not row.not_played)
    assert game.is_solo == (row.soloist is not None)
    assert read(stored(row.to_json())) == game


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(size=st.sampled_from([4, 5]), entries=st.lists(FACTS, max_size=30))
def test_what_a_sheet_stores_reads_as_the_completed_record(
    size: int, entries: list[dict[str, Any]]
) -> None:
    """The records a sheet keeps are the completions of ``complete_game`` (facts plus the
    derived seats, sitting out, compulsory and forced)."""
    sheet: list[dict[str, Any]] = []
    for facts in entries:
        if any(seat > size for seat in facts["re"]):
            continue
        done = complete_game(sheet, facts, size, DDV)
        if not isinstance(done, Completion) or not done.ok:
            continue
        assert done.data is not None and done.record is not None
        sheet.append(dict(done.data))
        assert read(stored(dict(done.data))) == expected(done.record)


def test_an_old_record_reads_with_the_formats_defaults() -> None:
    """A record with only the required facts: nothing announced, no extras, no tricks."""
    game = read({"contract": "solo", "solo": "damen", "re": [2], "re_points": 150})
    assert game == StoredGame(Contract.SOLO, SoloType.DAMEN, re=(2,), re_augen=150)
    assert game.played_alone and game.is_solo and not game.compulsory
    assert game.re_level is AnnouncementLevel.NONE and game.extras_kontra == Extras()


@pytest.mark.parametrize(
    "record",
    [
        None,
        [],
        "normal",
        {"contract": "bogus", "solo": 3, "re": "13", "compulsory": 1, "re_points": "120"},
        {"announcements": ["re"], "extras": {"re": {"fuchs": "1"}}, "bock": True},
        {"penalties": [{"seat": "1", "points": 3}, "x"], "scores": {"a": None, "b": 1, "1": None}},
    ],
)
def test_what_is_no_stored_record_reads_as_an_empty_game(record: Any) -> None:
    assert read(record) == StoredGame()


def test_the_reader_is_frozen() -> None:
    game = read({"contract": "normal", "re": [1, 3], "re_points": 130})
    with pytest.raises(AttributeError):
        game.re_augen = 0  # type: ignore[misc]
