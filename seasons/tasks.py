"""Celery tasks of seasons: ids in, the stored ranking (``SeasonEntry``) refreshed by the
service. Without a broker they run eagerly."""

from __future__ import annotations

from celery import shared_task

from seasons.entries import refresh_season_entries
from seasons.models import Season


@shared_task(name="seasons.refresh", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def refresh_season(season_id: int, requested: int | None = None) -> bool:
    """Refresh one season's stored ranking after results changed: the lines of the changed
    tournaments' players (nothing when the season is gone, or when a later refresh already
    covers ``requested``)."""
    season = Season.objects.filter(pk=season_id).first()
    return season is not None and refresh_season_entries(
        season, requested=requested, only_changed=True
    )


@shared_task(name="seasons.refresh_all")
def refresh_all_seasons() -> int:
    """Every season's stored ranking, once a day: without a reference date a season's
    window moves on with the date, and results drop out of it without any change."""
    count = 0
    for season in Season.objects.order_by("pk").iterator():
        count += refresh_season_entries(season)
    return count
