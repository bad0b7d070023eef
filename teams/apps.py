from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.dashboard import MINE, Link, contribute

if TYPE_CHECKING:
    from tournaments.models import Tournament


def dashboard_links(tournament: Tournament) -> list[Link]:
    """A group's tournament is managed from its league: the link back to its line-ups."""
    from teams.models import Group

    group = Group.objects.filter(tournament=tournament).select_related("match_day__league").first()
    if group is None:
        return []
    day = group.match_day
    if day.knockout_round is not None:
        label = gettext("%(league)s, knockout round %(round)d, match %(match)d") % {
            "league": day.league.name,
            "round": day.knockout_round,
            "match": group.number,
        }
        return [Link(label, reverse("teams:group", args=[day.league.slug, group.pk]))]
    label = gettext("%(league)s, match day %(day)s, group %(number)s: line-ups and team draw") % {
        "league": day.league.name,
        "day": day.number,
        "number": group.number,
    }
    return [Link(label, reverse("teams:group", args=[day.league.slug, group.pk]))]


def my_leagues() -> list[Link]:
    return [Link(gettext("My team competitions"), reverse("teams:mine"))]


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = _("Team competitions")

    def ready(self) -> None:
        from scoring.demo import demo_built
        from teams.demo import league_in_demo
        from teams.permissions import group_tournaments
        from teams.services import register_team_draw
        from tournaments.permissions import TOURNAMENTS

        register_team_draw()
        TOURNAMENTS.add_public_rule(group_tournaments)
        contribute("group", self.name, dashboard_links)
        MINE.contribute(self.name, my_leagues)
        demo_built.connect(league_in_demo, dispatch_uid="teams-demo-league")
