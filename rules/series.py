"""Series validation (spec 7, 7.5) and the "what comes next?" helper.

A series is one table's games in playing order. ``validate_series`` replays them through a
small state machine (dealer due, games counted, compulsory solos done, forced phase) and
reports ``Finding``s; ``next_game`` replays without the row checks and says what comes next.
Game numbers in findings are 1-based positions in the list (rows of the sheet, not-played
rows included).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules.contracts import Contract
from rules.errors import EngineError
from rules.record import GameRecord, parse_record
from rules.ruleset import RuleSet
from rules.scoring import GameResult, score


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


FINDING_CODES: dict[str, str] = {
    "invalid_game": "The game record is invalid; data.error says why.",
    "table_size_mismatch": "The game's seats do not match the table size.",
    "game_after_series_end": "The series was already complete before this game.",
    "dealer_wrong": "This game was dealt by the wrong player.",
    "forced_solo_expected": "The count rule requires a forced solo (Vorführen) here.",
    "forced_solo_unexpected": "A forced solo although the count rule did not trigger "
    "and there was no time-out.",
    "forced_wrong_player": "The wrong player was forced.",
    "compulsory_solo_twice": "A player's second compulsory solo.",
    "voluntary_solo_before_compulsory": "A voluntary solo before the player's compulsory solo "
    "(his first announced solo is his compulsory solo).",
    "compulsory_solo_missing": "A player did not play his compulsory solo.",
    "too_few_games": "Fewer games than a complete series, without a time-out.",
    "scores_mismatch": "The entered row differs from the computed one.",
    "row_sum_not_zero": "The entered row does not sum to zero.",
    "sitting_out_scored": "The sitting dealer has points in the entered row.",
    "row_parity": "The row breaks the even/odd rule (four-player table).",
    "row_shape": "The transcribed row is neither the shape of a normal game nor of a solo "
    "(penalty points, or a mistake).",
}

_SEVERITY: dict[str, Severity] = dict.fromkeys(FINDING_CODES, Severity.ERROR)
_SEVERITY["row_parity"] = Severity.WARNING
_SEVERITY["row_shape"] = Severity.WARNING


@dataclass(frozen=True, slots=True)
class Finding:
    severity: Severity
    code: str
    game: int | None
    data: Mapping[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity.value,
            "code": self.code,
            "game": self.game,
            "data": dict(self.data),
        }


@dataclass(frozen=True, slots=True)
class NextGame:
    """What comes next at the table.

    ``game``: row number of the next game; ``games_played``: games counted so far (not-played
    rows excluded); ``games_left``: games still to play (after a time-out: the forced solos);
    ``forced``: seat that must play a forced solo next, else ``None``; ``compulsory_open``:
    seats still lacking their compulsory solo; ``compulsory_allowed``: seats that may announce
    their compulsory solo in the next game (empty when the next game is forced).
    """

    game: int
    games_played: int
    games_left: int
    finished: bool
    dealer: int | None
    sitting_out: int | None
    forced: int | None
    compulsory_open: tuple[int, ...]
    compulsory_allowed: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "games_played": self.games_played,
            "games_left": self.games_left,
            "finished": self.finished,
            "dealer": self.dealer,
            "sitting_out": self.sitting_out,
            "forced": self.forced,
            "compulsory_solo_allowed": bool(self.compulsory_allowed),
            "compulsory_allowed": list(self.compulsory_allowed),
            "compulsory_open": list(self.compulsory_open),
        }


@dataclass(frozen=True, slots=True)
class SeriesReport:
    findings: tuple[Finding, ...]
    next: NextGame

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    def to_json(self) -> dict[str, object]:
        return {"findings": [f.to_json() for f in self.findings], "next": self.next.to_json()}


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the sequence checks need from one game."""

    dealer: int | None
    not_played: bool = False
    solo: bool = False  # contract "solo" (Hochzeit-alone and stille Hochzeit are not)
    compulsory: bool = False
    forced: bool = False
    soloist: int | None = None


def _facts(record: GameRecord) -> _Facts:
    solo = record.contract is Contract.SOLO and not record.not_played
    return _Facts(
        dealer=record.dealer,
        not_played=record.not_played,
        solo=solo,
        compulsory=record.compulsory,
        forced=record.forced,
        soloist=record.re[0] if solo else None,
    )


def _lenient_facts(data: object) -> _Facts:
    """Best guess for an invalid record, so one bad row does not derail the sequence."""
    if type(data) is not dict:
        return _Facts(dealer=None)

    def int_or_none(value: object) -> int | None:
        return value if type(value) is int else None

    re = data.get("re")
    solo = data.get("contract") == "solo"
    soloist = int_or_none(re[0]) if solo and type(re) is list and re else None
    return _Facts(
        dealer=int_or_none(data.get("dealer")),
        not_played=data.get("not_played") is True,
        solo=solo,
        compulsory=solo and data.get("compulsory") is True,
        forced=solo and data.get("forced") is True,
        soloist=soloist,
    )


class _State:
    """Mutable replay state; one instance per validation."""

    def __init__(self, table_size: int, timeout: bool, rs: RuleSet) -> None:
        self.size = table_size
        self.seats = tuple(range(1, table_size + 1))
        self.timeout = timeout
        self.rs = rs
        self.total = rs.total_games(table_size)
        self.due = self.seats[0]  # seat 1 deals first (spec 7.1)
        self.rows = 0
        self.counted = 0
        self.solos = dict.fromkeys(self.seats, 0)
        self.forced_phase = False

    def clockwise(self, seat: int) -> int:
        return seat % self.size + 1

    def open_seats(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if self.solos[s] < self.rs.compulsory_solos)

    def missing(self) -> int:
        return sum(max(self.rs.compulsory_solos - n, 0) for n in self.solos.values())

    def count_rule(self) -> bool:
        """Forced play: missing compulsory solos = games still to play (spec 7.3)."""
        missing = self.missing()
        return missing > 0 and (self.forced_phase or missing >= self.total - self.counted)

    def finished(self) -> bool:
        return self.counted >= self.total or (
            self.timeout and self.forced_phase and self.missing() == 0
        )

    def forced_player(self, dealer: int) -> int:
        """First player lacking his compulsory solo clockwise from the dealer's left."""
        seat = dealer
        for _ in self.seats:
            seat = self.clockwise(seat)
            if self.solos[seat] < self.rs.compulsory_solos:
                return seat
        raise AssertionError("nobody lacks a compulsory solo")

    def dealer_for(self, forced: int | None) -> int:
        """At a five-player table a forced due dealer passes the deal on (design decision 5)."""
        if forced is not None and forced == self.due and self.size == 5:
            return self.clockwise(self.due)
        return self.due

    def step(self, facts: _Facts, out: list[Finding] | None) -> None:
        self.rows += 1
        row = self.rows

        def report(code: str, **data: object) -> None:
            if out is not None:
                out.append(Finding(_SEVERITY[code], code, row, data))

        if self.finished():
            report("game_after_series_end")
            return
        forced_due = self.count_rule()
        expect_forced = forced_due or (facts.forced and self.timeout)
        forced = self.forced_player(self.due) if expect_forced and self.missing() else None
        expected_dealer = self.dealer_for(forced)
        dealer = facts.dealer if facts.dealer is not None else expected_dealer
        if dealer != expected_dealer:
            report("dealer_wrong", expected=expected_dealer, actual=dealer)
        if facts.not_played:  # design decision 4: same dealer again, nothing counts
            self.due = dealer
            return
        soloist = facts.soloist
        if forced_due and not facts.forced:
            report("forced_solo_expected", player=forced)
        elif facts.forced:
            if forced is None:
                report("forced_solo_unexpected", player=soloist)
            elif soloist is not None and soloist != forced:
                report("forced_wrong_player", expected=forced, actual=soloist)
        if soloist is not None and soloist in self.solos:
            done = self.solos[soloist]
            if facts.compulsory and not facts.forced and done >= self.rs.compulsory_solos:
                report("compulsory_solo_twice", seat=soloist)
            if not facts.compulsory and done < self.rs.compulsory_solos:
                report("voluntary_solo_before_compulsory", seat=soloist)
            if facts.compulsory:
                self.solos[soloist] += 1
        self.counted += 1
        if facts.forced and forced is not None:
            self.forced_phase = True
        announced_compulsory = facts.compulsory and not facts.forced
        self.due = dealer if announced_compulsory else self.clockwise(dealer)

    def next_game(self) -> NextGame:
        open_seats = self.open_seats()
        missing = self.missing()
        finished = self.counted >= self.total or (self.timeout and missing == 0)
        if finished:
            return NextGame(self.rows + 1, self.counted, 0, True, None, None, None, open_seats, ())
        forced_due = self.count_rule() or self.timeout
        forced = self.forced_player(self.due) if forced_due else None
        dealer = self.dealer_for(forced)
        sitting_out = dealer if self.size == 5 else None
        allowed = () if forced_due else tuple(s for s in open_seats if s != sitting_out)
        return NextGame(
            game=self.rows + 1,
            games_played=self.counted,
            games_left=missing if self.timeout else self.total - self.counted,
            finished=False,
            dealer=dealer,
            sitting_out=sitting_out,
            forced=forced,
            compulsory_open=open_seats,
            compulsory_allowed=allowed,
        )


def _check_table_size(table_size: int, ruleset: RuleSet) -> None:
    if table_size not in ruleset.table_sizes:
        raise ValueError(f"table size {table_size} not allowed by rule set {ruleset.name!r}")


def validate_series(
    games: Sequence[object],
    table_size: int,
    ruleset: RuleSet,
    *,
    timeout: bool = False,
    complete: bool = True,
) -> SeriesReport:
    """Check one table's games (record dicts or ``GameRecord``s, each with its dealer).

    ``timeout``: the referee called time (fewer normal games allowed; compulsory solos are
    still forced). ``complete=False`` checks a series in progress: no findings about
    missing games or compulsory solos at the end.
    """
    _check_table_size(table_size, ruleset)
    state = _State(table_size, timeout, ruleset)
    findings: list[Finding] = []
    for index, game in enumerate(games, 1):
        if isinstance(game, GameRecord):
            record: GameRecord | EngineError = game
        else:
            record = parse_record(game, ruleset, require_dealer=True)
        if isinstance(record, GameRecord) and record.dealer is None:
            record = EngineError("missing_field", "dealer", "dealer is required in a series.")
        if isinstance(record, EngineError):
            findings.append(
                Finding(Severity.ERROR, "invalid_game", index, {"error": record.to_json()})
            )
            state.step(_lenient_facts(game), findings)
            continue
        if len(record.seats) != table_size:
            findings.append(
                Finding(
                    Severity.ERROR,
                    "table_size_mismatch",
                    index,
                    {"expected": table_size, "actual": len(record.seats)},
                )
            )
        else:
            _check_row(record, index, ruleset, findings)
        state.step(_facts(record), findings)
    if complete:
        _end_findings(state, findings)
    return SeriesReport(tuple(findings), state.next_game())


def _end_findings(state: _State, out: list[Finding]) -> None:
    """Findings about a complete series: missing games (unless time-out), open solos."""
    if not state.timeout and state.counted < state.total:
        out.append(
            Finding(
                Severity.ERROR,
                "too_few_games",
                None,
                {"expected": state.total, "actual": state.counted},
            )
        )
    for seat in state.open_seats():
        out.append(Finding(Severity.ERROR, "compulsory_solo_missing", None, {"seat": seat}))


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
    _check_table_size(table_size, ruleset)
    state = _State(table_size, timeout, ruleset)
    for game in games:
        record = game if isinstance(game, GameRecord) else parse_record(game, ruleset)
        facts = _lenient_facts(game) if isinstance(record, EngineError) else _facts(record)
        state.step(facts, None)
    return state.next_game()


def _check_row(
    record: GameRecord,
    index: int,
    rs: RuleSet,
    out: list[Finding],
    computed: Mapping[int, int] | None = None,
) -> None:
    """Sheet checks of spec 7.5: row sum, sitter 0, even/odd rule, entered vs computed."""
    if computed is None:
        computed = score(record, rs).scores
    deducted = dict.fromkeys(record.seats, 0)
    for d in record.deductions:
        deducted[d.seat] += d.points
    row = computed
    if record.entered_scores is not None:
        row = dict(zip(record.seats, record.entered_scores, strict=True))
        if row != computed:
            out.append(
                Finding(
                    Severity.ERROR,
                    "scores_mismatch",
                    index,
                    {"expected": _json_row(computed), "actual": _json_row(row)},
                )
            )
        row_sum = sum(row.values()) - sum(deducted.values())
        if row_sum:
            out.append(Finding(Severity.ERROR, "row_sum_not_zero", index, {"sum": row_sum}))
        sitter = record.sitting_out
        if sitter is not None and row[sitter] != deducted[sitter]:
            out.append(Finding(Severity.ERROR, "sitting_out_scored", index, {"seat": sitter}))
    if len(record.seats) == 4 and not _parity_ok(record, row, deducted):
        out.append(Finding(_SEVERITY["row_parity"], "row_parity", index, {"row": _json_row(row)}))


def _parity_ok(record: GameRecord, row: Mapping[int, int], deducted: Mapping[int, int]) -> bool:
    parities = {(row[s] - deducted[s]) % 2 for s in record.seats}
    if len(parities) == 1:
        return True
    # TSR 7.5: only penalty points in a solo in favour of the soloist may break the rule.
    soloist = record.soloist
    return soloist is not None and any(p.seat == soloist and p.points > 0 for p in record.penalties)


def _json_row(row: Mapping[int, int]) -> dict[str, int]:
    return {str(seat): points for seat, points in row.items()}


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
    """

    before: NextGame
    after: NextGame
    findings: tuple[Finding, ...]
    later: tuple[Finding, ...] = ()
    record: GameRecord | None = None
    data: Mapping[str, object] | None = None
    result: GameResult | None = None

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
) -> Completion | EngineError:
    """Complete, check and score game ``number`` (default: the next row) of a sheet.

    ``stored``: the sheet's rows as accepted before (record dicts with their dealer); they are
    replayed from their facts without being parsed or scored again. ``facts``: what the table
    reports about the game (contract, parties, announcements, Augen, tricks, extras,
    penalties). The replay supplies ``DERIVED_FIELDS``: the seats, the dealer, who sits out,
    and for a solo whether it is the soloist's compulsory solo (his first solo, TSR 4.3.1)
    and whether it is forced. A derived field sent anyway must agree (``derived_mismatch``).
    One replay, one parse, one scoring.
    """
    _check_table_size(table_size, ruleset)
    if number is None:
        number = len(stored) + 1
    if not 1 <= number <= len(stored) + 1:
        raise ValueError(f"game {number} is not on a sheet of {len(stored)} rows")
    if type(facts) is not dict:
        return EngineError("not_an_object", "", "A game record must be a JSON object.")
    state = _State(table_size, timeout, ruleset)
    for row in stored[: number - 1]:
        state.step(_lenient_facts(row), None)
    before = state.next_game()
    if before.finished:
        end = Finding(Severity.ERROR, "game_after_series_end", number, {})
        return Completion(before, before, (end,))
    derived = _derived(facts, before, table_size)
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
    findings: list[Finding] = []
    _check_row(record, number, ruleset, findings, computed=result.scores)
    state.step(_facts(record), findings)
    later: list[Finding] = []
    for row in stored[number:]:
        state.step(_lenient_facts(row), later)
    return Completion(
        before, state.next_game(), tuple(findings), tuple(later), record, data, result
    )


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
