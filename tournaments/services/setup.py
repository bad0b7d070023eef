"""Creating and changing a tournament: the checks and steps the form and the API share."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

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
            problems["series_count"] = _(
                "Series %(n)d is already drawn; the tournament needs at least %(n)d series."
            ) % {"n": started.number}
    return problems


@transaction.atomic
def save_tournament(tournament: Tournament, *, organizer: Any = None) -> Tournament:
    """Save new or changed settings; a new tournament gets its creator as organizer; the
    Series rows follow the number of series."""
    tournament.save()
    if organizer is not None:
        tournament.organizers.add(organizer)
    ensure_series(tournament)
    return tournament
