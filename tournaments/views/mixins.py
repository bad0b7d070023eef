"""The organizer pages' mixin: the tournament from the URL, for its organizers only."""

from __future__ import annotations

from typing import ClassVar

from common.ownership import Ownership
from common.views import KeeperMixin
from tournaments.models import Tournament
from tournaments.permissions import TOURNAMENTS


class OrganizerMixin(KeeperMixin):
    """The tournament from the URL, for its organizers only (403 for everyone else)."""

    ownership: ClassVar[Ownership[Tournament]] = TOURNAMENTS
    url_kwarg = "slug"
    context_name = "tournament"
    tournament: Tournament
