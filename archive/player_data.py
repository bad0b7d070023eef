"""A player's data export (DSGVO Art. 15): everything the registry holds about him, as
JSON for the keepers of his registry to hand out: his details and consent, every registration
with its tournament, his results (tournament and series totals) and the registry's log
entries of him. Only the keepers of his registry read it (``may_merge``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from common.services import Refusal, ServiceError
from scoring.models import SeriesTotal, TournamentTotal
from tournaments.models import Player, Registration, RegistryChange
from tournaments.permissions import may_merge
from tournaments.services.privacy import consent_of

FORMAT = "doko-turnier-player-data/1"


def player_data(user: AbstractBaseUser | AnonymousUser, player: Player) -> dict[str, Any]:
    """The player's data export; refused as "not found" to anyone but the keepers of his
    registry."""
    if not may_merge(user, player):
        raise ServiceError("player_not_found", _("Player not found."), refusal=Refusal.NOT_FOUND)
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("tournament")
        .order_by("tournament__starts_on", "pk")
    )
    totals = {
        t.registration_id: t for t in TournamentTotal.objects.filter(registration__player=player)
    }
    series: dict[int, list[dict[str, Any]]] = {}
    for s in SeriesTotal.objects.filter(registration__player=player).order_by("series_number"):
        series.setdefault(s.registration_id, []).append(
            {"series": s.series_number, "points": s.points, "games": s.games}
        )
    return {
        "format": FORMAT,
        "player": {
            "id": player.pk,
            "first_name": player.first_name,
            "last_name": player.last_name,
            "club": player.club,
            "ddv_number": player.ddv_number,
            "email": player.email,
            "registered_at": player.created_at.isoformat(),
            **consent_of(player),
        },
        "registrations": [
            _registration(r, totals.get(r.pk), series.get(r.pk, [])) for r in registrations
        ],
        "registry_log": [
            {
                "action": c.action,
                "at": c.created_at.isoformat(),
                "before": c.before,
                "after": c.after,
            }
            for c in RegistryChange.objects.filter(player=player).order_by("created_at", "pk")
        ],
    }


def _registration(
    registration: Registration, total: TournamentTotal | None, series: list[dict[str, Any]]
) -> dict[str, Any]:
    tournament = registration.tournament
    return {
        "tournament": {
            "slug": tournament.slug,
            "name": tournament.name,
            "starts_on": tournament.starts_on.isoformat(),
        },
        "start_number": registration.start_number,
        "checked_in": registration.checked_in,
        "total": None
        if total is None
        else {
            "points": total.points,
            "games": total.games,
            "solos": total.solos,
            "solos_won": total.solos_won,
            "deductions": total.deductions,
        },
        "series": series,
    }
