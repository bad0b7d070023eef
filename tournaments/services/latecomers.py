"""Latecomers: checked-in players without a seat in a drawn series are seated without
redrawing everyone (pure core: ``tournaments.seating.latecomers``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.services import Refusal, ServiceError
from tournaments import seating
from tournaments.models import Registration, Seat, Series, Table
from tournaments.services.draw import (
    DRAWS,
    history_before,
    keep_apart_pairs,
    present_players,
    what_to_do,
)
from tournaments.signals import announce_print_pack_changed


@dataclass(frozen=True)
class Placement:
    """Where a latecomer, or a player moved to a new table (``from_table``), sits."""

    registration: Registration
    table: int  # table number
    seat: int
    from_table: int | None = None


@dataclass(frozen=True)
class LatecomerOutcome:
    placements: list[Placement]
    new_tables: list[int]  # numbers of the tables this creates
    repeat_pairs: list[tuple[Registration, Registration]]  # what it costs
    repeats: int  # repeated encounters of the whole series afterwards
    # keep-apart pairs this seats together: a latecomer whose only place is his partner's table
    not_kept_apart: list[tuple[Registration, Registration]] = field(default_factory=list)


def unseated_players(series: Series) -> list[Registration]:
    """Checked-in players who play this series but have no seat in it (none after a draw of
    line-ups: those left out sit out by choice)."""
    if DRAWS.seats_line_up(series.draw_mode):
        return []
    seated = set(Seat.objects.filter(series=series).values_list("registration_id", flat=True))
    return [r for r in present_players(series) if r.pk not in seated]


def check_can_seat(series: Series) -> None:
    if series.status == Series.Status.PLANNED:
        raise ServiceError(
            "not_drawn",
            _("Series %(n)d is not drawn yet; the draw seats every checked-in player.")
            % {"n": series.number},
            refusal=Refusal.CONFLICT,
        )
    if series.status != Series.Status.DRAWN:
        raise ServiceError(
            "series_started",
            _(
                "Series %(n)d has started: once games are entered, a table cannot change its "
                "size. Players without a seat sit out this series; the next draw includes them."
            )
            % {"n": series.number},
            refusal=Refusal.CONFLICT,
        )


def propose_latecomers(series: Series) -> LatecomerOutcome:
    """What seating the unseated players would do, without saving anything (the preview)."""
    check_can_seat(series)
    return _propose(series).outcome


@transaction.atomic
def seat_latecomers(series: Series) -> LatecomerOutcome:
    """Seat every checked-in player of the series who has no seat, before it starts."""
    series = Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)
    check_can_seat(series)
    proposal = _propose(series)
    plan, rows = proposal.plan, proposal.rows
    last = max((t.number for t in rows), default=0)
    new_rows = Table.objects.bulk_create(
        Table(series=series, number=last + k) for k in range(1, plan.new_tables + 1)
    )
    tables = rows + new_rows
    changed = {m.table for m in plan.moves} | {
        m.from_table for m in plan.moves if m.from_table is not None
    }
    # Rewrite the changed tables whole: a table a player left closes up its seats.
    Seat.objects.filter(table__in=[tables[i] for i in changed if i < len(rows)]).delete()
    Seat.objects.bulk_create(
        Seat(
            table=tables[i],
            series=series,
            position=position,
            registration=proposal.by_number[number],
        )
        for i in sorted(changed)
        for position, number in enumerate(plan.tables[i], start=1)
    )
    series.repeats = plan.repeats
    # The draw's reason stays for a pair it had already seated together.
    drawn = {tuple(e["pair"]): e["reason"] for e in series.keep_apart_report or []}
    series.keep_apart_report = [
        {"pair": list(e.pair), "reason": drawn.get(e.pair, e.reason)} for e in plan.unhonoured
    ]
    series.save(update_fields=["repeats", "keep_apart_report"])
    announce_print_pack_changed([series.pk])
    return proposal.outcome


@dataclass(frozen=True)
class _Proposal:
    outcome: LatecomerOutcome
    plan: seating.LatecomerPlan
    rows: list[Table]  # the drawn tables, by number
    by_number: dict[int, Registration]  # every player concerned, by start number


def _propose(series: Series) -> _Proposal:
    unseated = unseated_players(series)
    if not unseated:
        raise ServiceError(
            "no_latecomers",
            _("Every checked-in player of this series has a seat."),
            refusal=Refusal.CONFLICT,
        )
    rows = list(series.tables.order_by("number").prefetch_related("seats__registration__player"))
    drawn = [[seat.registration.start_number for seat in t.seats.all()] for t in rows]
    seed = series.seed if series.seed is not None else series.tournament.draw_seed
    try:
        plan = seating.seat_latecomers(
            drawn,
            history_before(series),
            [r.start_number for r in unseated],
            seed,
            keep_apart=keep_apart_pairs(series.tournament),
            series=series.number,
        )
    except seating.SeatingError as exc:
        raise ServiceError(
            exc.code, _describe(exc, len(unseated)), refusal=Refusal.CONFLICT
        ) from exc

    by_number = {r.start_number: r for r in unseated}
    by_number.update(
        {s.registration.start_number: s.registration for t in rows for s in t.seats.all()}
    )
    last = max((t.number for t in rows), default=0)

    def number(index: int) -> int:
        return rows[index].number if index < len(rows) else last + index - len(rows) + 1

    outcome = LatecomerOutcome(
        placements=[
            Placement(
                registration=by_number[m.player],
                table=number(m.table),
                seat=m.seat,
                from_table=None if m.from_table is None else number(m.from_table),
            )
            for m in plan.moves
        ],
        new_tables=[last + k for k in range(1, plan.new_tables + 1)],
        repeat_pairs=[(by_number[a], by_number[b]) for a, b in plan.repeat_pairs],
        repeats=plan.repeats,
        not_kept_apart=[
            (by_number[e.pair[0]], by_number[e.pair[1]])
            for e in plan.unhonoured
            if e.reason == seating.LATECOMER_NO_OTHER_TABLE
        ],
    )
    return _Proposal(outcome, plan, rows, by_number)


def _describe(exc: seating.SeatingError, unseated: int) -> str:
    if exc.code == "no_table_split":
        total = exc.params.get("players", 0)
        below, above = exc.params.get("below"), exc.params.get("above")
        text = ngettext(
            "With the %(late)d player without a seat, %(count)d players cannot be split "
            "into tables of four and five.",
            "With the %(late)d players without a seat, %(count)d players cannot be split "
            "into tables of four and five.",
            unseated,
        ) % {"late": unseated, "count": total}
        return f"{text} {what_to_do(above - total, total - below if below else None)}"
    if exc.code == "invalid_table":
        return _("A table of this series has neither four nor five players; draw it again.")
    return exc.message
