"""Standings and a player's games, for everyone when the tournament is public.

The templates get typed rows (the dataclasses below), built here from what the standings and
the stored games say: the views decide what a visitor reads, never what a result is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import F
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.generic import TemplateView

from common.parsing import whole_number
from rules.contracts import Contract
from rules.stored import StoredGame
from scoring.clock import HallClock, TableClock
from scoring.labels import game_label
from scoring.messages import ITEM_LABELS
from scoring.models import PlayerScore, ScoreSheet
from scoring.standings import overall_standings, series_standings, unconfirmed_registrations
from scoring.stats_read import player_statistics
from scoring.stats_text import FigureCells
from scoring.timing import series_clock
from tournaments.models import Seat, Series
from tournaments.permissions import visible_tournaments
from tournaments.publication import registration_name

#: Sheets whose table has finished playing (the captain handed the sheet in).
FINISHED = (ScoreSheet.Status.SUBMITTED, ScoreSheet.Status.CONFIRMED)
#: Sonderpunkte: the breakdown names the party that scored them, which need not be the winner.
EXTRAS = ("fuchs", "doppelkopf", "karlchen")


def points_text(points: int) -> str:
    """ "1 point", "-3 points" (the plural form follows the amount, whatever its sign)."""
    return ngettext("%(n)s point", "%(n)s points", abs(points)) % {"n": points}


class PublicTournamentMixin:
    request: Any

    def tournament(self, slug: str) -> Any:
        return get_object_or_404(visible_tournaments(self.request.user), slug=slug)

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return [self.partial_template]  # type: ignore[attr-defined]
        return [self.template_name]  # type: ignore[attr-defined]


# -- Standings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesPoints:
    number: int
    points: int | None  # None: the player did not play that series


@dataclass(frozen=True)
class StandingsLine:
    """One row of a standings table, as the page shows it."""

    place: int
    shared: bool
    start_number: int
    name: str
    club: str
    series: tuple[SeriesPoints, ...]  # per-series columns; empty on one series' standings
    total: int
    games: int
    compulsory: int
    voluntary: int
    solos_won: int
    playing: bool  # at a table of a running series that has not finished yet
    unconfirmed: bool = False  # at a table whose sheet was closed before it was confirmed


@dataclass(frozen=True)
class RunningSeries:
    """A series in play: its results so far are interim."""

    number: int
    tables: int
    finished: int


def standings_lines(
    rows: Iterable[Mapping[str, Any]],
    *,
    per_series: bool,
    playing: set[int],
    unconfirmed: set[int] | None = None,
) -> list[StandingsLine]:
    return [
        StandingsLine(
            place=r["place"],
            shared=r["shared"],
            start_number=r["start_number"],
            name=r["name"],
            club=r["club"],
            series=tuple(SeriesPoints(n, p) for n, p in enumerate(r["series"], start=1))
            if per_series
            else (),
            total=r["total"],
            games=r["games"],
            compulsory=r["compulsory"],
            voluntary=r["voluntary"],
            solos_won=r["solos_won"],
            playing=r["registration"] in playing,
            unconfirmed=r["registration"] in (unconfirmed or set()),
        )
        for r in rows
    ]


def running_state(series: list[Series]) -> tuple[list[RunningSeries], set[int]]:
    """The running series with their finished tables, and the registrations still playing
    in one of them (one query, whatever the size of the field)."""
    if not series:
        return [], set()
    seats = Seat.objects.filter(series__in=series).values_list(
        "series__number", "table_id", "registration_id", "table__sheet__status"
    )
    tables: dict[int, dict[int, bool]] = {s.number: {} for s in series}
    waiting: dict[int, set[int]] = {s.number: set() for s in series}
    for number, table, registration, status in seats:
        done = status in FINISHED
        tables[number][table] = done
        if not done:
            waiting[number].add(registration)
    state = [
        RunningSeries(number, len(done), sum(done.values())) for number, done in tables.items()
    ]
    # Players are marked only once some tables have finished: before that, everybody is.
    playing = {r for s in state if 0 < s.finished < s.tables for r in waiting[s.number]}
    return state, playing


class StandingsView(PublicTournamentMixin, TemplateView):
    """Overall standings, or one series' standings. ``?serien=1`` adds every player's
    per-series points as a second line on phones, where the series columns do not fit."""

    template_name = "scoring/standings.html"
    partial_template = "scoring/_standings_table.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        tournament = self.tournament(kwargs["slug"])
        all_series = list(tournament.series.order_by("number"))
        number = kwargs.get("number")
        series = None
        if number is not None:
            series = next((s for s in all_series if s.number == number), None)
            if series is None:
                raise Http404
        rows = series_standings(series) if series else overall_standings(tournament)
        running = [
            s
            for s in all_series
            if s.status == Series.Status.RUNNING and (series is None or s == series)
        ]
        running_series, playing = running_state(running)
        lines = standings_lines(
            rows,
            per_series=series is None,
            playing=playing,
            unconfirmed=unconfirmed_registrations(tournament, series),
        )
        show_series = self.request.GET.get("serien") == "1"
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "series": series,
            "rows": lines,
            "columns": [c.number for c in lines[0].series] if lines else [],
            "all_series": all_series,
            "running": running_series,
            "show_series": show_series and series is None,
            "unconfirmed": unconfirmed_tables(tournament, series),
        }


def unconfirmed_tables(tournament: Any, series: Any) -> list[tuple[int, int]]:
    """(series, table) of the sheets the organizers closed before they were confirmed."""
    sheets = ScoreSheet.objects.filter(
        table__series__tournament=tournament, closed_unconfirmed=True
    )
    if series is not None:
        sheets = sheets.filter(table__series=series)
    return list(
        sheets.order_by("table__series__number", "table__number").values_list(
            "table__series__number", "table__number"
        )
    )


# -- The clock ------------------------------------------------------------------------------


def clock_context(series: Series, table_number: int | None = None) -> dict[str, Any]:
    """What a phone shows of a running series' clock: the hall's main clock, or the clock of
    one table (a player's); nothing before the signal or after the close."""
    hall: HallClock | None = None
    if series.status == Series.Status.RUNNING:
        hall = series_clock(series)
    own: TableClock | None = None
    if hall is not None and table_number is not None:
        own = hall.for_table(table_number)
    return {
        "hall": hall,
        "shown": own or (hall.main if hall else None),
        "clock_table": table_number if own else None,
        "clock_series": series,
        "called_at": series.time_called_at if hall is not None else None,
        "clock_url": reverse(
            "scoring:series-clock",
            kwargs={"slug": series.tournament.slug, "number": series.number},
        )
        + (f"?tisch={table_number}" if own else ""),
    }


class SeriesClockView(PublicTournamentMixin, TemplateView):
    """The clock of a running series as a fragment: loaded and polled (htmx) by the
    tournament and seating pages, with ``?tisch=<n>`` by a player's page."""

    template_name = "scoring/_series_clock.html"
    partial_template = template_name

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        tournament = self.tournament(kwargs["slug"])
        series = get_object_or_404(tournament.series, number=kwargs["number"])
        series.tournament = tournament
        raw = self.request.GET.get("tisch", "")
        table = whole_number(raw, digits=5)
        return {**super().get_context_data(**kwargs), **clock_context(series, table)}


# -- A player's games ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    """One game (or one deduction) from the player's point of view."""

    number: int | None  # None: a deduction outside any game
    seat: int | None
    kind: str  # "Normal game", "Solo (Jacks) · compulsory solo", "Deduction: …"
    party: str  # "Re", "Kontra", "Soloist", "sat out" or "" (unknown, not played)
    result: str  # "won", "lost" or "" (sat out, not played, no winner)
    result_text: str
    details: tuple[str, ...]  # the value's items, extras with the party that scored them
    value: int | None
    points: int


@dataclass(frozen=True)
class SeriesBlock:
    number: int
    total: int
    lines: tuple[GameLine, ...]

    @property
    def total_text(self) -> str:
        return points_text(self.total)


@dataclass(frozen=True)
class CurrentSeat:
    """Where the player sits in the series drawn or running now."""

    series_number: int
    running: bool
    series: Series
    table_number: int
    seat: int
    tablemates: tuple[tuple[int, str], ...]  # (seat, name) of the others, in seat order


def _party_name(party: str, solo_like: bool) -> str:
    if party == "re":
        return str(_("soloist")).capitalize() if solo_like else "Re"
    return "Kontra" if party == "kontra" else ""


def _kind(record: StoredGame) -> str:
    if record.not_played:
        return _("not played")
    contract = record.contract
    if contract is None:  # transcribed from a paper sheet: only a soloist is known
        kind = _("Solo") if record.marked_soloist else _("Game from the paper sheet")
    elif contract is Contract.SOLO:
        kind = game_label(record)
    elif contract is Contract.HOCHZEIT:
        kind = _("Hochzeit")
    elif contract is Contract.STILLE_HOCHZEIT:
        kind = _("Silent Hochzeit")
    else:
        kind = _("Normal game")
    if record.compulsory:
        kind += " · " + _("compulsory solo")
        if record.forced:
            kind += " · " + _("forced (vorgeführt)")
    return kind


def _details(game: Any, solo_like: bool) -> tuple[str, ...]:
    """The items of the game's value. The winner's point names the winning party; every
    item a party scored although it did not win (and every extra) names its party."""
    lines = []
    for line in game.breakdown:
        item, party = str(line.get("item")), str(line.get("party", ""))
        if item == "won":
            if party == "re" and solo_like:
                lines.append(_("Soloist wins"))
            else:
                lines.append(_("Re wins") if party == "re" else _("Kontra wins"))
            continue
        label = str(ITEM_LABELS.get(item, item))
        if party and (item in EXTRAS or party != game.winner):
            label = f"{label} ({_party_name(party, solo_like)})"
        lines.append(label)
    return tuple(lines)


def game_line(score: PlayerScore) -> GameLine:
    game = score.game
    if game is None:
        reason = score.deduction.reason if score.deduction else ""
        kind = _("Deduction: %(reason)s") % {"reason": reason}
        return GameLine(None, None, kind, "", "", "", (), None, score.points)
    record = StoredGame.from_record(game.record)
    solo_like = record.played_alone
    transcribed = record.transcribed
    party = ""
    if record.not_played:
        pass
    elif not score.played:
        party = _("sat out")
    elif transcribed:
        soloist = record.marked_soloist
        if soloist:
            party = _party_name("re" if soloist == score.seat else "kontra", True)
    else:
        party = _party_name("re" if score.seat in record.re else "kontra", solo_like)
    result = ""
    if score.played and not record.not_played:
        if transcribed:
            result = "won" if score.points > 0 else "lost" if score.points < 0 else ""
        elif game.winner:
            result = "won" if score.won else "lost"
    result_text = {"won": _("won"), "lost": _("lost")}.get(result, "")
    if score.played and not transcribed and not game.winner and not record.not_played:
        result_text = _("No winner")
    return GameLine(
        number=game.number,
        seat=score.seat,
        kind=_kind(record),
        party=party,
        result=result,
        result_text=result_text,
        details=_details(game, solo_like),
        value=abs(game.value) if not record.not_played else None,
        points=score.points,
    )


def current_seat(registration: Any) -> CurrentSeat | None:
    """The player's table in the latest series drawn or running (one query)."""
    seats = list(
        Seat.objects.filter(
            table__seats__registration=registration,
            series__status__in=(Series.Status.DRAWN, Series.Status.RUNNING),
        )
        .select_related("series__tournament__club", "table", "registration__player")
        .order_by("-series__number", "position")
    )
    if not seats:
        return None
    series_id = seats[0].series_id
    table = [s for s in seats if s.series_id == series_id]
    own = next(s for s in table if s.registration_id == registration.pk)
    return CurrentSeat(
        series_number=own.series.number,
        running=own.series.status == Series.Status.RUNNING,
        series=own.series,
        table_number=own.table.number,
        seat=own.position,
        tablemates=tuple(
            (s.position, registration_name(s.registration, tournament=own.series.tournament))
            for s in table
            if s.pk != own.pk
        ),
    )


class PlayerGamesView(PublicTournamentMixin, TemplateView):
    """One player's table now, then his games series by series: his party, won or lost,
    the value and his points."""

    template_name = "scoring/player.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        tournament = self.tournament(kwargs["slug"])
        registration = get_object_or_404(
            tournament.registrations.select_related("player"), start_number=kwargs["start_number"]
        )
        scores = (
            PlayerScore.objects.filter(registration=registration)
            .select_related("game", "deduction")
            # penalties after the games of their series, on every database
            .order_by("series_number", F("game__number").asc(nulls_last=True), "pk")
        )
        blocks: dict[int, list[PlayerScore]] = {}
        for score in scores:
            blocks.setdefault(score.series_number, []).append(score)
        series_blocks = [
            SeriesBlock(number, sum(s.points for s in block), tuple(game_line(s) for s in block))
            for number, block in blocks.items()
        ]
        total = sum(b.total for b in series_blocks)
        current = current_seat(registration)
        clock: dict[str, Any] = {}
        if current is not None and current.running:
            current.series.tournament = tournament
            clock = clock_context(current.series, current.table_number)
        return {
            **super().get_context_data(**kwargs),
            **clock,
            "tournament": tournament,
            "registration": registration,
            "player_name": registration_name(registration),
            "current": current,
            "series_blocks": series_blocks,
            "total": total,
            "total_text": points_text(total),
            "figures": FigureCells.of(player_statistics([registration]).overall),
        }
