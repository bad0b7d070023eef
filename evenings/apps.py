from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EveningsConfig(AppConfig):
    name = "evenings"
    verbose_name = _("Evenings")

    def ready(self) -> None:
        from cashbox import sources
        from clubs.links import CLUB
        from common.changelog import ActionKind, register_actions
        from evenings.demo import evenings_in_demo
        from evenings.links import booking_sources, club_links
        from scoring.demo import demo_built

        register_actions(
            {
                "evenings.group.created": ActionKind("group-created", _("Group created")),
                "evenings.member.added": ActionKind("member-added", _("Member added")),
                "evenings.evening.opened": ActionKind("evening-opened", _("Evening opened")),
                "evenings.tables.set": ActionKind("tables-set", _("Tables set")),
                "evenings.game.entered": ActionKind(
                    "evening-game-entered", _("Game entered at an evening")
                ),
                "evenings.game.deleted": ActionKind(
                    "evening-game-deleted", _("Game deleted at an evening")
                ),
                "evenings.evening.closed": ActionKind("evening-closed", _("Evening closed")),
                "evenings.evening.booked": ActionKind(
                    "evening-booked", _("Evening booked into the cash box")
                ),
            }
        )
        CLUB.contribute(self.name, club_links)
        sources.contribute(self.name, booking_sources)
        demo_built.connect(evenings_in_demo, dispatch_uid="evenings-demo-group")
