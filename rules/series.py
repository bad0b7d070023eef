"""Series validation of game records (spec 7, 7.5), the "what comes next?" helper and the
completion of a new game from its sheet.

The replay itself (``Replay``, ``Finding``, ``NextGame``) lives in ``rules.replay``; this
module reads full game records into it and adds their row checks (the entered row against
the computed one, spec 7.5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.bock import BockState
from rules.contracts import Contract
from rules.errors import EngineError
from rules.record import GameRecord, parse_record
from rules.replay import (
    FINDING_CODES,
    Finding,
    GameFacts,
    NextGame,
    Replay,
    SeriesReport,
    Severity,
    SheetReader,
    check_step,
    check_table_size,
    json_row,
    next_on_sheet,
    report_of,
    validate_sheet,
)
from rules.ruleset import RuleSet
from rules.scoring import GameResult, score

__all__ = [
    "DERIVED_FIELDS",
    "FINDING_CODES",
    "Completion",
    "Finding",
    "NextGame",
    "SeriesReport",
    "Severity",
    "complete_game",
    "next_game",
    "validate_series",
]


def _facts(record: GameRecord) -> GameFacts:
    solo = record.contract is Contract.SOLO and not record.not_played
    return GameFacts(
        dealer=record.dealer,
        not_played=record.not_played,
        solo=solo,
        compulsory=record.compulsory,
        forced=record.forced,
        soloist=record.re[0] if solo else None,
        thrown_in=record.thrown_in is not None,
    )


def _lenient_facts(data: object) -> GameFacts:
    """Best guess for an invalid record, so one bad row does not derail the sequence."""
    if type(data) is not dict:
        return GameFacts(dealer=None)

    def int_or_none(value: object) -> int | None:
        return value if type(value) is int else None

    re = data.get("re")
    solo = data.get("contract") == "solo"
    soloist = int_or_none(re[0]) if solo and type(re) is list and re else None
    return GameFacts(
        dealer=int_or_none(data.get("dealer")),
        not_played=data.get("not_played") is True,
        solo=solo,
        compulsory=solo and data.get("compulsory") is True,
        forced=solo and data.get("forced") is True,
        soloist=soloist,
        thrown_in=data.get("thrown_in") is not None,
    )


def _read_for_validation(game: object, ruleset: RuleSet) -> GameRecord | EngineError:
    record = (
        game if isinstance(game, GameRecord) else parse_record(game, ruleset, require_dealer=True)
    )
    if isinstance(record, GameRecord) and record.dealer is None:
        return EngineError("missing_field", "dealer", "dealer is required in a series.")
    return record


def _reader(ruleset: RuleSet, *, checked: bool) -> SheetReader[GameRecord]:
    """Game records on a sheet: parsed and checked (validation), or only parsed (next game)."""

    def read(game: object) -> GameRecord | EngineError:
        if checked:
            return _read_for_validation(game, ruleset)
        return game if isinstance(game, GameRecord) else parse_record(game, ruleset)

    def check(record: GameRecord, index: int) -> list[Finding]:
        return _check_row(record, index, ruleset)

    return SheetReader(
        read=read,
        facts=_facts,
        lenient=_lenient_facts,
        seats=lambda record: len(record.seats),
        check=check,
    )


def validate_series(
    games: Sequence[object],
    table_size: int,
    ruleset: RuleSet,
    *,
    timeout: bool = False,
    complete: bool | None = True,
) -> SeriesReport:
    """Check one table's games (record dicts or ``GameRecord``s, each with its dealer).

    ``timeout``: the referee called time (fewer normal games allowed; compulsory solos are
    still forced). ``complete=False`` checks a series in progress: no findings about
    missing games or compulsory solos at the end; ``complete=None``: those findings once
    the games are finished.
    """
    reader = _reader(ruleset, checked=True)
    return validate_sheet(games, table_size, ruleset, reader, timeout=timeout, complete=complete)


def next_game(
    games: Sequence[GameRecord | object],
    table_size: int,
    ruleset: RuleSet,
    *,
    timeout: bool = False,
) -> NextGame:
    """What comes next after ``games`` (records or dicts); cheap: no scoring, no findings.

    ``timeout=True`` means time has been called: only forced solos remain.
    """
    return next_on_sheet(
        games, table_size, ruleset, _reader(ruleset, checked=False), timeout=timeout
    )


def _check_row(
    record: GameRecord,
    index: int,
    rs: RuleSet,
    computed: Mapping[int, int] | None = None,
) -> list[Finding]:
    """Sheet checks of spec 7.5: row sum, sitter 0, even/odd rule, entered vs computed."""
    if computed is None:
        computed = score(record, rs).scores
    deducted = dict.fromkeys(record.seats, 0)
    for d in record.deductions:
        deducted[d.seat] += d.points
    out: list[Finding] = []
    row = computed
    if record.entered_scores is not None:
        row = dict(zip(record.seats, record.entered_scores, strict=True))
        if row != computed:
            out.append(
                Finding.of(
                    "scores_mismatch", index, expected=json_row(computed), actual=json_row(row)
                )
            )
        row_sum = sum(row.values()) - sum(deducted.values())
        if row_sum:
            out.append(Finding.of("row_sum_not_zero", index, sum=row_sum))
        sitter = record.sitting_out
        if sitter is not None and row[sitter] != deducted[sitter]:
            out.append(Finding.of("sitting_out_scored", index, seat=sitter))
    if len(record.seats) == 4 and not _parity_ok(record, row, deducted):
        out.append(Finding.of("row_parity", index, row=json_row(row)))
    return out


def _parity_ok(record: GameRecord, row: Mapping[int, int], deducted: Mapping[int, int]) -> bool:
    parities = {(row[s] - deducted[s]) % 2 for s in record.seats}
    if len(parities) == 1:
        return True
    # TSR 7.5: only penalty points in a solo in favour of the soloist may break the rule.
    soloist = record.soloist
    return soloist is not None and any(p.seat == soloist and p.points > 0 for p in record.penalties)


#: Facts of a game record that follow from the sheet. A client may send them; they are checked
#: against the replay and never trusted (design decision 8).
DERIVED_FIELDS = ("seats", "dealer", "sitting_out", "compulsory", "forced")


@dataclass(frozen=True, slots=True)
class Completion:
    """A new or corrected game completed from one replay of its sheet.

    ``before``: what the table faced at this row; ``after``: what comes next once the whole
    sheet, this row included, is replayed; ``findings``: this row's findings (an error refuses
    the game); ``later``: findings about the rows after it, which a correction can move.
    ``record``, ``data`` (its JSON, dealer included) and ``result`` are ``None`` only when the
    sheet was complete before this row (finding ``game_after_series_end``).
    ``report`` (asked for with ``review=True``): the whole sheet with this row, checked as
    ``validate_series(..., complete=None)`` would check it, from the same replay.
    """

    before: NextGame
    after: NextGame
    findings: tuple[Finding, ...]
    later: tuple[Finding, ...] = ()
    record: GameRecord | None = None
    data: Mapping[str, object] | None = None
    result: GameResult | None = None
    report: SeriesReport | None = None

    @property
    def ok(self) -> bool:
        return self.record is not None and not any(
            f.severity is Severity.ERROR for f in self.findings
        )


def complete_game(
    stored: Sequence[Mapping[str, object]],
    facts: object,
    table_size: int,
    ruleset: RuleSet,
    *,
    number: int | None = None,
    timeout: bool = False,
    review: bool = False,
) -> Completion | EngineError:
    """Complete, check and score game ``number`` (default: the next row) of a sheet.

    ``stored``: the sheet's rows as accepted before (record dicts with their dealer); they are
    replayed from their facts without being parsed or scored again. ``facts``: what the table
    reports about the game (contract, parties, announcements, Augen, tricks, extras,
    penalties). The replay supplies ``DERIVED_FIELDS``: the seats, the dealer, who sits out,
    and for a solo whether it is the soloist's compulsory solo (his first solo, TSR 4.3.1)
    and whether it is forced; under a rule set with Bock triggers also ``bock``, the Bock
    level the rows before give this game (``rules.bock``; those rows are parsed for it). A
    derived field sent anyway must agree (``derived_mismatch``). One replay, one parse, one
    scoring. ``review=True``: the same replay also reads and
    checks every stored row, for the sheet's ``report`` (what a page shows after the save).
    """
    check_table_size(table_size, ruleset)
    if number is None:
        number = len(stored) + 1
    if not 1 <= number <= len(stored) + 1:
        raise ValueError(f"game {number} is not on a sheet of {len(stored)} rows")
    if type(facts) is not dict:
        return EngineError("not_an_object", "", "A game record must be a JSON object.")
    state = Replay(table_size, ruleset, timeout=timeout)
    reader = _reader(ruleset, checked=True) if review else None
    sheet: list[Finding] = []  # the whole sheet's findings (review only)

    def play(row: object, index: int, out: list[Finding] | None) -> None:
        if reader is None:
            state.step(_lenient_facts(row), out)
            return
        mark = len(sheet)
        check_step(state, reader, row, index, sheet)
        if out is not None:
            out.extend(sheet[mark:])

    for index, row in enumerate(stored[: number - 1], 1):
        play(row, index, None)
    before = state.next_game()
    if before.finished:
        end = Finding.of("game_after_series_end", number)
        return Completion(before, before, (end,))
    derived = _derived(facts, before, table_size)
    if ruleset.bock_triggers:  # house rule: the Bock level follows from the sheet too
        derived["bock"] = _bock_due(stored[: number - 1], table_size, ruleset)
    for key, value in derived.items():
        if key in facts and facts[key] != value:
            return EngineError(
                "derived_mismatch",
                key,
                f"{key} follows from the sheet: {value!r}, not {facts[key]!r}.",
            )
    data = {**facts, **derived}
    record = parse_record(data, ruleset, require_dealer=True)
    if isinstance(record, EngineError):
        return record
    result = score(record, ruleset)
    findings = _check_row(record, number, ruleset, computed=result.scores)
    state.step(_facts(record), findings)
    sheet.extend(findings)
    later: list[Finding] = []
    for index, row in enumerate(stored[number:], number + 1):
        play(row, index, later)
    report = report_of(state, sheet, complete=None) if review else None
    return Completion(
        before, state.next_game(), tuple(findings), tuple(later), record, data, result, report
    )


def _bock_due(rows: Sequence[object], table_size: int, ruleset: RuleSet) -> int:
    """The Bock level of the next game (``rules.bock``) from the rows before it; a row that
    does not read as a game record (a paper row) uses up a Bock game and triggers nothing."""
    state = BockState(table_size, ruleset)
    for row in rows:
        record = parse_record(row, ruleset)
        state = state.after(record if isinstance(record, GameRecord) else _NO_FACTS)
    return state.level


_NO_FACTS = GameRecord()


def _derived(facts: Mapping[object, object], before: NextGame, size: int) -> dict[str, object]:
    derived: dict[str, object] = {"seats": list(range(1, size + 1)), "dealer": before.dealer}
    if size == 5:
        derived["sitting_out"] = before.sitting_out
    if facts.get("contract") == "solo" and facts.get("not_played") is not True:
        re = facts.get("re")
        soloist = re[0] if type(re) is list and len(re) == 1 else None
        compulsory = soloist in before.compulsory_open
        derived["compulsory"] = compulsory
        derived["forced"] = compulsory and soloist == before.forced
    return derived
