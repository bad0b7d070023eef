"""The evenings' link on the club's page (``clubs.links.CLUB``), for those who keep them;
the evening an evening's payment in the cash box came from (``cashbox.sources``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from clubs.models import Club
from common.links import Link
from evenings.models import EveningPayment
from evenings.permissions import keeps_evenings


def club_links(club: Club, user: Any) -> list[Link]:
    if not keeps_evenings(user, club):
        return []
    return [Link(gettext("Evenings"), reverse("evenings:groups", args=[club.slug]))]


def booking_sources(booking_ids: Sequence[int]) -> dict[int, Link]:
    """The evening's result page of every booking that is an evening's payment."""
    rows = EveningPayment.objects.filter(booking_id__in=list(booking_ids)).select_related(
        "evening__group__club"
    )
    found = {}
    for payment in rows:
        group = payment.evening.group
        url = reverse("evenings:result", args=[group.club.slug, group.slug, payment.evening_id])
        found[payment.booking_id] = Link(gettext("Evening"), url, view="evenings:result")
    return found
