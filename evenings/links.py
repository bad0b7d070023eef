"""The evenings' link on the club's page (``clubs.links.CLUB``), for those who keep them."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from clubs.models import Club
from common.links import Link
from evenings.permissions import keeps_evenings


def club_links(club: Club, user: Any) -> list[Link]:
    if not keeps_evenings(user, club):
        return []
    return [Link(gettext("Evenings"), reverse("evenings:groups", args=[club.slug]))]
