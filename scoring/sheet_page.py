"""A table's sheet page as data: everything the captain's (and the organizer's) page shows.

``build_page`` takes what the view has read (the table, its seats, the sheet, the games and
the sheet's ``SeriesReport``, from a replay or from the completion a save already has) and
answers a frozen ``SheetPage``. Its ``state`` is the one value the template switches on;
``step`` is the sheet's own next step below the games (submit, confirm). No request, no
response: the views only gather, build and render.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.series import NextGame, SeriesReport
from rules.stored import StoredGame
from scoring.clock import TableClock
from scoring.forms import GameForm, TranscriptionForm
from scoring.messages import ToldFinding, breakdown_lines, tell
from scoring.models import Game, ScoreSheet
from scoring.services.sheet import after_time_out
from scoring.timing import table_clock_of
from scoring.totals import running_totals, seat_points
from scoring.views.sheet_data import sheet_data
from tournaments.models import Seat, Series, Table

AnyForm = GameForm | TranscriptionForm


class State(StrEnum):
    """What the page is about now (in the order the page decides it)."""

    CORRECTING = "correcting"  # a saved game in the form, to be corrected
    VIEWING = "viewing"  # a saved game shown read-only (``read_only`` says why)
    NOT_STARTED = "not_started"  # the series has not started (organizers only get here)
    CLOSED = "closed"  # the series is closed (organizers may still enter a missing game)
    CONFIRMED = "confirmed"
    WAITING = "waiting"  # submitted on this phone: another player confirms on theirs
    SUBMITTED = "submitted"  # submitted: confirmed here, on another phone or by organizers
    COMPLETE = "complete"  # every game is entered: check and submit
    ENTERING = "entering"  # the next game's form


class ReadOnly(StrEnum):
    """Why a game is shown read-only."""

    NOT_STARTED = "not_started"
    CLOSED = "closed"
    CONFIRMED = "confirmed"
    SUBMITTED = "submitted"


#: Why a game is shown read-only, in words.
READ_ONLY_NOTES: dict[ReadOnly, Promise] = {
    ReadOnly.NOT_STARTED: gettext_lazy(
        "The series has not started yet: games can be entered once it starts."
    ),
    ReadOnly.CLOSED: gettext_lazy("The series is closed: games can no longer be corrected here."),
    ReadOnly.CONFIRMED: gettext_lazy(
        "The sheet is confirmed: games can no longer be corrected here."
    ),
    ReadOnly.SUBMITTED: gettext_lazy(
        "The sheet has been submitted: games can no longer be corrected here."
    ),
}

#: A closed series: what became of the sheet.
CLOSED_NOTES: dict[str, Promise] = {
    ScoreSheet.Status.CONFIRMED: gettext_lazy("The sheet is confirmed."),
    ScoreSheet.Status.SUBMITTED: gettext_lazy("The sheet was submitted but never confirmed."),
    ScoreSheet.Status.OPEN: gettext_lazy("The sheet was never submitted."),
}


class Step(StrEnum):
    """The sheet's step below the games."""

    SUBMIT = "submit"
    CONFIRM = "confirm"
    ORGANIZERS_CONFIRM = "organizers_confirm"  # a note: the organizers confirm


@dataclass(frozen=True)
class SheetSeat:
    """A player at the table as the sheet shows him: full name, and a short form in two
    parts ("Anna", "S.") for the narrow score columns of a phone."""

    position: int
    name: str
    first: str
    last: str

    @property
    def short(self) -> str:
        return f"{self.first} {self.last}".strip()


@dataclass(frozen=True)
class SheetRow:
    game: Game
    points: tuple[int, ...]
    totals: tuple[int, ...]
    provisional: bool = False  # concerned by the table's open referee call


@dataclass(frozen=True)
class BreakdownLine:
    """One item of a game's value and the party it counts for ("Re"/"Kontra", in a solo
    "soloist"/"opponents")."""

    label: str
    party: str
    party_label: str
    points: int


@dataclass(frozen=True)
class Chip:
    seat: SheetSeat
    points: int


@dataclass(frozen=True)
class Preview:
    """A game's value explained: who won, the items of the value, everyone's points."""

    winner: str | None
    value: int
    solo: bool
    lines: list[BreakdownLine]
    chips: list[Chip]


@dataclass(frozen=True)
class ShownGame:
    """A saved game at the top of the page (corrected or viewed)."""

    number: int
    dealer_name: str
    mark: str  # "forced solo", "compulsory solo" (in words) or ""
    preview: Preview | None


@dataclass(frozen=True)
class ClockBox:
    """The table's clock on its sheet; once time is up or called, what may still be played."""

    clock: TableClock | None = None
    paused: bool = False
    time_up: bool = False
    time_called: bool = False
    solos_open: tuple[int, ...] = ()
    solos_text: str = ""

    @property
    def shown(self) -> bool:
        return self.clock is not None or self.time_up


@dataclass(frozen=True)
class GameEntry:
    """The form of a game: a new one, a correction, or a missing one after the close.

    The form is built when the page draws it (``build``); a blank one the phone keeps a copy
    of is neither built nor drawn. ``keep``: what the blank form of the captain's next game is
    drawn from, the key of ``{% keep_part %}``; None for any other form."""

    build: Callable[[], AnyForm]
    keep: tuple[Any, ...] | None
    action: str
    correcting: int | None  # the game's number when correcting
    idempotency_key: str
    sitting_out: int | None
    late: bool  # behind a fold: a missing game of a closed series
    transcription: bool

    @functools.cached_property
    def form(self) -> AnyForm:
        return self.build()


@dataclass(frozen=True)
class SheetPage:
    state: State
    read_only: ReadOnly | None
    step: Step | None
    table: Table
    sheet: ScoreSheet
    next: NextGame
    base: str
    as_organizer: bool
    organizers_confirm: bool
    seating: tuple[SheetSeat, ...]
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]
    can_correct: bool  # rows link to their correction; the last game can be deleted
    marked: int | None  # the row of the game corrected or viewed
    game: ShownGame | None  # CORRECTING, VIEWING
    dealer_name: str  # of the game shown, else of the next game
    forced_name: str  # ENTERING: who must play the forced solo now
    correct_last: int | None  # the last game, offered for correction
    entry: GameEntry | None
    confirmers: tuple[SheetSeat, ...]  # WAITING
    errors: tuple[ToldFinding, ...]
    warnings: tuple[ToldFinding, ...]
    clock: ClockBox
    reason: str
    sheet_data: dict[str, Any] | None  # the outbox's data, on the captain's link only
    referee: Any = None  # the referee call's box (scoring.referee_box.RefereeBox)

    @property
    def series_closed(self) -> bool:
        return self.table.series.status == Series.Status.CLOSED

    @property
    def read_only_note(self) -> str:
        return str(READ_ONLY_NOTES[self.read_only]) if self.read_only else ""

    @property
    def closed_note(self) -> str:
        return str(CLOSED_NOTES.get(self.sheet.status, ""))

    @property
    def title(self) -> str:
        table = _("Table")
        head = f"{table} {self.table.number} – {self.table.series.tournament.name}"
        if self.state is State.CORRECTING and self.game is not None:
            return _("Correcting game %(n)s") % {"n": self.game.number} + " – " + head
        return head


@dataclass(frozen=True)
class Door:
    """Who looks at the page and what he may do there (the view's door)."""

    base: str
    as_organizer: bool
    device: str
    writable: bool


def short_names(names: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Short forms of (first, last) names, unique at the table: ("Anna", "S."); where two
    would look alike, more of the last name ("Sch."), up to all of it."""

    def form(first: str, last: str, letters: int) -> tuple[str, str]:
        if not first or not last:
            return (first or last, "")
        return (first, last if letters >= len(last) else f"{last[:letters]}.")

    letters = [1] * len(names)
    while True:
        forms = [form(f, last, n) for (f, last), n in zip(names, letters, strict=True)]
        clash = [i for i, x in enumerate(forms) if forms.count(x) > 1]
        grow = [i for i in clash if letters[i] < len(names[i][1])]
        if not grow:
            return forms
        for i in grow:
            letters[i] += 1


def seating_of(seats: Sequence[Seat]) -> list[SheetSeat]:
    players = [s.registration.player for s in seats]
    shorts = short_names([(p.first_name, p.last_name) for p in players])
    return [
        SheetSeat(s.position, str(p), first, last)
        for s, p, (first, last) in zip(seats, players, shorts, strict=True)
    ]


def names_of(seats: Sequence[Seat]) -> dict[int, str]:
    """Seat -> player, for messages that name a seat."""
    return {s.position: str(s.registration.player) for s in seats}


def seat_choices(seats: Sequence[Seat], sitting_out: int | None) -> list[tuple[int, str]]:
    """The seats a game's form offers: all but the one sitting out."""
    return [
        (s.position, f"{s.position} · {s.registration.player}")
        for s in seats
        if s.position != sitting_out
    ]


def build_preview(
    seating: Sequence[SheetSeat],
    *,
    winner: str | None,
    value: int,
    scores: Mapping[str, Any],
    breakdown: list[dict[str, object]],
    record: Mapping[str, Any],
) -> Preview:
    solo = StoredGame.from_record(record).played_alone  # a solo or a Hochzeit played alone
    parties = (
        {"re": _("Soloist"), "kontra": _("Opponents")} if solo else {"re": "Re", "kontra": "Kontra"}
    )
    lines = [
        BreakdownLine(
            label=str(line["label"]),
            party=str(line.get("party", "")),
            party_label=parties.get(str(line.get("party", "")), ""),
            points=int(str(line.get("points", 0))),
        )
        for line in breakdown_lines(breakdown)
    ]
    chips = [Chip(s, int(scores.get(str(s.position), 0))) for s in seating]
    return Preview(winner or None, value, solo, lines, chips)


def new_form(
    seats: Sequence[Seat],
    nxt: NextGame,
    editing: Game | None,
    sitting: int | None,
    *,
    transcription: bool,
) -> AnyForm:
    """The blank form of the next game, or the form of a saved game to correct."""
    choices = seat_choices(seats, sitting)
    if transcription:
        if editing is not None:
            initial = TranscriptionForm.initial_from_record(editing.record)
        else:
            forced = nxt.forced
            initial = {"soloist": forced, "forced": bool(forced), "compulsory": bool(forced)}
        return TranscriptionForm(initial=initial, seats=choices, sitting_out=sitting)
    if editing is not None:
        initial = GameForm.initial_from_record(editing.record)
    else:
        initial = {"contract": "normal", "points_of": "re"}
        if nxt.forced:
            initial = {"contract": "solo", "soloist": nxt.forced, "points_of": "re"}
    return GameForm(initial=initial, seats=choices)


def _as_posted(form: AnyForm) -> AnyForm:
    """A form posted back: drawn as it came, with its errors."""
    return form


def own_clock(table: Table, size: int) -> TableClock | None:
    """The clock of the table (``size`` seats) while its series runs (None before the
    signal)."""
    if table.series.status != Series.Status.RUNNING:
        return None
    return table_clock_of(table, size)


def clock_box(
    table: Table,
    sheet: ScoreSheet,
    records: list[dict[str, Any]],
    nxt: NextGame,
    names: Mapping[int, str],
) -> ClockBox:
    """The table's clock while it still plays (running series, open sheet, games left);
    once its time is up or called, what may still be played: the game in progress, then the
    compulsory solos still open (who; a replay of its own until time is called)."""
    if table.series.status != Series.Status.RUNNING:
        return ClockBox()
    if sheet.status != ScoreSheet.Status.OPEN or nxt.finished:
        return ClockBox()
    own = own_clock(table, len(names))
    if not sheet.timeout and (own is None or not own.is_up):
        return ClockBox(own, paused=bool(own and own.paused))
    after = nxt if sheet.timeout else after_time_out(table, sheet, records, len(names))
    text = ", ".join(
        _("%(name)s (seat %(seat)s)") % {"name": names.get(seat, ""), "seat": seat}
        for seat in after.compulsory_open
    )
    return ClockBox(
        own,
        paused=bool(own and own.paused),
        time_up=True,
        time_called=sheet.timeout,
        solos_open=after.compulsory_open,
        solos_text=text,
    )


def state_of(
    table: Table,
    sheet: ScoreSheet,
    nxt: NextGame,
    *,
    shown: Game | None,
    viewing: bool,
    waiting: bool,
) -> State:
    status = table.series.status
    if shown is not None:
        return State.VIEWING if viewing else State.CORRECTING
    if status not in (Series.Status.RUNNING, Series.Status.CLOSED):
        return State.NOT_STARTED
    if status == Series.Status.CLOSED:
        return State.CLOSED
    if sheet.status == ScoreSheet.Status.CONFIRMED:
        return State.CONFIRMED
    if waiting:
        return State.WAITING
    if sheet.status == ScoreSheet.Status.SUBMITTED:
        return State.SUBMITTED
    return State.COMPLETE if nxt.finished else State.ENTERING


def read_only_of(table: Table, sheet: ScoreSheet) -> ReadOnly:
    status = table.series.status
    if status not in (Series.Status.RUNNING, Series.Status.CLOSED):
        return ReadOnly.NOT_STARTED
    if status == Series.Status.CLOSED:
        return ReadOnly.CLOSED
    if sheet.status == ScoreSheet.Status.CONFIRMED:
        return ReadOnly.CONFIRMED
    return ReadOnly.SUBMITTED


def step_of(
    table: Table, sheet: ScoreSheet, nxt: NextGame, *, submitted_here: bool, here_confirms: bool
) -> Step | None:
    if table.series.status == Series.Status.CLOSED:
        return None
    if sheet.status == ScoreSheet.Status.OPEN:
        return Step.SUBMIT if nxt.finished else None
    if sheet.status != ScoreSheet.Status.SUBMITTED:
        return None
    if not here_confirms:
        return Step.ORGANIZERS_CONFIRM
    return None if submitted_here else Step.CONFIRM


def build_page(
    table: Table,
    *,
    door: Door,
    seats: Sequence[Seat],
    sheet: ScoreSheet,
    games: Sequence[Game],
    report: SeriesReport,
    form: AnyForm | None = None,
    editing: Game | None = None,
    reason: str = "",
    posted_key: str = "",
    provisional: frozenset[int] = frozenset(),
    referee: Any = None,
) -> SheetPage:
    """The page of ``table``'s sheet. ``report``: the sheet's rows checked (one replay, or
    the report of the save that just wrote a game); ``form``: a form posted back with its
    errors; ``editing``: the game opened for correction (shown read-only where this door can
    no longer correct it); ``posted_key``: the idempotency key a posted form came with."""
    seating = seating_of(seats)
    names = names_of(seats)
    positions = [s.position for s in seats]
    sums = running_totals((seat_points(g.scores) for g in games), positions)
    rows = tuple(
        SheetRow(g, r.points, r.totals, g.number in provisional)
        for g, r in zip(games, sums, strict=True)
    )
    totals = sums[-1].totals if sums else (0,) * len(positions)
    nxt = report.next
    told = tell(report.findings, names)
    viewing = None
    if editing is not None and not door.writable:
        viewing, editing, form = editing, None, None
    shown = editing or viewing
    is_open = sheet.status == ScoreSheet.Status.OPEN
    organizers_confirm = table.series.tournament.confirmation == "organizer"
    submitted_here = (
        sheet.status == ScoreSheet.Status.SUBMITTED
        and not door.as_organizer
        and bool(sheet.submitted_device)
        and sheet.submitted_device == door.device
    )
    # Where the organizers confirm, only they do; elsewhere a player on another phone.
    here_confirms = door.as_organizer or not organizers_confirm
    waiting = submitted_here and not organizers_confirm
    state = state_of(table, sheet, nxt, shown=shown, viewing=viewing is not None, waiting=waiting)
    entering = state is State.ENTERING or (
        state is State.CLOSED and door.writable and is_open and not nxt.finished
    )
    transcription = sheet.mode == "transcription"
    if editing is not None:  # at a five-player table the game's dealer sat out
        sitting = editing.dealer if len(seats) == 5 else None
    else:
        sitting = nxt.sitting_out
    entry = None
    if editing is not None or entering:
        number = f"{editing.number}/" if editing is not None else ""
        action = f"{door.base}spiel/{number}"
        keep = None
        if form is None and editing is None and state is State.ENTERING and not door.as_organizer:
            # All the blank form is drawn from (the language is the tag's to add).
            choices = tuple(seat_choices(seats, sitting))
            keep = ("game-form", transcription, choices, sitting, nxt.forced, action, door.base)
        if form is None:
            build: Callable[[], AnyForm] = functools.partial(
                new_form, seats, nxt, editing, sitting, transcription=transcription
            )
        else:
            build = functools.partial(_as_posted, form)
        bound = form is not None and form.is_bound
        entry = GameEntry(
            build=build,
            keep=keep,
            action=action,
            correcting=editing.number if editing is not None else None,
            # A form shown again keeps its key: a resend is then recognised.
            idempotency_key=posted_key if bound and posted_key else uuid.uuid4().hex,
            sitting_out=sitting,
            late=state is State.CLOSED,
            transcription=transcription,
        )
    game = None
    if shown is not None:
        preview = None
        if shown.breakdown and not (form is not None and form.is_bound):
            preview = build_preview(
                seating,
                winner=shown.winner,
                value=shown.value,
                scores=shown.scores,
                breakdown=shown.breakdown,
                record=shown.record,
            )
        stored = StoredGame.from_record(shown.record)
        mark = _("compulsory solo") if stored.compulsory else ""
        mark = _("forced solo") if stored.forced else mark
        game = ShownGame(shown.number, names.get(shown.dealer, ""), mark, preview)
    dealer = shown.dealer if shown is not None else nxt.dealer
    records = [{**g.record, "dealer": g.dealer} for g in games]
    last = games[-1].number if games else None
    offers_last = state in (State.ENTERING, State.COMPLETE) and door.writable and is_open
    return SheetPage(
        state=state,
        read_only=read_only_of(table, sheet) if viewing is not None else None,
        step=step_of(table, sheet, nxt, submitted_here=submitted_here, here_confirms=here_confirms),
        table=table,
        sheet=sheet,
        next=nxt,
        base=door.base,
        as_organizer=door.as_organizer,
        organizers_confirm=organizers_confirm,
        seating=tuple(seating),
        rows=rows,
        totals=tuple(totals),
        can_correct=door.writable,
        marked=shown.number if shown is not None else None,
        game=game,
        dealer_name=names.get(dealer, "") if dealer is not None else "",
        forced_name=names.get(nxt.forced, "") if nxt.forced else "",
        correct_last=last if offers_last else None,
        entry=entry,
        confirmers=tuple(s for s in seating if s.position != sheet.submitted_by_seat),
        errors=tuple(f for f in told if f.error),
        warnings=tuple(f for f in told if not f.error),
        clock=clock_box(table, sheet, records, nxt, names),
        reason=reason,
        sheet_data=None
        if door.as_organizer
        else sheet_data(
            table,
            seating=seating,
            next_number=len(games) + 1,
            sheet_version=sheet.version,
            mode=sheet.mode,
            open=door.writable and is_open and not nxt.finished,
        ),
        referee=referee,
    )
