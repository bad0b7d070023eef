"""What the captain page sends ahead for its outbox (docs/offline.md): the data a phone
needs to keep and show games typed without a connection, never a rule's result (design
decision 10: no dealer, no value, no compulsory flag is computed on the phone)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Table


class SeatLike(Protocol):
    @property
    def position(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def short(self) -> str: ...


def sheet_data(
    table: Table,
    *,
    seating: Sequence[SeatLike],
    next_number: int,
    sheet_version: int,
    mode: str,
    open: bool,
) -> dict[str, Any]:
    """The ``sheet-data`` JSON of the captain page (rendered with ``json_script``)."""
    token = table.captain_token
    return {
        "table": table.pk,
        "table_number": table.number,
        "series": table.series.number,
        "token_path": reverse("scoring:captain", kwargs={"token": token}),
        "sync_url": reverse("scoring:captain-outbox", kwargs={"token": token}),
        "next_number": next_number,
        "sheet_version": sheet_version,
        "mode": mode,
        "open": open,
        "seats_count": len(seating),
        "seat_names": {str(s.position): s.short for s in seating},
        "players": {str(s.position): s.name for s in seating},
        "labels": {
            "dealer_later": _("Dealer is determined when sent"),
            "value_later": _("Value is computed when sent"),
            "pending": _("Not sent yet"),
        },
    }
