"""The series lifecycle: planned → drawn → running → closed, strictly in that order."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.services import Refusal, ServiceError
from tournaments.models import Series, Tournament
from tournaments.services.latecomers import unseated_players


def series_not_running(
    series: Series, *, refusal: Refusal = Refusal.CONFLICT, hint: str = ""
) -> ServiceError:
    """The one refusal of the use cases that need a running series (entering, time-out,
    closing); ``hint`` says what it means for the one asking."""
    message = _("Series %(n)d is not running.") % {"n": series.number}
    return ServiceError("series_not_running", f"{message} {hint}".strip(), refusal=refusal)


def require_running(series: Series, *, refusal: Refusal = Refusal.CONFLICT) -> None:
    if series.status != Series.Status.RUNNING:
        raise series_not_running(series, refusal=refusal)


def _locked(series: Series) -> Series:
    return Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)


@transaction.atomic
def start_series(series: Series, *, allow_unseated: bool = False) -> Series:
    """Captain links become valid. Checked-in players without a seat would silently miss the
    series, so that needs ``allow_unseated`` (the organizer's explicit confirmation)."""
    series = _locked(series)
    if series.status != Series.Status.DRAWN:
        raise ServiceError(
            "not_drawn" if series.status == Series.Status.PLANNED else "already_started",
            _("Only a drawn series that has not started can be started."),
            refusal=Refusal.CONFLICT,
        )
    earlier_open = Series.objects.filter(
        tournament=series.tournament, number__lt=series.number
    ).exclude(status=Series.Status.CLOSED)
    if earlier_open.exists():
        raise ServiceError(
            "previous_not_closed",
            _("Close series %(n)d before starting series %(m)d.")
            % {"n": earlier_open.order_by("number")[0].number, "m": series.number},
            refusal=Refusal.CONFLICT,
        )
    unseated = [] if allow_unseated else unseated_players(series)
    if unseated:
        raise ServiceError(
            "unseated_players",
            _(
                "Checked-in players without a seat: %(players)s. Seat them first, or confirm "
                "that they sit out this series."
            )
            % {"players": ", ".join(f"{r.player} (#{r.start_number})" for r in unseated)},
            refusal=Refusal.CONFLICT,
            data={"unseated": [r.start_number for r in unseated]},
        )
    series.status = Series.Status.RUNNING
    series.starts_at = timezone.now()
    series.save(update_fields=["status", "starts_at"])
    Tournament.objects.filter(
        pk=series.tournament_id,
        status__in=[Tournament.Status.DRAFT, Tournament.Status.REGISTRATION],
    ).update(status=Tournament.Status.RUNNING, registration_open=False)
    return series


@transaction.atomic
def mark_closed(series: Series) -> Series:
    """The series' status step to closed. The use case that closes a series, with its
    check of unconfirmed sheets, is ``scoring.services.closing.close_series``; afterwards
    only audited organizer corrections change results."""
    series = _locked(series)
    require_running(series)
    series.status = Series.Status.CLOSED
    series.closed_at = timezone.now()
    series.save(update_fields=["status", "closed_at"])
    if not Series.objects.filter(tournament=series.tournament).exclude(status="closed").exists():
        Tournament.objects.filter(pk=series.tournament_id).update(status=Tournament.Status.FINISHED)
    return series


@transaction.atomic
def ensure_series(tournament: Tournament) -> None:
    """One Series row per planned series (more when the organizer raised the number;
    surplus planned rows go when it was lowered)."""
    existing = set(tournament.series.values_list("number", flat=True))
    Series.objects.bulk_create(
        Series(tournament=tournament, number=n)
        for n in range(1, tournament.series_count + 1)
        if n not in existing
    )
    tournament.series.filter(
        number__gt=tournament.series_count, status=Series.Status.PLANNED
    ).delete()
