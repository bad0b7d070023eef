"""The replay of a score sheet (spec 7, 7.5): the one machine behind every sequence check.

A sheet is one table's rows in playing order. Whatever a row is made of (a full game record
in ``rules.series``, a paper row in ``rules.transcription``), the sequence checks need only a
few facts of it (``GameFacts``): who dealt, whether it was played, and the solo marks.
``Replay`` steps through those facts (dealer due, games counted, compulsory solos done,
forced phase), reports ``Finding``s and says what comes next (``NextGame``).

``validate_sheet`` and ``next_on_sheet`` are the two loops over a sheet; a ``SheetReader``
tells them how to read, check and lean on one kind of row. Game numbers in findings are
1-based rows of the sheet, not-played rows included.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, TypeVar

from rules.errors import EngineError
from rules.ruleset import RuleSet, ThrownInDeal


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

#: Every finding is an error but these: penalty points legitimately break parity and shapes.
SEVERITY: Mapping[str, Severity] = {
    code: Severity.WARNING if code in ("row_parity", "row_shape") else Severity.ERROR
    for code in FINDING_CODES
}


@dataclass(frozen=True, slots=True)
class Finding:
    severity: Severity
    code: str
    game: int | None
    data: Mapping[str, object] = field(default_factory=dict)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    @classmethod
    def of(cls, code: str, game: int | None, **data: object) -> Finding:
        """A finding with the severity its code has."""
        return cls(SEVERITY[code], code, game, data)

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
        return not any(f.is_error for f in self.findings)

    def to_json(self) -> dict[str, object]:
        return {"findings": [f.to_json() for f in self.findings], "next": self.next.to_json()}


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the sequence checks need from one row of a sheet."""

    dealer: int | None
    not_played: bool = False
    solo: bool = False  # contract "solo" (Hochzeit-alone and stille Hochzeit are not)
    compulsory: bool = False
    forced: bool = False
    soloist: int | None = None
    thrown_in: bool = False  # house rule "Schmeißen": a hand thrown in, no score


def check_table_size(table_size: int, ruleset: RuleSet) -> None:
    if table_size not in ruleset.table_sizes:
        raise ValueError(f"table size {table_size} not allowed by rule set {ruleset.name!r}")


class Replay:
    """The state of a sheet replayed up to some row; one instance per replay."""

    def __init__(self, table_size: int, ruleset: RuleSet, *, timeout: bool = False) -> None:
        check_table_size(table_size, ruleset)
        self.size = table_size
        self.seats = tuple(range(1, table_size + 1))
        self.timeout = timeout
        self.rs = ruleset
        self.total = ruleset.total_games(table_size)
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

    def step(self, facts: GameFacts, out: list[Finding] | None = None) -> None:
        """Play one row; its sequence findings go to ``out`` (none when ``out`` is None)."""
        self.rows += 1
        row = self.rows

        def report(code: str, **data: object) -> None:
            if out is not None:
                out.append(Finding.of(code, row, **data))

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
        if facts.thrown_in:  # house rule: counted or not, same dealer or the next one
            self.counted += self.rs.thrown_in_counts
            same = self.rs.thrown_in_deal is ThrownInDeal.SAME_DEALER
            self.due = dealer if same else self.clockwise(dealer)
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

    def end_findings(self) -> list[Finding]:
        """Findings about a complete sheet: missing games (unless time-out), open solos."""
        out: list[Finding] = []
        if not self.timeout and self.counted < self.total:
            out.append(Finding.of("too_few_games", None, expected=self.total, actual=self.counted))
        out.extend(Finding.of("compulsory_solo_missing", None, seat=s) for s in self.open_seats())
        return out


Row = TypeVar("Row")


@dataclass(frozen=True, slots=True)
class SheetReader(Generic[Row]):
    """How the sheet loops read one kind of row.

    ``read``: the raw row (a decoded JSON object or an already parsed row) to a parsed row or
    an error; ``facts``: a parsed row's facts; ``lenient``: the best guess of the facts of an
    unreadable row, so one bad row does not derail the sequence; ``seats``: how many seats a
    parsed row has; ``check``: the row checks of a parsed row as row ``index``.
    """

    read: Callable[[object], Row | EngineError]
    facts: Callable[[Row], GameFacts]
    lenient: Callable[[object], GameFacts]
    seats: Callable[[Row], int]
    check: Callable[[Row, int], Sequence[Finding]]


def validate_sheet(
    rows: Sequence[object],
    table_size: int,
    ruleset: RuleSet,
    reader: SheetReader[Row],
    *,
    timeout: bool = False,
    complete: bool | None = True,
) -> SeriesReport:
    """Replay a whole sheet with every row check; ``complete=False``: no end findings;
    ``complete=None``: the end findings once the sheet is finished (a page's view of a sheet
    in progress, from one replay)."""
    replay = Replay(table_size, ruleset, timeout=timeout)
    findings: list[Finding] = []
    for index, raw in enumerate(rows, 1):
        check_step(replay, reader, raw, index, findings)
    return report_of(replay, findings, complete=complete)


def check_step(
    replay: Replay, reader: SheetReader[Row], raw: object, index: int, findings: list[Finding]
) -> None:
    """Read row ``index`` of a sheet, check it and play it; its findings go to ``findings``."""
    row = reader.read(raw)
    if isinstance(row, EngineError):
        findings.append(Finding.of("invalid_game", index, error=row.to_json()))
        replay.step(reader.lenient(raw), findings)
        return
    seats = reader.seats(row)
    if seats != replay.size:
        mismatch = Finding.of("table_size_mismatch", index, expected=replay.size, actual=seats)
        findings.append(mismatch)
    else:
        findings.extend(reader.check(row, index))
    replay.step(reader.facts(row), findings)


def report_of(replay: Replay, findings: list[Finding], *, complete: bool | None) -> SeriesReport:
    """The report of a replayed sheet (``complete`` as in ``validate_sheet``)."""
    nxt = replay.next_game()
    if complete or (complete is None and nxt.finished):
        findings = [*findings, *replay.end_findings()]
    return SeriesReport(tuple(findings), nxt)


def next_on_sheet(
    rows: Sequence[object],
    table_size: int,
    ruleset: RuleSet,
    reader: SheetReader[Row],
    *,
    timeout: bool = False,
) -> NextGame:
    """What comes next after ``rows``; cheap: no row checks, no findings."""
    replay = Replay(table_size, ruleset, timeout=timeout)
    for raw in rows:
        row = reader.read(raw)
        replay.step(reader.lenient(raw) if isinstance(row, EngineError) else reader.facts(row))
    return replay.next_game()


def json_row(row: Mapping[int, int]) -> dict[str, int]:
    """A row of points keyed by seat, as JSON (seat numbers as strings)."""
    return {str(seat): points for seat, points in row.items()}
