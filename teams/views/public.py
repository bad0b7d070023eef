"""Pages anyone may see: public team competitions, their table, match days and groups, a
team's page and the individual ranking (private leagues to their owner only)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.views import View
from django.views.generic import TemplateView

from common.sheets import spreadsheet
from teams.exports import individual_sheet
from teams.individual_standings import individual_ranking
from teams.models import Knockout, League, Team
from teams.permissions import can_manage, visible_leagues
from teams.rules import TIE_RULE_LABELS, TIEBREAK_LABELS, team_scoring
from teams.standings import league_table, places_of, team_page

MAX_ID = 10**9


def visible_league(request: Any, slug: str) -> League:
    league = visible_leagues(request.user).select_related("owner").filter(slug=slug).first()
    if league is None:
        raise Http404
    return league


def scoring_context(league: League) -> dict[str, Any]:
    """The league's scoring in words: victory points per group size, ties, tie-breaks."""
    scoring = team_scoring(league)
    return {
        "victory_tables": ["/".join(map(str, t)) for t in scoring.victory_points],
        "tie_rule": TIE_RULE_LABELS.get(str(scoring.tie_rule), scoring.tie_rule),
        "tiebreaks": [
            TIEBREAK_LABELS[str(k)] for k in scoring.tiebreak if str(k) in TIEBREAK_LABELS
        ],
    }


class LeagueDetailView(TemplateView):
    """The table (victory points, game points, days), the match days with their groups and
    each group's day result, the individual ranking (in short; in full on its own page)."""

    template_name = "teams/league_detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        league = visible_league(self.request, kwargs["league"])
        table = league_table(league)
        days: dict[int, dict[str, Any]] = {}
        for result in table.groups:
            match_day = result.group.match_day
            day = days.setdefault(match_day.number, {"match_day": match_day, "groups": []})
            day["groups"].append(result)
        end = table.season_end
        context.update(
            league=league,
            table=table,
            individual=individual_ranking(league),
            end=end,
            marks_shown=end is not None and places_of(league).marked > 0,
            days=list(days.values()),
            running=any(result.provisional for result in table.groups),
            may_manage=can_manage(self.request.user, league),
            knockout_started=Knockout.objects.filter(
                league=league, started_at__isnull=False
            ).exists(),
            **scoring_context(league),
        )
        return context


class TeamView(TemplateView):
    """A team: squad, per match day its group, line-ups per series with who came in and
    went out, and its result."""

    template_name = "teams/team.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        league = visible_league(self.request, kwargs["league"])
        team = None
        if kwargs["team"] < MAX_ID:
            team = Team.objects.filter(league=league, pk=kwargs["team"]).first()
        if team is None:
            raise Http404
        page = team_page(team)
        days = []
        for day in page.days:
            changes = {change.series_number: change for change in day.substitutions}
            days.append(
                {
                    "day": day,
                    "series": [
                        {
                            "number": line_up.series_number,
                            "players": line_up.players,
                            "came_in": set(
                                changes[line_up.series_number].came_in
                                if line_up.series_number in changes
                                else ()
                            ),
                            "went_out": changes[line_up.series_number].went_out
                            if line_up.series_number in changes
                            else (),
                        }
                        for line_up in day.line_ups
                    ],
                }
            )
        context.update(league=league, team=team, page=page, days=days)
        return context


class IndividualRankingView(TemplateView):
    """The individual ranking over every series of every group of the competition (group
    stage and knockout): total points, the average per series, the tie-breaks."""

    template_name = "teams/individual.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        league = visible_league(self.request, kwargs["league"])
        context.update(league=league, ranking=individual_ranking(league))
        return context


class IndividualExportView(View):
    """The individual ranking as CSV (``?format=csv``, the default) or XLSX."""

    def get(self, request: HttpRequest, league: str) -> HttpResponse:
        found = visible_league(request, league)
        sheet = individual_sheet(individual_ranking(found))
        return spreadsheet(request, [sheet], f"{found.slug}-einzelwertung")
