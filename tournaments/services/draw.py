"""Drawing the seats of a series: load present players and history, call the pure draw,
write tables and seats in one transaction."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.services import Refusal, ServiceError
from tournaments import seating
from tournaments.models import KeepApart, Registration, Seat, Series, Table, Tournament
from tournaments.signals import announce_print_pack_changed


def _previous(series: Series) -> Series | None:
    return (
        Series.objects.filter(tournament=series.tournament, number=series.number - 1)
        .only("status", "number")
        .first()
    )


def history_before(series: Series) -> list[list[list[int]]]:
    """Earlier series of the tournament as start numbers in seat order, one query."""
    seats = (
        Seat.objects.filter(series__tournament=series.tournament, series__number__lt=series.number)
        .order_by("series__number", "table__number", "position")
        .values_list("series__number", "table__number", "registration__start_number")
    )
    tables: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for series_number, table_number, start_number in seats:
        tables[series_number][table_number].append(start_number)
    return [list(tables[n].values()) for n in sorted(tables)]


def keep_apart_pairs(tournament: Tournament) -> list[tuple[int, int]]:
    """The tournament's keep-apart pairs as start numbers (what the seating core takes)."""
    return list(
        KeepApart.objects.filter(tournament=tournament).values_list(
            "first__start_number", "second__start_number"
        )
    )


def present_players(series: Series) -> list[Registration]:
    registrations = series.tournament.registrations.select_related("player").filter(checked_in=True)
    return [r for r in registrations if r.plays_in(series.number)]


def check_can_draw(series: Series, mode: str) -> None:
    if series.status not in (Series.Status.PLANNED, Series.Status.DRAWN):
        raise ServiceError(
            "series_started",
            _("Series %(n)d has already started; it cannot be drawn again.") % {"n": series.number},
            refusal=Refusal.CONFLICT,
        )
    previous = _previous(series)
    if previous is not None:
        if previous.status == Series.Status.PLANNED:
            raise ServiceError(
                "previous_not_drawn",
                _("Draw series %(n)d first.") % {"n": previous.number},
                refusal=Refusal.CONFLICT,
            )
        if mode == "standings" and previous.status != Series.Status.CLOSED:
            raise ServiceError(
                "previous_not_closed",
                _("A draw by standings needs series %(n)d to be closed.") % {"n": previous.number},
                refusal=Refusal.CONFLICT,
            )
    if Series.objects.filter(
        tournament=series.tournament, number__gt=series.number, status__in=["drawn", "running"]
    ).exists():
        raise ServiceError(
            "later_series_drawn",
            _("A later series is already drawn; redraw that one afterwards."),
            refusal=Refusal.CONFLICT,
        )


#: A draw that takes the place of this one for the series it owns: called with the locked
#: series (its draw checked) and the seed asked for; None for a series not its own.
SpecialDraw = Callable[[Series, int | None], seating.Plan | None]


@dataclass(frozen=True)
class DrawPlugin:
    """A draw an upper app brings for its own series (a team group's: ``teams``). ``mode``
    is what its plans write into ``Series.draw_mode``; ``line_up``: it seats a chosen
    line-up, so whoever it leaves out sits the series out by choice and is no unseated
    player to be warned about."""

    mode: str
    draw: SpecialDraw
    line_up: bool = False


class DrawRegistry:
    """The draws that upper apps register in their ``AppConfig.ready``; this layer never
    names them."""

    def __init__(self) -> None:
        self._plugins: dict[str, DrawPlugin] = {}

    def register(self, plugin: DrawPlugin) -> None:
        self._plugins[plugin.mode] = plugin  # once per mode, whatever ``ready`` does

    def plan(self, series: Series, seed: int | None) -> seating.Plan | None:
        """The plan of the first plug-in that owns the series, None when none does."""
        for plugin in self._plugins.values():
            planned = plugin.draw(series, seed)
            if planned is not None:
                return planned
        return None

    def seats_line_up(self, mode: str) -> bool:
        plugin = self._plugins.get(mode)
        return plugin is not None and plugin.line_up


DRAWS = DrawRegistry()


def write_plan(
    series: Series,
    tables: Sequence[Sequence[int]],
    *,
    seed: int,
    mode: str,
    repeats: int,
    version: str,
    registrations: Mapping[int, Registration] | None = None,
    unhonoured: Sequence[seating.Unhonoured] = (),
) -> None:
    """Replace the tables and seats of ``series`` by ``tables`` (start numbers in seat
    order) and mark it drawn: the one place a draw is written, whichever made the plan.
    ``registrations`` by start number saves loading them again; ``unhonoured``: the
    keep-apart pairs the draw seated together anyway, with the core's reason codes."""
    if registrations is None:
        numbers = [number for table in tables for number in table]
        registrations = {
            r.start_number: r
            for r in series.tournament.registrations.filter(start_number__in=numbers)
        }
    series.tables.all().delete()
    created = Table.objects.bulk_create(
        Table(series=series, number=number) for number in range(1, len(tables) + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=table, series=series, position=position, registration=registrations[number])
        for table, numbers_in_seat_order in zip(created, tables, strict=True)
        for position, number in enumerate(numbers_in_seat_order, start=1)
    )
    series.status = Series.Status.DRAWN
    series.seed = seed
    series.draw_version = version
    series.draw_mode = mode
    series.repeats = repeats
    series.keep_apart_report = [
        {"pair": list(entry.pair), "reason": entry.reason} for entry in unhonoured
    ]
    series.drawn_at = timezone.now()
    series.save()
    announce_print_pack_changed([series.pk])


@transaction.atomic
def seat_series(
    series: Series,
    *,
    seed: int | None = None,
    mode: str = "random",
    keep_clubs_apart: bool = False,
    standings: tuple[int, ...] = (),
) -> seating.Plan:
    """Draw (or redraw, before it starts) the tables of ``series``."""
    series = Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)
    check_can_draw(series, mode)
    special_plan = DRAWS.plan(series, seed)
    if special_plan is not None:
        return special_plan
    registrations = present_players(series)
    by_number = {r.start_number: r for r in registrations}
    players = [
        seating.SeatingPlayer(id=r.start_number, club=r.player.club or None) for r in registrations
    ]
    options = seating.SeatingOptions(
        seed=seed if seed is not None else series.tournament.draw_seed,
        keep_clubs_apart=keep_clubs_apart,
        mode="standings" if mode == "standings" else "random",
        standings=standings,
        planned_series=series.tournament.series_count,
        keep_apart=tuple(keep_apart_pairs(series.tournament)),
    )
    try:
        plan = seating.plan_next_series(players, history_before(series), options)
    except seating.SeatingError as exc:
        raise ServiceError(
            exc.code, _describe(exc, len(players)), refusal=Refusal.CONFLICT
        ) from exc

    write_plan(
        series,
        plan.tables,
        seed=options.seed,
        mode=options.mode,
        repeats=plan.repeats,
        version=plan.version,
        registrations=by_number,
        unhonoured=plan.unhonoured,
    )
    return plan


def _describe(exc: seating.SeatingError, count: int) -> str:
    """The draw's refusal in the user's language, with what the organizer can do."""
    if exc.code == "no_table_split":
        below, above = exc.params.get("below"), exc.params["above"]
        text = ngettext(
            "%(count)d present player cannot be split into tables of four and five.",
            "%(count)d present players cannot be split into tables of four and five.",
            count,
        ) % {"count": count}
        return f"{text} {what_to_do(above - count, count - below if below else None)}"
    return exc.message


def repeated_encounters(n: int) -> str:
    """ "3 repeated encounters", "1 repeated encounter": the draw's figure in words."""
    return ngettext("%(n)d repeated encounter", "%(n)d repeated encounters", n) % {"n": n}


def what_to_do(add: int, remove: int | None) -> str:
    """How a field that cannot be split into tables becomes one that can."""
    check_in = ngettext("Check in %(n)d more player.", "Check in %(n)d more players.", add) % {
        "n": add
    }
    if remove is None:
        return check_in
    return _("%(check_in)s Or withdraw %(withdraw)s") % {
        "check_in": check_in,
        "withdraw": ngettext(
            "%(n)d player from this series.", "%(n)d players from this series.", remove
        )
        % {"n": remove},
    }


def repeats_of(series: Series) -> int:
    current = [
        [seat.registration.start_number for seat in table.seats.all()]
        for table in series.tables.prefetch_related("seats__registration")
    ]
    return seating.count_repeats(current, history_before(series))


@transaction.atomic
def swap_players(series: Series, first: Registration, second: Registration) -> int:
    """Exchange the seats of two players before the series starts; returns the new number
    of repeated encounters of the series."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.status != Series.Status.DRAWN:
        raise ServiceError(
            "swap_not_allowed",
            _("Players can only be swapped after the draw and before the start."),
            refusal=Refusal.CONFLICT,
        )
    seats = {
        seat.registration_id: seat
        for seat in Seat.objects.select_for_update().filter(
            series=series, registration__in=[first, second]
        )
    }
    if len(seats) != 2 or first.pk == second.pk:
        raise ServiceError("swap_not_seated", _("Choose two different players of this series."))
    a, b = seats[first.pk], seats[second.pk]
    # Delete and recreate: updating in place would break a unique constraint halfway.
    swapped = [
        (a.table_id, a.position, b.registration_id),
        (b.table_id, b.position, a.registration_id),
    ]
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create(
        Seat(table_id=table_id, series=series, position=position, registration_id=reg_id)
        for table_id, position, reg_id in swapped
    )
    series.repeats = repeats_of(series)
    series.save(update_fields=["repeats"])
    announce_print_pack_changed([series.pk])
    return series.repeats
