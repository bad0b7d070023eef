"""The public statistics of a tournament: its games and every player's figures, with charts.
Visible where its standings are; read in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.views.generic import TemplateView

from scoring.charts import tournament_charts
from scoring.statistics import PlayerFigures
from scoring.stats_read import PlayerLine, tournament_statistics
from scoring.stats_text import RateCell, SoloCell, average_text
from scoring.views.public import PublicTournamentMixin


@dataclass(frozen=True)
class PlayerRow:
    place: int
    shared: bool
    start_number: int
    name: str
    club: str
    series: int
    points: int
    per_series: str
    games: int
    solos: RateCell
    solos_won: RateCell
    re: RateCell
    kontra: RateCell
    compulsory: SoloCell

    @classmethod
    def of(cls, line: PlayerLine) -> PlayerRow:
        f: PlayerFigures = line.figures
        return cls(
            place=line.place,
            shared=line.shared,
            start_number=line.start_number,
            name=line.name,
            club=line.club,
            series=f.series_played,
            points=f.points,
            per_series=average_text(f.per_series),
            games=f.games,
            solos=RateCell.of(f.solos),
            solos_won=RateCell.of(f.solos_won),
            re=RateCell.of(f.re),
            kontra=RateCell.of(f.kontra),
            compulsory=SoloCell.of(f.compulsory),
        )


class StatisticsView(PublicTournamentMixin, TemplateView):
    template_name = "scoring/statistics.html"
    partial_template = template_name

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        tournament = self.tournament(kwargs["slug"])
        statistics = tournament_statistics(tournament)
        figures = statistics.figures
        wins = figures.all_games
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "figures": figures,
            "games": figures.games,
            "solos": RateCell.of(figures.solos),
            "solos_won": RateCell.of(figures.solos_won),
            "re_won": RateCell.of(wins.re_rate),
            "kontra_won": RateCell.of(wins.kontra_rate),
            "undecided": wins.undecided,
            "unknown": figures.games - wins.known,
            "compulsory": SoloCell.of(figures.compulsory),
            "voluntary": SoloCell.of(figures.voluntary),
            "players": [PlayerRow.of(line) for line in statistics.players],
            "charts": tournament_charts(statistics) if figures.games else [],
        }
