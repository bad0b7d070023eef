from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.dashboard import MANAGE, PUBLIC, Link, contribute

if TYPE_CHECKING:
    from tournaments.models import Tournament


def dashboard_links(tournament: Tournament) -> list[Link]:
    return [Link(gettext("Hall display"), reverse("hall:manage", args=[tournament.slug]))]


def public_links(tournament: Tournament) -> list[Link]:
    return [Link(gettext("Hall display"), reverse("hall:display", args=[tournament.slug]))]


class HallConfig(AppConfig):
    name = "hall"
    verbose_name = _("Hall display")

    def ready(self) -> None:
        from common.changelog import ActionKind, register_actions
        from hall.backups import backup_after_close
        from hall.demo import announce_in_demo
        from hall.services import MADE, WITHDRAWN
        from scoring.demo import demo_built
        from scoring.signals import series_closed

        demo_built.connect(announce_in_demo, dispatch_uid="hall-demo-announcement")
        series_closed.connect(backup_after_close, dispatch_uid="hall-backup-after-close")
        contribute("results", self.name, dashboard_links, order=30)
        PUBLIC.contribute(self.name, public_links, order=30)
        MANAGE.contribute(self.name, dashboard_links, order=30)
        register_actions(
            {
                # the text of an announcement is its entry's reason
                MADE: ActionKind("announcement", _("Announcement in the hall")),
                WITHDRAWN: ActionKind("announcement-withdrawn", _("Announcement withdrawn")),
            }
        )
