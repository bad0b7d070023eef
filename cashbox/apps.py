from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CashboxConfig(AppConfig):
    name = "cashbox"
    verbose_name = _("Cash box")

    def ready(self) -> None:
        from cashbox.demo import cashbox_in_demo
        from cashbox.links import club_links
        from clubs.links import CLUB
        from common.changelog import ActionKind, register_actions
        from scoring.demo import demo_built

        register_actions(
            {
                "cashbox.booking.added": ActionKind("booking-added", _("Booking added")),
                "cashbox.booking.reversed": ActionKind("booking-reversed", _("Booking reversed")),
            }
        )
        CLUB.contribute(self.name, club_links)
        demo_built.connect(cashbox_in_demo, dispatch_uid="cashbox-demo-bookings")
