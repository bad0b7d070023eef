"""How a sheet's rows are read: full game records scored by the engine (entry), or the
points as written on a paper sheet and only checked (transcription). The services call the
engine through these two adapters and need not know which mode a sheet is in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.contracts import Contract
from rules.errors import EngineError
from rules.gamerecord import GameRecord
from rules.record import parse_record
from rules.ruleset import RuleSet
from rules.scoring import score
from rules.series import NextGame, SeriesReport, next_game, validate_series
from rules.transcription import (
    TranscribedRow,
    next_transcribed,
    parse_transcribed,
    validate_transcription,
)


@dataclass(frozen=True)
class SeatOutcome:
    points: int
    played: bool  # took part (not sitting out, row not "not played")
    solo: bool  # soloist of a solo (Pflicht- or Lustsolo)
    compulsory: bool
    won: bool


@dataclass(frozen=True)
class Outcome:
    winner: str  # "re", "kontra" or "" (no winner, or unknown in transcription)
    value: int
    breakdown: list[dict[str, Any]]
    seats: dict[int, SeatOutcome]

    @property
    def scores(self) -> dict[str, int]:
        return {str(seat): s.points for seat, s in self.seats.items()}


class Mode(Protocol):
    name: str

    def build(self, payload: dict[str, Any], dealer: Any, size: int) -> dict[str, Any]: ...

    def parse(self, record: dict[str, Any], size: int, rs: RuleSet) -> Any: ...

    def outcome(self, parsed: Any, rs: RuleSet) -> Outcome: ...

    def validate(
        self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool, complete: bool
    ) -> SeriesReport: ...

    def next(
        self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool
    ) -> NextGame: ...


class EntryMode:
    name = "entry"

    def build(self, payload: dict[str, Any], dealer: Any, size: int) -> dict[str, Any]:
        """The table's seats and, at a five-player table, the dealer sitting out, unless
        the client sent them."""
        record = dict(payload)
        record.setdefault("seats", list(range(1, size + 1)))
        if size == 5 and "sitting_out" not in record:
            record["sitting_out"] = dealer
        record["dealer"] = dealer
        return record

    def parse(self, record: dict[str, Any], size: int, rs: RuleSet) -> GameRecord | EngineError:
        return parse_record(record, rs, require_dealer=True)

    def outcome(self, parsed: GameRecord, rs: RuleSet) -> Outcome:
        result = score(parsed, rs)
        winner = "" if result.winner is None else result.winner.value
        soloist = parsed.soloist if parsed.contract is Contract.SOLO else None
        seats = {}
        for seat in parsed.seats:
            active = not parsed.not_played and seat != parsed.sitting_out
            seats[seat] = SeatOutcome(
                points=result.scores[seat],
                played=active,
                solo=seat == soloist,
                compulsory=seat == soloist and parsed.compulsory,
                won=active and bool(winner) and (seat in parsed.re) == (winner == "re"),
            )
        breakdown = result.to_json()["breakdown"]
        assert isinstance(breakdown, list)
        return Outcome(winner, result.value, breakdown, seats)

    def validate(
        self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool, complete: bool
    ) -> SeriesReport:
        return validate_series(records, size, rs, timeout=timeout, complete=complete)

    def next(self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool) -> NextGame:
        return next_game(records, size, rs, timeout=timeout)


class TranscriptionMode:
    name = "transcription"

    def build(self, payload: dict[str, Any], dealer: Any, size: int) -> dict[str, Any]:
        return {**payload, "dealer": dealer}

    def parse(self, record: dict[str, Any], size: int, rs: RuleSet) -> TranscribedRow | EngineError:
        return parse_transcribed(record, size, rs)

    def outcome(self, parsed: TranscribedRow, rs: RuleSet) -> Outcome:
        row = parsed.row
        active = [s for s in parsed.seats if s != parsed.sitting_out]
        # The sheet shows no parties; the value is read off the row: the soloist's points
        # divided by the solo factor, else the largest amount anyone won or lost.
        if parsed.soloist is not None:
            value = abs(row[parsed.soloist]) // rs.solo_factor
        else:
            value = max((abs(row[s]) for s in active), default=0)
        seats = {
            seat: SeatOutcome(
                points=row[seat],
                played=not parsed.not_played and seat != parsed.sitting_out,
                solo=seat == parsed.soloist,
                compulsory=seat == parsed.soloist and parsed.compulsory,
                won=row[seat] > 0,
            )
            for seat in parsed.seats
        }
        return Outcome("", value, [], seats)

    def validate(
        self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool, complete: bool
    ) -> SeriesReport:
        return validate_transcription(records, size, rs, timeout=timeout, complete=complete)

    def next(self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool) -> NextGame:
        return next_transcribed(records, size, rs, timeout=timeout)


MODES: dict[str, Mode] = {"entry": EntryMode(), "transcription": TranscriptionMode()}
