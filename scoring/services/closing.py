"""Closing a series: entries end; sheets that were never confirmed are named, the organizer
closes past them only when he says so, and they stay marked wherever results are shown."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.actors import Actor
from common.services import Refusal, ServiceError
from scoring.models import ScoreSheet
from scoring.services.contact import pending_tables
from scoring.services.entry import record_audit
from scoring.signals import announce_series_closed, announce_totals_changed
from tournaments.models import Series
from tournaments.services.lifecycle import mark_closed, require_running


@dataclass(frozen=True)
class Unfinished:
    """A table whose sheet is not confirmed: ``status`` is open or submitted."""

    table: int
    status: str
    table_id: int | None = None  # the table's row, for a link to its sheet

    def label(self) -> str:
        if self.status == ScoreSheet.Status.SUBMITTED:
            return _("table %(n)d (submitted, not confirmed)") % {"n": self.table}
        return _("table %(n)d (not submitted)") % {"n": self.table}


def unfinished_sheets(series: Series) -> list[Unfinished]:
    """The tables of ``series`` whose sheets are not confirmed, in table order (one query)."""
    confirmed = ScoreSheet.Status.CONFIRMED
    rows = series.tables.order_by("number").values_list("number", "sheet__status", "pk")
    return [Unfinished(n, status or "open", pk) for n, status, pk in rows if status != confirmed]


def unfinished_message(unfinished: list[Unfinished]) -> str:
    return ngettext(
        "One sheet is not confirmed: %(tables)s.",
        "%(count)d sheets are not confirmed: %(tables)s.",
        len(unfinished),
    ) % {"count": len(unfinished), "tables": ", ".join(u.label() for u in unfinished)}


def pending_message(pending: list[tuple[int, int]]) -> str:
    tables = ", ".join(
        ngettext("table %(t)d (%(n)d game)", "table %(t)d (%(n)d games)", n) % {"t": t, "n": n}
        for t, n in pending
    )
    return ngettext(
        "One phone reported games it has not sent yet: %(tables)s.",
        "%(count)d phones reported games they have not sent yet: %(tables)s.",
        len(pending),
    ) % {"count": len(pending), "tables": tables}


@transaction.atomic
def close_series(
    series: Series, *, actor: Actor, past_unfinished: bool = False, past_pending: bool = False
) -> Series:
    """Close ``series``. Tables whose sheets are not confirmed refuse the close unless
    ``past_unfinished``; then their sheets are marked ``closed_unconfirmed`` and audited.
    Tables whose phone last reported games still in its outbox refuse it unless
    ``past_pending``; those games then arrive as conflicts (audited with the close).
    Every sheet's version moves on, under its lock, so no captain's write that started
    before the close can land after it."""
    series = Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)
    require_running(series)
    tables = list(series.tables.order_by("number"))
    ScoreSheet.objects.bulk_create(
        [ScoreSheet(table=t, mode=series.tournament.entry_mode) for t in tables],
        ignore_conflicts=True,
    )
    sheets = list(
        ScoreSheet.objects.select_for_update(no_key=True)
        .filter(table__series=series)
        .order_by("table__number")
    )
    by_table = {t.pk: t for t in tables}
    unfinished = [
        Unfinished(by_table[s.table_id].number, s.status)
        for s in sheets
        if s.status != ScoreSheet.Status.CONFIRMED
    ]
    if unfinished and not past_unfinished:
        raise ServiceError(
            "unconfirmed_sheets",
            unfinished_message(unfinished),
            refusal=Refusal.CONFLICT,
            data={"tables": [{"table": u.table, "status": u.status} for u in unfinished]},
        )
    pending = pending_tables(series)
    if pending and not past_pending:
        raise ServiceError(
            "pending_outbox",
            pending_message(pending),
            refusal=Refusal.CONFLICT,
            data={"tables": [{"table": t, "pending": n} for t, n in pending]},
        )
    for number, count in pending:
        table = next(t for t in tables if t.number == number)
        table.series = series
        record_audit(
            table, None, "scoring.series.closed_with_pending", actor, {"pending": count}, None
        )
    for sheet in sheets:
        sheet.version += 1
        if sheet.status != ScoreSheet.Status.CONFIRMED:
            sheet.closed_unconfirmed = True
            table = by_table[sheet.table_id]
            table.series = series
            record_audit(
                table, None, "scoring.sheet.closed_unconfirmed", actor,
                {"status": sheet.status}, {"closed_unconfirmed": True},
            )  # fmt: skip
    ScoreSheet.objects.bulk_update(sheets, ["version", "closed_unconfirmed"])
    closed = mark_closed(series)
    # Its results are final now: what counts only final results (seasons) reads them again.
    announce_totals_changed(series.tournament_id)
    announce_series_closed(closed.pk, closed.tournament_id)
    return closed
