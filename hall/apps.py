from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HallConfig(AppConfig):
    name = "hall"
    verbose_name = _("Hall display")

    def ready(self) -> None:
        from hall.demo import announce_in_demo
        from scoring.demo import demo_built

        demo_built.connect(announce_in_demo, dispatch_uid="hall-demo-announcement")
