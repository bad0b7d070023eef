"""Standings and a player's games, for everyone when the tournament is public."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from scoring.messages import breakdown_lines
from scoring.models import PlayerScore, ScoreSheet
from scoring.standings import overall_standings, series_standings
from tournaments.views.public import visible_tournaments


class PublicTournamentMixin:
    request: Any

    def tournament(self, slug: str) -> Any:
        return get_object_or_404(visible_tournaments(self.request.user), slug=slug)

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return [self.partial_template]  # type: ignore[attr-defined]
        return [self.template_name]  # type: ignore[attr-defined]


class StandingsView(PublicTournamentMixin, TemplateView):
    template_name = "scoring/standings.html"
    partial_template = "scoring/_standings_table.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        tournament = self.tournament(kwargs["slug"])
        number = kwargs.get("number")
        series = get_object_or_404(tournament.series, number=number) if number else None
        rows = series_standings(series) if series else overall_standings(tournament)
        columns = len(rows[0]["series"]) if rows and not series else 0
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "series": series,
            "rows": rows,
            "columns": range(1, columns + 1),
            "all_series": tournament.series.order_by("number"),
            "unconfirmed": unconfirmed_tables(tournament, series),
        }


def unconfirmed_tables(tournament: Any, series: Any) -> list[tuple[int, int]]:
    """(series, table) of the sheets the organizers closed before they were confirmed."""
    sheets = ScoreSheet.objects.filter(
        table__series__tournament=tournament, closed_unconfirmed=True
    )
    if series is not None:
        sheets = sheets.filter(table__series=series)
    return list(
        sheets.order_by("table__series__number", "table__number").values_list(
            "table__series__number", "table__number"
        )
    )


class PlayerGamesView(PublicTournamentMixin, TemplateView):
    """One player's games, series by series, with the value and his points."""

    template_name = "scoring/player.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        tournament = self.tournament(kwargs["slug"])
        registration = get_object_or_404(
            tournament.registrations.select_related("player"), start_number=kwargs["start_number"]
        )
        scores = (
            PlayerScore.objects.filter(registration=registration)
            .select_related("game__table", "penalty")
            .order_by("series_number", "game__number", "pk")
        )
        series: dict[int, dict[str, Any]] = {}
        for score in scores:
            block = series.setdefault(
                score.series_number, {"number": score.series_number, "lines": [], "total": 0}
            )
            block["total"] += score.points
            block["lines"].append(
                {
                    "score": score,
                    "game": score.game,
                    "breakdown": breakdown_lines(score.game.breakdown) if score.game else [],
                }
            )
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "registration": registration,
            "series_blocks": list(series.values()),
            "total": sum(b["total"] for b in series.values()),
        }
