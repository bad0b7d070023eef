"""Pages anyone may see: public tournaments, and every tournament to its organizers."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.views.generic import DetailView, ListView

from tournaments.models import Tournament


def visible_tournaments(user) -> QuerySet[Tournament]:  # type: ignore[no-untyped-def]
    queryset = Tournament.objects.all()
    if user.is_superuser:
        return queryset
    if user.is_authenticated:
        return queryset.filter(Q(is_public=True) | Q(organizers=user)).distinct()
    return queryset.filter(is_public=True)


class TournamentListView(ListView):
    template_name = "tournaments/tournament_list.html"
    context_object_name = "tournaments"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user).annotate(
            player_count=Count("registrations", distinct=True)
        )


class TournamentDetailView(DetailView):
    template_name = "tournaments/tournament_detail.html"
    context_object_name = "tournament"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user)
