from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.dashboard import MINE, NAV, Link, contribute

if TYPE_CHECKING:
    from tournaments.models import Tournament


def my_desks() -> list[Link]:
    return [Link(gettext("Cash desk"), reverse("fees:mine"))]


def nav_links(tournament: Tournament) -> list[Link]:
    return [Link(gettext("Fees"), reverse("fees:desk", args=[tournament.slug]), view="fees:desk")]


def dashboard_links(tournament: Tournament) -> list[Link]:
    return [
        Link(gettext("Entry fees"), reverse("fees:desk", args=[tournament.slug])),
        Link(gettext("Prize money"), reverse("fees:payouts", args=[tournament.slug])),
    ]


class FeesConfig(AppConfig):
    name = "fees"
    verbose_name = _("Entry fees and prizes")

    def ready(self) -> None:
        from common.changelog import ActionKind, register_actions
        from fees import services
        from fees.archiving import PART
        from fees.demo import fees_in_demo
        from scoring.demo import demo_built
        from tournaments.archive_parts import register_part

        MINE.contribute(self.name, my_desks)
        NAV.contribute(self.name, nav_links, order=60)
        contribute("results", self.name, dashboard_links, order=60)
        demo_built.connect(fees_in_demo, dispatch_uid="fees-demo")
        register_part(PART)
        register_actions(
            {
                services.PAID: ActionKind("fee-paid", _("Entry fee paid")),
                services.WAIVED: ActionKind("fee-waived", _("Entry fee waived")),
                services.REOPENED: ActionKind("fee-reopened", _("Entry fee open again")),
                services.SETTINGS_CHANGED: ActionKind("fees-changed", _("Entry fees changed")),
                services.PRIZES_CHANGED: ActionKind("prizes-changed", _("Prize table changed")),
            }
        )
