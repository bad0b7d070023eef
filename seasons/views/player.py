"""A player's page across tournaments and seasons (``seasons.players.player_history``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from scoring.stats_text import FigureCells
from seasons.players import player_history
from tournaments.models import Player
from tournaments.publication import shown_name


class PlayerView(TemplateView):
    """Public: his results in public tournaments, his lines in public seasons, his figures.
    A player with nothing the visitor may see is not found."""

    template_name = "seasons/player.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        player = get_object_or_404(Player, pk=kwargs["pk"])
        history = player_history(player, self.request.user)
        if history is None:
            raise Http404
        return {
            **super().get_context_data(**kwargs),
            "player": player,
            "player_name": shown_name(player.first_name, player.last_name, player.name_form),
            "history": history,
            "figures": FigureCells.of(history.statistics.overall),
        }
