"""The cash box's links on the club's page (``clubs.links.CLUB``): the ledger for those who
keep it, the settlement for every member."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from cashbox.permissions import is_member, keeps_cashbox
from clubs.models import Club
from common.links import Link


def club_links(club: Club, user: Any) -> list[Link]:
    links = []
    if keeps_cashbox(user, club):
        links.append(Link(gettext("Cash box"), reverse("cashbox:ledger", args=[club.slug])))
    if is_member(user, club):
        url = reverse("cashbox:settlement", args=[club.slug])
        links.append(Link(gettext("Settlement calculator"), url))
    return links
