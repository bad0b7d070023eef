"""Points deducted outside any game (TSR 9.7): no counter-credit, always audited."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from scoring.messages import engine_error_message
from scoring.models import AuditEntry, Deduction, PlayerScore
from scoring.rulesets import ruleset_for
from scoring.services.series_totals import refresh_totals
from tournaments.models import Registration, Series


@transaction.atomic
def add_deduction(
    series: Series, registration: Registration, points: int, reason: str, actor: Actor
) -> Deduction:
    if not actor.is_organizer:
        raise ServiceError(
            "forbidden", _("Only organizers deduct points."), refusal=Refusal.FORBIDDEN
        )
    ruleset = ruleset_for(series.tournament)
    if not ruleset.deduction_allowed(points):
        raise ServiceError(
            "deduction_out_of_range",
            engine_error_message("deduction_out_of_range", "points", ruleset),
            field="points",
        )
    if not reason.strip():
        raise ServiceError("reason_required", _("Give a reason."), field="reason")
    if registration.tournament_id != series.tournament_id:
        raise ServiceError("not_registered", _("The player is not in this tournament."))
    deduction = Deduction.objects.create(
        series=series, registration=registration, points=points, reason=reason,
        created_by=actor.user,
    )  # fmt: skip
    PlayerScore.objects.create(
        tournament_id=series.tournament_id,
        series=series,
        series_number=series.number,
        registration=registration,
        deduction=deduction,
        points=points,
    )
    refresh_totals(series, [registration.pk])
    AuditEntry.objects.create(
        tournament_id=series.tournament_id,
        action="scoring.penalty.created",
        after={"registration": registration.pk, "series": series.number, "points": points},
        user=actor.user,
        via=actor.describe(),
        reason=reason,
    )
    return deduction
