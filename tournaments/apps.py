from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from common.changelog import ActionKind, register_actions
        from tournaments.services import keep_apart

        register_actions(
            {
                keep_apart.ADDED: ActionKind("keep-apart-added", _("Players kept apart")),
                keep_apart.REMOVED: ActionKind(
                    "keep-apart-removed", _("Players no longer kept apart")
                ),
            }
        )
