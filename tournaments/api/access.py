"""Who may see and change what, for the API.

* A tournament the requester may not view (not public, not his) does not exist for him: 404.
* On a tournament he may view, a change needs an organizer: anonymous 401, others 403
  (code ``not_organizer``).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework.request import Request

from common.api.ownership import require_keeper
from tournaments.models import Series, Tournament
from tournaments.permissions import TOURNAMENTS, can_view


def visible_tournaments(request: Request) -> QuerySet[Tournament]:
    return TOURNAMENTS.visible(request.user)


def viewable_tournament(request: Request, slug: str, *, also: bool = False) -> Tournament:
    """The tournament from the URL, if the requester may view it (``also``: the caller has
    another reason to show it, e.g. a captain token of one of its tables)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not (also or can_view(request.user, tournament)):
        raise Http404
    return tournament


def require_organizer(request: Request, tournament: Tournament) -> None:
    require_keeper(
        request,
        TOURNAMENTS,
        tournament,
        "not_organizer",
        _("Only the organizers of this tournament may do this."),
    )


def organized_tournament(request: Request, slug: str) -> Tournament:
    """The tournament from the URL, for its organizers (404 when not even viewable)."""
    tournament = viewable_tournament(request, slug)
    require_organizer(request, tournament)
    return tournament


def series_of(tournament: Tournament, number: int) -> Series:
    series = Series.objects.filter(tournament=tournament, number=number).first()
    if series is None:
        raise Http404
    series.tournament = tournament
    return series
