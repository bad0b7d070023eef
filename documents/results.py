"""The interface between the result report and the scoring app.

The report needs plain rows only: standings per series, final standings with points per
series, and the entered games of every table. ``ResultsProvider`` is that interface;
``load_results`` asks the provider in ``PROVIDER`` (the scoring app's standings and games)
and fills in the tournament header. Tests swap in their own provider.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from documents.data import (
    GameRow,
    ResultsInfo,
    RulingRow,
    SeriesStandings,
    StandingRow,
    StatisticsInfo,
    TableGames,
)
from rules.contracts import Contract
from rules.stored import StoredGame
from scoring.labels import game_label
from scoring.totals import running_totals, seat_points
from tournaments.models import Seat, Series, Tournament
from tournaments.publication import retention_expired, shown_name


@dataclass(frozen=True, slots=True)
class ResultsRows:
    """What a provider returns: plain rows, ranked and numbered by the provider."""

    series: tuple[SeriesStandings, ...]
    final: tuple[StandingRow, ...]
    tables: tuple[TableGames, ...]


ResultsProvider = Callable[[Tournament], ResultsRows]


def _standing(row: dict[str, Any], with_series: bool) -> StandingRow:
    return StandingRow(
        place=row["place"],
        name=row["name"],
        start_number=row["start_number"],
        club=row.get("club") or "",
        total=row["total"],
        series_points=tuple(row.get("series") or ()) if with_series else (),
    )


def _note(record: StoredGame) -> str:
    """What the Bemerkung column says about a game's contract, in the reader's language."""
    if record.not_played:
        return str(_("not played"))
    if record.contract is Contract.SOLO:  # compulsory solos are the P rows; the type is enough
        return game_label(record)
    if record.marked_soloist:  # a transcribed row marks only the soloist
        return str(_("Solo"))
    return "" if record.contract in (None, Contract.NORMAL) else game_label(record)


def _points(points: int) -> str:
    return str(points)  # as in the points columns


def _penalised(record: StoredGame, names: dict[int, str]) -> list[tuple[str, int]]:
    """Who lost points to a penalty in this game, and how many: the violators of the
    penalty components (the others' counter-credit shows in their columns) and the
    unsportsmanlike deductions."""
    return [
        (names.get(item.seat, str(_("seat %(seat)d") % {"seat": item.seat})), item.points)
        for item in (*record.penalties, *record.deductions)
        if item.points < 0
    ]


def penalty_note(
    penalised: list[tuple[str, int]], reason: str = "", *, outside: bool = False
) -> str:
    """The note on penalty points: who, how many, and why (when a reason was given)."""
    who = ", ".join(f"{name} {_points(points)}" for name, points in penalised)
    if outside:
        text = _("Penalty points (TSR 9.7): %(players)s") % {"players": who}
    else:
        text = _("Penalty points: %(players)s") % {"players": who}
    return f"{text} ({reason.strip()})" if reason.strip() else str(text)


def _game_note(record: StoredGame, names: dict[int, str], reason: str) -> str:
    note = _note(record)
    penalised = _penalised(record, names)
    if not penalised:
        return note
    penalty = penalty_note(penalised, reason)
    return f"{note} · {penalty}" if note else penalty


def _penalty_reasons(tournament: Tournament) -> dict[tuple[int, int], str]:
    """(table id, game number) to the reason given with the latest change that set or
    changed the game's penalty points (a change of a submitted sheet needs a reason)."""
    from scoring.models import AuditEntry

    def components(state: Any) -> Any:
        record = state.get("record") if isinstance(state, dict) else None
        if not isinstance(record, dict):
            return None
        game = StoredGame.from_record(record)
        return (game.penalties or None, game.deductions or None)

    reasons: dict[tuple[int, int], str] = {}
    entries = (
        AuditEntry.objects.filter(
            tournament=tournament, table__isnull=False, game_number__isnull=False
        )
        .exclude(reason="")
        .order_by("created_at", "pk")
        .values_list("table_id", "game_number", "before", "after", "reason")
    )
    for table_id, number, before, after, reason in entries:
        assert number is not None  # the query leaves out entries without a game
        now = components(after)
        if now is not None and any(now) and now != components(before):
            reasons[(table_id, number)] = reason
    return reasons


def _table_games(tournament: Tournament) -> tuple[TableGames, ...]:
    """Every table's games with running totals, then the penalty points its players got
    outside the games (TSR 9.7): five queries."""
    from scoring.models import Deduction, Game, ScoreSheet

    unconfirmed = set(
        ScoreSheet.objects.filter(
            table__series__tournament=tournament, closed_unconfirmed=True
        ).values_list("table_id", flat=True)
    )

    names: dict[int, dict[int, str]] = defaultdict(dict)
    seated: dict[tuple[int, int], tuple[int, int]] = {}  # (series, registration): table, seat
    numbers: dict[int, tuple[int, int]] = {}  # table id: (series number, table number)
    seats = Seat.objects.filter(series__tournament=tournament).select_related(
        "registration__player", "table", "series"
    )
    expired = retention_expired(tournament)
    for seat in seats:
        player = seat.registration.player
        names[seat.table_id][seat.position] = shown_name(
            player.first_name, player.last_name, player.name_form,
            seat.registration.start_number, expired=expired,
        )  # fmt: skip
        seated[(seat.series_id, seat.registration_id)] = (seat.table_id, seat.position)
        numbers[seat.table_id] = (seat.series.number, seat.table.number)
    reasons = _penalty_reasons(tournament)

    tables: dict[int, tuple[int, int]] = {}  # table id: (series number, table number)
    rows: dict[int, list[tuple[int | None, bool, int | None, dict[int, int], str]]] = defaultdict(
        list
    )
    games = (
        Game.objects.filter(series__tournament=tournament)
        .select_related("table", "series")
        .order_by("series__number", "table__number", "number")
    )
    for game in games:
        tables[game.table_id] = (game.series.number, game.table.number)
        scores = seat_points(game.scores)
        record = StoredGame.from_record(game.record)
        reason = reasons.get((game.table_id, game.number), "")
        note = _game_note(record, names[game.table_id], reason)
        rows[game.table_id].append((game.number, record.compulsory, game.value, scores, note))
    deductions = (
        Deduction.objects.filter(series__tournament=tournament)
        .select_related("registration__player")
        .order_by("created_at", "pk")
    )
    for deduction in deductions:
        place = seated.get((deduction.series_id, deduction.registration_id))
        if place is None:  # not seated in that series: it counts in the standings only
            continue
        table_id, position = place
        tables.setdefault(table_id, numbers[table_id])
        who = [(str(deduction.registration.player), deduction.points)]
        note = penalty_note(who, deduction.reason, outside=True)
        rows[table_id].append((None, False, None, {position: deduction.points}, note))

    result: list[TableGames] = []
    for table_id, (series_number, table_number) in sorted(tables.items(), key=lambda t: t[1]):
        positions = sorted(names[table_id])
        table_rows = rows[table_id]
        sums = running_totals((row[3] for row in table_rows), positions)  # row[3]: scores
        game_rows = [
            GameRow(
                number=number,
                compulsory=compulsory,
                value=value,
                points=summed.points,
                totals=summed.totals,
                note=note,
            )
            for (number, compulsory, value, _scores, note), summed in zip(
                table_rows, sums, strict=True
            )
        ]
        result.append(
            TableGames(
                series_number=series_number,
                table_number=table_number,
                names=tuple(names[table_id][p] for p in positions),
                games=tuple(game_rows),
                unconfirmed=table_id in unconfirmed,
            )
        )
    return tuple(result)


def from_scoring(tournament: Tournament) -> ResultsRows:
    """Standings and games as the scoring app computes them (also used on screen)."""
    from scoring.standings import overall_standings, series_standings

    started = Series.objects.filter(tournament=tournament).exclude(status=Series.Status.PLANNED)
    return ResultsRows(
        series=tuple(
            SeriesStandings(s.number, tuple(_standing(r, False) for r in series_standings(s)))
            for s in started.select_related("tournament").order_by("number")
        ),
        final=tuple(_standing(r, True) for r in overall_standings(tournament)),
        tables=_table_games(tournament),
    )


PROVIDER: ResultsProvider = from_scoring


def load_statistics(tournament: Tournament) -> StatisticsInfo | None:
    """The games' figures and two charts (running totals of the leaders, Re and Kontra),
    as the statistics page shows them; None before the first game."""
    from scoring.charts import running_chart, tournament_party_chart
    from scoring.stats_read import tournament_statistics
    from scoring.stats_text import average_text, rate_text

    statistics = tournament_statistics(tournament)
    f = statistics.figures
    if not f.games:
        return None
    wins = f.all_games
    figures = (
        (_("Games played"), str(f.games)),
        (_("Won by Re"), rate_text(wins.re_rate)),
        (_("Won by Kontra"), rate_text(wins.kontra_rate)),
        (_("Without a winner"), str(wins.undecided)),
        (_("Solo rate"), rate_text(f.solos)),
        (_("Solos won by the soloist"), rate_text(f.solos_won)),
        (_("Compulsory solos: won / lost"), f"{f.compulsory.won} / {f.compulsory.lost}"),
        (
            _("Compulsory solos: the soloist's average points"),
            average_text(f.compulsory.average_points),
        ),
        (_("Voluntary solos: won / lost"), f"{f.voluntary.won} / {f.voluntary.lost}"),
    )
    charts = (running_chart(statistics), tournament_party_chart(f))
    return StatisticsInfo(
        figures=tuple((str(label), value) for label, value in figures),
        charts=tuple((c.title, c.svg) for c in charts),
    )


def load_rulings(tournament: Tournament) -> tuple[RulingRow, ...]:
    """The referees' rulings, by series and time of the call (withdrawn calls are none)."""
    from django.utils import timezone

    from scoring.models import RefereeCall

    calls = (
        RefereeCall.objects.filter(series__tournament=tournament, status=RefereeCall.Status.RULED)
        .select_related("series", "table", "deduction__registration__player")
        .order_by("series__number", "called_at", "pk")
    )
    rows = []
    for call in calls:
        notes = []
        if call.ruled_game and call.verdict == RefereeCall.Verdict.CORRECTED:
            notes.append(_("Game %(n)d corrected") % {"n": call.ruled_game})
        elif call.ruled_game:
            notes.append(_("Game %(n)d confirmed") % {"n": call.ruled_game})
        if call.deduction is not None:
            notes.append(
                _("Deduction: %(name)s %(points)d")
                % {"name": call.deduction.registration.player, "points": call.deduction.points}
            )
        rows.append(
            RulingRow(
                series_number=call.series.number,
                table_number=call.table.number,
                called_at=timezone.localtime(call.called_at).strftime("%H:%M"),
                reason=call.reason,
                ruling=call.ruling,
                extension_minutes=call.extension_minutes,
                note="; ".join(notes),
            )
        )
    return tuple(rows)


def load_results(tournament: Tournament, provider: ResultsProvider | None = None) -> ResultsInfo:
    rows = (provider or PROVIDER)(tournament)
    numbers = tuple(
        Series.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", flat=True)
    )
    return ResultsInfo(
        tournament_name=tournament.name,
        tournament_slug=tournament.slug,
        venue=tournament.venue,
        date=tournament.starts_on,
        series_numbers=numbers,
        series=rows.series,
        final=rows.final,
        tables=rows.tables,
        statistics=load_statistics(tournament),
        rulings=load_rulings(tournament),
    )
