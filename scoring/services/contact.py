"""The captain link's last contact per table and the games its phone still holds.

Every request through a captain link may carry ``X-Outbox-Pending: <n>``. Writing it must
cost the entry nothing: at most one UPDATE per table every ``CONTACT_EVERY`` seconds (the
cache says when the last one was), except that a count that reaches zero, or leaves it, is
written at once: closing a series asks about tables with pending games, and a phone that
just emptied its outbox must not keep that question up.
"""

from __future__ import annotations

import datetime

from django.core.cache import cache
from django.db.models import Count, Q
from django.utils import timezone

from scoring.models import OutboxConflict, TableContact
from tournaments.models import Series

CONTACT_EVERY = 5  # seconds
_NONE = -1


def _key(table_id: int) -> str:
    return f"scoring:contact:{table_id}"


def record_contact(
    table_id: int, pending: int | None, *, now: datetime.datetime | None = None
) -> bool:
    """Note that the table's link was used (and the phone's pending count, if it said);
    True when a row was written."""
    last = cache.get(_key(table_id))
    said = _NONE if pending is None else pending
    if last is not None:
        crossing = said != _NONE and last != said and 0 in (said, last)
        if not crossing:
            return False
    now = now or timezone.now()
    cache.set(_key(table_id), said, CONTACT_EVERY)
    fields: dict[str, object] = {"last_contact": now}
    if pending is not None:
        fields.update(pending=pending, pending_at=now)
    if not TableContact.objects.filter(table_id=table_id).update(**fields):
        TableContact.objects.bulk_create(
            [TableContact(table_id=table_id, **fields)], ignore_conflicts=True
        )
    return True


def pending_tables(series: Series) -> list[tuple[int, int]]:
    """(table number, pending games) of the tables whose phone last reported games it has
    not sent yet, in table order."""
    return list(
        TableContact.objects.filter(table__series=series, pending__gt=0)
        .order_by("table__number")
        .values_list("table__number", "pending")
    )


def open_conflicts(series: Series) -> dict[int, int]:
    """Table id → number of outbox conflicts no organizer has resolved yet."""
    rows = (
        OutboxConflict.objects.filter(table__series=series, resolved_at__isnull=True)
        .values("table_id")
        .annotate(n=Count("pk", filter=Q(resolved_at__isnull=True)))
    )
    return {row["table_id"]: row["n"] for row in rows}
