"""How a sheet's rows are read: full game records scored by the engine (entry), or the
points as written on a paper sheet and only checked (transcription). The services call the
engine through these two adapters and need not know which mode a sheet is in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.contracts import Contract
from rules.errors import EngineError
from rules.ruleset import RuleSet
from rules.series import (
    Completion,
    Finding,
    NextGame,
    SeriesReport,
    Severity,
    complete_game,
    next_game,
    validate_series,
)
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


@dataclass(frozen=True)
class TranscribedCompletion:
    """A transcribed row completed from the sheet: the same fields as ``rules.Completion``."""

    before: NextGame
    after: NextGame
    findings: tuple[Finding, ...]
    later: tuple[Finding, ...] = ()
    record: TranscribedRow | None = None
    data: dict[str, Any] | None = None
    report: SeriesReport | None = None


class Mode(Protocol):
    name: str

    def complete(
        self, rows: Sequence[Mapping[str, object]], facts: Any, size: int, rs: RuleSet, *,
        number: int, timeout: bool, review: bool = False,
    ) -> Any: ...  # fmt: skip

    def outcome(self, completion: Any, rs: RuleSet) -> Outcome: ...

    def validate(
        self,
        records: Sequence[object],
        size: int,
        rs: RuleSet,
        *,
        timeout: bool,
        complete: bool | None,
    ) -> SeriesReport: ...

    def next(
        self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool
    ) -> NextGame: ...


class EntryMode:
    name = "entry"

    def complete(
        self, rows: Sequence[Mapping[str, object]], facts: Any, size: int, rs: RuleSet, *,
        number: int, timeout: bool, review: bool = False,
    ) -> Completion | EngineError:  # fmt: skip
        return complete_game(rows, facts, size, rs, number=number, timeout=timeout, review=review)

    def outcome(self, completion: Completion, rs: RuleSet) -> Outcome:
        parsed, result = completion.record, completion.result
        assert parsed is not None and result is not None
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
        self,
        records: Sequence[object],
        size: int,
        rs: RuleSet,
        *,
        timeout: bool,
        complete: bool | None,
    ) -> SeriesReport:
        return validate_series(records, size, rs, timeout=timeout, complete=complete)

    def next(self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool) -> NextGame:
        return next_game(records, size, rs, timeout=timeout)


class TranscriptionMode:
    """The row's points and solo marks are copied from paper, so only the dealer is derived.
    Two replays: what the table faced, then the sheet with the row (the transcription
    checks have no completion of their own), whose report comes with it (``review`` or not)."""

    name = "transcription"

    def complete(
        self, rows: Sequence[Mapping[str, object]], facts: Any, size: int, rs: RuleSet, *,
        number: int, timeout: bool, review: bool = False,
    ) -> TranscribedCompletion | EngineError:  # fmt: skip
        if not isinstance(facts, dict):
            return EngineError("not_an_object", "", "A row must be a JSON object.")
        before = next_transcribed(rows[: number - 1], size, rs, timeout=timeout)
        if before.finished:
            end = Finding(Severity.ERROR, "game_after_series_end", number, {})
            return TranscribedCompletion(before, before, (end,))
        if "dealer" in facts and facts["dealer"] != before.dealer:
            return EngineError("derived_mismatch", "dealer", "The dealer follows from the sheet.")
        data = {**facts, "dealer": before.dealer}
        parsed = parse_transcribed(data, size, rs)
        if isinstance(parsed, EngineError):
            return parsed
        candidate = [*rows[: number - 1], data, *rows[number:]]
        report = validate_transcription(candidate, size, rs, timeout=timeout, complete=None)
        own = tuple(f for f in report.findings if f.game == number)
        later = tuple(f for f in report.findings if f.game is not None and f.game > number)
        return TranscribedCompletion(before, report.next, own, later, parsed, data, report)

    def outcome(self, completion: TranscribedCompletion, rs: RuleSet) -> Outcome:
        parsed = completion.record
        assert parsed is not None
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
        self,
        records: Sequence[object],
        size: int,
        rs: RuleSet,
        *,
        timeout: bool,
        complete: bool | None,
    ) -> SeriesReport:
        return validate_transcription(records, size, rs, timeout=timeout, complete=complete)

    def next(self, records: Sequence[object], size: int, rs: RuleSet, *, timeout: bool) -> NextGame:
        return next_transcribed(records, size, rs, timeout=timeout)


MODES: dict[str, Mode] = {"entry": EntryMode(), "transcription": TranscriptionMode()}
