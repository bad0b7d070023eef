from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.urls import reverse
from django.utils.autoreload import file_changed
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.dashboard import MANAGE, NAV, PUBLIC, REFEREED, TABLE, Link, contribute

if TYPE_CHECKING:
    from tournaments.models import Table, Tournament


def dashboard_links(tournament: Tournament) -> list[Link]:
    return [Link(gettext("Standings"), reverse("scoring:standings", args=[tournament.slug]))]


def change_log(tournament: Tournament) -> list[Link]:
    url = reverse("scoring:audit", args=[tournament.slug])
    return [Link(gettext("Change log"), url, view="scoring:audit")]


def referee_calls(tournament: Tournament) -> list[Link]:
    url = reverse("scoring:referee-calls", args=[tournament.slug])
    return [Link(gettext("Referee calls"), url, view="scoring:referee-calls")]


def sheet(tournament: Tournament, table: Table) -> list[Link]:
    """A drawn table's sheet, from the organizer's series page."""
    url = reverse("scoring:sheet", args=[tournament.slug, table.pk])
    return [Link(gettext("sheet"), url)]


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from common.changelog import register_actions
        from scoring import links  # noqa: F401 (declares the places of scoring's pages)
        from scoring.audit_text import SCORING_ACTIONS
        from scoring.templatetags.kept_parts import forget_parts

        # The development server keeps running when a template changes (not in a deploy).
        file_changed.connect(forget_parts, dispatch_uid="scoring.forget_parts")

        register_actions(SCORING_ACTIONS)
        contribute("results", self.name, dashboard_links, order=10)
        PUBLIC.contribute(self.name, dashboard_links, order=10)
        MANAGE.contribute(self.name, dashboard_links, order=10)
        NAV.contribute(self.name, lambda t: [*change_log(t), *referee_calls(t)])
        TABLE.contribute(self.name, sheet)
        REFEREED.contribute(self.name, referee_calls)
