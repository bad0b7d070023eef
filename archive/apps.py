from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.dashboard import MINE, REGISTRY_PLAYER, Link, contribute

if TYPE_CHECKING:
    from tournaments.models import Player, Series, Tournament


def standings_exports(tournament: Tournament, series: Series | None) -> list[Link]:
    """The standings (of ``series``, else overall) and all games, as CSV and Excel."""
    if series is None:
        standings = reverse("archive:standings", args=[tournament.slug])
    else:
        standings = reverse("archive:series-standings", args=[tournament.slug, series.number])
    games = reverse("archive:games", args=[tournament.slug])
    return [
        Link(gettext("standings (CSV)"), standings, download=True),
        Link(gettext("standings (Excel)"), f"{standings}?format=xlsx", download=True),
        Link(gettext("all games (CSV)"), games, download=True),
        Link(gettext("all games (Excel)"), f"{games}?format=xlsx", download=True),
    ]


def player_data_link(player: Player) -> list[Link]:
    return [
        Link(
            gettext("Data export (JSON): everything the registry holds about this player"),
            reverse("archive:player-data", args=[player.pk]),
            download=True,
        )
    ]


def import_link() -> list[Link]:
    return [Link(gettext("Import a tournament"), reverse("archive:import"))]


def dashboard_links(tournament: Tournament) -> list[Link]:
    return [
        *standings_exports(tournament, None),
        Link(
            gettext("Tournament archive (JSON)"),
            reverse("archive:download", args=[tournament.slug]),
            note=gettext(
                "with every game, for another Doko-Turnier; it contains the players' DDV numbers"
            ),
            download=True,
        ),
    ]


class ArchiveConfig(AppConfig):
    name = "archive"
    verbose_name = _("Exports and archives")

    def ready(self) -> None:
        from archive.services import ACTION
        from common.changelog import ActionKind, register_actions
        from scoring.links import STANDINGS

        contribute("exports", self.name, dashboard_links)
        MINE.contribute(self.name, import_link)
        REGISTRY_PLAYER.contribute(self.name, player_data_link)
        STANDINGS.contribute(self.name, standings_exports)
        # a tournament created from an archive; the data name its source
        register_actions({ACTION: ActionKind("imported", _("Tournament imported from an archive"))})
