"""Pages anyone may see: public seasons and their rankings (private ones to their owner)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet
from django.http import Http404
from django.views.generic import ListView, TemplateView

from seasons.models import Season
from seasons.permissions import can_manage, visible_seasons
from seasons.rules import TIEBREAK_LABELS, rule_label
from seasons.standings import season_ranking

CLUB_MAX_LENGTH = 120  # Player.club


class SeasonListView(ListView[Season]):
    template_name = "seasons/season_list.html"
    context_object_name = "seasons"

    def get_queryset(self) -> QuerySet[Season]:
        return (
            visible_seasons(self.request.user)
            .annotate(tournament_count=Count("attachments"))
            .order_by("name", "pk")
        )


class SeasonDetailView(TemplateView):
    """The ranking with an explanation of each line, the players short of the minimum apart,
    a club filter (``?club=``) and the season's tournaments."""

    template_name = "seasons/season_detail.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        season = visible_seasons(self.request.user).filter(slug=kwargs["season"]).first()
        if season is None:
            raise Http404
        asked = self.request.GET.get("club", "")
        club = asked if 0 < len(asked) <= CLUB_MAX_LENGTH else None
        ranking = season_ranking(season, club=club, places=True)
        rule = ranking.rule
        context.update(
            season=season,
            ranking=ranking,
            rule=rule,
            rule_label=rule_label(season),
            tiebreaks=[TIEBREAK_LABELS[k] for k in rule.tiebreak if k in TIEBREAK_LABELS],
            placement_points=", ".join(map(str, rule.placement_points)),
            may_manage=can_manage(self.request.user, season),
        )
        return context
