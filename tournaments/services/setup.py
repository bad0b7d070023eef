"""Creating and changing a tournament: the checks and steps the form and the API share."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import roles
from clubs.models import Club
from clubs.services import home_club
from common import slugs
from common.services import ServiceError
from tournaments.models import Tournament
from tournaments.services.lifecycle import ensure_series


def settings_problems(
    instance: Tournament | None,
    *,
    starts_on: datetime.date | None,
    ends_on: datetime.date | None,
    series_count: int | None,
) -> dict[str, str]:
    """Field → message for settings that cannot be saved (empty when all is well)."""
    problems = {}
    if starts_on and ends_on and ends_on < starts_on:
        problems["ends_on"] = _("The last day cannot lie before the first day.")
    if instance is not None and instance.pk and series_count is not None:
        started = instance.series.exclude(status="planned").order_by("-number").first()
        if started and series_count < started.number:
            problems["series_count"] = ngettext(
                "Series %(n)d is already drawn; the tournament needs at least %(n)d series.",
                "Series %(n)d is already drawn; the tournament needs at least %(n)d series.",
                started.number,
            ) % {"n": started.number}
    return problems


# Pages under /verwaltung/ that are no tournament: a tournament with such a short name
# could never be managed.
RESERVED_SLUGS = frozenset(
    {"neu", "spieler", "saisons", "import", "ligen", "kasse", "vereine", "dokumente"}
)


def slug_from_name(name: str) -> str:
    """The short name for links a tournament name suggests (see ``common.slugs``)."""
    return slugs.slug_from_name(name, "turnier")


def unique_slug(name: str, *, exclude_pk: int | None = None) -> str:
    """``slug_from_name`` made unique with a number ("-2", "-3", ...) if another tournament
    (not ``exclude_pk``) has it already, never a management page's address."""
    others = Tournament.objects.exclude(pk=exclude_pk) if exclude_pk else Tournament.objects.all()
    return slugs.unique_slug_in(others, slug_from_name(name), RESERVED_SLUGS)


@transaction.atomic
def save_tournament(
    tournament: Tournament, *, organizer: Any = None, club: Club | None = None
) -> Tournament:
    """Save new or changed settings; a new tournament gets its creator as organizer and
    belongs to his ``club`` (by default his personal club); the Series rows follow the
    number of series. A short name taken meanwhile by another tournament (two organizers
    saving the same name at once) is refused on its field."""
    if organizer is not None and tournament.club_id is None:
        tournament.club = home_club(organizer, roles.TOURNAMENTS, club)
    if tournament.slug in RESERVED_SLUGS:
        raise ServiceError(
            "slug_reserved",
            _("“%(slug)s” names a page of the app; “%(free)s” is free.")
            % {"slug": tournament.slug, "free": unique_slug(tournament.slug)},
            field="slug",
        )
    slugs.save_with_unique_slug(
        tournament,
        lambda free: (
            _("Another tournament has this short name; “%(free)s” is free.") % {"free": free}
        ),
    )
    if organizer is not None:
        tournament.organizers.add(organizer)
    ensure_series(tournament)
    return tournament
