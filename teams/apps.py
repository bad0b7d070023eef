from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = _("Team competitions")

    def ready(self) -> None:
        from teams.services import register_team_draw

        register_team_draw()
