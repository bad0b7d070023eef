"""Transcription mode: check a paper score sheet (Spielliste) row by row (spec 7.5).

Events that keep paper sheets enter per game only what the sheet shows: the points of every
seat and the solo marks. The engine cannot recompute such a row; it checks the sums, shapes,
parity, compulsory solos and the game count, with the same replay machine and the same
``Finding`` codes as ``rules.series.validate_series``.

Transcribed row (a decoded JSON object)::

    {"dealer": 3, "scores": {"1": 3, "2": -1, "3": -1, "4": -1},
     "soloist": 1, "compulsory": true, "forced": false}

- ``dealer`` (required): the seat that dealt; at a five-player table it sits out and must
  score 0.
- ``scores`` (required): ``{"1": n, ...}`` with every seat of the table exactly once; the
  points as written on the sheet (deductions included, see below).
- ``soloist`` (seat or ``null``, default ``null``): the soloist of a solo (Pflicht- or
  Lustsolo). A stille Hochzeit or a Hochzeit played alone is scored like a solo but is
  written without a soloist mark (it is a normal-rubric game and never a compulsory solo).
- ``compulsory`` (default false): the row is the soloist's compulsory solo (Pflicht rubric).
- ``forced`` (default false): the compulsory solo was forced (vorgeführt); implies
  ``compulsory``.
- ``not_played`` (default false): a severe violation, "not played" (design decision 4): the
  row carries only penalty points, the same dealer deals again, an open compulsory solo stays
  open, the row does not count; no solo marks.
- ``deductions`` (optional): ``[{"seat": s, "points": n}, ...]``, unsportsmanlike deductions
  (TSR 9.7, -12..-1 each under ``ddv``: ``RuleSet.deduction_allowed``) that are included
  in ``scores`` but have no counter-credit; the row checks leave them out.

Unknown fields are rejected; integers must be JSON integers (no booleans, floats, strings).

Row checks (``check_transcribed_row``) on the row without its deductions:

- ``row_sum_not_zero`` (error): the row does not sum to zero.
- ``sitting_out_scored`` (error): the sitting dealer (five-player table) is not 0.
- ``row_parity`` (warning, four-player tables): not all even or all odd; excused when the row
  is a solo shape plus a penalty credited to the soloist (TSR 7.5: (+3, 0, 0, -3),
  (+15, 0, 0, -15), vector P6 (+12, -6, -3, -3)): the soloist gets +p and one opponent -p on
  top of the solo shape, p a penalty size of the rule set (3, or 12 + 3k for k = 0..4).
- ``row_shape`` (warning): the active seats are neither a normal game ``{+v, +v, -v, -v}``
  (all 0 included) nor a solo ``{3v, -v, -v, -v}`` of the marked soloist (an unmarked row may
  also be the solo shape of any seat: stille Hochzeit, Hochzeit alone; a not-played row must
  be all 0 or the severe-penalty shape ``{-3n, +n, +n, +n}``). A warning, because penalty
  points legitimately break shapes; the organizer checks them against the referee's
  signature.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.errors import EngineError, InvalidInput, fail
from rules.gamerecord import SeatPoints
from rules.replay import (
    Finding,
    GameFacts,
    NextGame,
    SeriesReport,
    SheetReader,
    json_row,
    next_on_sheet,
    validate_sheet,
)
from rules.ruleset import RuleSet

__all__ = [
    "TranscribedRow",
    "check_transcribed_row",
    "next_transcribed",
    "parse_transcribed",
    "validate_transcription",
]

_KNOWN = ("dealer", "scores", "soloist", "compulsory", "forced", "not_played", "deductions")
_COMPONENT_KEYS = ("seat", "points")


@dataclass(frozen=True, slots=True)
class TranscribedRow:
    """One validated row of a paper sheet. Build it with ``parse_transcribed``.

    ``scores`` is aligned with ``seats`` (deductions included, as written on the sheet).
    """

    seats: tuple[int, ...]
    dealer: int
    scores: tuple[int, ...]
    soloist: int | None = None
    compulsory: bool = False
    forced: bool = False
    not_played: bool = False
    deductions: tuple[SeatPoints, ...] = ()

    @property
    def sitting_out(self) -> int | None:
        """At a five-player table the dealer sits out."""
        return self.dealer if len(self.seats) == 5 else None

    @property
    def row(self) -> dict[int, int]:
        return dict(zip(self.seats, self.scores, strict=True))

    def to_json(self) -> dict[str, object]:
        """The row in the input format (round-trips through ``parse_transcribed``)."""
        data: dict[str, object] = {
            "dealer": self.dealer,
            "scores": json_row(self.row),
            "soloist": self.soloist,
            "compulsory": self.compulsory,
            "forced": self.forced,
        }
        if self.not_played:
            data["not_played"] = True
        if self.deductions:
            data["deductions"] = [{"seat": d.seat, "points": d.points} for d in self.deductions]
        return data


# --- parsing -------------------------------------------------------------------------------


def parse_transcribed(
    data: object, table_size: int, ruleset: RuleSet
) -> TranscribedRow | EngineError:
    """Validate one transcribed row (a decoded JSON object); never raises for bad data."""
    try:
        return _parse(data, table_size, ruleset)
    except InvalidInput as exc:
        return exc.error


def _parse(data: object, table_size: int, rs: RuleSet) -> TranscribedRow:
    if table_size not in rs.table_sizes:
        fail("invalid_table_size", "")
    if type(data) is not dict:
        fail("not_an_object", "", "A transcribed row must be a JSON object.")
    for key in data:
        if key not in _KNOWN:
            fail("unknown_field", str(key), f"Unknown field {key!r}.")
    seats = tuple(range(1, table_size + 1))
    if "dealer" not in data:
        fail("missing_field", "dealer", "dealer is required.")
    dealer = _seat(data["dealer"], "dealer", seats)
    if "scores" not in data:
        fail("missing_field", "scores", "scores is required.")
    raw = data["scores"]
    if type(raw) is not dict:
        fail("wrong_type", "scores", "scores must be an object.")
    if set(raw) != {str(s) for s in seats}:
        fail("scores_seats_mismatch", "scores")
    scores = tuple(_int(raw[str(s)], f"scores.{s}") for s in seats)
    soloist_value = data.get("soloist")
    soloist = None if soloist_value is None else _seat(soloist_value, "soloist", seats)
    compulsory = _bool(data, "compulsory")
    forced = _bool(data, "forced")
    not_played = _bool(data, "not_played")
    if not_played:
        marks = (("soloist", soloist is not None), ("compulsory", compulsory), ("forced", forced))
        for key, marked in marks:
            if marked:
                fail("not_played_game_fields", key, "A row that was not played has no solo marks.")
    if forced and not compulsory:
        fail("forced_not_compulsory", "forced")
    if soloist is None and (compulsory or forced):
        fail("solo_flag_not_allowed", "compulsory", "A compulsory solo needs its soloist.")
    if soloist is not None and table_size == 5 and soloist == dealer:
        fail("seat_sitting_out", "soloist", "The dealer sits out and cannot be the soloist.")
    deductions = _deductions(data.get("deductions"), seats, rs)
    return TranscribedRow(
        seats, dealer, scores, soloist, compulsory, forced, not_played, deductions
    )


def _int(value: object, field: str) -> int:
    if type(value) is not int:
        fail("wrong_type", field, f"{field} must be an integer.")
    return value


def _seat(value: object, field: str, seats: tuple[int, ...]) -> int:
    seat = _int(value, field)
    if seat not in seats:
        fail("seat_not_at_table", field, f"Seat {seat} is not at this table.")
    return seat


def _bool(data: dict[object, object], key: str) -> bool:
    value = data.get(key, False)
    if type(value) is not bool:
        fail("wrong_type", key, f"{key} must be true or false.")
    return value


def _deductions(value: object, seats: tuple[int, ...], rs: RuleSet) -> tuple[SeatPoints, ...]:
    if value is None:
        return ()
    if type(value) is not list:
        fail("wrong_type", "deductions", "deductions must be a list.")
    items: list[SeatPoints] = []
    for i, raw in enumerate(value):
        field = f"deductions.{i}"
        if type(raw) is not dict:
            fail("wrong_type", field, f"{field} must be an object.")
        for k in raw:
            if k not in _COMPONENT_KEYS:
                fail("unknown_field", f"{field}.{k}", f"Unknown field {k!r}.")
        for k in _COMPONENT_KEYS:
            if k not in raw:
                fail("missing_field", f"{field}.{k}", f"{k} is required.")
        seat = _seat(raw["seat"], f"{field}.seat", seats)
        points = _int(raw["points"], f"{field}.points")
        if not rs.deduction_allowed(points):
            fail(
                "deduction_out_of_range",
                f"{field}.points",
                f"A deduction is between -{rs.max_deduction} and -1 points.",
            )
        items.append(SeatPoints(seat, points))
    return tuple(items)


# --- row checks ----------------------------------------------------------------------------


def check_transcribed_row(
    row: TranscribedRow, ruleset: RuleSet, game: int | None = None
) -> tuple[Finding, ...]:
    """The sheet checks of one row (spec 7.5): sum, sitter 0, even/odd rule, shape.

    ``game`` is the row number to put into the findings. Suitable right after each game.
    """
    entered = row.row
    net = dict(entered)
    for d in row.deductions:
        net[d.seat] -= d.points
    out: list[Finding] = []

    def report(code: str, **data: object) -> None:
        out.append(Finding.of(code, game, **data))

    total = sum(net.values())
    if total:
        report("row_sum_not_zero", sum=total)
    sitter = row.sitting_out
    if sitter is not None and net[sitter]:
        report("sitting_out_scored", seat=sitter)
    active = tuple(s for s in row.seats if s != sitter)
    if (
        len(row.seats) == 4
        and len({net[s] % 2 for s in active}) > 1
        and not _soloist_credit(row, net, active, ruleset)
    ):
        report("row_parity", row=json_row(entered))
    if not _shape_ok(row, net, active, ruleset):
        report("row_shape", row=json_row(entered))
    return tuple(out)


def _is_normal(values: Sequence[int]) -> bool:
    """{+v, +v, -v, -v} (v may be 0 or negative)."""
    a, b, c, d = sorted(values)
    return a == b and c == d and a == -d


def _is_solo(net: Mapping[int, int], soloist: int, active: Sequence[int], rs: RuleSet) -> bool:
    """Soloist ``factor * v``, each opponent ``-v``."""
    opponents = {net[s] for s in active if s != soloist}
    return len(opponents) == 1 and net[soloist] == -rs.solo_factor * opponents.pop()


def _is_spread(net: Mapping[int, int], violator: int, active: Sequence[int]) -> bool:
    """Violator ``-3n``, each other active player ``+n`` (n = 0 included)."""
    others = {net[s] for s in active if s != violator}
    return len(others) == 1 and net[violator] == -(len(active) - 1) * others.pop()


def _shape_ok(
    row: TranscribedRow, net: Mapping[int, int], active: Sequence[int], rs: RuleSet
) -> bool:
    if len(active) != 4:  # not a table of four active players: no shape to compare
        return True
    if row.not_played:  # only penalty points: none, or a severe penalty spread on the others
        return any(_is_spread(net, s, active) for s in active)
    if row.soloist is not None:
        return _is_solo(net, row.soloist, active, rs)
    values = [net[s] for s in active]
    return _is_normal(values) or any(_is_solo(net, s, active, rs) for s in active)


def _credits(rs: RuleSet) -> frozenset[int]:
    """Penalty points that can be credited to a soloist (TSR 9.3.3 b1, 9.4.4)."""
    severe = (rs.severe_penalty + rs.severe_penalty_per_absage * k for k in range(5))
    return frozenset((rs.minor_penalty, *severe))


def _soloist_credit(
    row: TranscribedRow, net: Mapping[int, int], active: Sequence[int], rs: RuleSet
) -> bool:
    """Is the row a solo shape plus a penalty credit p to the soloist from one opponent?

    (soloist ``3v + p``, violator ``-v - p``, the two others ``-v``; spec 7.5 exception.)
    Tried for the marked soloist, or for every seat of an unmarked row (stille Hochzeit,
    Hochzeit alone are scored like solos).
    """
    if row.not_played:
        return False
    credits = _credits(rs)
    candidates = (row.soloist,) if row.soloist is not None else tuple(active)
    for soloist in candidates:
        opponents = [s for s in active if s != soloist]
        for violator in opponents:
            a, b = (net[s] for s in opponents if s != violator)
            p = a - net[violator]
            if a == b and p in credits and net[soloist] == -rs.solo_factor * a + p:
                return True
    return False


# --- the sheet -----------------------------------------------------------------------------


def _facts(row: TranscribedRow) -> GameFacts:
    return GameFacts(
        dealer=row.dealer,
        not_played=row.not_played,
        solo=row.soloist is not None,
        compulsory=row.compulsory,
        forced=row.forced,
        soloist=row.soloist,
    )


def _lenient_facts(data: object, table_size: int) -> GameFacts:
    """Best guess for an invalid row, so one bad row does not derail the sequence."""
    if isinstance(data, TranscribedRow):
        return _facts(data)
    if type(data) is not dict:
        return GameFacts(dealer=None)

    def seat_or_none(value: object) -> int | None:
        return value if type(value) is int and 1 <= value <= table_size else None

    soloist = seat_or_none(data.get("soloist"))
    solo = soloist is not None
    return GameFacts(
        dealer=seat_or_none(data.get("dealer")),
        not_played=data.get("not_played") is True,
        solo=solo,
        compulsory=solo and data.get("compulsory") is True,
        forced=solo and data.get("forced") is True,
        soloist=soloist,
    )


def _reader(table_size: int, rs: RuleSet) -> SheetReader[TranscribedRow]:
    def read(data: object) -> TranscribedRow | EngineError:
        if isinstance(data, TranscribedRow):
            return data
        return parse_transcribed(data, table_size, rs)

    return SheetReader(
        read=read,
        facts=_facts,
        lenient=lambda data: _lenient_facts(data, table_size),
        seats=lambda row: len(row.seats),
        check=lambda row, index: check_transcribed_row(row, rs, index),
    )


def validate_transcription(
    rows: Sequence[object],
    table_size: int,
    ruleset: RuleSet,
    *,
    timeout: bool = False,
    complete: bool | None = True,
) -> SeriesReport:
    """Check a transcribed sheet (row dicts or ``TranscribedRow``s) in playing order.

    Same replay and findings as ``validate_series`` (dealer order, forced and compulsory
    solos, game count; ``timeout``/``complete`` mean the same), plus the row checks of
    ``check_transcribed_row``. Raises ``ValueError`` for a table size the rule set does not
    allow (as ``validate_series``).
    """
    reader = _reader(table_size, ruleset)
    return validate_sheet(rows, table_size, ruleset, reader, timeout=timeout, complete=complete)


def next_transcribed(
    rows: Sequence[object],
    table_size: int,
    ruleset: RuleSet,
    *,
    timeout: bool = False,
) -> NextGame:
    """What comes next after ``rows``; cheap: no row checks, no findings (``next_game``)."""
    return next_on_sheet(rows, table_size, ruleset, _reader(table_size, ruleset), timeout=timeout)
