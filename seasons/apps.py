from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        from scoring.demo import demo_built
        from scoring.signals import totals_changed
        from seasons.demo import season_in_demo
        from seasons.services import refresh_after_players_merged, refresh_after_results
        from tournaments.signals import players_merged

        demo_built.connect(season_in_demo, dispatch_uid="seasons-demo-season")
        # A result of an attached tournament changed: refresh the seasons' stored rankings.
        totals_changed.connect(refresh_after_results, dispatch_uid="seasons-refresh-entries")
        # Two players became one: his lines in the seasons of those tournaments change.
        players_merged.connect(refresh_after_players_merged, dispatch_uid="seasons-merged")
