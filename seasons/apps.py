from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.dashboard import MINE, Link, contribute

if TYPE_CHECKING:
    from tournaments.models import Registration, Tournament


def my_seasons() -> list[Link]:
    return [Link(gettext("My seasons"), reverse("seasons:mine"))]


def player_seasons(registration: Registration) -> list[Link]:
    """A player's results in every tournament (his seasons), from his page of one."""
    url = reverse("seasons:player", args=[registration.player_id])
    return [Link(gettext("results in all tournaments"), url)]


def ddv_links(tournament: Tournament) -> list[Link]:
    """The DDV report, from the tournament's dashboard (its organizers')."""
    url = reverse("seasons:ddv-report", args=[tournament.slug])
    return [Link(gettext("DDV ranking tournament"), url)]


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        from scoring.demo import demo_built
        from scoring.links import PLAYER
        from scoring.signals import ask_with_totals, totals_changed
        from seasons.demo import season_in_demo
        from seasons.services import (
            refresh_after_players_merged,
            refresh_after_results,
            seasons_of_tournament_sql,
        )
        from tournaments.signals import players_merged

        MINE.contribute(self.name, my_seasons)
        PLAYER.contribute(self.name, player_seasons)
        contribute("exports", self.name, ddv_links, order=70)
        demo_built.connect(season_in_demo, dispatch_uid="seasons-demo-season")
        # A result of an attached tournament changed: refresh the seasons' stored rankings.
        totals_changed.connect(refresh_after_results, dispatch_uid="seasons-refresh-entries")
        # ... whose seasons a game entry reads in passing (``seasons`` of the signal).
        ask_with_totals("seasons", seasons_of_tournament_sql())
        # Two players became one: his lines in the seasons of those tournaments change.
        players_merged.connect(refresh_after_players_merged, dispatch_uid="seasons-merged")
