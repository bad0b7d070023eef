"""Creating and changing a tournament: the checks and steps the form and the API share."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.services import ServiceError
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
            problems["series_count"] = _(
                "Series %(n)d is already drawn; the tournament needs at least %(n)d series."
            ) % {"n": started.number}
    return problems


GERMAN_LETTERS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
SLUG_MAX_LENGTH = 60  # Tournament.slug
# Pages under /verwaltung/ that are no tournament: a tournament with such a short name
# could never be managed.
RESERVED_SLUGS = frozenset({"neu", "spieler", "saisons", "import"})


def slug_from_name(name: str) -> str:
    """The short name for links a tournament name suggests: "Großer Bärenpreis" →
    "grosser-baerenpreis" (umlauts written out, then Django's slugify)."""
    slug = slugify(name.lower().translate(GERMAN_LETTERS))
    return slug[:SLUG_MAX_LENGTH].strip("-") or "turnier"


def unique_slug(name: str, *, exclude_pk: int | None = None) -> str:
    """``slug_from_name`` made unique with a number ("-2", "-3", ...) if another tournament
    (not ``exclude_pk``) has it already."""
    base = slug_from_name(name)
    others = Tournament.objects.all()
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    taken = RESERVED_SLUGS | set(
        others.filter(slug__startswith=base[: SLUG_MAX_LENGTH - 4]).values_list("slug", flat=True)
    )
    slug, number = base, 1
    while slug in taken:
        number += 1
        suffix = f"-{number}"
        slug = base[: SLUG_MAX_LENGTH - len(suffix)].rstrip("-") + suffix
    return slug


@transaction.atomic
def save_tournament(tournament: Tournament, *, organizer: Any = None) -> Tournament:
    """Save new or changed settings; a new tournament gets its creator as organizer; the
    Series rows follow the number of series. A short name taken meanwhile by another
    tournament (two organizers saving the same name at once) is refused on its field."""
    if tournament.slug in RESERVED_SLUGS:
        raise ServiceError(
            "slug_reserved",
            _("“%(slug)s” names a page of the app; “%(free)s” is free.")
            % {"slug": tournament.slug, "free": unique_slug(tournament.slug)},
            field="slug",
        )
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError as exc:
        if not Tournament.objects.filter(slug=tournament.slug).exclude(pk=tournament.pk).exists():
            raise
        raise ServiceError(
            "slug_taken",
            _("Another tournament has this short name; “%(free)s” is free.")
            % {"free": unique_slug(tournament.slug)},
            field="slug",
        ) from exc
    if organizer is not None:
        tournament.organizers.add(organizer)
    ensure_series(tournament)
    return tournament
