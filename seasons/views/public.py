"""The season's pages anyone may see (a private season only its owner): its ranking, one
line explained, its tournaments.

The season's page reads the stored ranking (``seasons.stored``) a page of lines at a time;
each line's explanation is a fragment of its own, loaded when the line is opened."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest
from django.views.generic import TemplateView

from common.parsing import whole_number
from seasons.entries import stored_once
from seasons.models import Season
from seasons.permissions import can_manage, visible_seasons
from seasons.rules import TIEBREAK_LABELS, ranking_rule, rule_label
from seasons.standings import line_as_seen_by, player_explanation
from seasons.stored import NEWEST_TOURNAMENTS, PAGE_SIZE, season_tournaments, stored_ranking

CLUB_MAX_LENGTH = 120  # Player.club
QUERY_MAX_LENGTH = 100


def _visible(request: HttpRequest, slug: str) -> Season:
    season = visible_seasons(request.user).filter(slug=slug).first()
    if season is None:
        raise Http404
    return season


def _text(request: HttpRequest, key: str, longest: int) -> str:
    asked = request.GET.get(key, "").replace("\x00", "").strip()
    return asked if len(asked) <= longest else ""


class SeasonDetailView(TemplateView):
    """The stored ranking a page of lines at a time (``?seite=``), found by name (``?q=``)
    and club (``?club=``); the players short of the minimum after the ranked ones; the
    season's newest tournaments."""

    template_name = "seasons/season_detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        season = stored_once(_visible(self.request, kwargs["season"]))
        club = _text(self.request, "club", CLUB_MAX_LENGTH) or None
        query = _text(self.request, "q", QUERY_MAX_LENGTH)
        number = whole_number(self.request.GET.get("seite"), digits=6) or 1
        ranking = stored_ranking(
            season, club=club, query=query, offset=(number - 1) * PAGE_SIZE, limit=PAGE_SIZE
        )
        pages = Paginator(range(ranking.count), PAGE_SIZE)
        page = pages.get_page(number)
        if page.number != number:  # past the last page: the last one
            offset = page.start_index() - 1 if ranking.count else 0
            ranking = stored_ranking(season, club=club, query=query, offset=offset, limit=PAGE_SIZE)
        tournaments, tournament_count = season_tournaments(
            season, self.request.user, newest=NEWEST_TOURNAMENTS
        )
        rule = ranking.rule
        context.update(
            season=season,
            ranking=ranking,
            page=page,
            page_numbers=pages.get_elided_page_range(page.number, on_each_side=2, on_ends=1),
            tournaments=tournaments,
            tournament_count=tournament_count,
            rule=rule,
            rule_label=rule_label(season),
            tiebreaks=[TIEBREAK_LABELS[k] for k in rule.tiebreak if k in TIEBREAK_LABELS],
            placement_points=", ".join(map(str, rule.placement_points)),
            may_manage=can_manage(self.request.user, season),
        )
        return context


class SeasonExplanationView(TemplateView):
    """One line's results and whether they count: a fragment for the season's page (htmx,
    when the line is opened), a page of its own otherwise."""

    def get_template_names(self) -> list[str]:
        if self.request.headers.get("HX-Request"):
            return ["seasons/_explanation.html"]
        return ["seasons/explanation.html"]

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        season = _visible(self.request, kwargs["season"])
        line = player_explanation(season, kwargs["player"])
        if line is None:
            raise Http404
        context.update(
            season=season, line=line_as_seen_by(line, self.request.user), rule=ranking_rule(season)
        )
        return context


class SeasonTournamentsView(TemplateView):
    """Every tournament of a season, newest first."""

    template_name = "seasons/season_tournaments.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        season = _visible(self.request, kwargs["season"])
        tournaments, _count = season_tournaments(season, self.request.user)
        context.update(season=season, tournaments=tournaments)
        return context
