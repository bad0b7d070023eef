from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = _("Team competitions")

    def ready(self) -> None:
        from scoring.demo import demo_built
        from teams.demo import league_in_demo
        from teams.services import register_team_draw

        register_team_draw()
        demo_built.connect(league_in_demo, dispatch_uid="teams-demo-league")
