"""Who may see and change a table's results through the API.

Seeing: everybody when the tournament is public; else its organizers and the captain of
that very table; everybody else gets 404.

Changing (games, submit, confirm):
* the captain token of this table, while its series is running (else 403
  ``series_not_running``); a captain token of another table gets 403 ``wrong_table``
  (404 when that table is not even visible to him, i.e. in a private tournament);
* an organizer of the tournament (token or session), also after the close, with a reason
  where the services ask for one;
* anybody else: 401 without credentials, 403 ``not_organizer`` with them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.authentication import (
    BaseAuthentication,
    SessionAuthentication,
    TokenAuthentication,
)
from rest_framework.request import Request

from common.actors import API, Actor
from common.api.base import ApiMixin
from common.api.errors import ApiError
from scoring.api.authentication import TableAuthentication, captain_table
from scoring.api.headers import device_id
from scoring.doors import CAPTAIN
from scoring.services.entry import captain_too_early_or_late
from tournaments.api.access import require_organizer
from tournaments.models import Series, Table
from tournaments.permissions import can_view


class ScoringMixin(ApiMixin):
    authentication_classes: Sequence[type[BaseAuthentication]] = [
        TokenAuthentication,
        TableAuthentication,
        SessionAuthentication,
    ]


def table_from_url(request: Request, slug: str, series: int, number: int) -> Table:
    own = captain_table(request)
    if (
        own is not None
        and own.number == number
        and own.series.number == series
        and own.series.tournament.slug == slug
    ):
        return own  # the captain's own table, loaded by the authentication already
    table = (
        Table.objects.select_related("series__tournament")
        .filter(series__tournament__slug=slug, series__number=series, number=number)
        .first()
    )
    if table is None:
        raise Http404
    if not (
        (own is not None and own.pk == table.pk) or can_view(request.user, table.series.tournament)
    ):
        raise Http404
    return table


def writer(request: Request, table: Table, *, seat: int | None = None) -> Actor:
    """The actor who changes results of ``table``, or the refusal."""
    own = captain_table(request)
    if own is not None:
        if own.pk != table.pk:
            raise ApiError(403, "wrong_table", _("This table link belongs to another table."))
        if table.series.status != Series.Status.RUNNING:
            raise captain_too_early_or_late(table)
        return Actor(CAPTAIN, seat=seat, device=device_id(request))
    require_organizer(request, table.series.tournament)
    return Actor(API, user=request.user, device=device_id(request))
