from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        from scoring.demo import demo_built
        from seasons.demo import season_in_demo

        demo_built.connect(season_in_demo, dispatch_uid="seasons-demo-season")
